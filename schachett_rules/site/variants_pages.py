"""A rationale page per new variant: our prose (variants/NAME.md), then the evidence, played when the site is built."""

from __future__ import annotations

from ..paths import variants_dir
from ..simulation.simulate import Spec, cached_run, format_stats
from ..simulation.parallel import default_workers
from ..studies.solitaire import cached_survey, format_survey
from .context import Context
from .sims import SEED, STRONG_BOTS, games_for, run_finding, strong_games_for, strong_players


def _evidence(ctx: Context, name: str) -> tuple[str, str]:
    """The finding in one sentence, and the evidence: the runs (and the solitaire's survey) in full."""
    t = ctx.tables[name]
    parts = []
    if t.automaton is not None:
        deals = 100
        parts.append("### How many deals can be won\n\nEach of the first 100 deals proved won or lost by the exact "
                     "solver (`schachett solitaire survey -n 100`):\n\n```text\n"
                     + format_survey(cached_survey(t, name, deals), deals) + "\n```")
    runs = [("random players on every seat" if t.automaton is None else "random play of the player's hands", Spec(ruleset=name, games=games_for(ctx, name), seed=SEED))]
    if t.automaton is None:
        runs.append(("the heuristic player on every seat", Spec(ruleset=name, games=300, seed=SEED, bots=("heuristic",))))
    else:
        runs.append(("the heuristic player against the automaton", Spec(ruleset=name, games=300, seed=SEED,
                                                                      bots=("heuristic",))))
    runs.append((strong_players(t), Spec(ruleset=name, games=strong_games_for(t), seed=SEED, bots=STRONG_BOTS)))
    findings = []
    for label, spec in runs:
        stats, _ = cached_run(spec, workers=default_workers())
        findings.append(run_finding(stats, name, label, t).removeprefix("**Finding:** "))
        parts.append(f"### {label.capitalize()}\n\n`schachett simulate {name} --bots {','.join(spec.bots)} "
                     f"-n {spec.games} -s {spec.seed}`\n\n```text\n{format_stats(stats, spec)}\n```")
    return "**Finding:** " + "; and ".join(f.rstrip(".") for f in findings) + ".", "\n\n".join(parts)


def variant_pages(ctx: Context, write) -> list[tuple[str, str]]:
    """Write a page for every ruleset with a rationale file; return (title, path) for the navigation."""
    nav = []
    for name, r in ctx.rulesets.items():
        prose_file = variants_dir() / f"{name}.md"
        if not prose_file.is_file():
            continue
        finding, evidence = _evidence(ctx, name)
        page = (f"# {r.title}\n\n!!! abstract \"Measured\"\n    {finding}\n\n"
                f"Ruleset [{name}](../rulebooks/{name}.md), a new design extending "
                f"[{r.chain[-2]}](../rulebooks/{r.chain[-2]}.md).\n\n{prose_file.read_text(encoding='utf-8').strip()}\n\n"
                f"## The evidence\n\n{finding}\n\n{evidence}\n")
        write(f"variants/{name}.md", page)
        nav.append((r.title or name, f"variants/{name}.md"))
    if nav:
        lines = ["# New variants", "", "Forms of Schachett for other numbers of players, designed here, each judged by "
                 "simulation before anyone prints cards. Every rule of their own is graded design.", ""]
        lines += [f"- [{title}]({path.split('/')[-1]})" for title, path in nav]
        write("variants/index.md", "\n".join(lines) + "\n")
    return nav

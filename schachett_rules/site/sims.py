"""The simulations the site shows: small runs, cached, played when the site is built.

Random players are used throughout, on the same deals (seed) for every
reading; the gap pages also play each reading with strong players (fewer games). Every ruleset the numpy batch can play (two parties, the cards in
two 64-bit words; castling included) gets 20,000 games; any other, which the
recorded engine plays one game at a time, 2,000.
"""

from __future__ import annotations

import io
import os
import tempfile
import textwrap
from collections.abc import Mapping
from pathlib import Path

from ..kernel.compiler import tables_for
from ..kernel.tables import Tables
from ..simulation.parallel import default_workers
from ..simulation.plots import plot_stats
from ..simulation.simulate import Spec, batched, cached_run, format_stats
from ..simulation.stats import Stats, wilson
from ..simulation.sweep import Metric, compare_metric, metrics, paired
from .context import Context, play_label

SEED = 1888
FAST_GAMES = 20000
SLOW_GAMES = 2000
# The strong players the gap pages also measure with: the sampling player with a few deals a decision (a game of
# four such players takes about a twentieth of a second of one core), on fewer games than the random players, so
# the site is built in minutes; compared deal by deal (simulation.by_game), 200 games show a reading's effect on
# the points or the money that the two runs' totals would need about a thousand to show. The pages name the
# players and the games.
STRONG_BOTS = ("dd:4",)
STRONG_GAMES_VARIABLE = "SCHACHETT_SITE_STRONG_GAMES"


def strong_games_setting(environ: Mapping[str, str] = os.environ) -> int:
    """How many games a reading or a ruleset gets with strong players: 200, or what ``schachett site build
    --strong-games N`` (the environment variable ``SCHACHETT_SITE_STRONG_GAMES``) asks for a quicker build.

    >>> strong_games_setting({}), strong_games_setting({"SCHACHETT_SITE_STRONG_GAMES": "50"})
    (200, 50)
    >>> strong_games_setting({"SCHACHETT_SITE_STRONG_GAMES": "many"})
    Traceback (most recent call last):
    ...
    ValueError: SCHACHETT_SITE_STRONG_GAMES must be a whole number of games from 10 up, not 'many'
    """
    text = environ.get(STRONG_GAMES_VARIABLE, "").strip()
    if not text:
        return 200
    if not text.isdigit() or int(text) < 10:
        raise ValueError(f"{STRONG_GAMES_VARIABLE} must be a whole number of games from 10 up, not {text!r}")
    return int(text)


STRONG_GAMES = strong_games_setting()
# six or eight hands: a game of such players takes half a second to a second, so these rulesets get a fifth
STRONG_GAMES_MANY_HANDS = STRONG_GAMES // 5        # two at the least: the setting refuses fewer than ten
RANDOM_PLAYERS = "random players on every seat"
_SAMPLING = f"{STRONG_BOTS[0]}: four deals solved a decision"
SAMPLING_PLAYER = f"the sampling player ({_SAMPLING})"
STRONG_PLAYERS = f"strong players on every seat (the sampling player, {_SAMPLING})"
# the King events' colours in the plots, in the order a ruleset gives its events
EVENT_COLOURS = ("#b22222", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")


def games_for(ctx: Context, ruleset: str, options: dict | None = None) -> int:
    """How many games the site plays for a ruleset and readings."""
    t = tables_for(ruleset, tuple(sorted((options or {}).items())))
    return FAST_GAMES if batched(t) else SLOW_GAMES


def strong_games_for(t: Tables) -> int:
    """How many games the site plays with strong players in a ruleset: fewer where six or more hands play.

    >>> strong_games_for(tables_for("original")), strong_games_for(tables_for("eight-players"))
    (200, 40)
    """
    return STRONG_GAMES if t.n_active < 6 else STRONG_GAMES_MANY_HANDS


def stats_for(ctx: Context, ruleset: str, options: dict | None = None, games: int | None = None,
              bots: tuple[str, ...] = ("random",)) -> tuple[Spec, Stats]:
    """A cached run of ``games`` games (as many as :func:`games_for` gives by default) by ``bots``."""
    spec = Spec(ruleset=ruleset, options=options or {}, games=games or games_for(ctx, ruleset, options), seed=SEED,
                bots=bots)
    stats, _ = cached_run(spec, workers=default_workers())
    return spec, stats


def skill_table(ruleset: str, readings: list[tuple[str, dict]], chooser: str) -> str:
    """How much more often a strong player beats a random one under each reading (a game of skill or of luck?):
    a duel of :func:`strong_games_for` games on the same deals in both seatings per reading, as a Markdown table."""
    from ..simulation.ladder import DuelSpec, duel
    games = strong_games_for(tables_for(ruleset))
    lines = ["| reading | strong player's share of decided games against random players | 95% interval |",
             "|---|---|---|"]
    for label, options in readings:
        r = duel(DuelSpec(ruleset=ruleset, options=options, a=STRONG_BOTS[0], b="random", games=games,
                          seed=SEED), workers=default_workers())
        low, high = r.interval
        lines.append(f"| {label} | {100 * r.a_share:.0f}% of {r.decided} | [{100 * low:.0f}, {100 * high:.0f}] |")
    lines += ["", f"Skill: {STRONG_BOTS[0]} in one party against random players in the other, each deal played in "
                  f"both seatings ({games} games per reading, seed {SEED}, in {chooser}). Near 100% the cards "
                  f"obey the better player; near 50% the deal decides."]
    return "\n".join(lines)


def svg_bytes(fig) -> bytes:
    """A matplotlib figure as SVG."""
    buf = io.BytesIO()
    fig.savefig(buf, format="svg", bbox_inches="tight")
    return buf.getvalue()


def plot_files(stats: Stats, title: str, t: Tables | None = None) -> dict[str, bytes]:
    """The four standard plots of a run, as SVG bytes by name (places and parties named from ``t``)."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for path in plot_stats(stats, Path(tmp), title, t):
            if path.suffix == ".svg":
                out[path.stem] = path.read_bytes()
    return out


def _alpha(rows: list, base: list) -> tuple[int, float]:
    comparisons = max(1, (len(rows) - 1) * len(base))
    return comparisons, 0.01 / comparisons


def effects_finding(rows: list[tuple[str, Stats]], baseline: int, chooser: str,
                    players: str = RANDOM_PLAYERS) -> str:
    """The finding of a comparison of readings in one sentence: the clearest difference from ``chooser``'s reading.

    Where no reading differs from it at the corrected level, the sentence says that these players cannot show
    an effect here.
    """
    ms = [metrics(s) for _, s in rows]
    base = ms[baseline]
    _comparisons, alpha = _alpha(rows, base)
    games = rows[0][1].games
    best = None
    for i, col in enumerate(ms):
        if i == baseline:
            continue
        for j, m in enumerate(base):
            _diff, p = compare_metric(col[j], m)
            if p < alpha and (best is None or p < best[0]):
                best = (p, i, j)
    who = f"with {players}, {games:,} games per reading on the same deals"
    if best is None and players != RANDOM_PLAYERS:
        return (f"**Finding:** {who}, no reading plays measurably differently from {chooser}'s "
                f"(*{rows[baseline][0]}*) at this number of games.")
    if best is None:
        return (f"**Finding:** {who}, no reading plays measurably differently from {chooser}'s "
                f"(*{rows[baseline][0]}*). Random players cannot show an effect of this gap here: either the readings "
                f"part only in positions this ruleset never reaches, or only players who play for the points would show "
                f"it (`schachett simulate --bots heuristic`).")
    _p, i, j = best
    m, other = base[j], ms[i][j]

    def fmt(x: Metric) -> str:
        return f"{100 * x.value:.1f}%" if x.test[0] == "prop" else f"{x.value:.2f}"
    return (f"**Finding:** {who}, the clearest effect is on *{m.name}*: {fmt(other)} when the reading is "
            f"*{rows[i][0]}*, against {fmt(m)} with {chooser}'s *{rows[baseline][0]}*.")


def effects_table(rows: list[tuple[str, Stats]], baseline: int, chooser: str = "original",
                  players: str = "random players") -> str:
    """A Markdown table of the sweep metrics, one column per reading, differences from ``chooser``'s reading marked."""
    names = [label for label, _ in rows]
    ms = [metrics(s) for _, s in rows]
    base = ms[baseline]
    head = "| measure | " + " | ".join(f"**{n}**" if i == baseline else n for i, n in enumerate(names)) + " |"
    lines = [head, "|---|" + "---|" * len(names)]
    comparisons, alpha = _alpha(rows, base)
    for j, m in enumerate(base):
        cells = []
        for i, col in enumerate(ms):
            value = col[j].value
            text = f"{100 * value:.1f}%" if col[j].test[0] == "prop" else f"{value:.2f}"
            if i != baseline:
                diff, p = compare_metric(col[j], m)
                if p < alpha:
                    text += " ✱"
            cells.append(f"**{text}**" if i == baseline else text)
        lines.append(f"| {m.name} | " + " | ".join(cells) + " |")
    games = ", ".join(f"{g:,}" for g in sorted({s.games for _, s in rows}))
    lines.append("")
    by_deal = all(paired(col[j], m) for i, col in enumerate(ms) if i != baseline for j, m in enumerate(base))
    lines.append(f"{players[0].upper() + players[1:]}, {games} games per reading on the same deals (seed {SEED}). "
                 f"The reading in bold "
                 f"is the one the ruleset {chooser} plays; ✱ marks a difference from it with p < {alpha:.2g} (1% "
                 f"divided by the {comparisons} comparisons made"
                 + ("; each reading is compared with it deal by deal, so that the luck of the deal drops out" if by_deal
                    else "") + f"). {_parties_sentence(tables_for(chooser))}")
    return "\n".join(lines)


def effects_plot(rows: list[tuple[str, Stats]], title: str) -> bytes:
    """A bar chart: the share of Kings meeting each fate, and the money per winner, reading by reading."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    names = [label for label, _ in rows]
    events = list(rows[0][1].events_by_trick)
    names = ["\n".join(textwrap.wrap(n, 10)) for n in names]     # long reading names wrap at hyphens, not overlap
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    bottoms = [0.0] * len(rows)
    for i, ev in enumerate(events):
        shares = []
        for _, s in rows:
            kings = sum(k * v for k, v in s.events_per_game.items()) or 1
            shares.append(100 * sum(s.events_by_trick[ev]) / kings)
        left.bar(names, shares, bottom=bottoms, label=ev, color=EVENT_COLOURS[i % len(EVENT_COLOURS)])
        bottoms = [b + x for b, x in zip(bottoms, shares)]
    left.set_ylabel("share of Kings (%)")
    left.legend(frameon=False, fontsize=9, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    left.set_title("the Kings' fates")
    means = [s.money_per_winner.mean for _, s in rows]
    errs = [(s.money_per_winner.ci()[1] - s.money_per_winner.ci()[0]) / 2 for _, s in rows]
    right.bar(names, means, yerr=errs, capsize=4, color="#777777")
    right.set_title("money per winning player (95% interval)")
    for ax in (left, right):
        ax.tick_params(axis="x", labelsize=9)
    fig.tight_layout(w_pad=6)
    fig.suptitle(title, y=1.06)
    data = svg_bytes(fig)
    plt.close(fig)
    return data


def run_finding(stats: Stats, ruleset: str, players: str | None = None, t: Tables | None = None) -> str:
    """What a run found, in one sentence: who wins, and what becomes of the Kings, with the games and players.

    Where some seats are played by a fixed rule (``t.automaton``), who wins is told of the players' party
    against the automaton's, not of the first leader's. ``players`` says who played (random players by
    default).
    """
    automaton = t is not None and t.automaton is not None
    players = players or ("random play of the player's hands" if automaton else "random players on every seat")
    n = stats.games
    decided = n - stats.draws
    kings = sum(k * v for k, v in stats.events_per_game.items())
    fates = ", ".join(f"{100 * sum(by) / kings:.0f}% {ev}" for ev, by in stats.events_by_trick.items()) if kings else ""
    if automaton:
        ours = next(p for p, seats in enumerate(t.parties) if not set(seats) & set(t.automaton[0]))
        lo, hi = wilson(stats.wins[ours], n)
        text = (f"**Finding:** with {players}, {n:,} games of {ruleset}, the player's two hands beat the automaton in "
                f"{100 * stats.wins[ours] / n:.1f}% of the games [{100 * lo:.1f}, {100 * hi:.1f}]")
    else:
        lo, hi = wilson(stats.leader_party_wins, decided)
        text = (f"**Finding:** with {players}, {n:,} games of {ruleset}, the party that leads first wins "
                f"{100 * stats.leader_party_wins / max(decided, 1):.1f}% of the decided games "
                f"[{100 * lo:.1f}, {100 * hi:.1f}]")
    if kings:
        text += f"; {kings / n:.2f} Kings meet a fate per game ({fates})"
    return text + "."


def strong_players(t: Tables) -> str:
    """Who played a ruleset's strong run, in words."""
    if t.automaton is not None:
        return f"{SAMPLING_PLAYER} against the automaton"
    return STRONG_PLAYERS


def event_columns(tables: list[Tables]) -> list[str]:
    """The King events of several rulesets, each once, in the order their rule files give them."""
    return list(dict.fromkeys(e.name for t in tables for e in t.events))


def summary_rows(items: list[tuple[str, Spec, Stats]], tables: dict[str, Tables]) -> str:
    """A Markdown table of the headline figures of several runs, a column for each King event of their rulesets.

    A ruleset without an event shows a dash in that event's column.
    """
    events = event_columns([tables[name] for name, _, _ in items])
    heads = [f"{ev}s per game" if i == 0 else f"{ev}s" for i, ev in enumerate(events)]
    lines = ["| ruleset | games | first leader's party wins | " + "".join(f"{h} | " for h in heads) +
             "money per winner | castles per game |", "|---|---|---|" + "---|" * len(heads) + "---|---|"]
    for name, spec, s in items:
        n = s.games
        d = n - s.draws
        llo, lhi = wilson(s.leader_party_wins, d)
        own = {e.name for e in tables[name].events}
        cells = "".join((f"{sum(s.events_by_trick.get(ev, ())) / n:.2f} | " if ev in own else "— | ") for ev in events)
        lines.append(f"| [{name}]({name}.md){play_label(name)} | {n:,} | "
                     f"{100 * s.leader_party_wins / max(d, 1):.1f}% [{100 * llo:.1f}, {100 * lhi:.1f}] | "
                     f"{cells}{s.money_per_winner.mean:.1f} {tables[name].money_unit} | {s.castles / n:.2f} |")
    return "\n".join(lines)


def _parties_sentence(t: Tables) -> str:
    """Which seats the parties named in the measures are, and why neither is favoured by the deal.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> _parties_sentence(tables_for("original"))
    'South and North are seats 0 and 2, West and East seats 1 and 3; the seats deal in turn, game after game.'
    >>> _parties_sentence(tables_for("three-player"))[:38]
    'The Kaiser and his dummy are seats 0 a'
    """
    def seats(p: tuple[int, ...]) -> str:
        return ", ".join(map(str, p[:-1])) + f" and {p[-1]}" if len(p) > 1 else str(p[0])
    named = [f"{t.party_names[i]} {'are seats ' if i == 0 else 'seats '}{seats(p)}" for i, p in enumerate(t.parties)]
    text = ", ".join(named) + "; the seats deal in turn, game after game."
    return text[:1].upper() + text[1:]         # "the Kaiser and his dummy" opens a sentence


def simulation_pages(ctx: Context, write) -> list[tuple[str, str]]:
    """A report per ruleset, with plots, and a page setting them side by side."""
    nav, items, strong = [], [], []
    for name in ctx.rulesets:
        spec, stats = stats_for(ctx, name)
        items.append((name, spec, stats))
        strong_spec, strong_stats = stats_for(ctx, name, games=strong_games_for(ctx.tables[name]), bots=STRONG_BOTS)
        strong.append((name, strong_spec, strong_stats))
        plots = plot_files(stats, name, ctx.tables[name])
        for stem, data in plots.items():
            write(f"simulations/{name}/{stem}.svg", data)
        figures = "\n\n".join(f"![{stem.replace('-', ' ')}]({name}/{stem}.svg)" for stem in
                              ("king-events-by-trick", "points", "seat-advantage", "decided"))
        page = (f"# Simulation: {name}\n\n{run_finding(stats, name, t=ctx.tables[name])}\n\n"
                f"{stats.games:,} games with random players (seed {SEED}), the readings of "
                f"[the rulebook](../rulebooks/{name}.md). The plot of money by place at the table draws each mean with "
                f"its 95% interval; the text below gives the intervals of the other figures. "
                f"{_parties_sentence(ctx.tables[name])}\n\n"
                f"{figures}\n\n## The figures\n\n```text\n{format_stats(stats, spec)}\n```\n\n"
                f"## Played well\n\n{run_finding(strong_stats, name, strong_players(ctx.tables[name]), ctx.tables[name])}"
                f"\n\n`schachett simulate {name} --bots {STRONG_BOTS[0]} -n {strong_spec.games} -s {SEED}`\n\n"
                f"```text\n{format_stats(strong_stats, strong_spec)}\n```\n")
        write(f"simulations/{name}.md", page)
        nav.append((name + play_label(name).replace("*", ""), f"simulations/{name}.md"))
    shares = [100 * s.leader_party_wins / max(s.games - s.draws, 1) for _, _, s in items]
    counts = sorted({s.games for _, _, s in items})
    finding = (f"**Finding:** with random players on every seat ({' or '.join(f'{n:,}' for n in counts)} games a "
               f"ruleset), the party that leads first wins between {min(shares):.1f}% and {max(shares):.1f}% of the "
               "decided games in every ruleset: close to even, so the first lead is worth little; what the rules "
               "change is where the Kings fall and how much a game is worth. Random players cannot show skill: for that, see "
               "the same figures played well, below.")
    index = ("---\nhide:\n  - toc\n---\n\n# Simulations\n\n" + finding + "\n\nWhat the rules do to the game, measured: random players on the same "
             "deals for every "
             "ruleset, the win shares with their 95% intervals; below them, the same figures with strong players. Other "
             "players are in the command line: `schachett simulate RULESET --bots mc,heuristic`; "
             "[the players, ranked](players.md) says how far apart they play.\n\n"
             + summary_rows(items, ctx.tables) + "\n\nMoney per winner is what each player of the winning party "
             "receives, in the ruleset's unit, as its settlement clause reckons it: the rulesets that pay a share of "
             "the difference in points and those that multiply it differ here the most (see the settlement clause of "
             "each [rulebook](../rulebooks/index.md)).\n\n## Played well\n\nThe same figures with "
             f"{SAMPLING_PLAYER} on every seat, or on every seat an automaton "
             f"leaves (solitaire), {STRONG_GAMES} games a ruleset ({STRONG_GAMES_MANY_HANDS} where six or eight hands play, whose games "
             f"take such players up to a second each) on the same deals (seed {SEED}); each ruleset's page gives them "
             "in full.\n\n" + summary_rows(strong, ctx.tables) + "\n")
    write("simulations/index.md", index)
    return nav

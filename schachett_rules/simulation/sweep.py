"""Sweeping the readings of lacunae, and comparing rulesets, on the same deals.

A sweep plays every combination of the options of the lacunae asked for, each
with the same seed (so the same deals wherever the deal clause agrees), and
measures how far each combination moves the game from the ruleset's own
readings: party balance, the first leader's advantage, how often each King
event happens, lead changes, and the money at stake. Each difference comes
with a two-sided p-value, from the differences deal by deal where both runs
played the same deals (:mod:`.by_game`); a difference is marked significant
when it stays below 1% after dividing that level by the number of
comparisons made (Bonferroni).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from ..errors import UsageError
from ..rules.loader import load
from .simulate import Spec, cached_run, party_titles
from .stats import Stats, paired_ratio, two_proportions, welch


@dataclass
class Metric:
    """One measured quantity of a run, and how to test a difference in it."""

    name: str
    value: float
    test: tuple            # ("prop", k, n) or ("mean", Tally)
    # the run's seed and each game's numerator and denominator (None: one a game), where the run kept them
    by_game: tuple | None = None


def metrics(s: Stats) -> list[Metric]:
    """The quantities a sweep compares."""
    n = s.games
    decided = n - s.draws
    kings = sum(k * v for k, v in s.events_per_game.items())
    first = party_titles(s)[0]
    kept = len(s.by_game) == n > 0

    def game_by_game(x: str, y: str | None = None):
        return (s.seed, s.by_game.column(x), None if y is None else s.by_game.column(y)) if kept else None
    out = [Metric(f"{first} win", s.wins[0] / max(n, 1), ("prop", s.wins[0], n), game_by_game("win")),
           Metric("first leader's party wins", s.leader_party_wins / max(decided, 1),
                  ("prop", s.leader_party_wins, decided), game_by_game("leader", "decided"))]
    for name, by_trick in s.events_by_trick.items():
        out.append(Metric(f"{name} share of Kings", sum(by_trick) / max(kings, 1), ("prop", sum(by_trick), kings),
                          game_by_game("event:" + name, "kings")))
    out.append(Metric("lead changes per game", s.lead_changes.mean, ("mean", s.lead_changes),
                      game_by_game("changes", "swung")))
    out.append(Metric("money per winning player", s.money_per_winner.mean, ("mean", s.money_per_winner),
                      game_by_game("money", "decided")))
    out.append(Metric("the loser was ahead (drama)", s.loser_led / max(decided, 1), ("prop", s.loser_led, decided),
                      game_by_game("loser_led", "decided")))
    out.append(Metric(f"{first}'s points", s.points[0].mean, ("mean", s.points[0]), game_by_game("points")))
    return out


def paired(a: Metric, b: Metric) -> bool:
    """Whether two runs' measures can be compared deal by deal: both kept each game's figures, from one seed, over
    as many games (so the same deals)."""
    return (a.by_game is not None and b.by_game is not None and a.by_game[0] is not None
            and a.by_game[0] == b.by_game[0] and len(a.by_game[1]) == len(b.by_game[1]))


def compare_metric(a: Metric, b: Metric) -> tuple[float, float]:
    """The difference a − b and its two-sided p-value: deal by deal where the runs played the same deals
    (:func:`paired`), else as two samples."""
    if paired(a, b):
        return paired_ratio(a.by_game[1], a.by_game[2], b.by_game[1], b.by_game[2])
    if a.test[0] == "prop":
        return two_proportions(a.test[1], a.test[2], b.test[1], b.test[2])
    return welch(a.test[1], b.test[1])


def combinations(ruleset: str, lacunae: list[str]) -> tuple[list[str], list[dict[str, str]], dict[str, str]]:
    """The lacunae's names, every combination of their options, and the ruleset's own choices."""
    r = load(ruleset)
    names = []
    for ref in lacunae:
        try:
            names.append(r.find_lacuna(ref).lacuna.name)
        except Exception as err:  # the loader's message says what the lacunae are
            raise UsageError(f"--lacuna {ref}: {getattr(err, 'message', err)}") from None
    if len(set(names)) != len(names):
        raise UsageError("a lacuna is named twice")
    options = [[o.name for o in r.find_lacuna(n).lacuna.options] for n in names]
    combos = [dict(zip(names, values)) for values in itertools.product(*options)]
    baseline = {n: r.choice(n) for n in names}
    return names, combos, baseline


@dataclass
class SweepRow:
    """One combination of readings and its effects against the baseline."""

    options: dict[str, str]
    stats: Stats
    effects: list[tuple[str, float, float, float]]   # metric, value, difference, p-value
    baseline: bool = False

    @property
    def strongest(self) -> float:
        """The largest standardised effect (as −log10 of the smallest p-value)."""
        ps = [p for _, _, _, p in self.effects if p > 0]
        smallest = min(ps) if ps else 1.0
        if any(p == 0 for _, _, _, p in self.effects):
            return math.inf
        return -math.log10(smallest)


def sweep(ruleset: str, lacunae: list[str], games: int, seed: int, bots=("random",), workers: int = 1,
          progress=None, use_cache: bool = True, backend: str = "local", address=None, samples: int = 24):
    """Play every combination and rank them by how much they change the game."""
    names, combos, baseline = combinations(ruleset, lacunae)
    runs = []
    for combo in combos:
        spec = Spec(ruleset=ruleset, options=combo, bots=tuple(bots), games=games, seed=seed, samples=samples)
        stats, _ = cached_run(spec, workers, progress, backend, address, use_cache)
        runs.append((combo, stats))
    base_stats = next(s for c, s in runs if c == baseline)
    base_metrics = metrics(base_stats)
    rows = []
    for combo, stats in runs:
        effects = []
        for m, b in zip(metrics(stats), base_metrics):
            diff, p = compare_metric(m, b)
            effects.append((m.name, m.value, diff, p))
        rows.append(SweepRow(options=combo, stats=stats, effects=effects, baseline=combo == baseline))
    rows.sort(key=lambda r: (not r.baseline, -r.strongest))
    comparisons = max(1, (len(rows) - 1) * len(base_metrics))
    return names, rows, 0.01 / comparisons


def format_sweep(ruleset: str, names: list[str], rows: list[SweepRow], alpha: float, games: int) -> str:
    """The sweep as a ranked table: each combination's values, and its differences from the baseline."""
    lines = [f"Sweep of {', '.join(names)} in {ruleset}: {len(rows)} combinations, {games} games each, same seed",
             f"(* marks a difference from the baseline with p < {alpha:.2g}: 1% divided by the comparisons made; "
             f"each reading is compared with the baseline deal by deal)", ""]
    for row in rows:
        label = ", ".join(f"{k}={v}" for k, v in row.options.items())
        lines.append(("baseline: " if row.baseline else "") + label)
        for metric, value, diff, p in row.effects:
            mark = "" if row.baseline else (" *" if p < alpha else "")
            change = "" if row.baseline else f"   {diff:+.4g} (p = {p:.2g}){mark}"
            lines.append(f"    {metric:<28} {value:10.4g}{change}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def compare_rulesets(rulesets: list[str], games: int, seed: int, bots=("random",), workers: int = 1, progress=None,
                     use_cache: bool = True, samples: int = 24) -> list[tuple[str, Stats]]:
    """The same measurements for several rulesets."""
    out = []
    for ref in rulesets:
        spec = Spec(ruleset=ref, bots=tuple(bots), games=games, seed=seed, samples=samples)
        stats, _ = cached_run(spec, workers, progress, use_cache=use_cache)
        out.append((ref, stats))
    return out


def format_comparison(results: list[tuple[str, Stats]]) -> str:
    """Rulesets side by side, with each one's difference from the first."""
    names = [r for r, _ in results]
    all_metrics = [metrics(s) for _, s in results]
    width = max(12, *(len(n) for n in names))
    lines = [f"{'':<30}" + "".join(f"{n:>{width + 2}}" for n in names)]
    for i, m in enumerate(all_metrics[0]):
        cells = []
        for j, ms in enumerate(all_metrics):
            if i >= len(ms):
                cells.append("—")
                continue
            cell = f"{ms[i].value:.4g}"
            if j and ms[i].name == m.name:
                _, p = compare_metric(ms[i], m)
                cell += "*" if p < 0.01 else ""
            cells.append(cell)
        lines.append(f"{m.name:<30}" + "".join(f"{c:>{width + 2}}" for c in cells))
    lines.append("")
    by_deal = all(paired(ms[i], all_metrics[0][i]) for ms in all_metrics[1:] for i in range(min(len(ms),
                                                                                          len(all_metrics[0]))))
    lines.append(f"(* differs from {names[0]} with p < 0.01"
                 + (", each ruleset compared with it deal by deal" if by_deal and len(results) > 1 else "")
                 + "; games: " + ", ".join(str(s.games) for _, s in results) + ")")
    return "\n".join(lines)

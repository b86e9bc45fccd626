"""The report of the §12 study: a verdict per combination of readings, as text and JSON."""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from ...engine.replay import GameRecord
from ...kernel.compiler import Tables, tables_for
from .model import CONSTRAINTS, DEFAULT_BUDGET, DEFAULT_TARGETS, READINGS, RESTART_NODES, Scenario
from .scenarios import arithmetic_obstacle, scenarios
from .witness import find_witness


def _split_key(t: Tables, sc: Scenario) -> tuple:
    """A class of scenarios: the shape, and how W's and S's totals split into events and card points."""
    w = sc.totals.index(max(sc.totals))
    s = t.other_parties(w)[0]
    return (sc.shape(), sc.event_points[w], sc.card_points[w], sc.event_points[s], sc.card_points[s])


def _split_text(key: tuple) -> str:
    shape, we, wc, se, sc_ = key
    return f"{shape}; W {we + wc} = {we} events + {wc} cards, S {se + sc_} = {se} events + {sc_} cards"


@dataclass
class Witness:
    """A scenario and a game record that realises it."""

    scenario: Scenario
    record: GameRecord

    def text(self) -> str:
        """The witness in words: the scenario it realises and the dealer."""
        sc = self.scenario
        w = sc.totals.index(max(sc.totals))
        events = "; ".join(k.text() for k in sc.kings)
        promo = ", ".join(sc.promoted) or "none"
        held = " and ".join(k.king for k in sc.kings if k.owner == w)
        return (f"{events}; promoted in the last trick: {promo} (+{sc.promoted_points}); W = {sc.party(w)}"
                f"{f' (holds {held})' if held else ''}: "
                f"card points {sc.card_points}, totals {sc.totals} (dealer {self.record.dealer})")

    def as_json(self) -> dict:
        """As JSON data."""
        return {"scenario": self.scenario.as_json(), "record": self.record.model_dump(mode="json")}


@dataclass
class Row:
    """The verdict for one combination of readings."""

    readings: dict[str, str]
    verdict: str                     # impossible-arithmetic | impossible-structure | possible | unknown
    reason: str
    candidates: int = 0              # arithmetic decompositions
    viable: int = 0                  # of them, not ruled out by structure
    classes: list[str] = field(default_factory=list)       # viable shapes with W's and S's splits
    witnesses: list[Witness] = field(default_factory=list)  # one per class a game was found for
    unwitnessed: list[str] = field(default_factory=list)    # classes the search found no game for
    spent: int = 0                   # search nodes allotted (restarts × RESTART_NODES)

    @property
    def witness(self) -> GameRecord | None:
        """The first game found, if any."""
        return self.witnesses[0].record if self.witnesses else None

    def line(self) -> str:
        """The verdict in words."""
        if self.verdict == "impossible-arithmetic":
            return f"impossible (arithmetic: {self.reason})"
        if self.verdict == "impossible-structure":
            return f"impossible (structure: {self.reason})"
        if self.verdict == "possible":
            return f"possible — witness found: {self.reason}"
        return f"arithmetically possible, no witness found within the budget ({self.reason})"

    def as_json(self) -> dict:
        """As JSON data."""
        return {"readings": self.readings, "verdict": self.verdict, "text": self.line(), "reason": self.reason,
                "candidates": self.candidates, "viable": self.viable, "classes": self.classes,
                "witnesses": [w.as_json() for w in self.witnesses], "unwitnessed": self.unwitnessed,
                "spent": self.spent}


@dataclass
class Report:
    """Verdicts for every combination of readings, with a text summary and JSON."""

    ruleset: str
    targets: tuple[int, ...]
    budget: int
    rows: list[Row]

    def as_json(self) -> dict:
        """As JSON data."""
        return {"ruleset": self.ruleset, "targets": list(self.targets), "budget": self.budget,
                "constraints": CONSTRAINTS, "rows": [r.as_json() for r in self.rows]}

    def json_text(self) -> str:
        """The report as JSON text."""
        return json.dumps(self.as_json(), ensure_ascii=False, indent=2)

    def table(self) -> str:
        """One line per combination: the readings and the verdict in a word."""
        keys = list(self.rows[0].readings) if self.rows else []
        word = {"impossible-arithmetic": "impossible (arithmetic)", "impossible-structure": "impossible (structure)",
                "possible": "possible — witness found", "unknown": "no witness within the budget"}
        width = [max(len(k), *(len(r.readings[k]) for r in self.rows)) for k in keys]
        lines = ["  ".join(k.ljust(w) for k, w in zip(keys, width)) + "  verdict"]
        for r in self.rows:
            lines.append("  ".join(r.readings[k].ljust(w) for k, w in zip(keys, width)) + "  " + word[r.verdict])
        return "\n".join(lines)

    def as_text(self) -> str:
        """The report as text: the table, then each combination's verdict and witnesses."""
        keys = list(self.rows[0].readings) if self.rows else []
        lines = [f"§12 worked example: can the parties end at {self.targets[0]} and {self.targets[1]}? "
                 f"(ruleset {self.ruleset}, search budget {self.budget} nodes per combination)", "",
                 self.table(), ""]
        for r in self.rows:
            lines.append(", ".join(f"{k}={r.readings[k]}" for k in keys) + ":")
            lines.append("    " + r.line())
            for w in r.witnesses:
                lines.append("      witness: " + w.text())
            for u in r.unwitnessed:
                lines.append("      no witness found for: " + u)
        possible = [r for r in self.rows if r.verdict == "possible"]
        lines.append("")
        lines.append(f"{len(possible)} of {len(self.rows)} combinations reach {self.targets[0]}/{self.targets[1]} "
                     f"in a real game; "
                     f"{sum(r.verdict == 'impossible-arithmetic' for r in self.rows)} fail on arithmetic, "
                     f"{sum(r.verdict == 'impossible-structure' for r in self.rows)} on structure, "
                     f"{sum(r.verdict == 'unknown' for r in self.rows)} undecided.")
        return "\n".join(lines)


def _structure_summary(cands: list[Scenario]) -> str:
    by: dict[str, list[Scenario]] = {}
    for s in cands:
        by.setdefault(s.constraint or "?", []).append(s)
    parts = []
    for cid, group in by.items():
        shapes = "; ".join(sorted({s.shape() for s in group}))
        parts.append(f"{cid} rules out {shapes} ({len(group)} candidates), e.g. {group[0].excluded}")
    return " | ".join(parts)


def judge(tables: Tables, targets: Sequence[int] = DEFAULT_TARGETS, budget: int = DEFAULT_BUDGET, seed: int = 0,
          readings: dict[str, str] | None = None) -> Row:
    """The verdict for one compiled ruleset: arithmetic, then structure, then a search for games.

    The viable scenarios are grouped into classes (shape, and how W's and S's
    totals split into events and card points); the budget is shared among the
    classes, and within a class the search moves round the scenarios (colours
    of the cards, which King is which) one restart at a time, until it finds a
    game for each class or the budget is spent.
    """
    t = tables
    readings = dict(readings if readings is not None else t.options)
    cands = scenarios(t, targets)
    row = Row(readings=readings, verdict="", reason="", candidates=len(cands))
    if not cands:
        row.verdict, row.reason = "impossible-arithmetic", arithmetic_obstacle(t, targets) or ""
        return row
    viable = [s for s in cands if s.viable]
    row.viable = len(viable)
    if not viable:
        row.verdict, row.reason = "impossible-structure", _structure_summary(cands)
        return row
    classes: dict[tuple, list[Scenario]] = {}
    for sc in viable:
        classes.setdefault(_split_key(t, sc), []).append(sc)
    row.classes = [_split_text(k) for k in classes]
    share = budget // len(classes)
    for n, (key, group) in enumerate(classes.items()):
        spent, turn = 0, 0
        while spent < share:
            sc = group[turn % len(group)]
            step = min(RESTART_NODES, share - spent)
            record = find_witness(t, sc, budget=step, seed=seed + 104729 * n + turn)
            spent += step
            turn += 1
            if record is not None:
                row.witnesses.append(Witness(sc, record))
                break
        else:
            row.unwitnessed.append(_split_text(key))
        row.spent += spent
    if row.witnesses:
        row.verdict = "possible"
        first = row.witnesses[0].scenario
        row.reason = (f"{first.shape()}; games found for {len(row.witnesses)} of {len(classes)} ways to split "
                      f"the totals (" + "; ".join(
                          f"W {w.scenario.event_points[i]} events + {w.scenario.card_points[i]} cards"
                          for w in row.witnesses for i in [w.scenario.totals.index(max(w.scenario.totals))]) + ")")
    else:
        row.verdict = "unknown"
        row.reason = (f"{len(viable)} scenario(s) survive arithmetic and structure "
                      f"({'; '.join(sorted({s.shape() for s in viable}))}), but the search found no game within "
                      f"{budget} nodes")
    return row


def report(readings: dict[str, Iterable[str]] | None = None, *, ruleset: str = "original",
           targets: Sequence[int] = DEFAULT_TARGETS, budget: int = DEFAULT_BUDGET, seed: int = 0) -> Report:
    """Verdicts for every combination of the readings (lacuna name → options to try).

    The default sweeps ``remaining`` × ``promoted-points`` × ``king-order``
    (:data:`READINGS`), the lacunae the totals depend on.
    """
    readings = {k: tuple(v) for k, v in (readings or READINGS).items()}
    rows = []
    for combo in itertools.product(*readings.values()):
        options = dict(zip(readings, combo))
        t = tables_for(ruleset, tuple(sorted(options.items())))
        rows.append(judge(t, targets, budget, seed, options))
    return Report(ruleset=ruleset, targets=tuple(targets), budget=budget, rows=rows)

"""The solitaire: search for a winning line, and deals sorted by difficulty.

In a ruleset with an automaton, the seats it plays follow a fixed rule, so once
the cards are dealt the person's choices alone decide the game. A deal is
*winnable* when some line of play for the person's seats ends with his party
ahead. :func:`solve` asks the exact open-hand solver whether the person can force
that, so every deal is proved won or lost (only a search past its budget of
positions would leave one undecided), and gives a winning line.

A deal's difficulty is measured by how often random play of the person's seats
wins it: easy, medium, hard (a winning line exists but random play rarely finds
it) — or lost, or undecided within the budget.

>>> from schachett_rules.kernel.compiler import tables_for
>>> verdict = solve(tables_for("solitaire"), seed=3)
>>> verdict.result, verdict.margin > 0
('win', True)
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from ..errors import SchachettError
from ..kernel.actions import Play, describe
from ..kernel.chance import play_randomly
from ..kernel.state import State
from ..kernel.streams import GameStream
from ..kernel.tables import Tables
from ..language import ir
from ..rules.loader import load
from ..simulation.fingerprint import code_version
from ..simulation.simulate import cache_dir, cache_write
from ..simulation.stats import wilson

DIFFICULTIES = ("easy", "medium", "hard")


def deal_of(t: Tables, seed: int) -> State:
    """The solitaire deal of a seed (the dealer is the seed's seat)."""
    return State.deal(t, seed % t.n_seats, GameStream(seed, 0))


def _person(t: Tables) -> set[int]:
    if t.automaton is None:
        raise SchachettError(f"ruleset {t.name} has no automaton, so it is not a solitaire")
    return {s for s in range(t.n_seats) if t.controller(s) not in t.automaton[0]}


@dataclass
class Verdict:
    """What the search found for a deal."""

    seed: int
    result: str                   # win | lost | unknown
    line: list[str]               # the person's cards (and castles) of a winning line, in order
    nodes: int
    margin: int | None = None     # the winning line's lead in points


_SOLVERS: dict = {}


def _solver(t: Tables):
    """One exact solver per ruleset in this process (its table serves every deal)."""
    from ..search.exact import Solver
    entry = _SOLVERS.get(id(t))
    if entry is None or entry[0] is not t:
        entry = _SOLVERS[id(t)] = (t, Solver(t, table_bits=20))
    return entry[1]


def solve(t: Tables, seed: int = 0, budget: int = 50_000_000, game: State | None = None) -> Verdict:
    """Prove the deal of ``seed`` (or a game just dealt) won or lost, with a winning line of the person's seats.

    The exact solver (:mod:`schachett_rules.search.exact`) asks whether the person's party can end ahead
    whatever the automaton does: the automaton's card is its rule's, so the question has one answer. Only a
    search past ``budget`` positions leaves a deal unknown.
    """
    person = _person(t)
    if len(t.parties) != 2:
        raise SchachettError(f"ruleset {t.name} has {len(t.parties)} parties; the solitaire is won by being ahead "
                             f"of the one other party")
    party = t.party_of[min(person)]
    game = (game or deal_of(t, seed)).clone()
    solver = _solver(t)
    before = solver.nodes
    won = solver.forces(game, party, 1, budget)
    if not won:
        return Verdict(seed=seed, result="unknown" if won is None else "lost", line=[], nodes=solver.nodes - before)
    line, finished = solver.forcing_line(game, party, 1, budget)
    mine = [a for a in line if t.controller(getattr(a, "seat", -1)) in person]
    words = [t.deck.card_name(a.card) if isinstance(a, Play) else describe(t, a) for a in mine]
    margin = finished.points[party] - finished.points[1 - party]
    return Verdict(seed=seed, result="win", line=words, nodes=solver.nodes - before, margin=margin)


def random_win_rate(t: Tables, seed: int, tries: int = 100) -> float:
    """How often random play of the person's seats wins the deal of ``seed``."""
    wins = 0
    party = t.party_of[min(_person(t))]
    for k in range(tries):
        game = deal_of(t, seed)
        play_randomly(game, GameStream(seed, 1000 + k))
        wins += game.result().winner == party
    return wins / tries


def difficulty(t: Tables, seed: int, budget: int = 50_000_000, tries: int = 100) -> tuple[str, Verdict, float]:
    """The difficulty of a deal (easy, medium, hard, lost or unknown), the search's verdict and the random rate.

    A deal is winnable when the search finds a winning line, or when random play once wins it; how often random
    play wins sets the class: easy from one game in two, medium from one in seven, hard below.
    """
    rate = random_win_rate(t, seed, tries)
    verdict = solve(t, seed, budget)
    if verdict.result == "win" or rate > 0:
        return ("easy" if rate >= 0.5 else "medium" if rate >= 0.15 else "hard"), verdict, rate
    return verdict.result, verdict, rate


def survey(t: Tables, deals: int, first_seed: int = 0, budget: int = 50_000_000, tries: int = 60):
    """Difficulty of many deals: counts by class, and the seeds in each class."""
    by_class: dict[str, list[int]] = {}
    for seed in range(first_seed, first_seed + deals):
        label, _, _ = difficulty(t, seed, budget, tries)
        by_class.setdefault(label, []).append(seed)
    return by_class


def survey_key(ruleset: str, deals: int, first_seed: int, budget: int, tries: int) -> str:
    """The cache's name for a survey: its ruleset's IR, its parameters and the code's version
    (:func:`~schachett_rules.simulation.fingerprint.code_version`), so that a changed rule or solver never
    serves an old survey."""
    resolved = load(ruleset)
    blob = json.dumps({"ir": ir.strip_positions(resolved.model_dump(mode="json")), "deals": deals,
                       "first": first_seed, "budget": budget, "tries": tries, "what": "solitaire survey, exact",
                       "version": code_version()}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()[:24]


def cached_survey(t: Tables, ruleset: str, deals: int, first_seed: int = 0, budget: int = 50_000_000,
                  tries: int = 60) -> dict[str, list[int]]:
    """:func:`survey`, kept in the simulation cache (keyed by the ruleset's IR, the parameters and the code that
    plays and solves)."""
    path = cache_dir() / f"solitaire-{survey_key(ruleset, deals, first_seed, budget, tries)}.json"
    if path.is_file():
        return json.loads(path.read_text(encoding="utf-8"))
    result = survey(t, deals, first_seed, budget, tries)
    cache_write(path, json.dumps(result))
    return result


def format_survey(by_class: dict[str, list[int]], deals: int) -> str:
    """A survey as text."""
    winnable = sum(len(by_class.get(k, [])) for k in DIFFICULTIES)
    lo, hi = wilson(winnable, deals)
    lines = [f"{deals} deals: {winnable} winnable = {100 * winnable / deals:.0f}% [{100 * lo:.0f}, {100 * hi:.0f}]"]
    for label in DIFFICULTIES + ("lost", "unknown"):
        seeds = by_class.get(label, [])
        if seeds:
            shown = ", ".join(map(str, seeds[:12])) + (" …" if len(seeds) > 12 else "")
            lines.append(f"  {label:<8} {len(seeds):>4}   seeds {shown}")
    return "\n".join(lines)

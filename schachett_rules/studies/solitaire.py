"""The solitaire: search for a winning line, and deals sorted by difficulty.

In a ruleset with an automaton, the seats it plays follow a fixed rule, so once
the cards are dealt the person's choices alone decide the game. A deal is
*winnable* when some line of play for the person's seats ends with his party
ahead. :func:`solve` searches for such a line depth first, trying the person's
cards in a sensible order and giving up after a budget of positions; when the
search ends within its budget without a win, the deal is proved lost.

A deal's difficulty is measured by how often random play of the person's seats
wins it: easy, medium, hard (a winning line exists but random play rarely finds
it) — or lost, or undecided within the budget.

>>> from schachett_rules.kernel.compiler import tables_for
>>> verdict = solve(tables_for("solitaire"), seed=3, budget=20000)
>>> verdict.result in ("win", "lost", "unknown")
True
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from ..errors import SchachettError
from ..kernel.actions import PLAY, Play, describe
from ..kernel.automaton import strength
from ..kernel.chance import play_randomly
from ..kernel.state import State
from ..kernel.streams import GameStream
from ..kernel.tables import Tables
from ..kernel.trick import card_points
from ..language import ir
from ..rules.loader import load
from ..simulation.simulate import cache_dir
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


class _Search:
    """Depth first over the person's choices, through the state's push and undo; the automaton plays by its rule."""

    def __init__(self, t: Tables, budget: int):
        self.t, self.budget, self.nodes = t, budget, 0
        self.person = _person(t)
        self.party = t.party_of[min(self.person)]
        self.exhausted = False

    def hopeless(self, state: State) -> bool:
        """Whether the person's party could not catch up even taking every point still in play.

        Every card left may score its ordinary or its last-trick points, and every King left the most any King
        event gives from this trick on, as a first King or a later one.
        """
        t, index = self.t, state.done
        left = 0
        anywhere, in_last = card_points(t, 0), card_points(t, t.n_tricks - 1)
        for h in state.hands:
            for c in range(t.n_cards):
                if h >> c & 1:
                    f = t.deck.card_face[c]
                    left += max(anywhere[f], in_last[f])
        kings = sum((h & t.royal_cards).bit_count() for h in state.hands)
        if t.events and kings:
            left += kings * max(max(e.first[index:] + e.later[index:]) for e in t.events)
        best_other = max(state.points[p] for p in t.other_parties(self.party))
        return state.points[self.party] + left <= best_other

    def run(self, state: State, line: list) -> tuple[bool, list, int]:
        """Whether the person can still win from here; the line that does."""
        t = self.t
        self.nodes += 1
        if self.nodes > self.budget:
            self.exhausted = True
            return False, [], 0
        if state.over:
            lead = state.points[self.party] - max(state.points[p] for p in t.other_parties(self.party))
            return lead > 0, list(line), lead
        rule = state.rule_action()
        if rule is not None:
            state.push(rule)
            try:
                return self.run(state, line)
            finally:
                state.undo()
        if not state.trick and self.hopeless(state):
            return False, [], 0
        actions = state.legal_actions()
        if state.phase == PLAY:
            # one card per face (copies play alike); strong cards first, where wins are usually found
            by_face = {t.deck.card_face[a.card]: a for a in sorted(actions, key=lambda a: strength(t, a.card),
                                                                    reverse=True)}
            actions = sorted(by_face.values(), key=lambda a: strength(t, a.card), reverse=True)
        for action in actions:
            state.push(action)
            try:
                won, best, margin = self.run(state, line + [action])
            finally:
                state.undo()
            if won or self.exhausted:
                return won, best, margin
        return False, [], 0


def solve(t: Tables, seed: int = 0, budget: int = 50000, game: State | None = None) -> Verdict:
    """Search the deal of ``seed`` (or a game just dealt) for a winning line of the person's seats."""
    game = (game or deal_of(t, seed)).clone()
    search = _Search(t, budget)
    won, line, margin = search.run(game, [])
    result = "win" if won else ("unknown" if search.exhausted else "lost")
    words = [t.deck.card_name(a.card) if isinstance(a, Play) else describe(t, a) for a in line]
    return Verdict(seed=seed, result=result, line=words, nodes=search.nodes, margin=margin if won else None)


def random_win_rate(t: Tables, seed: int, tries: int = 100) -> float:
    """How often random play of the person's seats wins the deal of ``seed``."""
    wins = 0
    party = t.party_of[min(_person(t))]
    for k in range(tries):
        game = deal_of(t, seed)
        play_randomly(game, GameStream(seed, 1000 + k))
        wins += game.result().winner == party
    return wins / tries


def difficulty(t: Tables, seed: int, budget: int = 50000, tries: int = 100) -> tuple[str, Verdict, float]:
    """The difficulty of a deal (easy, medium, hard, lost or unknown), the search's verdict and the random rate.

    A deal is winnable when the search finds a winning line, or when random play once wins it; how often random
    play wins sets the class: easy from one game in two, medium from one in seven, hard below.
    """
    rate = random_win_rate(t, seed, tries)
    verdict = solve(t, seed, budget)
    if verdict.result == "win" or rate > 0:
        return ("easy" if rate >= 0.5 else "medium" if rate >= 0.15 else "hard"), verdict, rate
    return verdict.result, verdict, rate


def survey(t: Tables, deals: int, first_seed: int = 0, budget: int = 50000, tries: int = 60):
    """Difficulty of many deals: counts by class, and the seeds in each class."""
    by_class: dict[str, list[int]] = {}
    for seed in range(first_seed, first_seed + deals):
        label, _, _ = difficulty(t, seed, budget, tries)
        by_class.setdefault(label, []).append(seed)
    return by_class


def cached_survey(t: Tables, ruleset: str, deals: int, first_seed: int = 0, budget: int = 50000,
                  tries: int = 60) -> dict[str, list[int]]:
    """:func:`survey`, kept in the simulation cache (keyed by the ruleset's IR and the parameters)."""
    resolved = load(ruleset)
    blob = json.dumps({"ir": ir.strip_positions(resolved.model_dump(mode="json")), "deals": deals,
                       "first": first_seed, "budget": budget, "tries": tries, "what": "solitaire survey"},
                      sort_keys=True)
    path = cache_dir() / f"solitaire-{hashlib.sha256(blob.encode()).hexdigest()[:24]}.json"
    if path.is_file():
        return json.loads(path.read_text(encoding="utf-8"))
    result = survey(t, deals, first_seed, budget, tries)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(result), encoding="utf-8")
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

"""The exact result of open hands (the "double-dummy" result of bridge analysis) for any ruleset.

A :class:`Solver` holds one ruleset's compiled plan, the tables of :mod:`.equivalence` and a transposition
table that lasts from one question to the next (a position's value never changes, so what one search
learns serves the next). It answers for a kernel :class:`~schachett_rules.kernel.state.State`:

- :meth:`Solver.value`: the best final value the party deciding now (or ``side``) can force: its points
  minus the other parties' (see :mod:`.alphabeta`),
- :meth:`Solver.move_values`: that value after each legal action,
- :meth:`Solver.par`: the value, and a line of best play from here to the end, walked through the kernel's
  own state (so the line is checked by the rules like any game).

>>> from schachett_rules.kernel.compiler import tables_for
>>> from schachett_rules.kernel.state import State
>>> from schachett_rules.kernel.streams import GameStream
>>> t = tables_for("original")
>>> game = State.deal(t, 0, GameStream(4, 0))
>>> while game.done < 10:                  # three tricks left
...     _ = game.apply(game.legal_actions()[0])
>>> par = Solver(t).par(game)
>>> par.side == t.party_of[game.decider()], len(par.line)
(True, 12)
>>> par.totals[par.side] - par.totals[1 - par.side] == par.value
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import SchachettError
from ..kernel.actions import BEFORE_PLAY, CASTLE, CHANCE, TERMINAL, Castle, Pass, Play
from ..kernel.core import CHEAPEST_TAKER
from ..kernel.state import State
from ..kernel.tables import Tables, per_tables
from ..playouts.plan import plan_of
from ..playouts.walk import CompiledState
from . import alphabeta as ab
from .equivalence import distinctions, table_chains


class SearchLimit(SchachettError):
    """A search that needed more positions than it was allowed, with what it had proved by then: the final value
    of party ``party`` lies between ``low`` and ``high`` (equal once the value is known and only its line is
    missing)."""

    def __init__(self, budget: int, trick: int, party: str | None = None, low: int | None = None,
                 high: int | None = None):
        self.budget, self.trick, self.party, self.low, self.high = budget, trick, party, low, high
        proved = ""
        if party is not None and low is not None and high is not None:
            proved = (f"; it had found {party}'s final value, {low:+d}, but not yet a line that makes it" if low == high
                      else f"; it had proved that {party}'s final value lies between {low:+d} and {high:+d}")
        super().__init__(f"the exact search stopped after {budget:,} positions without a result, from trick {trick}"
                         f"{proved}: a position this early is too large for that budget; solve from a later point of "
                         f"the game (--after) or allow more positions (--budget)")


@dataclass(frozen=True)
class Par:
    """The result of best play from a position, for party ``side``."""

    side: int                  # the party the value is for
    value: int                 # its final points minus the others', with best play by all
    future: int                # the same less the difference so far: what best play from here adds
    line: tuple                # kernel actions of one best line, from the position to the end
    totals: tuple              # the points of every party at the end of that line
    nodes: int                 # positions the search visited


def worth_of(t: Tables) -> np.ndarray:
    """What the search counts for each card a party takes, in the last trick and before it (rows 1 and 0): its
    points; in a game decided by game points alone (no settlement), minus its points where the fewest win
    (Hearts: the moon shot is not valued) and 1 a card where the cards score nothing (Whist: the tricks).

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> t = tables_for("hearts")
    >>> int(worth_of(t)[0, t.face("sQ")]), int(worth_of(t)[1, t.face("h5")]), int(worth_of(t)[0, t.face("c5")])
    (-13, -1, 0)
    >>> sorted(set(worth_of(tables_for("whist")).ravel().tolist()))
    [1]
    """
    rows = np.array([t.points, t.points_last], dtype=np.int64)
    if t.settlement is None and t.game_points is not None:
        if t.game_points.lowest_wins:
            return -rows
        if not rows.any():
            return np.ones_like(rows)
    return rows


def worth_words(t: Tables) -> str:
    """What a value counts, in words (:func:`worth_of`).

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> worth_words(tables_for("whist")), worth_words(tables_for("original"))
    ('one a card taken, so a trick counts 4', 'the points')
    """
    worth = worth_of(t)
    if np.array_equal(worth, np.array([t.points, t.points_last])):
        return "the points"
    if (worth == 1).all():
        return f"one a card taken, so a trick counts {t.n_active}"
    return "a card's points against the party taking it (the fewest points win; a moon shot is not valued)"


def _king_bound(t: Tables) -> np.ndarray:
    """By event and trick (from 0, one past the last too): the most a King's event can move a value from then on,
    with the first King's points (row 0) and once they are gone (row 1)."""
    coalition = max(1, len(t.parties) - 1)     # an event scored by "the opponents" counts for each of them
    out = np.zeros((2, max(1, len(t.events)), t.n_tricks + 1), dtype=np.int64)
    for e, event in enumerate(t.events):
        for trick in range(t.n_tricks + 1):
            later = [abs(x) for x in event.later[trick:]] or [0]
            out[0, e, trick] = max(later + [abs(x) for x in event.first[trick:]]) * coalition
            out[1, e, trick] = max(later) * coalition
    return out


# a table entry: two key words (Solver.tt_keys), and two words of data (Solver.tt_data): the future's two bounds,
# the best move with the tricks left and the question's number (alphabeta._bounds, alphabeta._move_asked)
ENTRY_BYTES = 2 * 2 * 8


@dataclass(frozen=True)
class _RulesetArrays:
    """What every Solver of one ruleset reads besides its own table; the search never writes to it."""

    alike: np.ndarray
    apart: np.ndarray
    counted: np.ndarray | None        # the worth the search counts, where it is not the compiled state's points
    maxpts: np.ndarray                # each card's most points, either way
    kingmax: np.ndarray               # :func:`_king_bound`
    chains: tuple                     # :func:`_chain_arrays`
    no_chains: tuple                  # the same, keying every card by itself


# The places of the chains whose cards score differently, a bit a card, ride in the low half of the table's second
# key word (alphabeta._places): 32 of them at the most. A chain that would not fit is keyed card by card.
PLACE_BITS = 32


def _chain_arrays(found: list[list[int]], words: int, worth: np.ndarray, faces: np.ndarray) -> tuple:
    """The chains' cards by rank (-1 after a shorter chain's last), their mask, what each place of a chain is worth
    (in ordinary tricks and in the last), and where each chain's places lie in a key (offset and length; -1 for a
    chain whose cards all score alike, which needs none)."""
    kept, spans, used = [], [], 0
    for ch in found:
        if len({(int(worth[0, faces[c]]), int(worth[1, faces[c]])) for c in ch}) == 1:
            kept.append(ch)
            spans.append((-1, len(ch)))
        elif used + len(ch) <= PLACE_BITS:
            kept.append(ch)
            spans.append((used, len(ch)))
            used += len(ch)
    width = max((len(ch) for ch in kept), default=1)
    chain_cards = np.full((len(kept), width), -1, dtype=np.int64)
    chain_worth = np.zeros((2, len(kept), width), dtype=np.int64)
    chained = np.zeros(words, dtype=np.uint64)
    for i, ch in enumerate(kept):
        chain_cards[i, :len(ch)] = ch
        chain_worth[:, i, :len(ch)] = worth[:, faces[ch]]
        for card in ch:
            chained[card // 64] |= np.uint64(1 << (card % 64))
    return chain_cards, chained, chain_worth, np.array(spans, dtype=np.int64).reshape(len(kept), 2)


@per_tables
def _ruleset_arrays(t: Tables) -> _RulesetArrays:
    """Built once a ruleset and shared: the game server makes its players anew for each request that wakes them,
    and a sampling player's Solver spent 13 ms each time on these (the equivalences above all), as much as a
    decision."""
    alike, apart = distinctions(t)
    faces = t.deck.card_face
    worth = worth_of(t)
    counted = worth if not np.array_equal(worth, np.array([t.points, t.points_last])) else None
    maxpts = np.array([max(abs(int(w)) for w in worth[:, faces[c]]) for c in range(t.n_cards)], dtype=np.int64)
    words = plan_of(t).words
    found = table_chains(t)
    return _RulesetArrays(alike=alike, apart=apart, counted=counted, maxpts=maxpts, kingmax=_king_bound(t),
                          chains=_chain_arrays(found, words, worth, np.asarray(faces)),
                          no_chains=_chain_arrays([], words, worth, np.asarray(faces)))


class Solver:
    """Exact values of open-hand positions of one ruleset; the table is kept between questions.

    ``table_bits``: the transposition table has 2**table_bits entries (:data:`ENTRY_BYTES` each). ``by_chains``: the
    table keys the cards of a chain (:func:`~.equivalence.chains`) by the order of their holders, so that
    positions alike but for the ranks of cards gone share an entry (False: every card by itself).
    """

    def __init__(self, t: Tables, table_bits: int = 20, by_chains: bool = True):
        self.t = t
        ruleset = _ruleset_arrays(t)
        self.counted = ruleset.counted
        size = 1 << table_bits
        self.tt_keys = np.zeros((size, 2), dtype=np.uint64)
        self.tt_data = np.zeros((size, 2), dtype=np.int64)
        plan = plan_of(t)
        depth = plan.max_actions + 2                 # every action of a game, at the most
        kings = t.royal_cards.bit_count()
        self.moves = np.zeros((depth, max(kings, 1) * t.hand_size + t.hand_size + 2), dtype=np.int64)
        self.frames = np.zeros((depth, ab.N_FRAME), dtype=np.int64)
        self.fkeys = np.zeros((depth, 2), dtype=np.uint64)
        self.counts = np.zeros(ab.N_COUNTS, dtype=np.int64)
        self.seed = np.zeros(1, dtype=np.uint64)         # the play-outs' generator (a horizon's rollouts)
        self.by_chains = by_chains
        self._own = (self.tt_keys, self.tt_data, self.moves, self.frames, self.fkeys, self.counts,
                     np.zeros(plan.max_draws + 1), self.seed, np.zeros(max(len(t.rest_cards), 1), dtype=np.int64))
        self._game: Tables | None = None
        self.extra = self._extra_for(t)
        # the play-outs' players: at random, or every seat by the automaton's "cheapest card that takes" rule
        # (an automaton's own seats keep their rule)
        self.playouts = {"random": plan.policy,
                         "greedy": np.where(plan.policy >= 0, plan.policy, CHEAPEST_TAKER).astype(np.int64)}
        self.nodes = 0
        self.generation = 0     # numbers the questions, so that the table lets an earlier question's entries go

    def _extra_for(self, game: Tables) -> tuple:
        """The search's arrays for a game of this ruleset (a kernel state's ``t``): the equivalent cards, chains
        and bounds of the game's own tables, since a contract's trumps change which cards play alike (in a
        Wenz the Obers fall among the plain suits; a Euchre suit made trumps takes in the other Jack of its
        colour), then this solver's own table and scratch arrays."""
        if game is not self._game:
            ruleset = _ruleset_arrays(game)
            chains = ruleset.chains if self.by_chains else ruleset.no_chains
            self.extra = (ruleset.alike, ruleset.apart, ruleset.maxpts, ruleset.kingmax, *chains, *self._own)
            self._game = game
        return self.extra

    def table_bytes(self) -> int:
        """The size of the transposition table in bytes."""
        return self.tt_keys.nbytes + self.tt_data.nbytes

    def clear(self) -> None:
        """Forget every position kept. The whole table is written, the bounds too: a table just made is mapped by
        the system only page by page as a search first touches it, and a benchmark's first few searches would pay
        for that (15 to 30 ms for a table of 2^22 entries, against half a millisecond for a four-trick endgame)."""
        self.tt_keys[:] = 0
        self.tt_data[:] = 0

    # --- the compiled position ------------------------------------------------------------------------
    def side_of(self, state: State, side: int | None = None) -> int:
        """The party a question about ``state`` is answered for: ``side``, else the party deciding now (of the seat
        to play where chance or the rules decide)."""
        if side is not None:
            return side
        seat = state.decider()
        if seat in (CHANCE, TERMINAL):
            seat = state.seat_to_play()
        return state.t.party_of[seat]     # the game's parties: a call or a bid may have made them

    def _search(self, walk: CompiledState, side: int, alpha: int, beta: int, budget: int,
                stop: int | None = None, rollouts: int = 0, playout: str = "random") -> int | None:
        self.counts[:] = 0
        v = ab.search(*walk.tables, *walk.arrays.arrays(), *self._extra_for(walk.t), self.playouts[playout], side,
                      alpha, beta, budget, self.t.n_tricks if stop is None else stop, rollouts, self.generation)
        self.nodes += int(self.counts[ab.NODES])
        return None if self.counts[ab.ABORTED] else int(v)

    def value(self, state: State, side: int | None = None, budget: int = 0, progress=None) -> int | None:
        """The final value for ``side`` (default: the party deciding now) with best play; None past ``budget``
        positions in all (0: no limit). ``progress(low, high, nodes)`` hears each narrowing of the value's range."""
        side = self.side_of(state, side)
        self.generation += 1
        low, high = self._bisect(state, self._walk(state), side, budget, self.nodes, progress)
        return low if low == high else None

    def _room(self, state: State, walk: CompiledState | None = None) -> int:
        """The most the points still to come can move a value (every card left at its best, each King at its best
        event, as the search bounds a position: :func:`.alphabeta._king_room`); ``walk``: the position compiled."""
        walk = walk or self._walk(state)
        out = 0
        for h in state.hands:
            out |= h
        for _, card in state.trick:
            out |= 1 << card
        maxpts, kingmax = self._extra_for(walk.t)[2:4]
        cards = sum(int(maxpts[c]) for c in range(self.t.n_cards) if out >> c & 1)
        kings = (out & self.t.royal_cards).bit_count()
        if not kings:
            return cards
        return cards + kings * int(ab._king_room(walk.tables[0], walk.arrays.regs, walk.arrays.each, kingmax))

    def _left(self, budget: int, start: int) -> int | None:
        """What is left of ``budget`` positions (0: no limit) since the count stood at ``start``; None when
        nothing is."""
        if budget == 0:
            return 0
        left = budget - (self.nodes - start)
        return left if left > 0 else None

    def _bisect(self, state: State, walk: CompiledState, side: int, budget: int, start: int,
                progress=None) -> tuple[int, int]:
        """The range ``(low, high)`` of the value, narrowed by halving with null-window searches (each one asks
        only "at least x?", which cuts far more than a search for the value itself) until ``low == high`` or
        ``budget`` positions counted from ``start`` are spent; the range is proved either way."""
        base, room = self._points(state, side), self._room(state, walk)
        low, high = base - room, base + room
        while low < high:
            beta = (low + high + 1) // 2
            left = self._left(budget, start)
            r = None if left is None else self._search(walk, side, beta - 1, beta, left)
            if r is None:
                return low, high
            if r >= beta:
                low = r
            else:
                high = r
            if progress is not None:
                progress(low, high, self.nodes - start)
        return low, high

    def move_values(self, state: State, side: int | None = None, budget: int = 0, horizon: int | None = None,
                    actions: list | None = None, rollouts: int = 0, seed: int = 0,
                    playout: str = "random") -> list[tuple[object, int | None]]:
        """Each legal action of the decider (or each of ``actions``) with the final value for ``side`` after it
        (None past ``budget`` positions); with ``horizon``, the points up to the end of that many more tricks
        (this one included), or with ``rollouts`` the mean of that many play-outs from there (``playout``:
        random, their numbers from ``seed``, or greedy: every seat plays the cheapest card that takes)."""
        self.seed[0] = seed & ((1 << 64) - 1)
        side = self.side_of(state, side)
        self.generation += 1
        walk = self._walk(state)
        stop = None if horizon is None else min(self.t.n_tricks, state.done + horizon)
        out = []
        for action in state.legal_actions() if actions is None else actions:
            walk.apply(action)
            out.append((action, self._search(walk, side, -ab.INF, ab.INF, budget, stop, rollouts, playout)))
            walk.undo()
        return out

    def par(self, state: State, side: int | None = None, budget: int = 0, progress=None) -> Par:
        """The best result for ``side`` (default: the party deciding now) and a line that achieves it.

        With ``budget``, :class:`SearchLimit` when the value and the line need more positions than that in all;
        it carries the range of the value proved by then.
        ``progress(low, high, nodes)`` hears each narrowing of the value's range, then (low = high = the value)
        each action of the line.
        """
        side = self.side_of(state, side)
        self.generation += 1
        before = self.nodes
        game = state.clone()
        walk = self._walk(game)
        value, high = self._bisect(game, walk, side, budget, before, progress)
        party = state.t.party_names[side]
        if value != high:
            raise SearchLimit(budget, state.trick_number, party, value, high)
        base = self._points(game, side)
        try:
            line = self._line(game, walk, side, value, True, budget, before, progress)
        except SearchLimit:
            raise SearchLimit(budget, state.trick_number, party, value, value) from None
        return Par(side=side, value=value, future=value - base, line=tuple(line), totals=tuple(game.points),
                   nodes=self.nodes - before)

    def forces(self, state: State, side: int, target: int, budget: int = 0) -> bool | None:
        """Whether ``side`` can make its final value at least ``target`` whatever the others play (one
        null-window search: far quicker than the value itself); None past ``budget`` positions."""
        self.generation += 1
        v = self._search(self._walk(state), side, target - 1, target, budget)
        return None if v is None else v >= target

    def forcing_line(self, state: State, side: int, target: int, budget: int = 0) -> tuple[list, State]:
        """A line from ``state`` along which ``side`` keeps a final value of at least ``target`` (which it must
        be able to force), and the finished game; the others play their first action that keeps it so."""
        self.generation += 1
        game = state.clone()
        return self._line(game, self._walk(game), side, target, False, budget, self.nodes), game

    def _line(self, game: State, walk: CompiledState, side: int, target: int, exact: bool, budget: int,
              start: int, progress=None) -> list:
        """Play ``game`` (and its compiled twin) to the end along actions that keep the value at ``target``
        (``exact``) or at least there; the actions chosen, the rules' own included. ``budget`` counts the
        positions from ``start``."""
        line = []
        while not game.over:
            action = game.rule_action()
            if action is None:
                actions = game.legal_actions()
                action = actions[0] if len(actions) == 1 else self._keeping(walk, actions, side, target, exact,
                                                                              budget, start)
            game.apply(action)
            walk.apply(action)
            line.append(action)
            if progress is not None:
                progress(target, target, self.nodes - start)
        return line

    def _keeping(self, walk: CompiledState, actions: list, side: int, target: int, exact: bool, budget: int,
                 start: int):
        """The first action after which the value is still ``target`` (or at least ``target``)."""
        for action in actions:
            walk.apply(action)
            left = self._left(budget, start)
            v = None if left is None else self._search(walk, side, target - 1, target + 1 if exact else target,
                                                        left)
            walk.undo()
            if v is None:
                raise SearchLimit(budget, int(walk.arrays.regs[walk.c.TRICK]) + 1)
            if v == target or (v >= target and not exact):
                return action
        raise AssertionError("no action keeps the value of the position")  # pragma: no cover - a search bug

    def _walk(self, state: State) -> CompiledState:
        """The position in compiled arrays, counting each card as :func:`worth_of` says where that is not its
        points. A game still before play is refused: the search's moves are cards and castles, not the passes,
        bids, calls and cards laid away that come first.

        >>> from schachett_rules.kernel.compiler import tables_for
        >>> from schachett_rules.kernel.streams import GameStream
        >>> t = tables_for("hearts")
        >>> Solver(t).value(State.deal(t, 0, GameStream(3, 0)))
        Traceback (most recent call last):
        ...
        schachett_rules.errors.SchachettError: hearts: the exact solver searches the play of the cards, ... (passing: West to decide); ...
        """
        if state.phase in BEFORE_PLAY:
            raise SchachettError(f"{self.t.name}: the exact solver searches the play of the cards, and this game is "
                                 f"still before it ({state.phase_name}: {self.t.seat_name(state.before_play_seat())} "
                                 f"to decide); solve it from its first card")
        walk = CompiledState(state)
        counted = _ruleset_arrays(state.t).counted
        if counted is not None:
            walk.arrays.points[:] = counted
            walk.arrays.totals[0, :] = self.worth_so_far(state)
        return walk

    def worth_so_far(self, state: State) -> list[int]:
        """Each party's worth of the tricks taken so far, as the search counts it (:func:`worth_of`; the points,
        where the ruleset scores the cards themselves).

        >>> from schachett_rules.kernel.compiler import tables_for
        >>> from schachett_rules.kernel.streams import GameStream
        >>> t = tables_for("whist")
        >>> game = State.deal(t, 0, GameStream(1, 0))
        >>> while game.done < 3:
        ...     _ = game.apply(game.legal_actions()[0])
        >>> sum(Solver(t).worth_so_far(game))          # one a card: three tricks of four
        12
        """
        counted = _ruleset_arrays(state.t).counted
        if counted is None:
            return list(state.points)
        t, faces = state.t, state.t.deck.card_face
        out = [0] * len(t.parties)
        for i, (_leader, cards, winner, *_rest) in enumerate(state.trick_log):
            row = counted[1 if i == t.n_tricks - 1 else 0]
            out[t.party_of[winner]] += sum(int(row[faces[c]]) for _s, c in cards)
        return out

    def _points(self, state: State, side: int) -> int:
        return sum(p if i == side else -p for i, p in enumerate(self.worth_so_far(state)))


def describe_action(t: Tables, action) -> str:
    """An action of a line in the record's words: a card name, or the castle or pass in words."""
    if type(action) is Play:
        return t.deck.card_name(action.card)
    if type(action) is Castle:
        return f"{t.seat_name(action.seat)} castles {t.deck.card_name(action.king)} for {t.deck.card_name(action.officer)}"
    if type(action) is Pass:
        return f"{t.seat_name(action.seat)} lets the chance to castle go"
    return str(action)


__all__ = ["Solver", "Par", "SearchLimit", "describe_action", "worth_of", "worth_words", "CASTLE"]

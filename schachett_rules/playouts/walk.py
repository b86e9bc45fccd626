"""The compiled state driven from Python, one action at a time, beside the kernel's :class:`State`.

:class:`CompiledState` loads a kernel state's position into the compiled arrays
of :mod:`.compiled` and answers the same questions: whose decision it is, which
cards may be played, which castle is on offer; it applies the kernel's actions
(:class:`~schachett_rules.kernel.actions.Play`, ``Castle``, ``Pass``, ``Give``) and undoes
them. Each call crosses into compiled code, so this is for tests, benchmarks and
tools; a search runs inside the compiled code itself.

>>> from schachett_rules.kernel.compiler import tables_for
>>> from schachett_rules.kernel.state import State
>>> from schachett_rules.kernel.streams import GameStream
>>> state = State.deal(tables_for("original"), 3, GameStream(2, 0))
>>> walk = CompiledState(state)
>>> walk.decider() == state.decider(), walk.legal_cards() == state.legal().mask
(True, True)
"""

from __future__ import annotations

import numpy as np

from ..kernel.actions import Answer, Bid, Call, Castle, Discard, Give, Pass, Play
from ..kernel.streams import MASK


def _compiled():
    from . import compiled
    return compiled


class CompiledState:
    """A kernel state's position in compiled arrays of its own, walked action by action."""

    def __init__(self, state):
        from .single import load
        c = self.c = _compiled()
        self.t = state.t
        self.plan = c.plan_of(state.t)
        self.arrays = self.plan.state()
        self.tables = self.arrays.tables()
        load(state, c, self.plan, self.arrays, None)
        c.settle(*self.tables, *self.arrays.arrays()[:8])

    def _mask(self, words: np.ndarray) -> int:
        return sum(int(w) << (64 * i) for i, w in enumerate(words.tolist()))

    @property
    def phase(self) -> int:
        """The phase, as the kernel numbers it (kernel.actions: DEAL, CASTLE, PLAY, OVER, PASSING, AUCTION ...)."""
        return int(self.arrays.regs[self.c.PHASE])

    def decider(self) -> int:
        """Whose decision it is (-1 at the deal, -2 at the end)."""
        a = self.arrays
        return int(self.c.decider(self.plan.scalars, self.plan.controller, a.trick, a.regs))

    def legal_cards(self) -> int:
        """The cards the seat to play may play (in passing: the cards the passing seat may pass), as a bitmask."""
        a, p = self.arrays, self.plan
        out = np.zeros(p.words, dtype=np.uint64)
        self.c.legal_cards(p.scalars, p.card_face, a.follow, p.rules, a.hands, a.trick, a.regs, out)
        return self._mask(out)

    def before_actions(self) -> list:
        """The decider's actions before play, in the kernel's order: the kernel's Give, Bid, Call, Discard or
        Answer."""
        a, p, c = self.arrays, self.plan, self.c
        out = np.zeros(max(p.scalars[c.S_CARDS], 1), dtype=np.int64)
        m = int(c.before_actions(p.scalars, p.rules, a.hands, a.regs, out))
        phase, seat = self.phase, self.decider()
        kinds = {c.PASSING: Give, c.CALL: Call, c.EXCHANGE: Discard, c.RETURN: Give}
        if phase == c.OFFER:
            return [Answer(seat, x == 1) for x in out[:m].tolist()]
        if phase == c.AUCTION:
            return [Bid(seat, -1, -1) if x < 0 else Bid(seat, x // 64, x % 64 - 1) for x in out[:m].tolist()]
        return [kinds[phase](seat, x) for x in out[:m].tolist()]

    def castle_offer(self) -> tuple[int, int, int]:
        """The seat asked to castle, the Kings and the officers it is offered (bitmasks)."""
        a, p, c = self.arrays, self.plan, self.c
        kings, offered = np.zeros(p.words, dtype=np.uint64), np.zeros(p.words, dtype=np.uint64)
        c.castle_offer(p.scalars, p.royal, p.officers, p.with_seat, a.hands, a.trick, a.regs, kings, offered)
        regs = a.regs
        seat = int(a.trick[0, regs[c.ASK]]) if regs[c.MOMENT] == c.RESCUE else int(regs[c.ASK])
        return seat, self._mask(kings), self._mask(offered)

    def apply(self, action) -> None:
        """Apply the decider's action (a kernel Play, Castle, Pass, Give, Bid, Call, Discard or Answer)."""
        c = self.c
        if type(action) is Play:
            kind, king, card = c.A_CARD, 0, action.card
        elif type(action) is Give:
            kind, king, card = c.A_GIVE, 0, action.card
        elif type(action) is Bid:
            kind, king, card = c.A_BID, action.colour, action.contract
        elif type(action) is Call:
            kind, king, card = c.A_CALL, 0, action.card
        elif type(action) is Discard:
            kind, king, card = c.A_DISCARD, 0, action.card
        elif type(action) is Answer:
            kind, king, card = c.A_ANSWER, 0, int(action.take)
        elif type(action) is Castle:
            kind, king, card = c.A_CASTLE, action.king, action.officer
        elif type(action) is Pass:
            kind, king, card = c.A_PASS, 0, 0
        else:
            raise TypeError(f"the compiled state takes cards played, passed, called, laid away or given back, bids, "
                            f"answers to a card offered, castles and chances let go, not {action!r}")
        c.apply(*self.tables, *self.arrays.arrays(), kind, king, card)

    def undo(self) -> None:
        """Take back the last action."""
        a = self.arrays
        self.c.undo(a.hands, a.trick, a.regs, a.totals, a.each, a.s_regs, a.s_trick, a.s_hands, a.s_totals, a.s_each)

    def hands(self) -> list[int]:
        """The hands as bitmasks."""
        return [self._mask(row) & ((1 << self.t.n_cards) - 1) for row in self.arrays.hands[:self.t.n_seats]]

    def points(self) -> list[int]:
        """Points by party so far (cards and King events), of the parties of the game (once it is bid)."""
        parties = int(max(self.arrays.party_of)) + 1 if self.t.flow is not None else len(self.t.parties)
        return [int(x) for x in self.arrays.totals[0, :parties]]

    def walk(self, u: np.ndarray, steps: int) -> int:
        """Apply and undo ``steps`` random actions inside the compiled code (:func:`.compiled.walk_randomly`)."""
        return int(self.c.walk_randomly(*self.tables, *self.arrays.arrays(), u, steps))


__all__ = ["CompiledState", "MASK"]

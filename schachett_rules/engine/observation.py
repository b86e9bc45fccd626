"""What a player may see: his own hand, the face-up Kings, an exposed dummy, the trick, the tricks he may review.

Bots receive an :class:`Observation`, never the game: what is not in it, they
cannot use. The rules that shape it are clauses: ``review`` (which finished
tricks may be looked at), ``memory`` (whether earlier tricks are kept in mind),
``dummy`` (when the dummy is laid open, and how its player sees his two
hands before that), and the deal's face-up cards.

>>> import random
>>> from schachett_rules.kernel.compiler import tables_for
>>> from schachett_rules.engine.game import Game
>>> game = Game.deal(tables_for("three-player"), dealer=0, rng=random.Random(1))
>>> view = observe(game, 1)                 # the left player leads the first trick
>>> sorted(view.hands), view.kings          # he sees his own hand; the Kings lie face up
([1], ((0, 'wK'), (1, 'sK')))
>>> sorted(observe(game, 0).hands)          # the Kaiser sees only the dummy's hand: it plays before his own
[2]
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from ..kernel.visibility import is_face_up, kept_tricks, visible_seats
from .game import Game, names_of
from ..errors import SchachettError
from .records import CastleRecord, TrickRecord


class Observation(BaseModel):
    """One player's view of the game at this moment."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    seat: int
    plays_for: tuple[int, ...]
    trick_number: int
    to_move: int
    leader: int
    hands: dict[int, tuple[str, ...]]
    kings: tuple[tuple[int, str], ...]
    trick: tuple[tuple[int, str], ...]
    tricks: tuple[TrickRecord, ...]
    castles: tuple[CastleRecord, ...]
    legal: tuple[str, ...] = ()
    forced_by: str | None = None


def visible_hands(game: Game, seat: int) -> dict[int, int]:
    """The hands (as card bitmasks) that the player on ``seat`` may look at now (the kernel's ``visible_seats``)."""
    seats = visible_seats(game.t, seat, len(game.tricks), game.leader, {s for s, _ in game.trick})
    return {s: game.hands[s] for s in sorted(seats)}


def observe(game: Game, seat: int) -> Observation:
    """The view of the player on ``seat`` (a dummy has no view of its own)."""
    t = game.t
    dummy = t.dummy_of(seat) if isinstance(seat, int) else None
    if dummy is not None:
        raise SchachettError(f"seat {seat} is a dummy and sees nothing; seat {dummy.by} plays its cards "
                             f"({dummy.cite})")
    if not isinstance(seat, int) or not 0 <= seat < t.n_seats:
        raise SchachettError(f"seat {seat!r} does not exist (seats 0 to {t.n_seats - 1})")
    plays_for = tuple(s for s in range(t.n_seats) if t.controller(s) == seat)
    hands = {s: names_of(t, m) for s, m in sorted(visible_hands(game, seat).items())}
    kings = []
    castled = {t.face(r.king) for r in game.castles}
    for s in range(t.n_seats):
        royal_here = game.hands[s] & t.royal_cards
        kings += [(s, t.deck.card_name(c)) for c in range(t.n_cards) if royal_here >> c & 1 and is_face_up(t, c, castled)]
    finished = tuple(game.tricks[i] for i in kept_tricks(t, len(game.tricks)))
    legal: tuple[str, ...] = ()
    forced = None
    mover = game.to_move
    if not game.over and t.controller(mover) == seat and game.pending is None:
        view = game.legal()
        # one entry per card, copies included, in the deck's order: a random player draws from it as the play-outs do
        legal, forced = names_of(t, view.mask), view.forced_by
    return Observation(seat=seat, plays_for=plays_for, trick_number=game.trick_number, to_move=mover,
                       leader=game.leader, hands=hands, kings=tuple(kings),
                       trick=tuple((s, t.deck.card_name(c)) for s, c in game.trick), tricks=finished,
                       castles=tuple(game.castles), legal=legal, forced_by=forced)

"""The frozen records of a game's actions and tricks: what :class:`~.state.State` returns for each action.

Together they are the game log. A record is built from the state's own compact
history (ints) when it is asked for, so that searches which push and undo
thousands of actions never pay for words they do not read.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict


class Record(BaseModel):
    """Base of every log record: frozen and strict."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class DealRecord(Record):
    """The deal: who dealt, every hand, the cards dealt face up, the stock left over and the card turned up."""

    action: Literal["deal"] = "deal"
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    face_up: tuple[tuple[int, str], ...] = ()
    stock: tuple[str, ...] = ()
    turned: str | None = None


class GiveRecord(Record):
    """A card passed on before play: ``seat`` gave ``card`` to ``to``; ``back``: the taker of a card offered gave
    it back to the declarer (the offer clause), rather than passing it on."""

    action: Literal["give"] = "give"
    seat: int
    card: str
    to: int
    cite: str
    back: bool = False


class AnswerRecord(Record):
    """A seat asked whether it takes the card the declarer offers: it takes it (``take``) or lets it lie.
    ``card`` is the card offered (the record knows it; a player may not: see the observation)."""

    action: Literal["answer"] = "answer"
    seat: int
    take: bool
    card: str
    cite: str


class BidRecord(Record):
    """A bid or a pass in the auction: ``contract`` is None for a pass, ``colour`` the trump colour named."""

    action: Literal["bid"] = "bid"
    seat: int
    round: int
    contract: str | None = None
    title: str | None = None
    colour: str | None = None
    cite: str


class CallRecord(Record):
    """The declarer calls a card; its holder (known to the record, not to the players) is his partner."""

    action: Literal["call"] = "call"
    seat: int
    card: str
    cite: str


class DiscardRecord(Record):
    """A card laid away face down after taking up the turned card or the stock."""

    action: Literal["discard"] = "discard"
    seat: int
    card: str
    cite: str


class PlayRecord(Record):
    """One card played to a trick, and the rule that limited the choice, if any."""

    action: Literal["play"] = "play"
    trick: int
    seat: int
    card: str
    lead: bool
    forced_by: str | None = None


class PenaltyRecord(Record):
    """A penalty applied to a seat under a penalty clause.

    ``card`` is the card taken back into the hand where the clause says ``card
    taken back``: it stays in the hand, shown to every player, until it is played.
    """

    action: Literal["penalty"] = "penalty"
    trick: int
    seat: int
    name: str
    points: int = 0
    to: tuple[int, ...] = ()
    forfeit: bool = False
    cite: str
    card: str | None = None


class CastleRecord(Record):
    """A castle: a King exchanged for an officer of the hand the castling clause names.

    ``kind`` is ``before`` (before the first card), ``between`` (between
    tricks) or ``rescue`` (a King just taken is lifted out of trick ``trick``
    and the officer takes its place). ``king_from`` is the seat whose hand (or,
    in a rescue, whose card in the trick) gave the King, ``officer_from`` the
    seat whose hand gave the officer: mostly the castler's King and the
    partner's officer, but where ``castle king`` allows it a castler without a
    King takes the partner's King for one of his own officers.
    """

    action: Literal["castle"] = "castle"
    trick: int
    kind: Literal["before", "between", "rescue"]
    seat: int
    by: int
    king: str
    officer: str
    with_seat: int
    cite: str
    king_from: int = -1
    officer_from: int = -1

    def told(self, name) -> str:
        """The castle in words, every seat called by ``name(seat)``: who castles, and which card went to whom.

        >>> rec = CastleRecord(trick=0, kind="before", seat=1, by=1, king="sK", officer="sL", with_seat=3, cite="§5",
        ...                    king_from=3, officer_from=1)
        >>> rec.told(lambda s: ("South", "West", "North", "East")[s])
        "West castles before play: East's sK comes into his hand for his own sL"
        """
        if self.kind == "rescue":
            return (f"{name(self.seat)} rescues his {self.king}, just taken in trick {self.trick}: it goes to "
                    f"{name(self.officer_from)}'s hand, and {name(self.officer_from)}'s {self.officer} takes its "
                    f"place in the trick")
        when = "before play" if self.kind == "before" else f"after trick {self.trick}"
        if self.king_from != self.seat and self.king_from >= 0:
            return (f"{name(self.seat)} castles {when}: {name(self.king_from)}'s {self.king} comes into his hand "
                    f"for his own {self.officer}")
        return (f"{name(self.seat)} castles {when}: his {self.king} goes to {name(self.officer_from)}, whose "
                f"{self.officer} comes into his hand")


class PassRecord(Record):
    """A player let a chance to castle go: ``seat`` might have castled at this moment and did not."""

    action: Literal["pass"] = "pass"
    trick: int
    kind: Literal["before", "between", "rescue"]
    seat: int
    by: int


class KingEventRecord(Record):
    """A King's fate: checkmate, selfmate or stalemate, with its points."""

    event: str
    king: str
    owner: int
    taker: int
    trick: int
    order: Literal["first", "later"]
    points: int
    scoring_parties: tuple[int, ...]
    cite: str


class TrickRecord(Record):
    """A finished trick: who led, the cards, who won and why, points and King events."""

    action: Literal["trick"] = "trick"
    number: int
    leader: int
    cards: tuple[tuple[int, str], ...]
    winner: int
    winning_card: str
    why: tuple[str, ...]
    points: int
    last: bool
    events: tuple[KingEventRecord, ...] = ()
    rescues: tuple[CastleRecord, ...] = ()


def money(value: Fraction) -> int | float:
    """A settlement amount as a JSON number: an int when whole.

    >>> money(Fraction(31)), money(Fraction(61, 2))
    (31, 30.5)
    """
    return int(value) if value.denominator == 1 else float(value)


class GameResult(Record):
    """The score of a finished game, by party and by seat; with a contract, who declared what and with whom; with
    game points, what each party scores toward the session's target."""

    card_points: tuple[int, ...]
    event_points: tuple[int, ...]
    totals: tuple[int, ...]
    forfeited: tuple[int, ...] = ()
    winner: int | None
    unit: str
    settlement: tuple[int | float, ...]
    penalties: tuple[int | float, ...]
    net: tuple[int | float, ...]
    events: tuple[KingEventRecord, ...]
    tricks: tuple[int, ...] = ()                 # tricks taken, by party
    parties: tuple[tuple[int, ...], ...] = ()    # the seats of each party in this game
    contract: str | None = None
    trump: str | None = None
    declarer: int | None = None
    called: str | None = None
    partner: int | None = None
    game_points: tuple[int | float, ...] = ()    # by party
    thrown_in: bool = False

"""The vocabulary of the §12 study: the readings swept, the constraints named, a King's fate and a scenario.

It also says, from the tables, how a King meets a fate at this table (which
seat plays it and which takes the trick), which the counting, the structure
and the search all need.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...kernel.scoring import fate_word
from ...kernel.tables import Tables
from ...kernel.trick import card_points, trick_points

DEFAULT_TARGETS = (190, 68)
DEFAULT_BUDGET = 60_000          # search nodes (cards tried) per reading combination
RESTART_NODES = 4_000            # nodes before the search starts again with a fresh random order

READINGS: dict[str, tuple[str, ...]] = {
    "remaining": ("each-hand", "all-hands"),
    "promoted-points": ("knight-only", "as-officers"),
    "king-order": ("by-fate", "both-first", "per-event"),
}

FATES = ("self", "partner", "opponent")

CONSTRAINTS = {
    "one-winner": "a trick has one winner: two Kings in one trick cannot both win it, the first played of two "
                  "equal Kings holds, and the other King's fate follows from who wins",
    "last-trick-stalemate": "a King wins the last trick only if no card in it takes the King beyond its reach; "
                            "a promoted card that counts as an officer above the King does",
    "last-trick-full": "the Kings and promoted cards of the last trick must fit into one trick",
    "last-trick-points": "the party that must win the last trick gets the promoted cards' points",
}


@dataclass(frozen=True)
class KingFate:
    """One King's fate in a scenario."""

    king: str                      # face name, e.g. 'wK'
    owner: int                     # the party that holds (plays) it
    fate: str                      # 'self' (wins the trick) | 'partner' | 'opponent' (who takes it)
    event: str | None              # the event it scores ('stalemate', ...), None if the ruleset has none
    trick: int                     # counted from 1
    position: int                  # among the Kings of its trick, in play order
    first: bool
    points: int
    scorers: tuple[int, ...]       # parties that score the points
    parties: tuple[str, ...] = ()  # what the ruleset calls each party, for the reader (not in the JSON)

    def party(self, p: int) -> str:
        """What party ``p`` is called in the ruleset ('South and North'), or its number where no name is known."""
        return self.parties[p] if p < len(self.parties) else f"party {p}"

    def text(self) -> str:
        """The fate in words, the parties by their names in the ruleset."""
        what = self.event or f"no event ({self.fate})"
        scored = f"{self.points} to {' and '.join(self.party(p) for p in self.scorers)}" if self.scorers else "no points"
        return (f"{self.king} ({self.party(self.owner)}) {what} in trick {self.trick}, "
                f"{'first' if self.first else 'later'} King, {scored}")


@dataclass(frozen=True)
class Scenario:
    """A way the totals can decompose: King fates, promotions, and the card points they imply."""

    kings: tuple[KingFate, ...]          # in the order they meet their fate
    promoted: tuple[str, ...]            # faces in the last trick that score extra there
    promoted_points: int                 # their extra points together
    event_points: tuple[int, ...]        # per party
    card_points: tuple[int, ...]         # per party, implied
    totals: tuple[int, ...]              # per party
    excluded: str | None = None          # why it cannot happen in a legal game, if it cannot
    constraint: str | None = None        # the id of that constraint (see CONSTRAINTS)
    parties: tuple[str, ...] = ()        # what the ruleset calls each party (not in the JSON)

    def party(self, p: int) -> str:
        """What party ``p`` is called in the ruleset, or its number where no name is known."""
        return self.parties[p] if p < len(self.parties) else f"party {p}"

    @property
    def viable(self) -> bool:
        """Whether no structural constraint rules the scenario out."""
        return self.excluded is None

    def shape(self) -> str:
        """The scenario without colours and parties: events by trick, and promoted symbols."""
        parts = [f"{k.event or k.fate} t{k.trick} {'first' if k.first else 'later'} {k.points}" for k in self.kings]
        syms = sorted(p[1:] for p in self.promoted)
        if syms:
            parts.append(" ".join(syms) + f" promoted {self.promoted_points}")
        return " + ".join(parts)

    def text(self) -> str:
        """The scenario in words, with the reason it is impossible if it is."""
        lines = [f"totals {self.totals} = events {self.event_points} + card points {self.card_points}"]
        lines += ["  " + k.text() for k in self.kings]
        lines.append("  last trick: " + (", ".join(self.promoted) + f" (+{self.promoted_points})"
                                         if self.promoted else "no promoted card scoring extra"))
        if self.excluded:
            lines.append(f"  impossible ({self.constraint}): {self.excluded}")
        return "\n".join(lines)

    def as_json(self) -> dict:
        """The scenario as JSON data."""
        return {"kings": [{k: v for k, v in f.__dict__.items() if k != "parties"} | {"scorers": list(f.scorers)}
                          for f in self.kings],
                "promoted": list(self.promoted), "promoted_points": self.promoted_points,
                "event_points": list(self.event_points), "card_points": list(self.card_points),
                "totals": list(self.totals), "excluded": self.excluded, "constraint": self.constraint,
                "shape": self.shape()}


def kings(t: Tables) -> list[int]:
    """The royal cards, in deck order."""
    return [c for c in range(t.n_cards) if t.royal_cards >> c & 1]


def seat_meeting(t: Tables, winner: int, fate: str) -> int | None:
    """A seat whose King meets ``fate`` when ``winner`` takes the trick (None if no seat at this table does)."""
    return next((s for s in range(t.n_seats) if fate_word(t, s, winner) == fate), None)


def seats_for(t: Tables, owner: int, fate: str) -> tuple[int, int] | None:
    """A seat of party ``owner`` to play a King, and a seat taking the trick so that the King meets ``fate``.

    None if no seat at this table can give the King that fate (a party of one has no partner).
    """
    seat = t.parties[owner][0]
    winner = next((w for w in range(t.n_seats) if fate_word(t, seat, w) == fate), None)
    return None if winner is None else (seat, winner)


def winning_party(t: Tables, owner: int, fate: str) -> int:
    """The party that takes the trick in which a King of party ``owner`` meets ``fate``."""
    return t.party_of[seats_for(t, owner, fate)[1]]


def card_total(t: Tables) -> int:
    """The card points of the whole deck, outside the last trick (216 in the printed game).

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> card_total(tables_for("original"))
    216
    """
    return trick_points(t, 0, [(0, c) for c in range(t.n_cards)])


def last_extra(t: Tables, face: int) -> int:
    """What a card of ``face`` scores in the last trick beyond what it scores elsewhere (promotion, §11)."""
    return card_points(t, t.n_tricks - 1)[face] - card_points(t, 0)[face]

"""The queries of a trick: what may be played, who holds the trick after each card, what it is worth.

These are the only functions that know how a trick is played. The recorded
engine, the fast play-outs, the bots, the automaton, the studies, the terminal
and the site's drawings all ask them; none of them walks the capture relation
or the follow tiers on its own.

A trick is a list of ``(seat, card)`` in playing order; ``index`` is the
trick's number counted from 0 (the last trick promotes cards and has its own
capture relation and points).

>>> from schachett_rules.kernel.compiler import tables_for
>>> t = tables_for("original")
>>> card = t.deck.card_of
>>> trick = [(0, card("w7")), (1, card("s8")), (2, card("w5")), (3, card("w1"))]
>>> [(seat, t.deck.face_names[face]) for seat, face in holders(t, 0, trick)]
[(0, 'w7'), (0, 'w7'), (0, 'w7'), (0, 'w7')]
>>> holder(t, 0, trick)[0], trick_points(t, 0, trick)   # pawns count their number: 7 + 8 + 5 + 1
(0, 21)
"""

from __future__ import annotations

import functools
from typing import NamedTuple, Sequence

from .core import holder_after, points_of, restrict, serving_tier, takes_from
from .scoring import KingCount, king_events
from .tables import Tables

Play = tuple[int, int]   # (seat, card)


def is_last(t: Tables, index: int) -> bool:
    """Whether trick ``index`` (from 0) is the last of the game, where cards are promoted."""
    return index == t.n_tricks - 1


def captures(t: Tables, index: int) -> tuple[int, ...]:
    """The capture relation in force in trick ``index``: face -> bitmask of the faces it takes."""
    return t.beats_last if is_last(t, index) else t.beats


def card_points(t: Tables, index: int) -> tuple[int, ...]:
    """The card points in force in trick ``index`` (promoted cards count their promoted points in the last)."""
    return t.points_last if is_last(t, index) else t.points


def legal(t: Tables, hand: int, trick: Sequence[Play], played: int = 0, index: int = 0) -> tuple[int, int | None]:
    """The cards of ``hand`` that may be played to ``trick``, and the follow tier that allowed them.

    The tier is None for a lead, and for a hand that can serve no tier (then
    any card may go). ``t.follow_words[led][tier]`` and ``t.follow_cite[led]``
    say the rule in words. Where the ruleset restricts play (hearts not led
    until broken, the called Ace kept back), ``played`` (the cards played so
    far, this trick's included) and ``index`` (the trick, from 0) say whether a
    restriction binds (:func:`narrowed`).
    """
    if t.restrictions or t.obligations:
        mask, tier, _why = narrowed(t, hand, trick, played, index)
        return mask, tier
    return follows(t, hand, trick)


def follows(t: Tables, hand: int, trick: Sequence[Play]) -> tuple[int, int | None]:
    """The cards of ``hand`` the follow rules alone allow to ``trick``, and the tier (restrictions aside)."""
    if not trick:
        return hand, None
    tiers = t.follow[t.deck.card_face[trick[0][1]]]
    i = serving_tier(tiers, (hand,), 1)
    return (hand & tiers[i], i) if i >= 0 else (hand, None)


def narrowed(t: Tables, hand: int, trick: Sequence[Play], played: int, index: int) -> tuple[int, int | None, int]:
    """:func:`legal`, and which rule narrowed the choice last: a restriction ``k`` (``t.restriction_words[k]``
    names it), an obligation as ``-1 - k``, or ``len(t.restrictions)`` for none."""
    tier, follows, led = None, 0, 0
    mask = hand
    if trick:
        tiers = t.follow[t.deck.card_face[trick[0][1]]]
        i = serving_tier(tiers, (hand,), 1)
        if i >= 0:
            mask, tier = hand & tiers[i], i
        follows, led = tiers[0], 1 << trick[0][1]
    out = [mask]
    why = restrict(out, (hand,), (played,), (follows,), (led,), 1, not trick, index == 0, index == t.n_tricks - 1,
                   *_columns(t.restrictions, t.obligations))
    return out[0], tier, why


@functools.lru_cache(maxsize=256)
def _columns(rows: tuple, owed: tuple) -> tuple:
    """The restrictions and obligations as :func:`~.core.restrict` takes them, column by column (made once: the
    legal cards are asked at every card of every game a search plays)."""
    return (tuple(r[0] for r in rows), tuple(r[1] for r in rows), tuple(r[2] for r in rows),
            tuple(r[3] for r in rows), tuple(r[4] for r in rows), tuple(o[0] for o in owed),
            tuple(o[1] for o in owed))


def holds_against(t: Tables, index: int, face: int, holder_face: int) -> bool:
    """Whether a card of ``face`` takes the trick from the card of ``holder_face`` that holds it."""
    return takes_from(captures(t, index), face, holder_face)


def holders_of_faces(t: Tables, index: int, plays: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Who holds the trick after each card, for plays given as ``(seat, face)``: a list of ``(seat, face)``."""
    beats = captures(t, index)
    seat, face = plays[0]
    out = [(seat, face)]
    for s, f in plays[1:]:
        if takes_from(beats, f, face):
            seat, face = s, f
        out.append((seat, face))
    return out


def holders(t: Tables, index: int, trick: Sequence[Play]) -> list[tuple[int, int]]:
    """Who holds the trick after each card of ``trick``: a list of ``(seat, face)``."""
    card_face = t.deck.card_face
    return holders_of_faces(t, index, [(s, card_face[c]) for s, c in trick])


def holder(t: Tables, index: int, trick: Sequence[Play]) -> tuple[int, int]:
    """Who holds the trick so far (at least one card played), as ``(seat, face)``."""
    faces = [t.deck.card_face[c] for _, c in trick]
    best = holder_after(captures(t, index), faces, len(faces))
    return trick[best][0], faces[best]


def takers(t: Tables, index: int, holder_face: int) -> int:
    """The faces (a bitmask) that would take the trick from the card of ``holder_face``."""
    beats = captures(t, index)
    return sum(1 << f for f in range(t.n_faces) if takes_from(beats, f, holder_face))


def trick_points(t: Tables, index: int, trick: Sequence[Play]) -> int:
    """The card points in ``trick`` (with the last trick's promoted points in the last)."""
    card_face = t.deck.card_face
    return points_of(card_points(t, index), [card_face[c] for _, c in trick], len(trick))


def explain(t: Tables, index: int, face: int, holder_face: int) -> str:
    """Why a card of ``face`` does or does not take trick ``index`` from ``holder_face``, in words with the clause.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> t = tables_for("original")
    >>> explain(t, 0, t.face("s8"), t.face("wV"))
    's8 does not take wV: a pawn takes only a lower pawn of its own colour or suit card of its own colour (§2, §3.3)'
    """
    d, last = t.deck, is_last(t, index)
    n, h = d.face_names[face], d.face_names[holder_face]
    en, eh = (t.promoted_as[face], t.promoted_as[holder_face]) if last else (face, holder_face)
    promo = ""
    if last and (en != face or eh != holder_face):
        parts = [f"{d.face_names[x]} counts as {d.face_names[y]}" for x, y in ((face, en), (holder_face, eh)) if x != y]
        promo = " (last trick: " + ", ".join(parts) + ")"
    group = t.face_group[en] if t.face_group else d.face_kind[en]
    words, cite = t.capture_words.get(group, (f"a {group} takes nothing", ""))
    rules = list(zip(t.capture_dir.get(group, ()), t.capture_victims.get(group, ())))
    if holds_against(t, index, face, holder_face):
        if t.rank[en] == t.rank[eh] and "any" not in t.capture_dir.get(group, ()):
            _rule, tcite = t.tie_words.get(group, ("later", ""))
            return f"{n} takes {h}{promo}: of two equal cards the later played takes ({tcite})"
        if len(rules) > 1:
            # of several rules for the taker, the one that lets it take says why
            for (direction, victims), (rule_words, rule_cite) in zip(rules, t.capture_rule_words[group]):
                if victims[d.face_colour[en]] >> eh & 1 and (direction == "any" or (
                        t.rank[en] > t.rank[eh] if direction == "lower" else t.rank[en] < t.rank[eh])):
                    return f"{n} takes {h}{promo}: {rule_words} ({rule_cite})"
        return f"{n} takes {h}{promo}: {words} ({cite})"
    may = [direction for direction, victims in rules if victims[d.face_colour[en]] >> eh & 1]
    if not may:
        return f"{n} does not take {h}{promo}: {words} ({cite})"
    if t.rank[en] == t.rank[eh]:
        _rule, tcite = t.tie_words.get(group, ("first", cite))
        return f"{n} does not take {h}{promo}: of two equal cards the first played holds ({tcite or cite})"
    if all(direction == "higher" for direction in may):
        return f"{n} does not take {h}{promo}: it ranks higher, and {words} ({cite})"
    return f"{n} does not take {h}{promo}: it ranks lower ({t.rank_cite})"


def kings_in(t: Tables, trick: Sequence[Play]) -> list[tuple[int, int]]:
    """The royal cards of a trick in playing order, as ``(seat, face)``."""
    return [(s, t.deck.card_face[c]) for s, c in trick if t.royal_cards >> c & 1]


class TrickOutcome(NamedTuple):
    """What a full trick comes to."""

    winner: int            # the seat that takes it
    face: int              # the face of the card that takes it
    points: int            # its card points
    fates: list            # the King events, as :func:`~.scoring.king_events` gives them


def resolve(t: Tables, index: int, trick: Sequence[Play], count: KingCount) -> TrickOutcome:
    """Who takes a full trick, its card points and its King fates; ``count`` is advanced by the Kings that fall."""
    winner, face = holder(t, index, trick)
    kings = kings_in(t, trick)
    fates = king_events(t, index, kings, winner, count) if kings else []
    return TrickOutcome(winner, face, trick_points(t, index, trick), fates)


def take_trick(t: Tables, index: int, trick: Sequence[Play], totals: list[int], count: KingCount) -> int:
    """Take a full trick: its card points and King points are added to ``totals`` (by party); returns the winner."""
    out = resolve(t, index, trick, count)
    totals[t.party_of[out.winner]] += out.points
    for _ev, _face, _owner, _first, pts, parties in out.fates:
        for p in parties:
            totals[p] += pts
    return out.winner

"""Castling taught from the castler's seat: who may castle, when, with whose officers, and who chooses.

Everything said here is read from the castling clauses of the ruleset (``castling``, ``castle with``,
``castle officer``, ``castle king``, ``castle limit``, ``castle rescue``), compiled into
:class:`~schachett_rules.kernel.tables.CastleTable`, and from the deal: which King each seat holds
when the cards are dealt. Where the manual says nothing (who picks the officer, what is shown), the
page says so and tells what the program does; the manual's own words on castling are the evidence
of the castling gap, quoted from the rule file.

>>> from schachett_rules.kernel.compiler import tables_for
>>> moments = seat_moments(tables_for("reconstruction"), dealer=0)
>>> [[m[0] for m in moments[s]] for s in range(4)]   # South, West, North, East
[['after', 'rescue'], ['before'], ['after', 'rescue'], []]
"""

from __future__ import annotations

from ..kernel.tables import Tables
from ..rules.loader import Resolved
from ..rules.seating import or_list, seat_words

LIMIT_WORDS = {"party": "Each partnership castles at most once a game", "game": "Only one castle is made in a game",
               "seat": "Each player castles at most once a game", "none": "Castling may be repeated"}


def seat_moments(t: Tables, dealer: int) -> list[list[tuple[str, int | None]]]:
    """For each seat, the moments the castling clause grants it, as (when, trick) in the clause's order."""
    out: list[list[tuple[str, int | None]]] = [[] for _ in range(t.n_seats)]
    for seats, any_holder, when, trick in (t.castling.permits if t.castling else ()):
        named = {(dealer + off) % t.n_seats if base == "dealer" else off for base, off in seats}
        for s in range(t.n_seats):
            if any_holder or s in named:
                out[s].append((when, trick))
    return out


def kings_dealt(t: Tables, dealer: int) -> dict[int, list[str]]:
    """The Kings each seat holds when the cards are dealt (the deal's face-up royal cards)."""
    out: dict[int, list[str]] = {}
    for card, seat in t.dealt_to(dealer):
        if t.royal_cards >> card & 1:
            out.setdefault(seat, []).append(t.deck.card_name(card))
    return out


def _moment_words(t: Tables, seat: int, king: str, when: str, trick: int | None) -> str:
    n = t.n_seats
    other = t.seat_name(t.castling.partner_for(seat))
    if when == "before":
        return (f"before the first card is played: his {king} goes into {other}'s hand, and the officer he picks from "
                f"{other}'s hand comes into his")
    if when == "after":
        start = "from the end of the first trick on" if trick == 1 else f"from the end of trick {trick} on"
        return (f"between any two tricks {start}, while he still holds the {king}: it goes into {other}'s hand for the "
                f"officer he picks there")
    names = or_list([e.name for e in t.events if e.when in t.castling.rescue_fates])
    where = "in the first trick" if trick == 1 else f"in trick {trick}" if trick else "in any trick"
    return (f"{where}, as a rescue, when his {king} has just been taken ({names}): once all "
            f"four cards lie in the trick, the {king} is lifted out of it into {other}'s hand, and the officer he picks "
            f"from {other}'s hand takes its place in the trick, which is then judged with the officer in it")


def castler_words(t: Tables, dealer: int) -> list[str]:
    """One paragraph per seat, from South round the table: when that player may castle, or why he never does."""
    n, c = t.n_seats, t.castling
    moments, kings = seat_moments(t, dealer), kings_dealt(t, dealer)
    reached = {c.partner_for(s) for s in range(n) if moments[s]}
    out = []
    for s in range(n):
        who = f"**{t.seat_name(s)}** ({seat_words(s - dealer, n)})"
        own = kings.get(s, [])
        if not moments[s]:
            also = (f" His hand can give an officer, though, when {t.seat_name(c.partner_for(s))} castles with him."
                    if s in reached else "")
            out.append(f"{who} never castles: the castling clause names no moment for him.{also}")
            continue
        if own:
            said = "; or ".join(_moment_words(t, s, own[0], w, tr) for w, tr in moments[s])
            out.append(f"{who} holds the {own[0]} and may castle {said}.")
            continue
        partner = c.partner_for(s)
        takes_partner = c.other_king_before_play and any(w == "before" for w, _ in moments[s])
        if takes_partner:
            out.append(f"{who} holds no King, but before the first card he may castle with "
                       f"{t.seat_name(partner)}'s King: it comes into his hand for one of his own officers.")
        elif c.limit in ("party", "game") and partner in kings:
            out.append(f"{who} is named beside {t.seat_name(partner)}, but holds no King: the "
                       f"{kings[partner][0]} comes into his hand only by {t.seat_name(partner)}'s castle, and that "
                       "uses up the castle the limit allows. So in play he never castles.")
        else:
            out.append(f"{who} holds no King at the deal; he may castle once one has come into his hand by a castle.")
    return out


def castle_evidence(r: Resolved) -> list[tuple[str, str]]:
    """The manual's words on castling as the rule file quotes them: (citation, quote), printed passages only."""
    eff = r.effective("castling")
    if eff is None or not eff.origin.lacuna:
        return []
    chosen = next(ch for ch in r.lacunae if ch.lacuna.name == eff.origin.lacuna)
    return [(", ".join(e.basis.cites), e.quote) for e in chosen.lacuna.evidence
            if e.basis.grade.value == "printed" and not e.basis.cites[0].startswith(("ai:", "foreword"))]


def reading_of(r: Resolved, key: str) -> tuple[str, str] | None:
    """The gap a clause comes from and the summary of the reading the ruleset plays there, or None."""
    eff = r.effective(key)
    if eff is None or not eff.origin.lacuna:
        return None
    chosen = next(ch for ch in r.lacunae if ch.lacuna.name == eff.origin.lacuna)
    return chosen.lacuna.name, chosen.lacuna.option(chosen.option).summary


def castling_blocks(r: Resolved, t: Tables, dealer: int) -> list:
    """The words of the castling part, up to the quoted rules (which the lesson adds)."""
    c = t.castling
    n = t.n_seats
    if c is None:
        return ["This ruleset has no castling."]
    d = t.deck
    offered = [f for f in range(t.n_faces) if c.officer_faces >> f & 1 and d.face_colour[f] == 0]
    every = [f for f in range(t.n_faces) if d.face_kind[f] == d.kinds[0] and not d.face_royal[f] and d.face_colour[f] == 0]
    letters = or_list(d.face_names[f][1:] for f in sorted(offered, key=lambda f: -t.rank[f]))
    which = f"any officer but a King ({letters})" if offered == every else f"only {letters}"
    partner = t.opposite(0) == c.partner_for(0) and t.party_of[0] == t.party_of[c.partner_for(0)]
    blocks: list = [
        ("A King may *castle*, as a King and a Rook change places in chess: it changes hands with an officer from "
         f"{'his partner’s hand, the player opposite' if partner else 'another player’s hand'}, {which}, of either "
         f"colour. {LIMIT_WORDS[c.limit]}. Who may castle, and when, with {t.seat_name(dealer)} dealing:"),
        "\n".join(f"- {w}" for w in castler_words(t, dealer)),
        ("**Who chooses, and what is shown.** The manual does not say. The reconstruction lets the castling player "
         "choose the officer; to choose, he is shown the officers of his partner's hand, and no other card of it. "
         "Everyone sees the castle: which King went where and which officer came for it, and the King stays face up "
         "in its new hand. If the partner holds no officer, there is nothing to exchange, and no castle can be made, "
         "not even a rescue: the King stays where it fell."),
    ]
    quotes = castle_evidence(r)
    reading = reading_of(r, "castling")
    if quotes and reading:
        said = " ".join(f"“{q}” ({cite})" for cite, q in quotes)
        blocks.append(f"**Why these moments.** The four-player castling (§5) is lost. The three-player pages say: "
                      f"{said} The reconstruction reads this across to four players (the gap "
                      f"[{reading[0]}](gaps/{reading[0]}.md)): “{reading[1]}”")
    return blocks

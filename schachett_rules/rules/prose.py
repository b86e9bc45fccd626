"""A clause of a resolved ruleset as a sentence a card player reads (the rulebook's words: :mod:`.rulebook`).

>>> from schachett_rules.rules.loader import load
>>> r = load("original")
>>> sentence(r.clause("lead first"), deck_of(r), seats_of(r))
"The player on the dealer's left leads to the first trick."
"""

from __future__ import annotations

import re

from ..language import ir
from ..language.cards import Deck, describe_selector
from ..language.printer import selector as selector_text
from ..errors import SchachettError
from ..language.expr import render
from ..language.keywords import prose
from .grades import graded_rules
from .loader import Effective, Resolved
from .seating import and_list, party_words, player_words
from .manual import Manual, ManualError


NUMBER_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}


def _number(n: int) -> str:
    return NUMBER_WORDS.get(n, str(n))


def _seat(ref: ir.SeatRef, seats: int | None = None) -> str:
    """A seat a clause names: "seat 2", or from the dealer; at a table of known size as a player sits there."""
    if ref.base == "seat":
        return f"seat {ref.offset}"
    if seats:
        return player_words(ref.offset, seats)
    if ref.offset == 0:
        return "the dealer"
    if ref.offset == 1:
        return "the player to the dealer's left"
    n = abs(ref.offset)
    side = "left" if ref.offset > 0 else "right"
    return f"the player {_number(n)} places to the dealer's {side}"


def after_a(places: int, seats: int | None) -> str:
    """The player some places after A (to his left), named as a card player would at this table.

    >>> after_a(1, 4), after_a(2, 4), after_a(2, 6), after_a(3, 6), after_a(5, 6)
    ('the player after A', 'the player opposite A', 'the player two places after A', 'the player opposite A', 'the player five places after A')
    """
    if places == 1:
        return "the player after A"
    if seats and seats % 2 == 0 and places % seats == seats // 2:
        return "the player opposite A"
    return f"the player {_number(places)} places after A"


def _a(noun: str) -> str:
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def deck_of(r: Resolved) -> Deck | None:
    """The ruleset's deck, for naming kinds and colours in prose (None if the deck clause is unsound)."""
    clause = r.clause("deck")
    try:
        return Deck.from_clause(clause) if clause is not None else None
    except SchachettError:  # a broken deck is reported by the checks; prose still renders
        return None


def seats_of(r: Resolved) -> int | None:
    """The number of seats of a ruleset, for prose that names places at the table (None without a seats clause)."""
    clause = r.clause("seats")
    return clause.count if clause is not None else None


def _faces_text(k: ir.KindDecl) -> str:
    out = []
    for f in k.faces:
        name = f"{f.symbol}" + (f" ({f.name})" if f.name else "")
        if f.copies > 1:
            name = f"{f.copies} × {name}"
        out.append(name)
    return ", ".join(out)


def penalty_effects(c: ir.Penalty) -> list[str]:
    """What a penalty does, in words, one phrase per effect."""
    parts = []
    if c.pays:
        parts.append(f"the offender pays {c.pays} points to each {prose('payee', c.to)}")
    if c.take_back:
        parts.append("the card is taken back and played correctly")
    if c.forfeit:
        parts.append("the offender's party scores nothing for the game")
    return parts


def _kind_title(name: str, deck: Deck | None) -> str:
    return deck.kind_titles[deck.kinds.index(name)] if deck is not None and name in deck.kinds else name


def capture_rule_text(r: ir.CaptureRule, deck: Deck | None = None) -> str:
    """One rule of a capture clause in words: 'an officer takes any lower card'."""
    victims = describe_selector(r.victims, deck).removeprefix("a ").removeprefix("an ")
    word = r.direction
    if word == "any":     # `takes any`: whatever its rank ("a trump takes any card other than trump")
        return f"{_a(_kind_title(r.taker, deck))} takes {victims if victims.startswith('any') else 'any ' + victims}"
    return (f"{_a(_kind_title(r.taker, deck))} takes "
            f"{'any ' + word + ' card' if victims.startswith('any card') else 'a ' + word + ' ' + victims}")


def rule_grades(c, deck: Deck | None = None) -> list[tuple[str, ir.Basis]]:
    """Each rule of a clause that grades its rules one by one, in words, with its basis (empty otherwise).

    >>> from schachett_rules.rules.loader import load
    >>> [(text, b.grade.value) for text, b in rule_grades(load("original").clause("capture"))][0]
    ('an officer takes any lower card', 'printed')
    """
    return [(capture_rule_text(r, deck), b) for r, b in graded_rules(c)]


def _opposite_parties(seats: int | None, deal: ir.Deal | None) -> str:
    """Partnerships of opposite seats named from the dealer, with the cards the deal gives each face up."""
    if not seats or seats % 2 or seats < 4 or seats > 16:
        # beyond a table's size (a ruleset whose seats the compiler will refuse) there is nothing to name
        return ""
    half = seats // 2
    out = []
    for k in range(half):  # the seats k and k + half places after the dealer play together (parties: opposite)
        places = (k, k + half)
        face_up = [g.card for g in (deal.gives if deal else ()) if g.to.base == "dealer" and g.to.offset % seats in places]
        who = " and ".join(player_words(o, seats) for o in places)
        text = f"{who} are {party_words(places, seats)}"
        cards = [c if face_up.count(c) == 1 else f"two {c}" if face_up.count(c) == 2 else f"{face_up.count(c)} × {c}"
                 for c in dict.fromkeys(face_up)]
        out.append(text + (f", which the deal gives the {' and the '.join(cards)} face up" if cards else ""))
    return "; ".join(out)


def sentence(c, deck: Deck | None = None, seats: int | None = None, deal: ir.Deal | None = None) -> str:
    """One clause as an English sentence (or a few); the deck, if given, names kinds and colours.

    ``seats`` is the size of the table, for the clauses that name seats by their
    place (the player opposite exists only at an even table); ``deal``, the deal
    clause, names the parties by the cards it gives them face up.

    >>> print(sentence(ir.Parties(opposite=True), seats=4, deal=ir.Deal(hand_size=13, gives=(
    ...     ir.Give(card="wK", to=ir.SeatRef(base="dealer")), ir.Give(card="sK", to=ir.SeatRef(base="dealer", offset=1))))))
    Partners sit opposite each other: the dealer and the player opposite the dealer are the dealer's party, which the deal gives the wK face up; the player on the dealer's left and the player on the dealer's right are the party on the dealer's left, which the deal gives the sK face up.
    """

    def _sel(sel: ir.Selector) -> str:
        return describe_selector(sel, deck)

    def _kind(name: str) -> str:
        return _kind_title(name, deck)

    if isinstance(c, ir.Deck):
        kinds = "; ".join(f"{k.title or k.name}s: {_faces_text(k)}" for k in c.kinds)
        cols = " and ".join(f"{col.name} ({col.code})" for col in c.colours)
        royal = [f.name or f.symbol for k in c.kinds for f in k.faces if f.royal]
        fates = (f" The {' and the '.join(royal)} {'is' if len(royal) == 1 else 'are'} royal: what becomes of "
                 f"{'it' if len(royal) == 1 else 'them'} in a trick is a King event." if royal else "")
        return f"The deck has the colours {cols}; in each colour the {kinds}.{fates}"
    if isinstance(c, ir.Seats):
        return f"{c.count} hands are dealt."
    if isinstance(c, ir.SeatNames):
        return "The seats are called " + ", ".join(f"{n} (seat {i})" for i, n in enumerate(c.names)) + "."
    if isinstance(c, ir.PartyNames):
        return "The parties are called " + ", ".join(f"{n} (party {i})" for i, n in enumerate(c.names)) + "."
    if isinstance(c, ir.CastleMoment):
        return prose("per_moment", c.castles)
    if isinstance(c, ir.Parties):
        if c.holders is not None:
            return (f"The holders of {_cards(_sel(c.holders))} play together against the others (one who holds "
                    "them all plays alone).")
        if c.each:
            return "Every player plays for himself."
        if c.opposite:
            named = _opposite_parties(seats, deal)
            if named:
                return f"Partners sit opposite each other: {named}."
            return "Partners sit opposite each other; the two partnerships play against each other."
        return "The parties are " + "; ".join("seats " + ", ".join(map(str, p)) for p in c.parties) + "."
    if isinstance(c, ir.Deal):
        gives = " and ".join(f"{g.card} face up to {_seat(g.to, seats)}" for g in c.gives)
        rest = f"the rest are shuffled and dealt so that every hand holds {c.hand_size} cards"
        text = (f"First the dealer gives {gives}; {rest}." if gives else
                f"All cards are shuffled and dealt so that every hand holds {c.hand_size} cards.")
        if c.covered:
            text += (f" Of each hand {c.covered} cards lie face down on the table, each covered by a face-up card; "
                     "a covered card turns up when the card on it has been played.")
        if c.stock:
            text += f" {c.stock} card{'s are' if c.stock != 1 else ' is'} left over as the stock."
        if c.turn == "stock":
            text += " The top card of the stock is turned up."
        elif c.turn == "dealer":
            text += " The dealer's last card is turned up for all to see; it stays in his hand."
        return text
    if isinstance(c, ir.Lead) and c.holder:
        return f"The holder of the {c.holder} leads to the first trick."
    if isinstance(c, ir.Lead):
        # `lead first: winner` passes the checks (the compiler rejects it), so show must say it too.
        who = "the winner of the trick before" if c.winner else _seat(c.by, seats)
        if c.which == "first":
            return f"{who[0].upper()}{who[1:]} leads to the first trick."
        return "The winner of each trick leads to the next." if c.winner else f"{who[0].upper()}{who[1:]} leads each later trick."
    if isinstance(c, ir.Ranking):
        # a rank is a face, or a set of cards in brackets (Schafkopf's Obers by colour, Euchre's bowers)
        return "Cards rank, from highest to lowest: " + " > ".join(
            " = ".join(g if isinstance(g, str) else selector_text(g) for g in group) for group in c.groups) + "."
    if isinstance(c, ir.Capture):
        parts = [capture_rule_text(r, deck) for r in c.rules]
        return "When a card is played to a trick it takes the trick from the card holding it only if it may: " + \
            "; ".join(parts) + ". Any other card is discarded and does not take."
    if isinstance(c, ir.Ties):
        parts = [f"of two equal {'cards' if r.kind == 'any' else _kind(r.kind) + 's'} the {prose('tie_outcome', r.rule)}"
                 for r in c.rules]
        return "; ".join(parts).capitalize() + "."
    if isinstance(c, ir.Follow):
        tiers = "; ".join(f"({n}) {_sel(s)}" for n, s in enumerate(c.tiers, start=1))
        return (f"When {_a(_kind(c.led))} is led, each player must play the first of these he can: {tiers}. "
                "Within a tier he plays any card he likes.")
    if isinstance(c, ir.Promotion):
        return "In the last trick " + ", ".join(f"{p.face} counts as {p.as_face}" for p in c.promotes) + \
            ", for taking the trick."
    if isinstance(c, ir.Points):
        items = "; ".join(f"{_sel(e.cards).removeprefix('a ').removeprefix('an ')}: {render(e.points)}" for e in c.entries)
        if c.promoted:
            return f"In the last trick, promoted cards score: {items} (others as usual)."
        return f"Cards in the tricks a party wins score points: {items} ('value' is the number on the card)."
    if isinstance(c, ir.Remaining):
        return prose("remaining_scope", c.scope)
    if isinstance(c, ir.KingEvent):
        when, who = prose("when", c.when), prose("scorer", c.scores)
        return (f"{c.name.capitalize()}: when {when}, {who} scores {render(c.first)} for the first King "
                f"and {render(c.later)} for a later King.")
    if isinstance(c, ir.KingOrder):
        return f"{prose('order_count', c.count)}; {prose('same_trick', c.same_trick)}."
    if isinstance(c, ir.Settlement):
        wins = (f"The declarer's party wins when {render(c.wins)}. " if c.wins is not None else "")
        if c.per == "defender":
            return (f"{wins}After the game each defender settles {render(c.amount)} {c.unit} with the declarer's "
                    "party, which shares what it wins or pays.")
        return (f"{wins}After the game each player of the winning party receives {render(c.amount)} {c.unit}, and each "
                f"player of the losing party pays as much ('winner' and 'loser' are the parties' points).")
    if isinstance(c, ir.Penalty):
        return f"Penalty for {c.offence}: " + "; ".join(penalty_effects(c)) + "."
    if isinstance(c, ir.Review):
        return (f"Besides the current trick, a player may look at the {c.tricks} trick{'s' if c.tricks > 1 else ''} "
                "just finished, and no earlier one.")
    if isinstance(c, ir.Session):
        rounds = f"{c.rounds_per_cycle} rounds" if c.rounds_per_cycle != 1 else "one round"
        text = (f"A round is {c.games_per_round} games and a cycle {rounds} "
                f"({c.games_per_round * c.rounds_per_cycle} games).")
        if c.players:
            text += f" The players are called {and_list(c.players)}, in the order of the lots."
        if c.reign is not None:
            seats = and_list(f"seat {x}" for x in c.reign.seats)
            text += (f" Each player in turn, in the order of the lots, is Kaiser for {c.reign.rounds} rounds: the "
                     f"players sit on {seats} in lot order starting with the Kaiser, and the dummy's cards lie on "
                     f"seat {c.reign.dummy}.")
        for ch in c.changes:
            if ch.seats is not None:
                text += (f" Before every {ch.rounds} round after the first, the players on seats {ch.seats[0]} "
                         f"and {ch.seats[1]} change places.")
                continue
            who = after_a(ch.after_a, seats)
            text += f" Before every {ch.rounds} round after the first, {who} changes places with his left neighbour."
        if c.stop_after_cycle:
            text += " Play may stop only at the end of a cycle."
        return text
    if isinstance(c, ir.Memory):
        return prose("memory_kind", c.keeps)
    if isinstance(c, ir.Dealer):
        first = f"Seat {c.first} deals the first game; after" if c.first is not None else "After"
        return f"{first} each game the deal passes to the {c.passes}."
    if isinstance(c, ir.Automaton):
        named = and_list(f"seat {x}" for x in c.seats)
        verb = "are" if len(c.seats) > 1 else "is"
        never = ", and never castles" if c.castles == "never" else ""
        passes = f"passes {prose('pass_policy', c.passes)} and " if c.passes else ""
        bids = (", never bids" if c.bids == "never" else
                ", bids only where the rules make it (then the first bid open)" if c.bids == "forced" else "")
        if c.lays_away:
            bids += f", lays away {prose('pass_policy', c.lays_away)} where an exchange asks it to"
        if c.calls:
            bids += f", calls {prose('call_policy', c.calls)} where its contract calls a partner"
        return (f"{named[0].upper()}{named[1:]} {verb} played by a fixed rule, not by a player: "
                f"{'each' if len(c.seats) > 1 else 'it'} {passes}plays {prose('policy', c.policy)}{bids}{never}.")
    if isinstance(c, ir.Dummy):
        opened = ("from the start" if c.exposed_after == 0 else f"after trick {c.exposed_after}")
        text = f"Seat {c.seat} is a dummy: its cards are played by seat {c.by} and laid open {opened}."
        if c.one_hand_at_a_time:
            text += (f" Until then seat {c.by} may look only at the hand that plays next of his two, and at the "
                     "other only after playing from the first.")
        return text
    if isinstance(c, ir.Castling):
        if c.mode == "none":
            return "There is no castling."
        parts = []
        for p in c.permits:
            who = and_list([_seat(w, seats) for w in p.who] + (["any King holder"] if p.king_holder else []))
            when = {"before": "before the first card is played",
                    "after": f"between tricks, from the end of trick {p.trick} on",
                    "rescue": (f"in trick {p.trick}" if p.trick else "in any trick")
                    + ", as a rescue when the King has just met a fate the rescue may undo: the King is taken out "
                      "of the trick and the officer takes its place"}[p.when]
            parts.append(f"{who} may castle {when}")
        return ("Castling exchanges a King for an officer of the hand the castle reaches. "
                + "; ".join(parts)[0].upper() + "; ".join(parts)[1:] + ".")
    if isinstance(c, ir.CastleOfficer):
        officers = _sel(c.officer).removeprefix("a ").removeprefix("an ")
        return f"In castling the King is exchanged for {_a(officers)} of the hand the castle reaches."
    if isinstance(c, ir.CastleLimit):
        return f"Castling may happen {prose('limit', c.limit)}."
    if isinstance(c, ir.CastleWith):
        if c.opposite:
            whose = "the player opposite"
        else:
            side = "left" if c.places >= 0 else "right"
            n = abs(c.places)
            whose = f"the player {'next' if n == 1 else _number(n) + ' places'} to the {side}"
        return f"A castle reaches the hand of {whose}" + (", who is a partner." if c.partner else ".")
    if isinstance(c, ir.CastleKing):
        return prose("castle_king_kind", c.takes)
    if isinstance(c, ir.Stake):
        return prose("stake_kind", c.per)
    if isinstance(c, ir.SettlePenalties):
        return prose("penalty_rounding", c.rounding)
    if isinstance(c, ir.CastleRescue):
        fates = " or ".join(c.events)
        return (f"A rescue may undo a King's {fates} (the King events of these names), and no other fate: "
                "a King that met another fate stays where it fell.")
    if isinstance(c, ir.Partner) and c.who == "called" and deck is not None and \
            2 * sum(cards.bit_count() > 1 for cards in deck.face_cards) > len(deck.face_cards):
        # two decks (most cards there twice): the card called is there more than once, and each copy's holder
        # plays with him
        return "The declarer's partners are the holders of the card he calls: of every copy he does not hold."
    family = _family_sentence(c, _sel, seats)
    if family is not None:
        return family
    raise TypeError(type(c).__name__)  # pragma: no cover


def _cards(text: str) -> str:
    """A selector's words as a plural-free noun phrase ("a heart" -> "heart")."""
    return text.removeprefix("a ").removeprefix("an ")


def _a_card(text: str) -> str:
    """A selector's words with an article where they start with a bare "card" ("card of ..." -> "a card of ...")."""
    text = _cards(text)
    return "a " + text if text.startswith("card ") else text


def _the_called(text: str) -> str:
    """The card called in the game is "the called card": it is one card.

    >>> _the_called("a player who holds called card must play it")
    'a player who holds the called card must play it'
    """
    return re.sub(r"(?<!the )\bcalled card\b(?!'s)", "the called card", text)


def _family_sentence(c, _sel, seats: int | None) -> str | None:
    """The clauses the family's games need (bidding, calling, passing, game points), in words; None for others.

    >>> print(_family_sentence(ir.Passing(count=3, directions=("left", "right", "across", "none")), str, 4))
    Before play each player passes 3 cards: in the first game to the left, in the second to the right, in the third across the table, in the fourth to nobody, and so on round.
    """
    if isinstance(c, ir.CardClass):
        return (f"Every {_cards(_sel(c.cards))} is a {c.name}: such a card is led, followed and takes as a "
                f"{c.name}, not by its colour.")
    if isinstance(c, ir.Restriction):
        act = {"lead": "lead", "play": "play", "discard": "discard (play without following)"}[c.act]
        when = ((["in the first trick"] if c.first else []) + (["before the last trick"] if c.before_last else [])
                + ([f"until {_a_card(_sel(c.until))} has been played"] if c.until is not None else [])
                + ([f"while he holds {_cards(_sel(c.holding))}"] if c.holding is not None else []))
        return _the_called(f"No one may {act} {_a_card(_sel(c.cards))}" + (" " + ", or ".join(when) if when else "")
                           + ", unless he has nothing else he may play.")
    if isinstance(c, ir.Runners):
        return (f"Runners are {_cards(_sel(c.cards))} held by one party without a gap from the highest down (by "
                "the ranking); the settlement counts them.")
    if isinstance(c, ir.Obligation):
        return _the_called(f"When {_a_card(_sel(c.led))} is led, a player who holds {_a_card(_sel(c.cards))} "
                           "must play it.")
    if isinstance(c, ir.Passing):
        ordinals = ("first", "second", "third", "fourth", "fifth", "sixth")
        if len(c.directions) == 1:
            return f"Before play each player passes {c.count} cards {prose('pass_direction', c.directions[0])}."
        ways = [f"in the {ordinals[i] if i < len(ordinals) else f'{i + 1}th'}{' game' if i == 0 else ''} "
                f"{prose('pass_direction', d)}" for i, d in enumerate(c.directions)]
        return f"Before play each player passes {c.count} cards: " + ", ".join(ways) + ", and so on round."
    if isinstance(c, ir.Exchange):
        return (f"{prose('exchange_who', c.who).capitalize()} takes up {prose('exchange_what', c.takes)} and "
                f"discards {c.discards} card{'s' if c.discards != 1 else ''} face down.")
    if isinstance(c, ir.Auction):
        text = f"The bidding begins with {_seat(c.first, seats)} and goes round to the left."
        for n, r in enumerate(c.rounds, start=1):
            offers = " < ".join(" = ".join(_bid_words(b) for b in g) for g in r.offers)
            text += f" In round {n} each player in turn may bid {offers} or pass; {prose('round_mode', r.mode)}."
        if c.all_pass == "redeal":
            text += " If every player passes, the cards are thrown in and dealt again."
        elif c.all_pass == "dealer":
            text += " If every other player passes, the dealer must bid."
        else:
            text += f" If every player passes, {_bid_words(c.play)} is played."
        return text
    if isinstance(c, ir.Requires):
        if c.exactly is not None:
            words = _sel(c.cards)
            if c.exactly == 1 and words.startswith(("a ", "an ")):
                return f"Only a player who holds exactly one {_cards(words)} may bid it."
            return f"Only a player who holds exactly {c.exactly} of {_cards(words)} may bid it."
        return f"Only a player who holds {prose('requires_how', 'all' if c.all else 'one')} {_cards(_sel(c.cards))} may bid it."
    if isinstance(c, ir.Offer):
        back = _cards(_sel(c.back)).removeprefix("any ")
        back = f"a {back}" if c.back_count == 1 else f"{c.back_count} of {back}"
        return (f"The declarer lays his one {_cards(_sel(c.cards))} on the table "
                f"{prose('offer_face', 'up' if c.face_up else 'down')}, and offers it to the others in turn from "
                f"{_seat(c.first, seats)}: the first who takes it gives him back {back}, face down, and plays with "
                f"him. A player who could not give that back may not take it.")
    if isinstance(c, ir.OfferRefused):
        return f"If nobody takes the card offered, {prose('refused_outcome', c.outcome)}."
    if isinstance(c, ir.CallRule):
        conds = (["he does not hold it"] if c.not_held else []) + (["he holds a copy of it"] if c.held else []) + (
            ["he holds a card of its colour and class"] if c.colour_held else [])
        where = f", where {' and '.join(conds)}" if conds else ""
        return f"The declarer calls {_sel(c.cards)}{where}."
    if isinstance(c, ir.Partner):
        return f"The declarer's partner is {prose('partner_who', c.who)}."
    if isinstance(c, ir.SitOut):
        return "The declarer's partner lays his cards aside and sits the game out."
    if isinstance(c, ir.Value):
        return f"The value {c.name} is {render(c.amount)}."
    if isinstance(c, ir.GamePoints):
        parts = [f"{prose('game_points_who', who)} scores {render(e)}"
                 for who, e in (("declarer", c.declarer), ("others", c.others), ("each", c.each)) if e is not None]
        text = "After the game " + "; ".join(parts) + " game points."
        if c.target is not None:
            text += (f" Games are played until a party has {c.target} game points; "
                     + ("the party with the fewest then wins." if c.lowest_wins else "it wins."))
        return text
    return None


def _bid_words(b: ir.BidItem | None) -> str:
    if b is None:
        return "nothing"
    colour = {"any": "", "turned": " in the turned card's colour", "not-turned": " in another colour than the turned card's"}
    return b.contract + colour[b.colour]


def section_order(manual: Manual):
    """A sort key putting citations in the manual's order (unknown ones last)."""
    order: dict[str, int] = {}
    for i, sec in enumerate(manual):
        order.setdefault(sec.cite, i * 100)
        for j, sub in enumerate(sec.subsections, start=1):
            order.setdefault((f"{sec.source}:" if sec.source else "") + sub.id, i * 100 + j)

    def key(cite: str) -> int:
        if cite in order:
            return order[cite]
        try:
            return order.get(manual.resolve(cite).section.cite, 10**6)
        except ManualError:
            return 10**6
    return key


def filed_under(r: Resolved, e: Effective) -> str:
    """The section a clause is shown under: its lacuna's for a lacuna reading, else its first citation."""
    if e.origin.lacuna:
        chosen = next((c for c in r.lacunae if c.lacuna.name == e.origin.lacuna), None)
        if chosen is not None:
            return chosen.lacuna.basis.section
    return e.clause.basis.section


def heading_of(manual: Manual, cite: str) -> str:
    """A section's citation and title ('§7 Checkmate'), or the citation alone where the manual lacks it."""
    try:
        res = manual.resolve(cite)
    except ManualError:
        return cite
    title = res.subsection.title if res.subsection else res.section.title
    return f"{cite} {title}"

"""The intermediate representation of a rule file.

Every node is a frozen pydantic model that forbids unknown fields, so the IR
can be dumped to JSON, validated back and described by a JSON Schema
(:func:`json_schema`). Every node made from source text keeps where it came
from (``at``: line and column), so later checks can point at the clause.

A rule file is a :class:`Ruleset`: a header and a list of statements. A
statement is a clause (one rule of the game, on one topic, with a
:class:`Basis`: its citations and grade), a :class:`Lacuna` (a gap with
options), a :class:`Choose`, or a :class:`Drop`.
"""

from __future__ import annotations

import enum
from typing import Annotated, Literal, Union

from pydantic import BaseModel, ConfigDict, Field


class Node(BaseModel):
    """Base of every IR node: frozen, strict, with a source position."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Pos(Node):
    """Where a node starts in its rule file (1-based line and column)."""

    line: int
    column: int


class Grade(str, enum.Enum):
    """How sure we are of a clause, from the manual's own words to new design."""

    printed = "printed"
    uncertain = "uncertain"
    inferred = "inferred"
    ai = "ai"
    conjecture = "conjecture"
    design = "design"


GRADE_MEANING = {
    Grade.printed: "the translated manual says it",
    Grade.uncertain: "printed, but the translation is doubtful",
    Grade.inferred: "deduced from another passage",
    Grade.ai: "taken from the AI reconstruction",
    Grade.conjecture: "our reconstruction of a gap",
    Grade.design: "a new variant's own rule",
}


class Basis(Node):
    """The bracket after a clause: what it cites and how sure it is."""

    cites: tuple[str, ...]
    grade: Grade | None = None
    at: Pos | None = None

    @property
    def section(self) -> str:
        """The first citation: the section a clause is filed under."""
        return self.cites[0]


# --- expressions -----------------------------------------------------------

class Num(Node):
    """An integer literal."""

    node: Literal["num"] = "num"
    value: int


class Name(Node):
    """A named quantity such as ``remaining`` or ``value``."""

    node: Literal["name"] = "name"
    name: str
    at: Pos | None = None


class BinOp(Node):
    """Two expressions joined by ``+ - * /``."""

    node: Literal["binop"] = "binop"
    op: Literal["+", "-", "*", "/", "<", "<=", ">", ">=", "==", "!="]
    left: "Expr"
    right: "Expr"


class Neg(Node):
    """A negated expression."""

    node: Literal["neg"] = "neg"
    operand: "Expr"


class Call(Node):
    """A rounding function applied to an expression."""

    node: Literal["call"] = "call"
    fn: str
    args: tuple["Expr", ...]
    at: Pos | None = None


Expr = Annotated[Union[Num, Name, BinOp, Neg, Call], Field(discriminator="node")]


# --- selectors: sets of cards named in clauses -----------------------------

class Atom(Node):
    """One term of a selector: a kind (or a class of cards), a face, a card, ``royal`` or ``any``.

    ``colour`` relates the term to another card: ``led`` (the led card's
    colour, in follow rules), ``same`` (the taking card's colour, in capture
    rules) or ``other`` (any colour but that one); or to the contract's trump
    colour: ``trump`` (of that colour) or ``trump-shade`` (of any colour of the
    trump's shade, black or red: the Jack of the same colour in euchre).
    """

    what: Literal["any", "royal", "kind", "face", "card"]
    name: str = ""
    colour: Literal["any", "led", "same", "other", "trump", "trump-shade", "called"] = "any"
    at: Pos | None = None


class Term(Node):
    """A selector term, optionally minus some cards (``officer except royal``)."""

    base: Atom
    minus: tuple[Atom, ...] = ()


class Selector(Node):
    """A union of terms, written with commas."""

    terms: tuple[Term, ...]


# --- clauses ---------------------------------------------------------------

class ClauseBase(Node):
    """What every clause has: a basis, a position and an optional reason."""

    basis: Basis | None = None
    because: str | None = None
    at: Pos | None = None


class Colour(Node):
    """A colour of the deck: its code in card names, its name, and its shade where the game pairs colours."""

    code: str
    name: str
    shade: str = ""


class Face(Node):
    """A face of a kind, present once per colour (or ``copies`` times)."""

    symbol: str
    name: str = ""
    copies: int = 1
    value: int = 0
    royal: bool = False
    roman: bool = False


class KindDecl(Node):
    """A kind of card (officer, pawn, suit card) and its faces."""

    name: str
    title: str = ""
    faces: tuple[Face, ...]
    at: Pos | None = None


class Deck(ClauseBase):
    """The cards: colours times faces, with copies."""

    clause: Literal["deck"] = "deck"
    colours: tuple[Colour, ...]
    kinds: tuple[KindDecl, ...]


class Seats(ClauseBase):
    """How many hands are dealt (players and dummies)."""

    clause: Literal["seats"] = "seats"
    count: int


class Parties(ClauseBase):
    """Which seats play together: fixed (``opposite``, or listed), the holders of some cards against the
    others (``holders``: the Old Ones of Wendish Schafkopf), or every player for himself (``each``)."""

    clause: Literal["parties"] = "parties"
    opposite: bool = False
    parties: tuple[tuple[int, ...], ...] = ()
    holders: Selector | None = None
    each: bool = False


class SeatRef(Node):
    """A seat named relative to the dealer, or absolutely."""

    base: Literal["dealer", "seat"]
    offset: int = 0


class Give(Node):
    """A card dealt face up to a given seat before the rest are dealt."""

    card: str
    to: SeatRef
    at: Pos | None = None


class Deal(ClauseBase):
    """How the cards reach the hands: face-up cards first, then the hands; what is left over lies in a stock
    (or skat), from which a card may be turned up for all to see; a hand may lie as a tableau of covered cards
    under face-up ones."""

    clause: Literal["deal"] = "deal"
    gives: tuple[Give, ...] = ()
    hand_size: int
    stock: int = 0
    turn: Literal["", "stock", "dealer"] = ""      # the top card of the stock, or the dealer's last card, turned up
    covered: int = 0                                 # tableau: cards of each hand dealt face down, covered


class Lead(ClauseBase):
    """Who leads: the first trick (``first``) or each later one (``next``); the first trick may be led by the
    holder of a card (``holder``: the two of clubs in Hearts; a restriction can make him lead it)."""

    clause: Literal["lead"] = "lead"
    which: Literal["first", "next"]
    by: SeatRef | None = None
    winner: bool = False
    holder: str = ""


class Restriction(ClauseBase):
    """Cards a player may not lead, play, or discard (play without following) while its conditions hold, unless
    he has nothing else he may play: hearts not led until broken, no point card to the first trick, the called
    Ace kept back.

    The conditions: ``first`` (in the first trick), ``before_last`` (before the last trick), ``until`` (until a card
    of this set has been played), ``holding`` (while the player holds a card of this set).
    """

    clause: Literal["restriction"] = "restriction"
    name: str
    act: Literal["lead", "play", "discard"]
    cards: Selector
    first: bool = False
    before_last: bool = False
    until: Selector | None = None
    holding: Selector | None = None


class Runners(ClauseBase):
    """The cards that count as runners: from the highest down (by the ranking), as many as one party holds
    without a gap (Schafkopf's Laufende); a settlement counts them as ``runners``."""

    clause: Literal["runners"] = "runners"
    cards: Selector


class Obligation(ClauseBase):
    """A card a player must play when a card of some set is led, if he holds it (the called Ace when its suit is
    led)."""

    clause: Literal["obligation"] = "obligation"
    name: str
    cards: Selector
    led: Selector


class Passing(ClauseBase):
    """Before play every player gives some cards to another, the direction going round by the game's number."""

    clause: Literal["passing"] = "passing"
    count: int
    directions: tuple[Literal["left", "right", "across", "none"], ...]


class Exchange(ClauseBase):
    """A player takes up cards (the turned card, the stock) and discards as many face down."""

    clause: Literal["exchange"] = "exchange"
    who: Literal["dealer", "declarer"]
    takes: Literal["turned", "stock"]
    discards: int


class BidItem(Node):
    """A contract a round of bidding offers, for one colour or every colour but the turned card's."""

    contract: str
    colour: Literal["any", "turned", "not-turned"] = "any"


class BidRound(Node):
    """A round of bidding: each player in turn bids one of the contracts offered or passes; the first bid wins,
    or the highest (by the round's order, a tie to the earlier bidder)."""

    offers: tuple[tuple[BidItem, ...], ...]          # groups from low to high; a group's contracts rank equal
    mode: Literal["first", "highest"]
    at: Pos | None = None


class Auction(ClauseBase):
    """The bidding before play: who speaks first, its rounds, and what happens when every player passes."""

    clause: Literal["auction"] = "auction"
    first: SeatRef
    rounds: tuple[BidRound, ...] = ()
    all_pass: Literal["redeal", "play", "dealer"]    # deal again, play a contract, or the dealer must bid
    play: BidItem | None = None


class Requires(ClauseBase):
    """What a player must hold to bid a contract: all of some cards, at least one, or exactly so many of them
    (``exactly``: the Bavarian Hochzeit is for a player with exactly one trump)."""

    clause: Literal["requires"] = "requires"
    cards: Selector
    all: bool = True
    exactly: int | None = None


class Offer(ClauseBase):
    """The declarer offers a card of his hand (the one card of ``cards`` he holds) to the other players, asked in
    turn from ``first``: the first to take it gives back ``back_count`` cards of ``back`` and is his partner
    (``partner: taker``). Face down, only the two of them see the cards that change hands; face up, the card
    offered is shown to all (Schafkopf's Hochzeit)."""

    clause: Literal["offer"] = "offer"
    cards: Selector
    face_up: bool = False
    first: SeatRef
    back_count: int
    back: Selector


class OfferRefused(ClauseBase):
    """What happens when every player asked lets the offered card lie: the cards are thrown in, or the declarer
    plays alone."""

    clause: Literal["offer refused"] = "offer refused"
    outcome: Literal["redeal", "alone"]


class CallRule(ClauseBase):
    """The declarer names a card; its holder is his partner (see ``partner``).

    ``not_held``: a card the declarer does not hold (no copy of it, with two decks); ``colour_held``: he holds a
    card of its colour and its class (a plain card of the called Ace's suit); ``held``: a card he holds a copy of
    (with two decks: the holders of its other copies are his partners)."""

    clause: Literal["call"] = "call"
    cards: Selector
    not_held: bool = False
    colour_held: bool = False
    held: bool = False


class Partner(ClauseBase):
    """Whom the declarer plays with: the holder of the called card, nobody, the first other player to take
    a trick, or the player who took the card he offered (``offer``)."""

    clause: Literal["partner"] = "partner"
    who: Literal["called", "none", "first-trick", "taker"]


class SitOut(ClauseBase):
    """The declarer's partner sits out the game: his cards are not played (playing alone)."""

    clause: Literal["sit out"] = "sit out"


class Value(ClauseBase):
    """A named quantity a contract gives its settlement (a tariff)."""

    clause: Literal["value"] = "value"
    name: str
    amount: Expr


class Ranking(ClauseBase):
    """The order of the cards, highest first; cards in one group rank equal.

    An item of a group is a face symbol (``D``: the Dame of every colour) or a
    selector in brackets (``(J of trump colour)``); every face takes the rank of
    the first group that names it.
    """

    clause: Literal["ranking"] = "ranking"
    groups: tuple[tuple[Union[str, Selector], ...], ...]


class CardClass(ClauseBase):
    """A class of cards named by a selector, such as the trumps: cards that follow and take as one suit.

    A card of a class is led, followed and taken by the follow and capture
    rules of its class (the first class that holds it) instead of its kind's.
    """

    clause: Literal["class"] = "class"
    name: str
    cards: Selector


class CaptureRule(Node):
    """Which cards a card of one kind takes: lower ones (or, as one reading has it, higher ones)."""

    taker: str
    victims: Selector
    direction: Literal["lower", "higher", "any"] = "lower"
    at: Pos | None = None
    basis: Basis | None = None        # the rule's own citations and grade; None: its clause's basis holds


class Capture(ClauseBase):
    """The capture relation: who takes whom, by kind and colour."""

    clause: Literal["capture"] = "capture"
    rules: tuple[CaptureRule, ...]


class TieRule(Node):
    """What happens between two equal cards of a kind."""

    kind: str
    rule: Literal["first", "later"]
    at: Pos | None = None


class Ties(ClauseBase):
    """Equal cards: the first played holds the trick, or the later one takes."""

    clause: Literal["ties"] = "ties"
    rules: tuple[TieRule, ...]


class Follow(ClauseBase):
    """What may be played to a led card of a kind, as ordered tiers."""

    clause: Literal["follow"] = "follow"
    led: str
    tiers: tuple[Selector, ...]


class Promote(Node):
    """A face that counts as another face in the last trick."""

    face: str
    as_face: str


class Promotion(ClauseBase):
    """Faces that count as others in the last trick."""

    clause: Literal["promotion"] = "promotion"
    promotes: tuple[Promote, ...]


class PointsEntry(Node):
    """Points for the cards a selector names (``value`` is the face's number)."""

    cards: Selector
    points: Expr
    at: Pos | None = None


class Points(ClauseBase):
    """Card points in tricks; ``promoted`` gives the points of promoted cards."""

    clause: Literal["points"] = "points"
    promoted: bool = False
    entries: tuple[PointsEntry, ...]


class Remaining(ClauseBase):
    """What ``remaining`` counts: the cards in each hand, or in all hands."""

    clause: Literal["remaining"] = "remaining"
    scope: Literal["each", "all"]


class KingEvent(ClauseBase):
    """A King's fate in the trick it falls in, and what it scores."""

    clause: Literal["king"] = "king"
    name: str
    when: Literal["opponent", "partner", "self"]
    scores: Literal["taker", "owner", "opponents"]
    first: Expr
    later: Expr


class KingOrder(ClauseBase):
    """Which King counts as first: over all events or per kind of event,
    and between two Kings that fall in one trick."""

    clause: Literal["king order"] = "king order"
    count: Literal["all", "each"]
    same_trick: Literal["play", "all-first"]


class Settlement(ClauseBase):
    """How the points of a game turn into money (or into game points toward a session's target).

    ``wins``: the declarer's party wins when this comes to more than nothing (else the party with more points
    wins); ``pays``: every player of the losing party pays each winner the amount (``player``), or every
    defender settles the amount with the declarer's party, which shares what it wins or pays (``defender``).
    """

    clause: Literal["settlement"] = "settlement"
    unit: str
    amount: Expr
    per: Literal["player", "defender"] = "player"
    wins: Expr | None = None


class GamePoints(ClauseBase):
    """The game points a game gives each party, toward the session's target (whist, euchre, hearts)."""

    clause: Literal["game points"] = "game points"
    declarer: Expr | None = None        # to the declarer's party
    others: Expr | None = None          # to each other party
    each: Expr | None = None            # to every party alike (no declarer)
    target: int | None = None           # the session ends when a party reaches this many game points
    lowest_wins: bool = False           # ... and the party with the fewest wins (hearts)


class Stake(ClauseBase):
    """Who settles a game's money: every seat, or every player once however many seats he plays."""

    clause: Literal["stake"] = "stake"
    per: Literal["seat", "player"]


class SettlePenalties(ClauseBase):
    """How penalty points become money: each penalty rounded on its own, or a game's debts summed first."""

    clause: Literal["settle penalties"] = "settle penalties"
    rounding: Literal["each", "game"]


class Penalty(ClauseBase):
    """A penalty for a breach of the rules."""

    clause: Literal["penalty"] = "penalty"
    name: str
    offence: str
    pays: int | None = None
    to: Literal["opponents", "players"] | None = None
    forfeit: bool = False
    take_back: bool = False


class Review(ClauseBase):
    """How many finished tricks a player may still look at."""

    clause: Literal["review"] = "review"
    tricks: int


class SeatChange(Node):
    """Before some rounds, a player changes places: the one ``after_a`` places after A
    with his left neighbour, or whoever sits on one seat with whoever sits on another."""

    rounds: Literal["even", "odd"]
    after_a: int | None = None
    seats: tuple[int, int] | None = None
    at: Pos | None = None


class Reign(Node):
    """The Kaiser schedule: each player in turn reigns for some rounds.

    In lot order starting from the Kaiser, the players sit on ``seats``; the
    dummy's cards lie on ``dummy``.
    """

    rounds: int
    seats: tuple[int, ...]
    dummy: int


class Session(ClauseBase):
    """Rounds, cycles and the seat changes between rounds; ``players`` names the players in lot order (A, B …)."""

    clause: Literal["session"] = "session"
    games_per_round: int
    rounds_per_cycle: int
    stop_after_cycle: bool = False
    reign: Reign | None = None
    changes: tuple[SeatChange, ...] = ()
    players: tuple[str, ...] = ()


class Dealer(ClauseBase):
    """Who deals the first game of a session and how the deal passes from game to game."""

    clause: Literal["dealer"] = "dealer"
    first: int | None = None
    passes: Literal["left", "right"]


class Memory(ClauseBase):
    """What players may keep in mind of finished tricks beyond what they may look at."""

    clause: Literal["memory"] = "memory"
    keeps: Literal["every", "review"]


class Automaton(ClauseBase):
    """Seats played by a fixed rule instead of a player (a solitaire's opponents).

    ``castles`` says what the rule does where castling is open to such a seat:
    ``never`` (it lets every chance go); None where the ruleset leaves it
    unsaid, which the compiler refuses when castling could reach the seat.
    ``passes`` says which cards the seat passes where cards are passed before
    play (Hearts): its ``highest`` or its ``lowest``, one at a time by the
    order the play rule ranks cards in; None where the ruleset leaves it unsaid,
    which the compiler refuses when the ruleset passes cards. ``bids``:
    ``never`` (the seat passes at every turn of an auction), ``forced`` (it
    passes where it may, and where the rules make it bid it makes the first bid
    open), or None. ``lays_away``: which cards it lays away where an exchange
    asks it to (its highest or its lowest, one at a time), or None. ``calls``:
    which card it calls where it declares a contract that calls a partner's card
    (the highest or the lowest of those it may call, by the contract's order of
    strength), or None.
    """

    clause: Literal["automaton"] = "automaton"
    seats: tuple[int, ...]
    policy: Literal["lowest", "highest", "cheapest-taker"]
    passes: Literal["highest", "lowest"] | None = None
    bids: Literal["never", "forced"] | None = None
    lays_away: Literal["highest", "lowest"] | None = None
    calls: Literal["highest", "lowest"] | None = None
    castles: Literal["never"] | None = None


class Permit(Node):
    """Who may castle, and when: before play, between tricks from some trick on, or as a rescue."""

    who: tuple[SeatRef, ...] = ()
    king_holder: bool = False
    when: Literal["before", "after", "rescue"]
    trick: int | None = None
    at: Pos | None = None


class Dummy(ClauseBase):
    """A hand without a player: whose seat plays it, and when it is laid open."""

    clause: Literal["dummy"] = "dummy"
    seat: int
    by: int
    exposed_after: int
    one_hand_at_a_time: bool = False


class Castling(ClauseBase):
    """Castling: exchanging a King for an officer of another hand.

    ``mode`` is ``none``, or ``rules``: then ``permits`` say who may castle and
    when; ``castle with``, ``castle officer``, ``castle limit`` and ``castle
    rescue`` say with whose hand, for which cards, how often and from which fates.
    """

    clause: Literal["castling"] = "castling"
    mode: Literal["none", "rules"]
    permits: tuple[Permit, ...] = ()


class CastleOfficer(ClauseBase):
    """Which cards of the hand a castle reaches may be taken in exchange for the King."""

    clause: Literal["castle officer"] = "castle officer"
    officer: Selector


class CastleLimit(ClauseBase):
    """How often castling may happen: once per game, per party, per player, or without limit."""

    clause: Literal["castle limit"] = "castle limit"
    limit: Literal["game", "party", "seat", "none"]


class CastleWith(ClauseBase):
    """Whose hand a castle reaches: the seat opposite, or the seat some places to the left or right.

    ``places`` counts seats to the left (the next seat is 1), negative to the
    right. ``partner`` claims that the hand reached is a partner's; the
    compiler holds the parties to that claim.
    """

    clause: Literal["castle with"] = "castle with"
    opposite: bool = False
    places: int = 0
    partner: bool = False


class CastleKing(ClauseBase):
    """Whose King a castle exchanges: the castler's own only, or before play the other hand's when he holds none."""

    clause: Literal["castle king"] = "castle king"
    takes: Literal["own", "other-before-play"]


class CastleMoment(ClauseBase):
    """How many castles one moment of castling allows: ``one`` (the first castle ends it) or ``each`` seat one."""

    clause: Literal["castle moment"] = "castle moment"
    castles: Literal["one", "each"]


class SeatNames(ClauseBase):
    """What the seats are called at the table, seat by seat (South, West …; the Kaiser, the dummy …)."""

    clause: Literal["seat names"] = "seat names"
    names: tuple[str, ...]


class PartyNames(ClauseBase):
    """What the parties are called, party by party in the order of the parties clause."""

    clause: Literal["party names"] = "party names"
    names: tuple[str, ...]


class CastleRescue(ClauseBase):
    """Which fates of a King a rescue may undo, by the names of the King events (checkmate, selfmate)."""

    clause: Literal["castle rescue"] = "castle rescue"
    events: tuple[str, ...]


Clause = Annotated[
    Union[Deck, Seats, Parties, Deal, Lead, Ranking, Capture, Ties, Follow, Promotion,
          Points, Remaining, KingEvent, KingOrder, Settlement, Penalty, Review, Memory, Session,
          Dealer, Castling, CastleOfficer, CastleLimit, CastleWith, CastleRescue, CastleKing, CastleMoment, Dummy,
          Automaton, Stake, SettlePenalties, SeatNames, PartyNames, CardClass, Restriction, Obligation, Runners,
          Passing, Exchange, Auction, Requires, Offer, OfferRefused, CallRule, Partner, SitOut, Value, GamePoints],
    Field(discriminator="clause"),
]


def clause_key(clause: ClauseBase) -> str:
    """The key a clause is known by: its topic, and its name where a topic has several.

    >>> clause_key(Follow(led="pawn", tiers=()))
    'follow pawn'
    >>> clause_key(Seats(count=4))
    'seats'
    """
    c = clause
    if isinstance(c, Follow):
        return f"follow {c.led}"
    if isinstance(c, Lead):
        return f"lead {c.which}"
    if isinstance(c, Points):
        return "points promoted" if c.promoted else "points"
    if isinstance(c, KingEvent):
        return f"king {c.name}"
    if isinstance(c, Penalty):
        return f"penalty {c.name}"
    if isinstance(c, Dummy):
        return f"dummy {c.seat}"
    if isinstance(c, CardClass):
        return f"class {c.name}"
    if isinstance(c, Value):
        return f"value {c.name}"
    if isinstance(c, (Restriction, Obligation)):
        return f"{c.clause} {c.name}"
    return c.clause  # type: ignore[attr-defined]


# --- lacunae and the statements around them --------------------------------

class Evidence(Node):
    """A passage that bears on a lacuna, quoted with its citation."""

    basis: Basis
    quote: str
    at: Pos | None = None


class Option(Node):
    """One reading of a lacuna: graded, cited, and the clauses it implies."""

    name: str
    basis: Basis
    summary: str
    clauses: tuple[Clause, ...]
    at: Pos | None = None


class Lacuna(Node):
    """A gap or ambiguity in the manual, with every reading we can defend."""

    statement: Literal["lacuna"] = "lacuna"
    name: str
    basis: Basis
    question: str
    evidence: tuple[Evidence, ...] = ()
    options: tuple[Option, ...]
    at: Pos | None = None

    def option(self, name: str) -> Option | None:
        """The option called ``name``, or None."""
        return next((o for o in self.options if o.name == name), None)


class Choose(Node):
    """The reading a ruleset plays for a lacuna, and why."""

    statement: Literal["choose"] = "choose"
    lacuna: str
    option: str
    because: str | None = None
    at: Pos | None = None


class Drop(Node):
    """Removes inherited clauses: by key, by section, or a whole lacuna."""

    statement: Literal["drop"] = "drop"
    key: str = ""
    section: str = ""
    lacuna: str = ""
    contract: str = ""
    at: Pos | None = None


class Contract(Node):
    """A contract a player may bid and play: the clauses that hold when it is played, over the ruleset's own.

    ``each_colour``: one contract for every colour, whose clauses speak of ``trump colour``; ``like``: another
    contract whose clauses it starts from.
    """

    statement: Literal["contract"] = "contract"
    name: str
    basis: Basis
    title: str
    each_colour: bool = False
    like: str | None = None
    clauses: tuple[Clause, ...] = ()
    at: Pos | None = None


class Override(Node):
    """A clause that replaces the parent's clause of the same key."""

    statement: Literal["override"] = "override"
    clause: Clause
    at: Pos | None = None


class ClauseStatement(Node):
    """A clause given at the top level of a ruleset."""

    statement: Literal["clause"] = "clause"
    clause: Clause


Statement = Annotated[
    Union[ClauseStatement, Override, Lacuna, Choose, Drop, Contract],
    Field(discriminator="statement"),
]


class Ruleset(Node):
    """A whole rule file: a name, an optional parent, and statements."""

    name: str
    title: str = ""
    extends: str | None = None
    statements: tuple[Statement, ...] = ()
    file: str = ""


for _model in (BinOp, Neg, Call, PointsEntry, KingEvent, Settlement, Option, Lacuna,
               Override, ClauseStatement, Ruleset, GamePoints, Value, Contract):
    _model.model_rebuild()


def json_schema() -> dict:
    """The JSON Schema of a rule file's IR.

    >>> json_schema()["title"]
    'Ruleset'
    """
    return Ruleset.model_json_schema()


def strip_positions(data):
    """A JSON-like dump with every source position removed (for comparing IRs).

    >>> strip_positions({"at": {"line": 1, "column": 2}, "name": "x", "file": "a"})
    {'name': 'x'}
    """
    if isinstance(data, dict):
        return {k: strip_positions(v) for k, v in data.items() if k not in ("at", "file")}
    if isinstance(data, (list, tuple)):
        return [strip_positions(v) for v in data]
    return data

"""How to play Schachett: the reconstruction taught to a beginner, as a lesson of parts.

The lesson is built once from the rule file and the kernel, then written two ways: as the site's
"How to play" page (:func:`how_to_play_markdown`) and as the printable rules sheet
(:mod:`schachett_rules.printing.rulesheet`). The prose is ours; every number in it (hand sizes,
points, the King events' scores, the settlement) is read from the compiled tables, every example
trick is judged by the kernel (:func:`~schachett_rules.kernel.trick.holders_of_faces` for the winner,
:func:`~schachett_rules.kernel.scoring.king_events` for the King's fate), and the sample hand is a
real game played by the engine, each trick with the engine's own reason for its winner.

>>> lesson = build_lesson()
>>> [p.title for p in lesson.parts][:3]
['What kind of game it is', 'The cards', 'The deal']
"""

from __future__ import annotations

import html
import random
from dataclasses import dataclass, field

from ..kernel.state import State
from ..kernel.records import CastleRecord, PlayRecord, TrickRecord
from ..kernel.compiler import Tables, compile_ruleset
from ..kernel.scoring import KingCount, king_events, settle
from ..kernel.trick import holders_of_faces, kings_in, trick_points, explain
from ..players.bots import HeuristicBot, play_game
from ..rules.loader import Resolved, load
from ..rules.prose import deck_of, sentence
from .context import render
from .svgcards import card_svg, face_filename, trick_svg

RULESET = "reconstruction"
SEATS = ("South", "West", "North", "East")     # seat 0 sits at the bottom of a drawing, the others clockwise
SAMPLE_SEED, SAMPLE_DEALER = 44, 0             # the sample hand: a fixed deal, so the page is the same every build
PAGE = "play.md"

# What the letters stand for: the manual's German words behind its abbreviations (§1).
LETTERS = {"K": ("König", "King"), "D": ("Dame", "Dame (the queen)"), "T": ("Turm", "Rook"),
           "L": ("Läufer", "Bishop"), "S": ("Springer", "Knight")}
KIND_LETTERS = {"pawn": ("B", "Bauer", "pawn"), "suit": ("F", "Farbenblatt", "suit card")}
COLOUR_WORDS = {"w": "weiß", "s": "schwarz"}

# Constructed tricks that show one King event each; the kernel says which event each one is, and
# the page takes, for every event of the rule file, the first trick the kernel judges to be it.
EVENT_TRICKS = [
    (0, ["wK", "sD", "wS", "sL"]),          # South leads his King, West's Dame takes it
    (1, ["sK", "wV", "sT", "wII"]),         # West leads his King, his partner East's Rook takes it
    (0, ["wK", "w5", "wII", "s8"]),         # South leads his King and nobody can take it
]
PROMOTION_TRICK = (2, ["wV", "wI", "wIX", "s7"])   # in the last trick the white I counts as a Dame
FOLLOW_TRICK = (1, ["s3", "s7", "w8", "sVI"])      # a pawn led: a higher pawn of its colour takes it, a white one does not


class SiteOnly(str):
    """Words of the lesson for the site only: they point at what the printed sheet leaves out."""


@dataclass(frozen=True)
class Picture:
    """A drawing of the lesson: its file name, the SVG and the words under it."""

    name: str
    svg: str
    caption: str = ""


@dataclass(frozen=True)
class Table:
    """A small table: a header row and rows of cells (markdown allowed in cells)."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass
class Part:
    """One part of the lesson: a heading and its blocks (text, pictures, tables) in order."""

    title: str
    anchor: str
    blocks: list = field(default_factory=list)
    print_too: bool = True        # the printable sheet leaves the long sample hand out


@dataclass
class Lesson:
    """The whole lesson, and the facts the tests check it by."""

    title: str
    ruleset: str
    parts: list[Part]
    event_examples: dict[str, tuple[list[tuple[int, int]], int, int]]   # event -> (plays, winner, points)
    sample: State


def _cards(t: Tables, leader: int, names: list[str]) -> list[tuple[int, int]]:
    """A trick as (seat, card) from card names, round the table from ``leader``; two of a name are two copies."""
    used, plays, seat = set(), [], leader
    for name in names:
        mask = t.deck.cards(1 << t.face(name))
        card = next(c for c in range(t.n_cards) if mask >> c & 1 and c not in used)
        used.add(card)
        plays.append((seat, card))
        seat = t.next_seat(seat)
    return plays


def _faces(t: Tables, plays) -> list[tuple[int, int]]:
    return [(s, t.deck.card_face[c]) for s, c in plays]


def _why(t: Tables, index: int, faces: list[tuple[int, int]]) -> list[str]:
    """The kernel's reason for each card after the lead: does it take the trick from the card holding it?"""
    held = holders_of_faces(t, index, faces)
    return [explain(t, index, f, held[i][1]) for i, (_s, f) in enumerate(faces[1:])]


def _name(t: Tables, face: int) -> str:
    return t.deck.face_names[face]


def _draw(t: Tables, faces, leader: int, winner: int, caption: str, labels=None) -> str:
    return trick_svg(t.deck, faces, leader=leader, winner=winner, n_seats=t.n_seats,
                     labels=labels or {s: SEATS[s] for s in range(t.n_seats)}, caption=caption)


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")


def _who_scores(ev) -> str:
    return {"taker": "the party that took the King", "owner": "the King's own party",
            "opponents": "the King's opponents"}[ev.scores]


def _event_when(ev) -> str:
    return {"opponent": "an opponent takes the trick in which a King lies",
            "partner": "the King's own partner takes the trick",
            "self": "the King itself takes the trick"}[ev.when]


def _seat_of(t: Tables, base: str, offset: int, dealer: int) -> int:
    return (dealer + offset) % t.n_seats if base == "dealer" else offset


class _Builder:
    def __init__(self, r: Resolved, t: Tables):
        self.r, self.t, self.deck = r, t, deck_of(r)
        self.parts: list[Part] = []
        self.event_examples: dict = {}
        self.game = play_game(t, SAMPLE_DEALER, [HeuristicBot(t) for _ in range(t.n_seats)], random.Random(SAMPLE_SEED))

    def rule(self, key: str) -> str:
        """A clause of the rule file in words, as a quoted line under our own explanation."""
        e = self.r.clause(key)
        cites = ", ".join(e.basis.cites)
        return f"> **The rule** [{cites}]: {sentence(e, self.deck)}"   # brackets, as a rule file writes its basis

    def part(self, title: str, anchor: str, *blocks, print_too: bool = True) -> Part:
        p = Part(title, anchor, list(blocks), print_too)
        self.parts.append(p)
        return p

    # --- the parts ----------------------------------------------------------------------------
    def intro(self) -> None:
        t = self.t
        self.part("What kind of game it is", "what-kind", (
            f"Schachett is a trick-taking game for {t.n_seats} players, like Whist or Bridge, with the pieces of "
            "chess on the cards. You play in two partnerships; your partner sits opposite you. In each game every "
            f"player gets {t.hand_size} cards and there are {t.n_tricks} tricks: one player leads a card, the others "
            "play one each in turn to the left, and the strongest card takes the trick. Your partnership scores the "
            "pawns and officers in the tricks it takes, and, above all, the fate of the two Kings: taking the enemy "
            "King is *checkmate*, taking your partner's King is *selfmate*, and a King that takes a trick itself is "
            "*stalemated*. The earlier a King falls, the more it is worth."),
            ("This page teaches our reconstruction of the game, the ruleset "
             f"[`{RULESET}`](rulebooks/{RULESET}.md) (*play this one*): the surviving manual with one reading "
             "chosen wherever a page is lost or a sentence unclear. Seats are named South, West, North and East; "
             "South and North play against West and East."))

    def cards(self, write) -> None:
        t, d = self.t, self.t.deck
        counts = {}
        for f in d.card_face:
            counts[(d.face_colour[f], d.face_kind[f])] = counts.get((d.face_colour[f], d.face_kind[f]), 0) + 1
        total = {k: sum(v for (c, kk), v in counts.items() if kk == k) for k in d.kinds}
        rows = []
        for face in range(len(d.face_names)):
            if d.face_kind[face] != d.kinds[0] or d.face_colour[face] != 0:
                continue
            sym = d.face_names[face][1:]
            german, english = LETTERS.get(sym, ("", sym))
            copies = d.face_cards[face].bit_count()
            rows.append((f"**{sym}**", german, english, f"{copies} of each colour", f"{t.points[face]}"))
        for kind in d.kinds[1:]:
            letter, german, english = KIND_LETTERS.get(kind, (kind[:1].upper(), "", kind))
            faces = [f for f in range(len(d.face_names)) if d.face_kind[f] == kind and d.face_colour[f] == 0]
            span = f"{d.face_names[faces[0]][1:]} to {d.face_names[faces[-1]][1:]}"
            pts = sorted({t.points[f] for f in faces})
            rows.append((f"**{letter}**", german, english, f"{len(faces)} of each colour, numbered {span}",
                         "its number" if len(pts) > 1 else str(pts[0])))
        for code, german in COLOUR_WORDS.items():
            ci = d.colours.index(code)
            rows.append((f"**{code}**", german, d.colour_names[ci], "the colour, written first: "
                         f"{code}K is the {d.colour_names[ci]} King", ""))
        names = ["wK", "wD", "sT", "wL", "sS", "w8", "s3", "wX", "sIV"]
        pics = []
        for n in names:
            f = t.face(n)
            write(f"assets/learn/{face_filename(d, f)}", card_svg(d, f))
            pics.append(Picture(f"assets/learn/{face_filename(d, f)}", card_svg(d, f), n))
        kinds = ", ".join(f"{total[k]} {d.kind_titles[d.kinds.index(k)]}s" for k in d.kinds)
        self.part("The cards", "cards", (
            f"The pack has {t.n_cards} cards in two colours, white and black: {kinds}. Each card is named by "
            "letters, as the manual names them and as game records write them: first the colour (w or s), then the "
            "piece or the number. So wK is the white King, sD the black Dame, w6 the white pawn 6, sIII the black "
            "suit card III. The letters are the German words of the manual (§1):"),
            Table(("letter", "German", "means", "in the pack", "points"), tuple(rows)),
            ("The *officers* are the chess pieces K, D, T, L and S; the *pawns* (B) carry the numbers 1 to 8; "
             "the *suit cards* (F) carry the Roman numerals I to X. Here are a few of them:"),
            ("cards", tuple(pics)),
            self.rule("deck"))

    def deal(self) -> None:
        t = self.t
        given = [(face, _seat_of(t, b, o, 0)) for face, b, o in t.gives]
        said = " and ".join(f"the {_name(t, f)} face up to {('the dealer' if s == 0 else SEATS[s] + ' (on his left)')}"
                            for f, s in given)
        rest = t.n_cards - len(given)
        self.part("The deal", "deal", (
            f"Say South deals. Before anything else he gives {said}: everyone sees where the two Kings are, and each "
            f"partnership has one. Then he shuffles the other {rest} cards and deals them so that every player holds "
            f"{t.hand_size}. After each game the deal passes to the left."),
            self.rule("deal"), self.rule("dealer"))

    def play(self) -> None:
        t, d = self.t, self.t.deck
        led_faces = {kind: next(f for f in range(len(d.face_names)) if d.face_kind[f] == kind) for kind in d.kinds}
        rows = []
        for kind, f in led_faces.items():
            tiers = [f"({i + 1}) {w}" for i, w in enumerate(t.follow_words[f])]
            title = d.kind_titles[d.kinds.index(kind)]
            rows.append((f"a {d.colour_names[d.face_colour[f]]} {title} ({d.face_names[f]})", "; ".join(tiers)))
        white = sorted((f for f in range(len(d.face_names)) if d.face_colour[f] == 0), key=lambda f: -t.rank[f])
        leader, names = FOLLOW_TRICK
        plays = _cards(t, leader, names)
        faces = _faces(t, plays)
        winner = holders_of_faces(t, 0, faces)[-1]
        why = _why(t, 0, faces)
        cap = (f"{SEATS[leader]} leads {names[0]}; {_name(t, winner[1])} takes the trick for {SEATS[winner[0]]}: "
               + "; ".join(why) + ".")
        self.part("Leading and following", "play", (
            "The player on the dealer's left leads to the first trick: he plays any card he likes, face up. Then "
            "each player in turn to the left plays one card. Afterwards whoever took a trick leads to the next. "
            "You must answer the card that was led. What you must play depends on the kind of card led; you play "
            "the first of these you can, and within it any card you like:"),
            Table(("when the card led is", "you must play, if you can"), tuple(rows)),
            "When a black card is led, read black for white. So an officer led calls for an officer, whichever "
            "colour; a pawn or a suit card calls first for the same kind in the same colour. Only when you have "
            "nothing that fits may you play any card.",
            self.rule("lead first"), self.rule("lead next"))
        self.part("Who takes a trick", "take", (
            "The card holding the trick is at first the one led. A card played later takes the trick from it only "
            "if it may capture it: an officer takes any lower card, whatever its colour; a pawn takes only a "
            "lower pawn or suit card of its own colour; a suit card only a lower suit card of its own colour. "
            "A card that cannot capture is simply thrown away. From strongest to weakest:"),
            f"**{' > '.join(d.face_names[f][1:] for f in white)}**",
            ("The King is the weakest officer, but still above every pawn. Of two equal officers (there are two "
             "Rooks, Bishops and Knights of each colour, and one Dame of each colour stands against the other) the "
             "one played first holds the trick."),
            Picture("assets/learn/follow.svg", _draw(t, faces, leader, winner[0], cap), cap),
            self.rule("ranking"), self.rule("capture"), self.rule("ties"))

    def kings(self) -> None:
        t = self.t
        blocks: list = [(
            "The heart of the game is the two Kings. A King is played like any officer, but wherever it ends up, "
            "something happens, and the number of cards still in the players' hands decides how much: the "
            f"*remaining cards*, {t.hand_size} before the first trick and 1 before the last. The first King to meet "
            "its fate earns a large bonus; the second earns less.")]
        for ev in t.events:
            for leader, names in EVENT_TRICKS:
                plays = _cards(t, leader, names)
                faces = _faces(t, plays)
                winner = holders_of_faces(t, 0, faces)[-1]
                fates = king_events(t, 0, kings_in(t, plays), winner[0], KingCount())
                if fates and fates[0][0].name == ev.name:
                    break
            else:
                raise ValueError(f"no example trick shows the King event {ev.name}")
            _e, king, owner, _first, pts, parties = fates[0]
            self.event_examples[ev.name] = (faces, winner[0], pts)
            scorers = " and ".join(SEATS[s] for p in parties for s in t.parties[p])
            cap = (f"{ev.name.capitalize()} in the first trick: {SEATS[owner]}'s {_name(t, king)} falls to "
                   f"{SEATS[winner[0]]}'s {_name(t, winner[1])}; {scorers} score {pts}.")
            blocks += [f"### {ev.name.capitalize()}",
                       f"**{ev.name.capitalize()}**: {_event_when(ev)}. It scores for {_who_scores(ev)}: "
                       f"{ev.first[0]} points if it happens in the first trick to the first King, and "
                       f"{ev.first[-1]} in the last trick; a second King scores {ev.later[0]} in the first trick and "
                       f"{ev.later[-1]} in the last.",
                       Picture(f"assets/learn/{ev.name}.svg", _draw(t, faces, leader, winner[0], cap), cap),
                       self.rule(f"king {ev.name}")]
        shown = [0, 1, 2, t.n_tricks // 2, t.n_tricks - 2, t.n_tricks - 1]
        rows = tuple((f"trick {i + 1} ({t.hand_size - i} in hand)",
                      *(f"{e.first[i]} / {e.later[i]}" for e in t.events)) for i in shown)
        blocks += ["### What a King is worth",
                   "Points for the first King / for the second, by the trick it falls in:",
                   Table(("the King falls in", *(e.name for e in t.events)), rows),
                   self.rule("remaining"), self.rule("king order")]
        self.part("The Kings: checkmate, selfmate, stalemate", "kings", *blocks)

    def promotion(self) -> None:
        t, d = self.t, self.t.deck
        promoted = [(f, t.promoted_as[f]) for f in range(len(d.face_names))
                    if t.promoted_as[f] != f and d.face_colour[f] == 0]
        said = ", ".join(f"{_name(t, f)[1:]} as {LETTERS.get(_name(t, g)[1:], ('', _name(t, g)[1:]))[1]}"
                         for f, g in promoted)
        leader, names = PROMOTION_TRICK
        last = t.n_tricks - 1
        plays = _cards(t, leader, names)
        faces = _faces(t, plays)
        winner = holders_of_faces(t, last, faces)[-1]
        pts = trick_points(t, last, plays)
        why = _why(t, last, faces)
        cap = (f"The last trick: {SEATS[leader]} leads {names[0]}; {_name(t, winner[1])} takes it for "
               f"{SEATS[winner[0]]}, {pts} points: {why[0]}.")
        self.part("Promotion in the last trick", "promotion", (
            "As pawns are promoted in chess, the four lowest suit cards become officers in the last trick: "
            f"{said}. They take the trick as those officers do, and score as them."),
            Picture("assets/learn/promotion.svg", _draw(t, faces, leader, winner[0], cap), cap),
            self.rule("promotion"), self.rule("points promoted"))

    def castling(self) -> None:
        t = self.t
        c = t.castling
        limit = {"party": "once in a game for each partnership", "game": "once in a game",
                 "seat": "once in a game for each player", "none": "as often as allowed"}[c.limit]
        self.part("Castling", "castling", (
            "A King may *castle*: it changes places with an officer (not the other King) from the hand of the "
            f"player opposite, that is, from the partner's hand, {limit}. With South dealing: "
            + "; ".join(self._permit_words(p) for p in c.permits) + "."),
            *[SiteOnly(f"The [sample game](#sample) below has a rescue in trick {c.trick}.")
              for c in self.game.castles[:1] if c.kind == "rescue"],
            self.rule("castling"), self.rule("castle officer"), self.rule("castle limit"))

    def _permit_words(self, permit) -> str:
        """Who may castle, and when, in words, with South dealing (one permit of the castling table)."""
        seats, any_holder, when, trick = permit
        who = ("whoever holds a King" if any_holder else
               " and ".join(SEATS[_seat_of(self.t, b, o, SAMPLE_DEALER)] for b, o in seats))
        if when == "before":
            return f"{who} may castle before the first card is played"
        if when == "after":
            return f"{who} may castle between tricks, from the end of trick {trick} on"
        where = f"in trick {trick}" if trick is not None else "in any trick"
        return (f"{who} may castle {where} as a rescue: a King just checkmated or selfmated is lifted out of the trick "
                "and the officer from the partner's hand takes its place there")

    def scoring(self) -> None:
        t, d = self.t, self.t.deck
        rows = []
        for face in range(len(d.face_names)):
            if d.face_colour[face] == 0 and d.face_kind[face] == d.kinds[0]:
                rows.append((_name(t, face)[1:] + " " + LETTERS.get(_name(t, face)[1:], ("", ""))[1],
                             str(t.points[face])))
        pawn = [f for f in range(len(d.face_names)) if d.face_kind[f] == "pawn"]
        suit = [f for f in range(len(d.face_names)) if d.face_kind[f] == "suit"]
        values = sorted({t.points[f] for f in pawn})
        rows.append(("pawn", f"its number ({values[0]} to {values[-1]})" if len(values) > 1 else str(values[0])))
        rows.append(("suit card", f"{t.points[suit[0]]} (but the promoted I to IV in the last trick "
                                   "score as their officers)"))
        total = sum(t.points[f] for f in d.card_face)
        win, money = settle(t, (190, 68))
        unit = t.settlement.unit
        self.part("Scoring", "scoring", (
            "When the 13 tricks are played, each partnership adds up the points of the cards in the tricks it took, "
            "and the points of the King events it earned:"),
            Table(("card", "points"), tuple(rows)),
            (f"The cards are worth {total} points in all; the Kings count nothing as cards, for they are scored by "
             "their fate."), self.rule("points"),
            ("### The settlement"),
            (f"The partnership with more points wins. Each winner receives, and each loser pays, a quarter of the "
             f"difference in {unit} (pfennig), rounded half up. The manual's own example (§12): 190 points against "
             f"68, a difference of 122, a quarter of it 30.5, so each winner gets {money[0]} {unit} and each loser "
             f"pays {-money[1]}."), self.rule("settlement"),
            ("### A whole evening"),
            ("Play goes in *rounds* of 4 games; 6 rounds make a *cycle* of 24 games, and between rounds two players "
             "change places so that everyone partners everyone. Stop only at the end of a cycle. The "
             "[score sheet](downloads/schachett-scoresheet-a4.pdf) lays it out."), self.rule("session"))

    def sample(self) -> State:
        t = self.t
        game = self.game
        deal = game.log[0]
        hands = tuple((SEATS[s] + (" (dealer)" if s == deal.dealer else ""), " ".join(h))
                      for s, h in enumerate(deal.hands))
        blocks: list = [(
            "Here is a whole game, played by four of the program's players (its heuristic players, which play by "
            "the rules and some sense, not well). South deals; the Kings are laid face up first. The hands:"),
            Table(("player", "cards"), hands)]
        forced: list[str] = []
        for rec in game.log[1:]:                 # the game's own log, in the order things happened
            if isinstance(rec, PlayRecord):
                if rec.forced_by:
                    forced.append(f"{SEATS[rec.seat]} {rec.forced_by}")
            elif isinstance(rec, CastleRecord):
                blocks.append(self._castle_words(rec))
            elif isinstance(rec, TrickRecord):
                blocks += self._sample_trick(rec, forced)
                forced = []
        res = game.result()
        rows = tuple((" and ".join(SEATS[s] for s in t.parties[p]), str(res.card_points[p]), str(res.event_points[p]),
                      f"**{res.totals[p]}**", f"{res.settlement[t.parties[p][0]]:+g} {res.unit} each")
                     for p in range(len(t.parties)))
        winner = " and ".join(SEATS[s] for s in t.parties[res.winner]) if res.winner is not None else "nobody"
        blocks += ["### The score", Table(("partnership", "cards", "Kings", "total", "money"), rows),
                   f"{winner} win the game."]
        self.part("A sample game, trick by trick", "sample", *blocks, print_too=False)
        return game

    @staticmethod
    def _castle_words(c: CastleRecord) -> str:
        """A castle of the sample game in words."""
        swap = (f"the {c.king} goes into {SEATS[c.with_seat]}'s hand and {SEATS[c.with_seat]}'s {c.officer} comes "
                f"into {SEATS[c.seat]}'s")
        if c.kind == "rescue":
            return (f"**Castling as a rescue** ({c.cite}): {SEATS[c.seat]}'s {c.king} has just been taken in trick "
                    f"{c.trick}, so {SEATS[c.seat]} castles: the {c.king} is lifted out of the trick into "
                    f"{SEATS[c.with_seat]}'s hand, and {SEATS[c.with_seat]}'s {c.officer} takes its place in the trick.")
        when = "before the first card" if c.kind == "before" else f"before trick {c.trick}"
        return f"**Castling** ({c.cite}): {SEATS[c.seat]} castles {when}: {swap}."

    def _sample_trick(self, tr: TrickRecord, forced: list[str]) -> list:
        t = self.t
        faces = [(s, t.face(c)) for s, c in tr.cards]
        events = "; ".join(f"{e.event} of the {e.king} ({'first' if e.order == 'first' else 'second'} King): "
                           f"{' and '.join(SEATS[s] for p in e.scoring_parties for s in t.parties[p])} score {e.points}"
                           for e in tr.events)
        head = (f"Trick {tr.number}{' (the last)' if tr.last else ''}: {SEATS[tr.leader]} leads {tr.cards[0][1]}; "
                f"{SEATS[tr.winner]} takes it with the {tr.winning_card}, {tr.points} card points")
        cap = head + (f". {events[0].upper() + events[1:]}." if events else ".")
        why = "; ".join(tr.why)
        out = [Picture(f"assets/learn/sample-{tr.number}.svg", _draw(t, faces, tr.leader, tr.winner, cap), cap),
               f"*Why:* {why}."]
        if forced:
            out.append("*Had to follow:* " + "; ".join(forced) + ".")
        return out


def build_lesson(write=None) -> Lesson:
    """The lesson, from the reconstruction's rule file; card pictures go through ``write`` when given."""
    r = load(RULESET)
    t = compile_ruleset(r)
    b = _Builder(r, t)
    w = write or (lambda path, content: None)
    b.intro()
    b.cards(w)
    b.deal()
    b.play()
    b.kings()
    b.promotion()
    b.castling()
    b.scoring()
    game = b.sample()
    return Lesson(title="How to play Schachett", ruleset=RULESET, parts=b.parts, event_examples=b.event_examples,
                  sample=game)


def _md_table(tab: Table) -> str:
    def cell(s: str) -> str:
        return s.replace("|", "\\|")
    lines = ["| " + " | ".join(tab.header) + " |", "|" + "---|" * len(tab.header)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in tab.rows]
    return "\n".join(lines)


def _block_markdown(block, write) -> str:
    if isinstance(block, Picture):
        write(block.name, block.svg)
        return f"![{html.escape(block.caption)}]({block.name}){{ .trick }}"
    if isinstance(block, Table):
        return _md_table(block)
    if isinstance(block, tuple) and block and block[0] == "cards":
        for pic in block[1]:
            write(pic.name, pic.svg)
        return " ".join(f"![{pic.caption}]({pic.name}){{ width=64 }}" for pic in block[1])
    return str(block)


def how_to_play_markdown(lesson: Lesson, write) -> str:
    """The site page: every part, its drawings written as files beside it."""
    parts = [{"title": p.title, "anchor": p.anchor, "body": "\n\n".join(_block_markdown(b, write) for b in p.blocks)}
             for p in lesson.parts]
    downloads = {f"{kind}_{paper}": f"downloads/schachett-{kind}-{paper}.pdf"
                 for kind in ("rules", "scoresheet") for paper in ("a4", "letter")}
    return render("play.md.j2", title=lesson.title, ruleset=lesson.ruleset, parts=parts, downloads=downloads)


def learn_pages(write) -> Lesson:
    """Write the How to play page and its drawings; return the lesson (the printable sheet uses it too)."""
    lesson = build_lesson(write)
    write(PAGE, how_to_play_markdown(lesson, write))
    return lesson

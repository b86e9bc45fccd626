"""How to play Schachett: the reconstruction taught to a beginner, as a lesson of parts.

The lesson is built once from the rule file and the kernel, then written two ways: as the site's
"How to play" page (:func:`how_to_play_markdown`) and as the printable rules sheet
(:mod:`schachett_rules.printing.rulesheet`). The prose is ours; every number in it (hand sizes,
points, the King events' scores, the penalties, the settlement) is read from the compiled tables,
every figure is a trick of a game the engine played (:mod:`.lesson_figures`), captioned from the
trick itself, and the sample hand is a whole game (:mod:`.lesson_sample`). Where the manual is
silent, the page says so and tells which reading the reconstruction plays.

>>> lesson = build_lesson()
>>> [p.title for p in lesson.parts][:3]
['What kind of game it is', 'The cards', 'Seats and the deal']
"""

from __future__ import annotations

import html
from fractions import Fraction

from ..engine.session import default_players, seatings
from ..studies.example12.model import DEFAULT_TARGETS as EXAMPLE_12
from ..kernel.compiler import Tables, compile_ruleset
from ..kernel.scoring import penalty_settlement, settle
from ..kernel.trick import holders_of_faces
from ..rules.loader import Resolved, load
from ..rules.prose import deck_of, penalty_effects, sentence
from ..rules.seating import and_list, player_words
from .context import render
from .lesson_castling import castling_blocks
from .lesson_figures import (FIGURE_DEALER, FigureSearch, Shown, colours_apart, dame_before_promoted, drawn,
                             headline, king_event, promoted_takes, why_words)
from .lesson_model import Lesson, Part, Picture, SiteOnly, Table
from .lesson_sample import sample_blocks, sample_game
from .svgcards import card_svg, face_filename

RULESET = "reconstruction"
PAGE = "play.md"

# What the letters stand for: the manual's German words behind its abbreviations (§1).
LETTERS = {"K": ("König", "King"), "D": ("Dame", "Dame (the queen)"), "T": ("Turm", "Rook"),
           "L": ("Läufer", "Bishop"), "S": ("Springer", "Knight")}
KIND_LETTERS = {"pawn": ("B", "Bauer", "pawn"), "suit": ("F", "Farbenblatt", "suit card")}
COLOUR_WORDS = {"w": "weiß", "s": "schwarz"}


def _who_scores(ev) -> str:
    return {"taker": "the party that took the King", "owner": "the King's own party",
            "opponents": "the King's opponents"}[ev.scores]


def _event_when(ev) -> str:
    return {"opponent": "an opponent takes the trick in which a King lies",
            "partner": "the King's own partner takes the trick",
            "self": "the King itself takes the trick"}[ev.when]


def _pfg(m: Fraction) -> str:
    """An amount of money as written on the page: 31, or 30.5."""
    return str(m.numerator) if m.denominator == 1 else f"{float(m):g}"


class _Builder:
    def __init__(self, r: Resolved, t: Tables, write):
        self.r, self.t, self.deck, self.write = r, t, deck_of(r), write
        self.n = t.n_seats
        self.parts: list[Part] = []
        self.event_examples: dict[str, Picture] = {}
        self.search = FigureSearch(t)
        self.game = sample_game(t)

    def seat(self, s: int) -> str:
        return self.t.seat_name(s)

    def seats(self, seats) -> str:
        return and_list(self.seat(s) for s in seats)

    def rule(self, key: str) -> str:
        """A clause of the rule file in words, as a quoted line under our own explanation."""
        e = self.r.clause(key)
        cites = ", ".join(e.basis.cites)
        return f"> **The rule** [{cites}]: {sentence(e, self.deck, self.n, self.r.clause('deal'))}"

    def part(self, title: str, anchor: str, *blocks, print_too: bool = True) -> Part:
        p = Part(title, anchor, list(blocks), print_too)
        self.parts.append(p)
        return p

    def figure(self, name: str, shown: Shown, caption: str, cards=None) -> list:
        """A trick of a real game drawn, its caption, the engine's reason for each card, and the game's record."""
        t = self.t
        cards = tuple(cards or shown.played)
        winner = holders_of_faces(t, shown.index, [(s, t.face(c)) for s, c in cards])[-1][0]
        pic = Picture(f"assets/learn/{name}.svg", drawn(t, cards, shown.taken.leader, winner, caption), caption,
                      shown, cards, winner)
        record = f"assets/learn/games/{name}.json"
        self.write(record, shown.record(RULESET).model_dump_json(indent=1) + "\n")
        return [pic, "*Why:* " + "; ".join(why_words(t, shown, cards)) + ".",
                SiteOnly(f"The trick comes from [a game the program played]({record}) (South dealing); "
                         f"`schachett replay` plays it card by card.")]

    # --- the parts ----------------------------------------------------------------------------
    def intro(self) -> None:
        t = self.t
        self.part("What kind of game it is", "what-kind", (
            f"Schachett is a trick-taking game for {t.n_seats} players, like Whist or Bridge, with the pieces of "
            "chess on the cards. You play in two partnerships; your partner sits opposite you. In each game every "
            f"player gets {t.hand_size} cards and there are {t.n_tricks} tricks: one player leads a card, the others "
            "play one each in turn to the left, and the trick goes to the card that captures the others. An officer "
            "captures any lower card, but a pawn or a suit card captures only a lower card of its own colour, so the "
            "highest card on the table does not always take the trick. Your partnership scores the "
            "pawns and officers in the tricks it takes, and, above all, the fate of the two Kings: taking the enemy "
            "King is *checkmate*, taking your partner's King is *selfmate*, and a King that takes a trick itself is "
            "*stalemated*. The earlier a King falls, the more it is worth."),
            ("This page teaches our reconstruction of the game, the ruleset "
             f"[`{RULESET}`](rulebooks/{RULESET}.md) (*play this one*): the surviving manual with one reading "
             "chosen wherever a page is lost or a sentence unclear. Every trick drawn here comes from a game the "
             "program played, so each is a position the rules allow."))

    def cards(self) -> None:
        t, d = self.t, self.t.deck
        total: dict[str, int] = {}
        for f in d.card_face:
            total[d.face_kind[f]] = total.get(d.face_kind[f], 0) + 1
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
        pics = []
        for n in ["wK", "wD", "sT", "wL", "sS", "w8", "s3", "wX", "sIV"]:
            f = t.face(n)
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
        t, n, dealer = self.t, self.n, FIGURE_DEALER
        given = t.dealt_to(dealer)
        said = " and ".join(f"the {t.deck.card_name(c)} face up to "
                            f"{'himself' if s == dealer else self.seat(s) + ' (on his left)'}" for c, s in given)
        rest = t.n_cards - len(given)
        leader = t.first_leader(dealer)
        order = ", then ".join(self.seat((leader + k) % n) for k in range(n))
        numbers = ", ".join(t.seat_title(s) for s in range(n))
        first = t.first_dealer
        self.part("Seats and the deal", "deal", (
            f"The seats are named by the compass: {self.seats(range(n))}, going round the table clockwise. Partners "
            f"sit opposite: {self.seats(t.parties[0])} play against {self.seats(t.parties[1])}. Play goes to the "
            f"left, which is clockwise: after South comes West, then North, then East. Game records and the program "
            f"number the seats in the same order: {numbers}."),
            (f"**Who deals first.** The manual's page on seating and dealing (§4) is lost; for three players it "
             "draws lots with the wK, the sK and a black card (§4,1 (3p)). Choose the first dealer as you like, by "
             f"lot for instance; the program lets {t.seat_title(first)} deal the first game of an evening. "
             "After each game the deal passes to the left."),
            (f"**The deal.** Say {self.seat(dealer)} deals. Before anything else he gives {said}: everyone sees where "
             f"the two Kings are, and each partnership has one. Then he shuffles the other {rest} cards and deals them "
             f"so that every player holds {t.hand_size}. {self.seat(leader)}, {player_words(leader - dealer, n)}, leads "
             f"the first trick, and the cards go round {order}."),
            ("**The Kings stay known.** The manual says only that the Kings are laid out face up (§5 (3p)), not "
             "whether they stay shown once taken into the hand. The reconstruction plays them as open cards: "
             "everyone knows all game who holds each King, also after a castle has moved one (the program shows "
             "every player where the Kings are). At the table, leave your King face up before you until you play it."),
            self.rule("deal"), self.rule("dealer"))

    def play(self) -> None:
        t, d = self.t, self.t.deck
        led_faces = {kind: next(f for f in range(len(d.face_names)) if d.face_kind[f] == kind) for kind in d.kinds}
        rows = []
        for kind, f in led_faces.items():
            tiers = [f"({i + 1}) {w}" for i, w in enumerate(t.follow_words[f])]
            title = d.kind_titles[d.kinds.index(kind)]
            rows.append((f"a {d.colour_names[d.face_colour[f]]} {title} ({d.face_names[f]})", "; ".join(tiers)))
        self.part("Leading and following", "play", (
            "The player on the dealer's left leads to the first trick: he plays any card he likes, face up. Then "
            "each player in turn to the left plays one card. Afterwards whoever took a trick leads to the next. "
            "You must answer the card that was led. What you must play depends on the kind of card led; you play "
            "the first of these you can, and within it any card you like:"),
            Table(("when the card led is", "you must play, if you can"), tuple(rows)),
            "When a black card is led, read black for white. So an officer led calls for an officer, whichever "
            "colour; a pawn or a suit card calls first for the same kind in the same colour. Only when you have "
            "nothing that fits may you play any card.",
            ("**You need not take the trick.** Within what you must play, any card will do, higher or lower: the "
             "manual says so in its own words, “any white or black Officer, higher or lower” (§3.1) and “a (higher or "
             "lower) B of the same color” (§3.2). So you may always keep a strong card back, or throw a low one to a "
             "trick your partner already holds."),
            self.rule("lead first"), self.rule("lead next"))

    def take(self) -> None:
        t, d = self.t, self.t.deck
        white = sorted((f for f in range(len(d.face_names)) if d.face_colour[f] == 0), key=lambda f: -t.rank[f])
        shown = self.search.first(colours_apart)
        self.part("Who takes a trick", "take", (
            "The card holding the trick is at first the one led. A card played later takes the trick from it only "
            "if it may capture it: an officer takes any lower card, whatever its colour; a pawn takes only a "
            "lower pawn or suit card of its own colour; a suit card only a lower suit card of its own colour. "
            "A card that cannot capture is simply thrown away, however high it ranks. From strongest to weakest:"),
            f"**{' > '.join(d.face_names[f][1:] for f in white)}**",
            ("The King is the weakest officer, but still above every pawn. Of two equal officers (there are two "
             "Rooks, Bishops and Knights of each colour, and one Dame of each colour stands against the other) the "
             "one played first holds the trick. In this trick a higher pawn of the other colour is thrown away:"),
            *self.figure("take", shown, headline(t, shown) + "."),
            self.rule("ranking"), self.rule("capture"), self.rule("ties"))

    def kings(self) -> None:
        t = self.t
        blocks: list = [(
            "The heart of the game is the two Kings. A King is played like any officer, but wherever it ends up, "
            "something happens, and the number of cards still in the players' hands decides how much: the "
            f"*remaining cards*, {t.hand_size} before the first trick and 1 before the last. The first King to meet "
            "its fate earns a large bonus; the second earns less. Each picture is the earliest trick of the "
            "program's games in which that fate befell a King still where the deal put it.")]
        for ev in t.events:
            shown = self.search.earliest(king_event(ev.name))
            (e,) = shown.taken.events
            scorers = self.seats(s for p in e.scoring_parties for s in t.parties[p])
            cap = (f"{headline(t, shown)}. {ev.name.capitalize()} of {self.seat(e.owner)}'s {e.king} ("
                   f"{'the first' if e.order == 'first' else 'the second'} King): {scorers} score {e.points}.")
            fig = self.figure(ev.name, shown, cap)
            self.event_examples[ev.name] = fig[0]
            blocks += [f"### {ev.name.capitalize()}",
                       f"**{ev.name.capitalize()}**: {_event_when(ev)}. It scores for {_who_scores(ev)}: "
                       f"{ev.first[0]} points if it happens in the first trick to the first King, and "
                       f"{ev.first[-1]} in the last trick; a second King scores {ev.later[0]} in the first trick and "
                       f"{ev.later[-1]} in the last.",
                       *fig, self.rule(f"king {ev.name}")]
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
        said = ", ".join(f"{d.face_names[f][1:]} as {LETTERS.get(d.face_names[g][1:], ('', d.face_names[g][1:]))[1]}"
                         for f, g in promoted)
        takes = self.search.first(promoted_takes)
        holds = self.search.first(dame_before_promoted)
        top = max(promoted, key=lambda fg: t.rank[fg[1]])
        promo, real = d.face_names[top[0]][1:], d.face_names[top[1]][1:]
        self.part("Promotion in the last trick", "promotion", (
            "As pawns are promoted in chess, the four lowest suit cards become officers in the last trick: "
            f"{said}. They take the trick as those officers do, whatever was led, and score as them."),
            *self.figure("promotion", takes, headline(t, takes) + "."),
            (f"**A promoted {promo} against a real {real}.** The promoted {promo} is the {real}'s equal, so the rule "
             f"for equal officers decides: the one played first holds the trick. A real {real} played before the "
             f"promoted {promo} keeps the trick, and a promoted {promo} played first keeps it against a {real} played "
             "after it. The manual does not speak of this meeting; it is what §11 and §2 give together, and what "
             "the reconstruction plays:"),
            *self.figure("promotion-equal", holds, headline(t, holds) + "."),
            self.rule("promotion"), self.rule("points promoted"))

    def castling(self) -> None:
        blocks = castling_blocks(self.r, self.t, FIGURE_DEALER)
        _seed, _game, before = self.search.first_castle("before", (FIGURE_DEALER + 1) % self.n)
        blocks.append(f"In one of the program's games, {self.seat(before.seat)} castled before the first card: his "
                      f"{before.king} went into {self.seat(before.with_seat)}'s hand, and "
                      f"{self.seat(before.with_seat)}'s {before.officer} came into his.")
        blocks += [SiteOnly(f"The [sample game](#sample) below has a rescue in trick {c.trick}.")
                   for c in self.game.castles[:1] if c.kind == "rescue"]
        blocks += [self.rule(k) for k in ("castling", "castle with", "castle officer", "castle king", "castle limit",
                                          "castle rescue")]
        self.part("Castling", "castling", *blocks)

    def penalties(self) -> None:
        t = self.t
        unit = t.money_unit
        lines = [f"- *{p.offence[0].upper()}{p.offence[1:]}* ({', '.join(p.basis.cites)}): "
                 f"{'; '.join(penalty_effects(p))}." for p in t.penalties.values()]
        blocks: list = [
            "The manual fines these mistakes (the rule file's words, with their sections). Penalty points are paid "
            "from player to player, beside the game's score:",
            "\n".join(lines)]
        if any(p.forfeit for p in t.penalties.values()):
            res = self.game.result()
            offender = (FIGURE_DEALER + 1) % self.n
            loser = t.party_of[offender]
            totals = tuple(0 if p == loser else res.totals[p] for p in range(len(t.parties)))
            winner, money = settle(t, totals)
            if winner is not None:
                blocks.append(f"Scoring nothing costs the game: had {self.seat(offender)} revoked in the "
                              f"[sample game](#sample) and been found out only after the trick was taken in, "
                              f"{self.seats(t.parties[loser])} would have scored nothing, and "
                              f"{self.seats(t.parties[winner])} would have won with all their {totals[winner]} "
                              f"points against 0: {_pfg(money[t.parties[winner][0]])} {unit} for each.")
        pays = next((p.pays for p in t.penalties.values() if p.pays), None)
        if pays:
            one = penalty_settlement(t, [(1, 0, pays)])[0]
            two = penalty_settlement(t, [(1, 0, pays), (1, 0, pays)])[0]
            blocks.append(f"Penalty points become money at the game's rate; the reconstruction adds up what one "
                          f"player owes another in a game and turns the sum into money once: {pays} points are "
                          f"{_pfg(one)} {unit}, {2 * pays} points {_pfg(two)} {unit}.")
            blocks.append(self.rule("settle penalties"))
        blocks += [
            (f"**Looking back.** Besides the trick being played you may look at the "
             f"{'trick' if t.review == 1 else str(t.review) + ' tricks'} just finished, and at no earlier one "
             "(§10.3). What you remember of earlier tricks you may use."),
            self.rule("review"), self.rule("memory")]
        self.part("Mistakes and penalties", "penalties", *blocks)

    def scoring(self) -> None:
        t, d = self.t, self.t.deck
        rows = []
        for face in range(len(d.face_names)):
            if d.face_colour[face] == 0 and d.face_kind[face] == d.kinds[0]:
                sym = d.face_names[face][1:]
                rows.append((sym + " " + LETTERS.get(sym, ("", ""))[1], str(t.points[face])))
        pawn = [f for f in range(len(d.face_names)) if d.face_kind[f] == "pawn"]
        suit = [f for f in range(len(d.face_names)) if d.face_kind[f] == "suit"]
        values = sorted({t.points[f] for f in pawn})
        rows.append(("pawn", f"its number ({values[0]} to {values[-1]})" if len(values) > 1 else str(values[0])))
        rows.append(("suit card", f"{t.points[suit[0]]} (but the promoted I to IV in the last trick "
                                   "score as their officers)"))
        total = sum(t.points[f] for f in d.card_face)
        _win, money = settle(t, EXAMPLE_12)
        tie, tie_money = settle(t, (100, 100))
        unit = t.money_unit
        session = self.r.clause("session")
        players = default_players(session, t)
        rounds = seatings(session, players)
        a_seats = {row.index("A") for row in rounds}
        a_stays = (f"The seat changes never move A: he sits on {self.seat(rounds[0].index('A'))} all cycle, and the "
                   "others move round him." if len(a_seats) == 1 else "")
        self.part("Scoring", "scoring", (
            f"When the {t.n_tricks} tricks are played, each partnership adds up the points of the cards in the tricks "
            "it took, and the points of the King events it earned:"),
            Table(("card", "points"), tuple(rows)),
            (f"The cards are worth {total} points in all; the Kings count nothing as cards, for they are scored by "
             "their fate."), self.rule("points"),
            "### The settlement",
            (f"The partnership with more points wins. Each winner receives, and each loser pays, a quarter of the "
             f"difference in {unit} (pfennig), rounded half up. The manual's own example (§12): {EXAMPLE_12[0]} points against "
             f"{EXAMPLE_12[1]}, a difference of {EXAMPLE_12[0] - EXAMPLE_12[1]}, a quarter of it "
             f"{(EXAMPLE_12[0] - EXAMPLE_12[1]) / 4:g}, so each winner gets {_pfg(money[0])} {unit} and each "
             f"loser pays {_pfg(-money[1])}."),
            (f"**Equal points.** The manual does not say what happens when both partnerships score the same. By the "
             f"settlement rule the difference is 0, so {'nobody wins' if tie is None else 'one party wins'} and "
             f"{'no money changes hands' if not any(tie_money) else 'money changes hands'}: that is how the "
             "reconstruction plays it."),
            self.rule("settlement"),
            "### A whole evening",
            (f"Play goes in *rounds* of {session.games_per_round} games; {session.rounds_per_cycle} rounds make a "
             f"*cycle* of {session.games_per_round * session.rounds_per_cycle} games, and between rounds two players "
             "change places so that everyone partners everyone."
             + (" Stop only at the end of a cycle." if session.stop_after_cycle else "") +
             f" §13 names the players {and_list(players)} and moves the others from {players[0]}'s place, but the "
             f"page that said who {players[0]} is (§4) is lost. The reconstruction calls {players[0]} the player who "
             f"deals the first game, on {self.seat(t.first_dealer)}; {and_list(players[1:])} sit on "
             f"{self.seats(range(1, self.n))} in the first round. "
             f"{a_stays} The [score sheet](downloads/schachett-scoresheet-a4.pdf) lays the cycle out."),
            self.rule("session"))

    def sample(self) -> None:
        self.part("A sample game, trick by trick", "sample", *sample_blocks(self.t, self.game), print_too=False)


def build_lesson(write=None) -> Lesson:
    """The lesson, from the reconstruction's rule file; its drawings and game records go through ``write`` when given."""
    r = load(RULESET)
    t = compile_ruleset(r)
    b = _Builder(r, t, write or (lambda path, content: None))
    for step in (b.intro, b.cards, b.deal, b.play, b.take, b.kings, b.promotion, b.castling, b.penalties,
                 b.scoring, b.sample):
        step()
    return Lesson(title="How to play Schachett", ruleset=RULESET, parts=b.parts, event_examples=b.event_examples,
                  sample=b.game)


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
                 for kind in ("rules", "scoresheet", "deck") for paper in ("a4", "letter")}
    return render("play.md.j2", title=lesson.title, ruleset=lesson.ruleset, parts=parts, downloads=downloads)


def learn_pages(write) -> Lesson:
    """Write the How to play page, its drawings and its games' records; return the lesson (the printed sheet uses it)."""
    lesson = build_lesson(write)
    write(PAGE, how_to_play_markdown(lesson, write))
    return lesson

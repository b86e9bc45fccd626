"""The home page, the cards, and the generated parts of the language reference."""

from __future__ import annotations

from importlib import resources

from ..errors import SchachettError
from ..kernel.compiler import compile_ruleset
from ..kernel.trick import holders_of_faces
from ..language.syntax import MISTAKES, parse_ruleset
from ..rules.check import check, raise_for
from ..rules.loader import resolve
from .context import Context, play_label
from .manual_pages import played_from
from .svgcards import card_svg, deck_sheet_svg, face_filename, trick_svg


def _trick_picture(ctx: Context) -> str:
    """§2's worked example as a picture: wS led, sL takes it, wL does not."""
    t = ctx.tables["original"]
    cards = played_from(t, 0, ["wS", "sL", "wL", "w3"])
    return trick_svg(t.deck, cards, leader=0, winner=holders_of_faces(t, 0, cards)[-1][0], n_seats=t.n_seats, labels=dict(enumerate(t.seat_names)),
                     caption="§2: the 2nd player's sL takes the wS; the wL played after it does not, "
                             "for of two equal officers the first played holds")


def home_markdown(ctx: Context) -> str:
    """The front page."""
    names = ", ".join(f"[{n}](rulebooks/{n}.md){play_label(n)}" for n in ctx.rulesets)
    return f"""# Schachett

!!! tip "Start here"
    New to Schachett? **[How to play](play.md)** teaches the game from the start: the cards, the deal, the tricks,
    checkmate, selfmate and stalemate, the scoring, and a whole game played out trick by trick. Print the
    [rules sheet](downloads/schachett-rules-a4.pdf) ([US Letter](downloads/schachett-rules-letter.pdf)), the
    [score sheet](downloads/schachett-scoresheet-a4.pdf) ([US Letter](downloads/schachett-scoresheet-letter.pdf))
    and the [deck to cut out](downloads/schachett-deck-a4.pdf) ([US Letter](downloads/schachett-deck-letter.pdf))
    for the table.

*Schachett* is a German card game of about 1888, by Hans Schöffl of Saaz and "R. S., Mathematician", that crosses
a trick-taking game with chess. Two partnerships play 52 cards — white and black officers (King, Dame, Rooks,
Bishops, Knights), pawns numbered 1 to 8 and suit cards numbered I to X — and the life of the King is the heart of
the game: taking the enemy King in a trick is *checkmate*, taking your partner's is *selfmate*, a King that wins its
own trick is *stalemated*; the King may *castle* with an officer, and in the last trick the four lowest suit cards
are *promoted* to officers.

![A trick of Schachett](assets/trick.svg){{ .trick }}

## What survives

One copy of the rulebook, in the Fuhs family, translated into English by an AI and published on the family's blog:
[the foreword and §1–§3, §6–§13, and the rules for three players](manual/index.md), with the translator's notes.

## What is lost

Pages 11 to 14, with [§4](manual/s4.md) (seating and dealing) and [§5](manual/s5.md) (castling) for four players.
Elsewhere the translation can be read more than one way: where the suit cards X and IX rank, whether a pawn takes a
suit card, what the "remaining cards" are that the King events multiply. The same AI wrote a
[reconstruction](ai/index.md) that fills the gaps, with errors of its own.

## What this site does

Every rule is written in a small rule language, each clause citing the section it rests on and saying how sure we
are of it: <span class="badge grade-printed">printed</span>, <span class="badge grade-uncertain">uncertain</span>,
<span class="badge grade-inferred">inferred</span>, <span class="badge grade-ai">ai</span>,
<span class="badge grade-conjecture">conjecture</span>, <span class="badge grade-design">design</span>. Where the manual
is lost or unclear, every defensible reading is written down as a [gap with its options](gaps/index.md). The rule
files compile into one engine that plays them all, so each reading can be played and measured.

- [The manual](manual/index.md), section by section, each with the clauses that rest on it.
- [The rulebooks]({'rulebooks/index.md'}), one per ruleset: {names}.
- [The comparison matrix](compare/matrix.md) and [the printed rules against the AI's](compare/ai.md).
- [The gaps](gaps/index.md), each with its evidence, its readings and what each reading does to the game.
- [Simulations](simulations/index.md) of every ruleset, with plots.
- [The family](family/index.md): Schafkopf, the euchres, Whist and Hearts in the same language, and
  [which game uses which mechanism](family/mechanisms.md).
- [The cards](cards.md), drawn from the deck clause, and [the rule language](language.md) to write your own variant.

## Install it and play

With Python 3.11 or later, from a copy of the project:

```sh
python3 -m venv .venv && .venv/bin/pip install -e .   # or: python3 tasks.py build
. .venv/bin/activate
schachett play reconstruction                   # a game at the terminal against three computer players
schachett deck print --paper a4                 # the cards, to print and cut (also --paper letter)
schachett rules print --paper a4                # the rules sheet of this site's How to play
schachett scoresheet --paper a4                 # a score sheet for a cycle of 24 games
```

`schachett play --help` shows how to choose a ruleset, a seat and the computer players.
"""


def cards_markdown(ctx: Context, write) -> str:
    """The deck, drawn from the printed ruleset's deck clause."""
    t = ctx.tables["original"]
    d = t.deck
    write("assets/deck.svg", deck_sheet_svg(d))
    rows = []
    for ci, colour in enumerate(d.colours):
        for kind in d.kinds:
            faces = [f for f in range(len(d.face_names)) if d.face_colour[f] == ci and d.face_kind[f] == kind]
            for f in faces:
                write(f"assets/cards/{face_filename(d, f)}", card_svg(d, f))
            pics = " ".join(f"![{d.face_names[f]}](assets/cards/{face_filename(d, f)}){{ width=64 }}" for f in faces)
            title = d.kind_titles[d.kinds.index(kind)]
            rows.append(f"### {d.colour_names[ci].capitalize()} {title}s\n\n{pics}\n")
    copies = ", ".join(f"{d.face_names[f]} ×{d.face_cards[f].bit_count()}" for f in range(len(d.face_names))
                       if d.face_cards[f].bit_count() > 1)
    return (f"# The cards\n\n{ctx.cite('cards.md', '§1')} The deck of {t.n_cards} cards, drawn from the deck clause of "
            f"the printed ruleset: {len(d.face_names)} faces, some in two copies ({copies}). White and black are the two "
            "colours of chess and nothing more; the officers carry the chess pieces, the pawns their numbers, the suit "
            "cards their Roman numerals as printed. The corner index is the card's name in rule files and game "
            "records.\n\n![the whole deck](assets/deck.svg){ .deck }\n\n## Card by card\n\nThe same cards one by one, "
            "each drawn as a file of its own. To play, print the reconstruction's deck on "
            "[A4](downloads/schachett-deck-a4.pdf) or [US Letter](downloads/schachett-deck-letter.pdf): nine cards to "
            "a sheet with crop marks, each sheet's backs on the page after it (print both sides, flipping on the long "
            "edge, at actual size); `schachett deck print` lays out any ruleset's deck, with a bleed for a print "
            "shop.\n\n" + "\n".join(rows))


def grammar_markdown() -> str:
    """The grammar file itself."""
    text = resources.files("schachett_rules.language").joinpath("schachett.lark").read_text(encoding="utf-8")
    return ("# The grammar\n\nThe rule language is defined by this [Lark](https://lark-parser.readthedocs.io) grammar "
            "(`schachett_rules/language/schachett.lark`); the names of its rules are the names of the IR nodes they build. "
            "The clauses are explained one by one in the [reference](../language.md).\n\n```text\n" + text + "\n```\n")


SEMANTIC_EXAMPLES = [
    ("A citation the manual does not have", 'ruleset x extends original\noverride seats [§14 printed]: 4\n'),
    ("A clause without a grade", 'ruleset x extends original\noverride seats [§1]: 4\n'),
    ("A ranking that leaves a face out", 'ruleset x extends original\ndrop lacuna suit-order\n'
                                        'ranking [§2 design]: D > T > L > S > K\n'),
    ("Follow tiers that can leave a hand without a card", 'ruleset x extends original\n'
                                                           'override follow pawn [§3.2 design] { 1: pawn of led colour }\n'),
    ("An override of a clause the parent lacks", 'ruleset x extends original\n'
                                                  'override dummy [§4 design]: seat 2 played by seat 0, exposed after trick 1\n'),
    ("A lacuna with no reading chosen", 'ruleset x extends original\nlacuna my-gap [§2] "?" {\n'
                                        '    option a [§2 conjecture] "A." { memory: every trick }\n}\n'
                                        'drop memory\n'),
]


def _message_block(message: str) -> list[str]:
    """An error message as a block of lines whose long paragraph wraps in the column (site.css ``.message``)."""
    return ['<div class="message" markdown>', "", "```text", message, "```", "", "</div>", ""]


def errors_markdown(tmp_dir) -> str:
    """The error messages, produced live from broken snippets: what a user sees."""
    lines = ["# Error messages", "",
             "Bad input gets one paragraph naming the file, line and column (or the trick, seat and card) and what it "
             "breaks; the command line exits with 1, or 2 for a bad command-line argument. These messages are produced "
             "from the snippets shown when the site is built.", "", "## Syntax errors", "",
             "Common mistakes have a sentence of their own; otherwise the message says what was expected, in words.", ""]
    for label, examples in MISTAKES.items():
        text = examples[0]
        try:
            parse_ruleset(text, "my.schachett")
            message = "(no error)"
        except SchachettError as err:
            message = err.message
        lines += [f"### {label[0].upper()}{label[1:]}", "", "```text", text, "```", "", *_message_block(message)]
    lines += ["## Errors in what a rule file says", ""]
    for label, text in SEMANTIC_EXAMPLES:
        path = tmp_dir / "x.schachett"
        path.write_text(text, encoding="utf-8")
        try:
            r = resolve(parse_ruleset(text, "x.schachett"), path)
            raise_for(check(r))
            compile_ruleset(r)
            message = "(no error)"
        except SchachettError as err:
            message = err.message.replace(str(tmp_dir) + "/", "")
        lines += [f"### {label}", "", "```text", text.rstrip(), "```", "", *_message_block(message)]
    lines += ["## Errors in game records", "",
              "A replay stops at the first illegal action, naming the action, the trick, the seat, the card and the "
              "clause, for example:", "",
              *_message_block("game.json, action 6, trick 2, seat 1, card sD: must follow w7 with a white pawn (§3.2); "
                              "the legal cards are w3, w5")]
    return "\n".join(lines)

"""SVG cards: every face draws as well-formed XML, from the printed deck or any other deck clause."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from schachett_rules.language import syntax
from schachett_rules.language.cards import Deck
from schachett_rules.rules.loader import load
from schachett_rules.site.svgcards import card_svg, deck_sheet_svg, face_filename, trick_svg

NS = {"svg": "http://www.w3.org/2000/svg"}
PIECES = {"K": "king", "D": "queen", "T": "rook", "L": "bishop", "S": "knight"}
OTHER = '''ruleset tri "Three colours"
deck [§1 design] {
    colours r "red", g "green", v "violet"
    officer "officer": K "King" royal, Q "Queen", W "Wizard" ×2
    letter "letter card": A, B "Bee", C
    pawn "pawn": 1..3
    suit "suit card": VIII..XII
}
'''


@pytest.fixture(scope="module")
def deck() -> Deck:
    return Deck.from_clause(load("original").clause("deck"))


@pytest.fixture(scope="module")
def other() -> Deck:
    statement = syntax.parse_ruleset(OTHER).statements[0]
    return Deck.from_clause(statement.clause)


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert len(root.get("viewBox").split()) == 4 and float(root.get("width")) > 0 and float(root.get("height")) > 0
    return root


def title(root: ET.Element) -> str:
    return root.find("svg:title", NS).text


def fills(root: ET.Element) -> str:
    """The fill of the card's face (the first rectangle)."""
    return root.find("svg:rect", NS).get("fill")


def texts(root: ET.Element) -> list[str]:
    """Each text element's words, its spans joined (the corner index sets colour and symbol apart)."""
    return ["".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text")]


def pieces(root: ET.Element) -> list[str]:
    """The chess pieces drawn on a card, as 'king white' (the medallion's first, then the indices')."""
    return [g.get("class").removeprefix("piece ") for g in root.iter("{http://www.w3.org/2000/svg}g")
            if (g.get("class") or "").startswith("piece ")]


def test_every_printed_card_draws(deck):
    assert len(deck.face_names) == 46
    for face, name in enumerate(deck.face_names):
        root = parse(card_svg(deck, face))
        colour = deck.colour_names[deck.face_colour[face]]
        kind, symbol = deck.face_kind[face], deck.face_symbol[face]
        label = deck.face_title[face] or f"{deck.kind_titles[deck.kinds.index(kind)]} {symbol}"
        assert title(root) == f"{colour} {label} ({name})"
        assert texts(root).count(name) == 2                      # both corner indices give the notation
        if kind == "officer":                                    # its piece, outlined for white, solid for black
            assert pieces(root) == [f"{PIECES[symbol]} {colour}"] * 3
        elif kind == "pawn":
            assert pieces(root) == [f"pawn {colour}"] * 3 and symbol in texts(root)
        else:
            assert symbol in texts(root)                         # the Roman numeral as printed
            assert len(root.findall("svg:path", NS)) == deck.face_value[face]   # one pip per point
            assert not pieces(root)


def test_titles_read_as_records_write(deck):
    assert title(parse(card_svg(deck, deck.face("wT")))) == "white Rook (wT)"
    assert title(parse(card_svg(deck, deck.face("s8")))) == "black pawn 8 (s8)"
    assert title(parse(card_svg(deck, deck.face("wIV")))) == "white suit card IV (wIV)"


def test_black_cards_differ_from_white(deck):
    for symbol in deck.symbols:
        white, black = (parse(card_svg(deck, deck.face(c + symbol))) for c in "ws")
        assert fills(white) != fills(black)
        assert white.find("svg:text", NS) is not None
    assert len({fills(parse(card_svg(deck, f))) for f in range(len(deck.face_names))}) == 2


def test_width_scales_the_picture(deck):
    root = parse(card_svg(deck, deck.face("sK"), width=200))
    assert (root.get("width"), root.get("height"), root.get("viewBox")) == ("200", "280", "0 0 90 126")
    with pytest.raises(ValueError):
        card_svg(deck, len(deck.face_names))


def test_file_names(deck):
    names = {face_filename(deck, f) for f in range(len(deck.face_names))}
    assert len(names) == 46 and {"w-T.svg", "s-IV.svg", "s-8.svg"} <= names
    assert all(re.fullmatch(r"[a-z]+-[A-Z0-9]+\.svg", n) for n in names)


def test_another_deck_draws_every_card(other):
    assert len(other.face_names) == 3 * 14
    faces = set()
    for face, name in enumerate(other.face_names):
        root = parse(card_svg(other, face))
        assert title(root).endswith(f"({name})") and texts(root).count(name) == 2
        faces.add(fills(root))
    assert len(faces) == 3                                       # one face colour per colour
    assert pieces(parse(card_svg(other, other.face("gK"))))[0].startswith("king")   # a King by its title
    assert "W" in texts(parse(card_svg(other, other.face("vW"))))      # an officer without a piece: its letter
    assert title(parse(card_svg(other, other.face("rB")))) == "red Bee (rB)"
    assert title(parse(card_svg(other, other.face("rA")))) == "red letter card A (rA)"
    assert len({face_filename(other, f) for f in range(len(other.face_names))}) == len(other.face_names)


@pytest.mark.parametrize("which", ["deck", "other"])
def test_sheet_holds_every_face(which, request):
    d = request.getfixturevalue(which)
    root = parse(deck_sheet_svg(d))
    drawn = [g.get("data-card") for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "card"]
    assert drawn == list(d.face_names)
    labels = texts(root)
    for colour in d.colour_names:
        for kind in d.kind_titles:
            assert any(t.startswith(f"{colour} {kind}") for t in labels)
    narrow = parse(deck_sheet_svg(d, columns=3))
    assert float(narrow.get("width")) < float(root.get("width")) < float(narrow.get("height"))


def cards_by_class(root: ET.Element) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for g in root.iter("{http://www.w3.org/2000/svg}g"):
        if g.get("data-card"):
            out.setdefault(g.get("class"), []).append(g.get("data-card"))
    return out


def test_trick_highlights_the_winner_and_names_the_seats(deck):
    played = [(1, deck.face("w7")), (2, deck.face("wT")), (3, deck.face("s2")), (0, deck.face("w5"))]
    svg = trick_svg(deck, played, leader=1, winner=2, n_seats=4, labels={3: "dealer", 0: "Anna", 1: "West"},
                    caption="wT takes the trick")
    root = parse(svg)
    assert title(root) == "wT takes the trick"
    assert cards_by_class(root) == {"card": ["w7", "s2", "w5"], "card winner": ["wT"]}
    frames = [r for r in root.iter("{http://www.w3.org/2000/svg}rect") if r.get("class") == "winner-frame"]
    assert len(frames) == 1
    labels = texts(root)
    # each seat is labelled as the caller names it (the ruleset's seat names); one without a label by its number
    assert {"West", "seat 2", "dealer", "Anna"} <= set(labels) and "seat 1" not in labels
    assert "1st · leads" in labels and "2nd · wins" in labels
    assert "wT takes the trick" in labels


@pytest.mark.parametrize("n_seats", [1, 2, 3, 5, 6, 8])
def test_trick_round_a_circle(other, n_seats):
    played = [(s, (s * 5) % len(other.face_names)) for s in range(n_seats)]
    root = parse(trick_svg(other, played, leader=0, winner=None, n_seats=n_seats))
    assert sum(len(v) for v in cards_by_class(root).values()) == n_seats
    assert "card winner" not in cards_by_class(root)
    assert root.find("svg:circle", NS) is not None                      # a round table
    assert {f"seat {s}" for s in range(n_seats)} <= set(texts(root))


def test_a_trick_in_progress_and_bad_seats(deck):
    root = parse(trick_svg(deck, [(3, deck.face("sD"))], leader=3, winner=None, n_seats=4, caption="A & <b>"))
    assert title(root) == "A & <b>" and cards_by_class(root) == {"card": ["sD"]}
    with pytest.raises(ValueError):
        trick_svg(deck, [(4, deck.face("sD"))], leader=4, winner=None, n_seats=4)

"""``schachett deck print``: the print-and-play PDF, the print shop's PNG and SVG files, and the bad arguments.

The expected figures are worked out by hand here: nine poker cards (63 × 88 mm) three by three
take 189 × 264 mm, centred on A4 (210 × 297 mm) at 10.5 and 16.5 mm from the edges and on
Letter (215.9 × 279.4 mm) at 13.45 and 7.7 mm; a card with a 3 mm bleed is 69 × 94 mm, at
300 dpi 69 / 25.4 × 300 = 814.96 → 815 px by 94 / 25.4 × 300 = 1110.2 → 1110 px. The deck is the
one §1 of the manual prints: per colour K, D, two T, two L, two S, pawns 1 to 8 and suit
cards I to X, 52 cards; the ranking is §2's and the points §12's.
"""

from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pymupdf
import pytest
from click.testing import CliRunner
from PIL import Image, ImageStat

from schachett_rules.cli.main import main
from schachett_rules.paths import variants_dir

MM = 72 / 25.4
A4, LETTER = (210.0, 297.0), (215.9, 279.4)
CARD = (63.0, 88.0)
OFFICERS = {"K": 1, "D": 1, "T": 2, "L": 2, "S": 2}                 # §1: the officers of one colour
PRINTED = {**OFFICERS, **{str(n): 1 for n in range(1, 9)},
           **{r: 1 for r in "I II III IV V VI VII VIII IX X".split()}}
RANKING = "D T L S K 8 7 6 5 4 3 2 1 X IX VIII VII VI V IV III II I".split()   # §2, suit-order numeral
POINTS = {"D": 12, "T": 11, "L": 10, "S": 9, "K": 0, **{str(n): n for n in range(1, 9)}}   # §12


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def clean_failure(result, code: int) -> str:
    """A failure with this exit code: one paragraph starting with ``error:``, no traceback."""
    assert result.exit_code == code, (result.exit_code, result.output)
    assert isinstance(result.exception, SystemExit) and "Traceback" not in result.output
    message = result.stderr.strip()
    assert message.startswith("error: ") and "\n" not in message, message
    return message


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> Path:
    """The printed deck on A4 with a 3 mm bleed, with its PNG and SVG files."""
    out = tmp_path_factory.mktemp("a4")
    result = run("deck", "print", "original", "--paper", "a4", "--bleed", "3", "--out", str(out / "deck.pdf"),
                 "--png", str(out / "png"), "--svg", str(out / "svg"))
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def letter(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("letter") / "deck.pdf"
    result = run("deck", "print", "--paper", "letter", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def two_decks(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("eight") / "deck.pdf"
    result = run("deck", "print", str(variants_dir() / "eight-players.schachett"), "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


def markers(page, prefix: str) -> dict[str, tuple[float, float]]:
    """The invisible card names on a page, with where they start (in mm); no name twice on a page."""
    found = [(word.removeprefix(prefix), (x0 / MM, y1 / MM))
             for x0, y0, x1, y1, word, *_ in page.get_text("words") if word.startswith(prefix)]
    out = dict(found)
    assert len(out) == len(found), "a card placed twice on one page"
    return out


def expected_cards(copies: int = 1) -> Counter:
    return Counter({f"{c}{s}": n * copies for c in "ws" for s, n in PRINTED.items()})


def cards_on_fronts(doc) -> Counter:
    seen = Counter()
    for page in list(doc)[::2]:
        seen.update(markers(page, "schachett-card:").keys())
    assert max(seen.values()) == 1                      # every card on exactly one front page
    return Counter(name.split("#")[0] for name in seen)


def test_pages_fronts_then_backs_and_every_card_once(printed):
    doc = pymupdf.open(printed / "deck.pdf")
    assert sum(expected_cards().values()) == 52
    sheets = math.ceil((52 + 1) / 9)                    # the cards and one legend at least
    assert doc.page_count == 2 * sheets == 12
    for i, page in enumerate(doc):
        fronts, backs = markers(page, "schachett-card:"), markers(page, "schachett-back:")
        assert (bool(fronts), bool(backs)) == ((True, False) if i % 2 == 0 else (False, True))
        assert len(fronts or backs) == 9                # the last sheet's free places hold legends
    found = cards_on_fronts(doc)
    legends = found.pop("legend")
    assert found == expected_cards() and legends == 9 * sheets - 52


@pytest.mark.slow                   # a second whole printing; one deck's is checked in the fast lane
def test_two_decks_print_all_104_cards(two_decks):
    doc = pymupdf.open(two_decks)
    assert doc.page_count == 2 * math.ceil(105 / 9) == 24
    found = cards_on_fronts(doc)
    assert found.pop("legend") == 108 - 104
    assert found == expected_cards(copies=2)


@pytest.mark.parametrize("which, size", [("a4", A4), ("letter", LETTER)])
def test_page_sizes_are_exact(which, size, printed, letter):
    doc = pymupdf.open(printed / "deck.pdf" if which == "a4" else letter)
    for page in doc:
        assert page.rect.width / MM == pytest.approx(size[0], abs=0.01)
        assert page.rect.height / MM == pytest.approx(size[1], abs=0.01)


def grid(size: tuple[float, float]) -> tuple[list[float], list[float]]:
    left, top = (size[0] - 3 * CARD[0]) / 2, (size[1] - 3 * CARD[1]) / 2
    return [left + i * CARD[0] for i in range(4)], [top + j * CARD[1] for j in range(4)]


def lines(page) -> list[tuple[float, float, float, float]]:
    """The crop marks: the straight lines in the PDF's "crop marks" layer, in mm."""
    out = []
    for drawing in page.get_drawings():
        if drawing.get("layer") != "crop marks":
            continue
        for item in drawing["items"]:
            if item[0] == "l":
                out.append((item[1].x / MM, item[1].y / MM, item[2].x / MM, item[2].y / MM))
    return out


@pytest.mark.parametrize("which, size, bleed", [("a4", A4, 3.0), ("letter", LETTER, 0.0)])
def test_crop_marks_at_every_card_corner_outside_the_cards(which, size, bleed, printed, letter):
    doc = pymupdf.open(printed / "deck.pdf" if which == "a4" else letter)
    xs, ys = grid(size)
    for page in doc:
        marks = lines(page)
        vertical = [m for m in marks if abs(m[0] - m[2]) < 1e-3]
        horizontal = [m for m in marks if abs(m[1] - m[3]) < 1e-3]
        for x in xs:                                    # each cut line marked above and below the cards
            hits = [m for m in vertical if abs(m[0] - x) < 0.01]
            assert any(max(m[1], m[3]) < ys[0] - bleed for m in hits), x
            assert any(min(m[1], m[3]) > ys[-1] + bleed for m in hits), x
        for y in ys:                                    # and left and right of them
            hits = [m for m in horizontal if abs(m[1] - y) < 0.01]
            assert any(max(m[0], m[2]) < xs[0] - bleed for m in hits), y
            assert any(min(m[0], m[2]) > xs[-1] + bleed for m in hits), y
        for x0, y0, x1, y1 in marks:                    # no mark on a card or its bleed
            assert max(x0, x1) <= xs[0] - bleed or min(x0, x1) >= xs[-1] + bleed or \
                max(y0, y1) <= ys[0] - bleed or min(y0, y1) >= ys[-1] + bleed
            assert 0 <= min(x0, x1) and max(x0, x1) <= size[0] and 0 <= min(y0, y1) and max(y0, y1) <= size[1]


def pixel(page, x_mm: float, y_mm: float, dpi: int = 100) -> tuple[int, int, int]:
    pix = page.get_pixmap(dpi=dpi)
    return pix.pixel(int(x_mm / 25.4 * dpi), int(y_mm / 25.4 * dpi))


def test_the_bleed_runs_past_the_cut_and_no_further(printed, letter):
    page = pymupdf.open(printed / "deck.pdf")[0]       # wK is the top left card: ivory
    xs, ys = grid(A4)
    paper = (255, 255, 255)
    assert pixel(page, xs[0] - 1.5, ys[0] + 40) != paper            # inside the 3 mm bleed: the card's face
    assert pixel(page, xs[0] - 3.8, ys[0] + 40) == paper            # past it: bare paper
    assert pixel(page, xs[1], ys[0] - 1.5) != paper
    flat = pymupdf.open(letter)[0]
    xs, ys = grid(LETTER)
    assert pixel(flat, xs[0] - 0.8, ys[0] + 40) == paper            # no bleed asked, none drawn
    assert pixel(flat, xs[0] + 0.8, ys[0] + 40) != paper


def test_each_back_lies_behind_its_front(printed):
    doc = pymupdf.open(printed / "deck.pdf")
    for front, back in zip(list(doc)[::2], list(doc)[1::2]):
        fronts, backs = markers(front, "schachett-card:"), markers(back, "schachett-back:")
        assert fronts.keys() == backs.keys()
        for name, (x, y) in fronts.items():             # flipped on the long edge: mirrored left to right
            bx, by = backs[name]
            assert by == pytest.approx(y, abs=0.05)
            assert bx + x == pytest.approx(A4[0], abs=0.05)              # each marker starts at its card's centre


def test_pngs_at_300_dpi_with_bleed(printed):
    files = sorted(p.name for p in (printed / "png").iterdir())
    faces = [f"{c}-{s}.png" for c in "ws" for s in PRINTED]
    assert files == sorted(faces + ["back.png", "legend.png"])       # one per distinct face, the back, the legend
    expect = (round(69 / 25.4 * 300), round(94 / 25.4 * 300))
    assert expect == (815, 1110)
    for name in ("w-K.png", "s-VIII.png", "back.png", "legend.png"):
        with Image.open(printed / "png" / name) as im:
            assert im.size == expect
            assert round(im.info["dpi"][0]) == 300


def test_svgs_sized_in_millimetres(printed):
    files = sorted(p.name for p in (printed / "svg").iterdir())
    assert len(files) == 46 + 2 and "back.svg" in files and "legend.svg" in files
    root = ET.parse(printed / "svg" / "s-T.svg").getroot()
    assert (root.get("width"), root.get("height")) == ("69mm", "94mm")
    assert root.get("data-bleed-mm") == "3"


def medallion_brightness(path: Path) -> float:
    """The mean brightness (0 black … 255 white) of the middle of the medallion, where the piece's body stands."""
    with Image.open(path) as im:
        grey = im.convert("L")
        w, h = grey.size
        cx, cy = w / 2, (3 + 57 / 126 * 88) / 94 * h            # the medallion's centre, 57 of 126 units down
        r = 10 / 90 * 63 / 69 * w                               # 10 of the card's 90 units either way
        return ImageStat.Stat(grey.crop((int(cx - r), int(cy - r), int(cx + r), int(cy + r)))).mean[0]


def test_white_and_black_king_are_told_apart(printed):
    white, black = (medallion_brightness(printed / "png" / f"{c}-K.png") for c in "ws")
    assert white > 170                                  # an outlined King on the ivory disc: mostly light
    assert white - black > 60, (white, black)           # a solid King: a clearly darker middle
    shapes = {c: ET.parse(printed / "svg" / f"{c}-K.svg").getroot() for c in "ws"}
    classes = {c: {g.get("class") for g in root.iter("{http://www.w3.org/2000/svg}g")} for c, root in shapes.items()}
    assert "piece king white" in classes["w"] and "piece king black" in classes["s"]


def legend_text(path: Path) -> str:
    root = ET.parse(path).getroot()
    return " ".join(t.text for t in root.iter("{http://www.w3.org/2000/svg}text"))


def test_legend_gives_ranking_points_and_captures(printed):
    root = ET.parse(printed / "svg" / "legend.svg").getroot()
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    cells = [texts[i:i + 2] for i in range(texts.index("D"), texts.index("D") + 2 * len(RANKING), 2)]
    assert [c[0] for c in cells] == RANKING
    assert [int(c[1]) for c in cells] == [POINTS.get(s, 0) for s in RANKING]
    words = " ".join(texts)
    assert "An officer takes any lower card." in words
    assert "A suit card takes only a lower suit card of its own colour." in words
    assert "Of two equal officers the first played holds." in words


def test_legend_follows_the_reading_played(tmp_path, monkeypatch):
    """§12 names only the promoted IV (9 points); the as-officers reading scores I to III too."""
    monkeypatch.chdir(tmp_path)
    result = run("deck", "print", "--option", "promoted-points=as-officers", "--svg", "cards")
    assert result.exit_code == 0, result.output
    words = legend_text(tmp_path / "cards" / "legend.svg")
    assert re.search(r"I scores\s+12", words) and "IV scores 9" in words
    assert not list(tmp_path.glob("*.pdf"))                  # only the SVG files were asked for


def test_bad_paper_is_a_usage_error(tmp_path):
    message = clean_failure(run("deck", "print", "--paper", "a5", "--out", str(tmp_path / "d.pdf")), 2)
    assert "a5" in message and "a4" in message and "letter" in message
    assert not (tmp_path / "d.pdf").exists()


def test_unknown_ruleset_is_bad_input(tmp_path):
    message = clean_failure(run("deck", "print", "nosuch", "--out", str(tmp_path / "d.pdf")), 1)
    assert "nosuch" in message and not (tmp_path / "d.pdf").exists()


def test_a_reading_the_ruleset_lacks_is_a_usage_error(tmp_path):
    message = clean_failure(run("deck", "print", "--option", "suit-order=zzz", "--out", str(tmp_path / "d.pdf")), 2)
    assert "numeral" in message and not (tmp_path / "d.pdf").exists()


def test_an_existing_file_is_kept_unless_forced(tmp_path):
    out = tmp_path / "deck.pdf"
    out.write_text("mine")
    message = clean_failure(run("deck", "print", "--out", str(out)), 2)
    assert "--force" in message and out.read_text() == "mine"
    result = run("deck", "print", "--out", str(out), "--force")
    assert result.exit_code == 0 and out.read_bytes().startswith(b"%PDF")


def test_outputs_are_checked_before_any_work(tmp_path):
    clean_failure(run("deck", "print", "--out", str(tmp_path / "no" / "deck.pdf")), 2)
    (tmp_path / "png").mkdir()
    (tmp_path / "png" / "w-K.png").write_text("mine")
    message = clean_failure(run("deck", "print", "--out", str(tmp_path / "d.pdf"), "--png", str(tmp_path / "png")), 2)
    assert "w-K.png" in message and not (tmp_path / "d.pdf").exists()
    clean_failure(run("deck", "print", "--svg", str(tmp_path / "no" / "svg")), 2)


def test_a_bleed_that_leaves_no_room_for_marks(tmp_path):
    message = clean_failure(run("deck", "print", "--paper", "letter", "--bleed", "6", "--out",
                                str(tmp_path / "d.pdf")), 2)
    assert "letter" in message and "at most" in message
    clean_failure(run("deck", "print", "--bleed", "-1", "--out", str(tmp_path / "d.pdf")), 2)


def test_the_pdf_is_named_after_the_ruleset_by_default(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("deck", "print", "three-player").exit_code == 0
    assert (tmp_path / "schachett-deck-three-player.pdf").read_bytes().startswith(b"%PDF")
    clean_failure(run("deck", "print", "three-player"), 2)               # and is not overwritten


@pytest.mark.slow
def test_marks_too_near_the_edge_are_pointed_out(tmp_path):
    """Letter leaves (279.4 - 264) / 2 = 7.7 mm above the cards: a 3 mm bleed and 1 mm gap put the marks at 3.7 mm."""
    result = run("deck", "print", "--paper", "letter", "--bleed", "3", "--out", str(tmp_path / "d.pdf"))
    assert result.exit_code == 0 and "3.7 mm of the paper's edge" in result.stderr
    result = run("deck", "print", "--paper", "a4", "--bleed", "3", "--out", str(tmp_path / "e.pdf"))
    assert result.exit_code == 0 and "note" not in result.stderr

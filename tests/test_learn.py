"""How to play, the rules sheet and the score sheet, the comparison matrix and the site's search.

Expected values come from the manual: a King falling in the first trick with 13 cards in each hand
scores 100 + 6 x 13 = 178 for a checkmate (§7), 50 + 4 x 13 = 102 for a selfmate (§8) and
25 + 2 x 13 = 51 for a stalemate (§9); §13's seat changes worked by hand; A4 is 210 x 297 mm and
US Letter 8.5 x 11 inches (215.9 x 279.4 mm).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pymupdf
import pytest
from click.testing import CliRunner

from schachett_rules.cli.main import main
from schachett_rules.kernel.compiler import compile_ruleset
from schachett_rules.paths import home
from schachett_rules.printing.rulesheet import rules_pdf
from schachett_rules.printing.scoresheet import scoresheet_pdf
from schachett_rules.rules.loader import load
from schachett_rules.site.compare import matrix_markdown, matrix_rows
from schachett_rules.site.context import Context
from schachett_rules.site.learn import SEATS, build_lesson, how_to_play_markdown

MM = 72 / 25.4
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}


@pytest.fixture(scope="module")
def lesson():
    return build_lesson()


@pytest.fixture(scope="module")
def page(lesson):
    files = {}
    text = how_to_play_markdown(lesson, files.__setitem__)
    return text, files


# --- the How to play page ------------------------------------------------------------------------

def test_s7_s8_s9_every_king_event_is_drawn_with_its_first_trick_points(page, lesson):
    text, files = page
    for event, points in (("checkmate", 178), ("selfmate", 102), ("stalemate", 51)):
        assert f"### {event.capitalize()}" in text
        assert f"assets/learn/{event}.svg" in files
        caption = re.search(rf"!\[([^\]]*)\]\(assets/learn/{event}.svg\)", text).group(1)
        assert caption.endswith(f"score {points}.")
        assert lesson.event_examples[event][2] == points


def test_s2_the_example_tricks_are_won_by_the_card_the_manual_ranks_highest(lesson):
    # checkmate: West's sD takes South's wK (D ranks above K); selfmate: East's sT takes his partner West's sK;
    # stalemate: no pawn or suit card may take South's wK, so it holds its own trick.
    assert {e: ex[1] for e, ex in lesson.event_examples.items()} == {"checkmate": 1, "selfmate": 3, "stalemate": 0}


def test_the_page_keys_every_letter_of_s1(page):
    text, _ = page
    for letter, word in (("D", "Dame"), ("T", "Turm"), ("L", "Läufer"), ("S", "Springer"), ("K", "König"),
                         ("B", "Bauer"), ("F", "Farbenblatt"), ("w", "weiß"), ("s", "schwarz")):
        assert re.search(rf"\| \*\*{letter}\*\* \| {word} \|", text), letter


def test_the_page_covers_the_deal_promotion_castling_scoring_and_settlement(page):
    text, _ = page
    for heading in ("The deal", "Leading and following", "Who takes a trick", "Promotion in the last trick",
                    "Castling", "Scoring", "The settlement", "A sample game, trick by trick"):
        assert f"## {heading}" in text or f"### {heading}" in text, heading
    assert "wK face up to the dealer" in text and "sK face up to West" in text
    # §12's worked example: 190 against 68 at a quarter pfennig is 30.5, so 31 Pfg
    assert "each winner gets 31 Pfg" in text


def test_s11_the_promoted_I_takes_the_last_trick_as_a_dame(page):
    # North leads wV; East's wI counts as a Dame in the last trick and takes it; the wIX after it does not
    text, files = page
    assert "assets/learn/promotion.svg" in files
    assert "The last trick: North leads wV; wI takes it for East" in text


def test_the_sample_hand_draws_every_trick_with_the_engines_winner_and_reason(page, lesson):
    text, files = page
    game = lesson.sample
    assert len(game.tricks) == 13
    for tr in game.tricks:
        svg = files[f"assets/learn/sample-{tr.number}.svg"]
        assert f"![Trick {tr.number}" in text
        assert re.search(rf"!\[Trick {tr.number}\b[^\]]*{SEATS[tr.winner]} takes it with the {tr.winning_card}\b", text)
        assert svg.count('class="card winner"') == 1
        assert "; ".join(tr.why) in text
    for c in game.castles:          # every castle of the engine's record is told, where it happened
        assert f"{SEATS[c.seat]}'s {c.king}" in text and f"{SEATS[c.with_seat]}'s {c.officer}" in text
    result = game.result()
    assert f"**{result.totals[0]}**" in text and f"**{result.totals[1]}**" in text
    for e in result.events:
        assert f"{e.event} of the {e.king}".lower() in text.lower()


def test_the_sample_hand_is_the_same_every_build():
    a, b = build_lesson().sample, build_lesson().sample
    assert [t.cards for t in a.tricks] == [t.cards for t in b.tricks]


# --- the printed sheets -----------------------------------------------------------------------

def _check_pages(data: bytes, paper: str, tmp_path, name: str) -> pymupdf.Document:
    doc = pymupdf.open("pdf", data)
    w, h = PAPER_MM[paper]
    for i, p in enumerate(doc):
        assert abs(p.rect.width / MM - w) < 0.5 and abs(p.rect.height / MM - h) < 0.5, (paper, i)
        assert f"page {i + 1} of {doc.page_count}" in p.get_text()
        pix = p.get_pixmap(dpi=40)
        pix.save(tmp_path / f"{name}-{paper}-{i + 1}.png")
        assert (tmp_path / f"{name}-{paper}-{i + 1}.png").stat().st_size > 2000
        samples = pix.samples
        assert any(samples[j] < 128 for j in range(0, len(samples), 97)), f"page {i + 1} looks blank"
    return doc


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_rules_sheet_is_a_few_pages_of_the_paper_asked_with_the_rules_on_them(lesson, paper, tmp_path):
    doc = _check_pages(rules_pdf(lesson, paper), paper, tmp_path, "rules")
    assert 3 <= doc.page_count <= 8
    text = " ".join(p.get_text() for p in doc)
    text = " ".join(text.split())
    for words in ("How to play Schachett", "Checkmate", "Selfmate", "Stalemate", "Promotion in the last trick",
                  "Castling", "The settlement", "Farbenblatt", "178 / 78", "102 / 52", "51 / 26"):
        assert words in text, words
    assert "A sample game" not in text
    # nothing is lost between pages: every printable part, and every rule quoted under it, is there
    printable = [part for part in lesson.parts if part.print_too]
    for part in printable:
        assert part.title in text
    quoted = sum(1 for part in printable for b in part.blocks if isinstance(b, str) and b.startswith("> **The rule**"))
    assert text.count("The rule [") == quoted
    assert "The cards are worth 216 points in all" in text      # §12's editor's note: the counting cards total 216


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_s13_the_score_sheet_lays_out_24_games_in_6_rounds_with_the_seat_changes(paper, tmp_path):
    r = load("reconstruction")
    doc = _check_pages(scoresheet_pdf(r, compile_ruleset(r), paper), paper, tmp_path, "scoresheet")
    assert 1 <= doc.page_count <= 3
    text = " ".join(" ".join(p.get_text() for p in doc).split())
    # by hand from §13: before round 2 (even) the player after A (B) changes with his left neighbour (C); before
    # round 3 (odd) the player opposite A (now B) changes with his left neighbour (D)
    assert "Round 1: South A, West B, North C, East D" in text and "A + C against B + D" in text
    assert "Round 2: South A, West C, North B, East D" in text and "A + B against C + D" in text
    assert "Round 3: South A, West C, North D, East B" in text
    assert "Round 6:" in text and "Round 7:" not in text
    games = {int(g) for g in re.findall(r"(?<![\d(])(\d{1,2})(?![\d)])", text)}
    assert set(range(1, 25)) <= games


def test_the_sheets_commands_write_and_never_overwrite_without_force(tmp_path):
    runner = CliRunner()
    out = tmp_path / "rules.pdf"
    res = runner.invoke(main, ["rules", "print", "--paper", "letter", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert pymupdf.open(out).page_count >= 3
    again = runner.invoke(main, ["rules", "print", "--out", str(out)])
    assert again.exit_code == 2 and "--force" in again.output
    assert runner.invoke(main, ["rules", "print", "--out", str(out), "--force"]).exit_code == 0
    sheet = tmp_path / "score.pdf"
    assert runner.invoke(main, ["scoresheet", "--paper", "a4", "--out", str(sheet)]).exit_code == 0
    assert runner.invoke(main, ["scoresheet", "--out", str(sheet)]).exit_code == 2
    missing = runner.invoke(main, ["scoresheet", "--out", str(tmp_path / "no" / "s.pdf")])
    assert missing.exit_code == 2 and "no folder" in missing.output
    bad = runner.invoke(main, ["scoresheet", "--paper", "b5", "--out", str(tmp_path / "x.pdf")])
    assert bad.exit_code == 2 and "a4 and letter" in bad.output


# --- the comparison matrix ---------------------------------------------------------------------

def test_the_matrix_shows_the_rules_that_differ_first_and_every_rule_on_demand():
    ctx = Context.load()
    rows = matrix_rows(ctx)
    text = matrix_markdown(ctx)
    differ = [key for _s, key, _c, d in rows if d]
    same = [key for _s, key, _c, d in rows if not d]
    assert differ and same
    first_table, rest = text.split("<details", 1)
    for key in differ:
        assert f"<code>{key}</code>" in first_table and f"<code>{key}</code>" in rest
    for key in same:
        assert f"<code>{key}</code>" not in first_table and f"<code>{key}</code>" in rest
    # the deal is the rule the readings disagree on most plainly: the AI deals at random (§4 is lost)
    assert "deal" in differ
    assert "(play this one)" in first_table
    assert "=" in first_table   # a rule as printed is not repeated in the other columns


# --- the built site --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def built_site(tmp_path_factory):
    out = tmp_path_factory.mktemp("learn-site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", DISABLE_MKDOCS_2_WARNING="true")
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                            cwd=home(), env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    return out


@pytest.mark.slow
def test_search_finds_words_inside_brackets_and_leaves_the_summary_out(built_site):
    index = json.loads((built_site / "search" / "search_index.json").read_text(encoding="utf-8"))
    separator = re.compile(index["config"]["separator"])
    words = {w.lower() for doc in index["docs"] for w in separator.split(re.sub(r"<[^>]+>", " ", doc["text"]))}
    assert "rochade" in words and "strohmann" in words
    assert not any(doc["location"].split("#")[0].lower().startswith("summary") for doc in index["docs"])


@pytest.mark.slow
def test_the_home_page_starts_here_and_the_downloads_are_built(built_site):
    home_page = (built_site / "index.html").read_text(encoding="utf-8")
    assert "Start here" in home_page and 'href="play/"' in home_page
    words = " ".join(re.sub(r"<[^>]+>", "", home_page).split())
    assert "schachett play reconstruction" in words and "pip install" in words
    for kind in ("rules", "scoresheet"):
        for paper in ("a4", "letter"):
            pdf = built_site / "downloads" / f"schachett-{kind}-{paper}.pdf"
            assert pymupdf.open(pdf).page_count >= 1
    play = (built_site / "play" / "index.html").read_text(encoding="utf-8")
    assert play.count("assets/learn/sample-") >= 13

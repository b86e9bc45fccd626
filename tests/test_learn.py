"""How to play, the rules sheet and the score sheet, the comparison matrix and the site's search.

Expected values come from the manual: a King falling in the first trick with 13 cards in each hand
scores 100 + 6 x 13 = 178 for a checkmate (§7), 50 + 4 x 13 = 102 for a selfmate (§8) and
25 + 2 x 13 = 51 for a stalemate (§9); §13's seat changes worked by hand; A4 is 210 x 297 mm and
US Letter 8.5 x 11 inches (215.9 x 279.4 mm).
"""

from __future__ import annotations

import html
import json
import re

import pymupdf
import pytest
from click.testing import CliRunner

from schachett_rules.cli.main import main
from schachett_rules.kernel.compiler import compile_ruleset
from schachett_rules.paths import home
from schachett_rules.printing.downloads import deck_pdf, download_paths
from schachett_rules.printing.rulesheet import rules_pdf
from schachett_rules.printing.scoresheet import scoresheet_pdf
from schachett_rules.rules.loader import load
from schachett_rules.site.compare import matrix_markdown, matrix_rows
from schachett_rules.site.context import Context
from schachett_rules.engine.replay import record_of, replay
from schachett_rules.site.learn import build_lesson, how_to_play_markdown
from schachett_rules.site.lesson_model import Lesson, Part, Table

# the fast lane prints on A4 alone; the whole suite on Letter too
PAPERS = ["a4", pytest.param("letter", marks=pytest.mark.slow)]

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

# The page's rules of the trick, written here from the manual, not from the engine: §2 ranks
# D > T > L > S > K > B8 ... B1 > F (the reconstruction reads the suit cards X highest, I lowest);
# an officer takes any lower card, a pawn a lower pawn or suit card of its colour, a suit card a lower
# suit card of its colour; of two equal officers the first played holds; §11 promotes I to IV in the
# last trick to D, T, L and S.
ORDER = ["D", "T", "L", "S", "K", "8", "7", "6", "5", "4", "3", "2", "1",
         "X", "IX", "VIII", "VII", "VI", "V", "IV", "III", "II", "I"]
PROMOTED = {"I": "D", "II": "T", "III": "L", "IV": "S"}
COMPASS = ["South", "West", "North", "East"]        # seat 0 is South, clockwise, as the page says


def _kind(sym: str) -> str:
    return "officer" if sym in "DTLSK" else "pawn" if sym.isdigit() else "suit"


def _takes(new: str, holder: str, last: bool) -> bool:
    (nc, ns), (hc, hs) = (new[0], new[1:]), (holder[0], holder[1:])
    if last:
        ns, hs = PROMOTED.get(ns, ns), PROMOTED.get(hs, hs)
    higher = ORDER.index(ns) < ORDER.index(hs)          # equal cards never take: the first played holds
    if _kind(ns) == "officer":
        return higher
    if _kind(ns) == "pawn":
        return higher and nc == hc and _kind(hs) in ("pawn", "suit")
    return higher and nc == hc and _kind(hs) == "suit"


def _winner(cards, last: bool) -> int:
    seat, card = cards[0]
    for s, c in cards[1:]:
        if _takes(c, card, last):
            seat, card = s, c
    return seat


def test_s2_s10_every_figure_is_a_trick_of_a_real_game_played_by_the_pages_rules(lesson, page):
    text, files = page
    figures = lesson.figures
    assert len(figures) >= 6 + 13      # the page's own figures, and every trick of the sample game
    for pic in figures:
        shown, game = pic.shown, pic.shown.game
        replay(record_of(game, "reconstruction"))            # the whole game is legal, card by card
        deal = game.log[0]
        # the page's deal: South deals, the wK face up to him and the sK to West on his left (§4,4 (3p))
        assert game.dealer == 0 and "wK" in deal.hands[0] and "sK" in deal.hands[1], pic.name
        # what is drawn is the trick as played, or (after a rescue) as taken
        assert pic.cards in (shown.played, shown.taken.cards), pic.name
        # §10.1: the dealer's left leads the first trick, the winner of a trick the next
        before = [tr for tr in game.tricks if tr.number < shown.number]
        leader = 1 if shown.number == 1 else before[-1].winner
        assert pic.cards[0][0] == leader and shown.taken.leader == leader, pic.name
        assert [s for s, _ in pic.cards] == [(leader + k) % 4 for k in range(4)], pic.name
        # §2, §11: the card framed as the winner is the one the page's capture rule gives
        assert pic.winner == _winner(pic.cards, shown.number == 13), pic.name
        if pic.cards == shown.taken.cards:
            assert pic.winner == shown.taken.winner, pic.name
        assert pic.svg.count('class="card winner"') == 1
        for seat, _card in pic.cards:
            assert f">{COMPASS[seat]}<" in pic.svg, (pic.name, seat)
        assert pic.name in files and html.escape(pic.caption) in text


def test_the_capture_sentence_agrees_with_the_capture_clause(page):
    text, _ = page
    # §2: "The B and F can only be taken by the higher B and F of the same color", so the highest card does not
    # always take; the page must not say it does
    assert "the strongest card takes the trick" not in text
    assert "captures only a lower card of its own colour" in text


def test_s7_s8_s9_every_king_event_is_drawn_from_a_game_with_its_points(page, lesson):
    text, files = page
    # §7-§9 with the remaining cards of §6: a first King falling in trick n, with 14 - n cards in each hand
    first = {"checkmate": lambda r: 100 + 6 * r, "selfmate": lambda r: 50 + 4 * r, "stalemate": lambda r: 25 + 2 * r}
    for event, points in first.items():
        assert f"### {event.capitalize()}" in text
        pic = lesson.event_examples[event]
        (e,) = pic.shown.taken.events
        assert e.event == event and e.order == "first"
        assert pic.caption.endswith(f"score {points(14 - pic.shown.number)}.")
        owner = next(s for s, c in pic.cards if c == e.king)
        assert f"{COMPASS[owner]}'s {e.king}" in pic.caption
    assert lesson.event_examples["checkmate"].shown.number == 1      # the search finds a first-trick checkmate
    assert lesson.event_examples["checkmate"].caption.endswith("score 178.")


def test_the_page_keys_every_letter_of_s1(page):
    text, _ = page
    for letter, word in (("D", "Dame"), ("T", "Turm"), ("L", "Läufer"), ("S", "Springer"), ("K", "König"),
                         ("B", "Bauer"), ("F", "Farbenblatt"), ("w", "weiß"), ("s", "schwarz")):
        assert re.search(rf"\| \*\*{letter}\*\* \| {word} \|", text), letter


def test_the_page_covers_the_deal_promotion_castling_scoring_and_settlement(page):
    text, _ = page
    for heading in ("Seats and the deal", "Leading and following", "Who takes a trick", "Promotion in the last trick",
                    "Castling", "Mistakes and penalties", "Scoring", "The settlement", "A sample game, trick by trick"):
        assert f"## {heading}" in text or f"### {heading}" in text, heading
    assert "the wK face up to himself and the sK face up to West" in text
    # §12's worked example: 190 against 68 at a quarter pfennig is 30.5, so 31 Pfg
    assert "each winner gets 31 Pfg" in text


# Each with the source of the words: the manual's section, or the reconstruction's rule file where it reads a gap.
TABLE_RULES = [
    # §3.4: 25 points to each member of the opposing party, the card taken back; found out later, the party scores
    # nothing for the game
    "(§3.4): the offender pays 25 points to each opponent; the card is taken back",
    "(§3.4): the offender's party scores nothing for the game",
    "(§10.2): the offender pays 25 points to each opponent",
    "(§10.3): the offender pays 25 points to each other player",
    # §10.3: besides the current trick, only the immediately preceding one may be looked at
    "you may look at the trick just finished, and at no earlier one (§10.3)",
    # 25 points at a quarter pfennig are 6.25, rounded 6; 50 points 12.5, rounded half up 13 (§12)
    "25 points are 6 Pfg, 50 points 13 Pfg",
    # what the manual leaves open, said as open, with the reading the reconstruction plays
    "**Who deals first.** The manual's page on seating and dealing (§4) is lost",
    "**The Kings stay known.** The manual says only that the Kings are laid out face up (§5 (3p))",
    "**You need not take the trick.**", "“a (higher or lower) B of the same color” (§3.2)",
    "**Equal points.** The manual does not say", "so nobody wins and no money changes hands",
    "The reconstruction calls A the player who deals the first game, on South",
    "**A promoted I against a real D.**",
]

# castling with South dealing, by the reconstruction's clause `dealer + 1 before play; dealer, dealer + 2 after
# trick 1; dealer, dealer + 2 rescue in trick 1`, once per party, the wK dealt to the dealer (South) and the sK to
# dealer + 1 (West); §5 (3p) quoted as the rule file quotes it
CASTLERS = [
    "**South** (the dealer) holds the wK and may castle between any two tricks from the end of the first trick on",
    "or in the first trick, as a rescue, when his wK has just been taken (checkmate or selfmate)",
    "**West** (the dealer's left) holds the sK and may castle before the first card is played",
    "**North** (opposite the dealer) is named beside South, but holds no King",
    "**East** (the dealer's right) never castles",
    "**Who chooses, and what is shown.** The manual does not say.",
    "If the partner holds no officer, there is nothing to exchange",
    "“The player sitting to the left of the Kaiser may, however, castle even before the start of the game with the "
    "one sitting opposite him.” (§5 (3p))",
]


@pytest.mark.parametrize("words", TABLE_RULES + CASTLERS)
def test_s3_s5_s10_s12_s13_every_rule_a_table_needs_is_on_the_page(page, words):
    assert words in " ".join(page[0].split())


def test_s3_4_a_late_revoke_costs_the_game_by_the_sample_games_points(page):
    # §3.4: "only the Points of the other party count"; §12: a quarter of the difference, 30.5 made 31
    words = " ".join(page[0].split())
    found = re.search(r"would have won with all their (\d+) points against 0: (\d+) Pfg for each", words)
    assert found
    points, money = int(found.group(1)), int(found.group(2))
    assert money == int(points / 4 + 0.5)


def test_s13_a_keeps_his_seat_as_the_page_says():
    # by hand from §13: the player after A (seat 1) and the player opposite A (seat 2) change with their left
    # neighbours; A himself never moves
    from schachett_rules.engine.session import seatings
    for row in seatings(load("reconstruction").clause("session"), "ABCD"):
        assert row[0] == "A"


@pytest.mark.slow
def test_the_castlers_the_page_names_are_the_ones_that_castle_in_the_engines_games():
    from schachett_rules.site.lesson_figures import FigureSearch
    search = FigureSearch(compile_ruleset(load("reconstruction")), games=300)
    made = {(c.seat, c.kind) for seed in range(search.games) for c in search.game(seed).castles}
    # South between tricks and as a rescue, West before play; North and East never
    assert made <= {(0, "between"), (0, "rescue"), (1, "before")}
    assert {(0, "between"), (1, "before")} <= made


def test_the_sample_hand_draws_every_trick_with_the_engines_winner_and_reason(page, lesson):
    text, files = page
    game = lesson.sample
    assert len(game.tricks) == 13
    for tr in game.tricks:
        svg = files[f"assets/learn/sample-{tr.number}.svg"]
        assert re.search(rf"!\[(Trick {tr.number}|The last trick)\b[^\]]*{COMPASS[tr.winner]} takes it with the "
                         rf"{tr.winning_card}\b", text)
        assert svg.count('class="card winner"') == 1
        assert "; ".join(tr.why) in text
    for c in game.castles:          # every castle of the engine's record is told, where it happened
        assert f"{COMPASS[c.seat]}'s {c.king}" in text and f"{COMPASS[c.with_seat]}'s {c.officer}" in text
    result = game.result()
    assert f"**{result.totals[0]}**" in text and f"**{result.totals[1]}**" in text
    for e in result.events:
        assert f"{e.event} of {COMPASS[e.owner]}'s {e.king}".lower() in html.unescape(text).lower()


def test_a_rescued_trick_is_drawn_as_played_before_it_is_drawn_as_taken(page, lesson):
    text, files = page
    rescues = [c for c in lesson.sample.castles if c.kind == "rescue"]
    assert rescues, "the sample game is chosen for its rescue"
    for c in rescues:
        played = files[f"assets/learn/sample-{c.trick}-played.svg"]
        taken = files[f"assets/learn/sample-{c.trick}.svg"]
        assert f">{c.king}<" in played.replace("<tspan", "<") or c.king in played
        told = text.index(f"**Castling as a rescue** (§5 (3p)): {COMPASS[c.seat]}'s {c.king}")
        assert text.index(f"sample-{c.trick}-played.svg") < told < text.index(f"(assets/learn/sample-{c.trick}.svg)")
        assert c.officer in taken


@pytest.mark.slow
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


@pytest.mark.parametrize("paper", PAPERS)
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


def _page_endings(data: bytes):
    """For each page of a sheet: the size and words of its last line above the footer."""
    for page in pymupdf.open("pdf", data):
        lines = []
        for block in page.get_text("dict")["blocks"]:
            for line in block.get("lines", []):
                spans = [s for s in line["spans"] if s["text"].strip()]
                if spans and not spans[0]["text"].startswith("Schachett, our reconstruction"):   # not the footer
                    lines.append((line["bbox"][3], max(s["size"] for s in spans), "".join(s["text"] for s in spans)))
        _bottom, size, words = max(lines)
        yield page.number + 1, size, words


# the sheet sets its headings at 11 pt and more, its text at 9.5 pt and less
HEADING_PT = 10.5


@pytest.mark.parametrize("paper", PAPERS)
def test_the_rules_sheet_never_ends_a_page_with_a_heading(lesson, paper):
    for number, size, words in _page_endings(rules_pdf(lesson, paper)):
        assert size < HEADING_PT, f"page {number} of the {paper} sheet ends with the heading {words!r}"


def test_a_heading_stays_with_its_table_whatever_text_comes_before_it():
    # as "What a King is worth" did: a heading, a line, then a table that does not fit below them
    table = Table(("the King falls in", "checkmate"), tuple((f"trick {i}", f"{100 + 6 * (14 - i)}") for i in range(1, 9)))
    for lines in range(30, 90, 3):
        filler = " ".join(f"Line {i} of the text before the heading, long enough to fill a line of the sheet." for i in range(lines))
        part = Part("A part", "part", [filler, "### What a King is worth", "Points by the trick it falls in:", table])
        sheet = rules_pdf(Lesson("A test sheet", "reconstruction", [part], {}, None), "a4")
        for number, size, words in _page_endings(sheet):
            assert size < HEADING_PT, f"with {lines} lines before it, page {number} ends with {words!r}"


@pytest.mark.parametrize("paper", PAPERS)
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


@pytest.mark.slow
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


@pytest.mark.parametrize("paper", PAPERS)
def test_the_deck_download_is_the_reconstructions_deck_on_the_paper_asked(paper):
    r = load("reconstruction")
    doc = pymupdf.open("pdf", deck_pdf(r, compile_ruleset(r), paper))
    # 52 cards and a legend card at least: 53 places, 6 sheets of nine, each sheet's fronts and its backs
    assert doc.page_count == 12
    w, h = PAPER_MM[paper]
    assert all(abs(p.rect.width / MM - w) < 0.5 and abs(p.rect.height / MM - h) < 0.5 for p in doc)
    markers = {m for p in doc for m in re.findall(r"schachett-card:(\S+)#", p.get_text())}
    assert {"wK", "sK", "wI", "s8"} <= markers
    assert f"downloads/schachett-deck-{paper}.pdf" in download_paths()


# --- the comparison matrix ---------------------------------------------------------------------

def test_the_matrix_shows_the_rules_that_differ_first_and_every_rule_on_demand():
    ctx = Context.load()
    rows = matrix_rows(ctx)
    text = matrix_markdown(ctx)
    differ = [key for _s, key, _c, d in rows if d]
    same = [key for _s, key, _c, d in rows if not d]
    assert differ and same
    first_table, rest = text.split('<details class="all-rules"', 1)
    for key in differ:
        assert f"<code>{key}</code>" in first_table and f"<code>{key}</code>" in rest
    for key in same:
        assert f"<code>{key}</code>" not in first_table and f"<code>{key}</code>" in rest
    # the deal is the rule the readings disagree on most plainly: the AI deals at random (§4 is lost)
    assert "deal" in differ
    assert "(play this one)" in first_table
    assert "=" in first_table   # a rule as printed is not repeated in the other columns
    # the whole rule is a tap away, not a hover title: no cell hides its words in a title attribute
    assert "title=" not in first_table and '<details class="more">' in first_table


# --- the built site (tests/conftest.py builds it once for the run, at the default address) ------------


@pytest.mark.slow
def test_the_navigation_file_is_no_page_and_the_sitemap_lists_the_pages(built_site):
    assert not (built_site / "SUMMARY").exists() and not (built_site / "SUMMARY.md").exists()
    sitemap = (built_site / "sitemap.xml").read_text(encoding="utf-8")
    locations = re.findall(r"<loc>([^<]+)</loc>", sitemap)
    assert "https://schachett.example/play/" in locations and "https://schachett.example/compare/matrix/" in locations
    assert not any("SUMMARY" in loc for loc in locations)
    assert len(locations) == len([p for p in built_site.rglob("index.html") if "search" not in p.parts])


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
    play = (built_site / "play" / "index.html").read_text(encoding="utf-8")
    for kind in ("rules", "scoresheet", "deck"):
        for paper in ("a4", "letter"):
            pdf = built_site / "downloads" / f"schachett-{kind}-{paper}.pdf"
            assert pymupdf.open(pdf).page_count >= 1
            assert f"downloads/schachett-{kind}-{paper}.pdf" in play      # How to play links every download
    assert play.count("assets/learn/sample-") >= 13


def test_the_sites_address_is_the_one_the_publisher_sets(monkeypatch):
    # mkdocs.yml reads SCHACHETT_SITE_URL, so a host names the site without editing the file; unset, the
    # reserved example address stands in
    from mkdocs.config import load_config
    monkeypatch.delenv("SCHACHETT_SITE_URL", raising=False)
    assert load_config(str(home() / "mkdocs.yml")).site_url == "https://schachett.example/"
    monkeypatch.setenv("SCHACHETT_SITE_URL", "https://cards.example.org/schachett/")
    assert load_config(str(home() / "mkdocs.yml")).site_url == "https://cards.example.org/schachett/"

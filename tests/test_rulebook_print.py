"""`schachett rules print RULESET`: any ruleset's rulebook as a PDF, every clause in words with its grade and its
sources, the contracts and the readings of the gaps. The family's games and the variants print as the
reconstruction's lesson does (the issue's "runs everywhere a Schachett ruleset runs")."""

from __future__ import annotations

import unicodedata

import pymupdf
import pytest
from click.testing import CliRunner

from schachett_rules.cli.main import main
from schachett_rules.printing.rulebook_pdf import rulebook_pdf
from schachett_rules.rules.loader import load
from schachett_rules.rules.rulebook import rulebook_of
from schachett_rules.printing.layout import PAPERS


def _text(pdf: bytes) -> str:
    # the PDF's text as one line, its ligatures (the "fi" of "first") undone
    return " ".join(unicodedata.normalize("NFKC", " ".join(p.get_text() for p in pymupdf.open("pdf", pdf))).split())


@pytest.mark.parametrize("name", ["hearts", "whist", "euchre", "five-hand-euchre", "schafkopf",
                                  "wendish-schafkopf", "officers-schafkopf", "dreiwendsch", "three-player"])
def test_every_rulebook_prints_each_clause_with_its_grade(name):
    r = load(name)
    book = rulebook_of(r)
    text = _text(rulebook_pdf(book, "a4"))
    assert text.startswith(r.title) and f"Ruleset {name}" in text
    count = sum(len(s.entries) for s in book.sections)
    assert f"{count} clauses" in text and count == len(r.clauses)
    for s in book.sections:                       # every section heading and every clause's opening words
        assert s.heading in text
        for e in s.entries:
            assert " ".join(e.text.split())[:40] in text
    assert all(k.title in text for k in book.contracts)
    assert text.count("[printed]") >= 1


def test_hearts_rulebook_says_the_rules_as_the_issue_states_them():
    # from the Hearts rules (hearts:§2-§4): the passing cycle, the two of clubs, the moon, play to 100
    text = _text(rulebook_pdf(rulebook_of(load("hearts")), "letter"))
    assert "in the first game to the left, in the second to the right, in the third across the table" in text
    assert "The holder of the c2 leads to the first trick." in text
    assert "sQ: 13" in text and "until a party has 100 game points" in text


def test_the_rulebook_shows_the_reading_each_gap_plays():
    text = _text(rulebook_pdf(rulebook_of(load("original")), "a4"))
    book = rulebook_of(load("original"))
    assert "The readings of the gaps" in text and book.readings
    for g in book.readings:
        assert f"{g.name} " in text and f"It plays {g.played}" in text


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_rules_print_writes_a_family_rulebook_and_never_overwrites_without_force(tmp_path, paper):
    runner = CliRunner()
    out = tmp_path / "euchre.pdf"
    res = runner.invoke(main, ["rules", "print", "euchre", "--paper", paper, "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "the rulebook of Euchre" in res.output
    doc = pymupdf.open(out)
    w, h = (v * 72 / 25.4 for v in PAPERS[paper])
    assert doc.page_count >= 1 and abs(doc[0].rect.width - w) < 1 and abs(doc[0].rect.height - h) < 1
    assert "Euchre (ruleset euchre) · page 1 of" in doc[0].get_text()
    again = runner.invoke(main, ["rules", "print", "euchre", "--out", str(out)])
    assert again.exit_code == 2 and "--force" in again.output and "Traceback" not in again.output


def test_rules_print_refuses_a_ruleset_check_refuses_in_its_words(tmp_path, rules):
    bad = rules('ruleset broken "Broken" extends hearts\nlead first [hearts:§3 printed]: holder of zz\n', "broken")
    res = CliRunner().invoke(main, ["rules", "print", str(bad), "--out", str(tmp_path / "b.pdf")])
    assert res.exit_code != 0 and "Traceback" not in res.output and "broken.schachett" in res.output
    assert not (tmp_path / "b.pdf").exists()


@pytest.mark.slow
def test_rules_print_rulebook_prints_the_reconstructions_rulebook_instead_of_its_lesson(tmp_path):
    runner = CliRunner()
    out = tmp_path / "book.pdf"
    res = runner.invoke(main, ["rules", "print", "--rulebook", "--out", str(out)])
    assert res.exit_code == 0, res.output
    r = load("reconstruction")
    assert f"the rulebook of {r.title}" in res.output
    text = _text(out.read_bytes())
    assert text.startswith(r.title) and "Ruleset reconstruction" in text
    assert f"{len(r.clauses)} clauses" in text
    # without the flag the reconstruction prints its rules sheet, the lesson, as before
    sheet = tmp_path / "sheet.pdf"
    res = runner.invoke(main, ["rules", "print", "--out", str(sheet)])
    assert res.exit_code == 0 and "the rules sheet" in res.output and "Ruleset reconstruction" not in _text(
        sheet.read_bytes())

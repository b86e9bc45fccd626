"""§2: each rule of a capture clause may carry its own citations and grade; the clause's basis is the default."""

from __future__ import annotations

import pytest

from schachett_rules.errors import RuleCheckError
from schachett_rules.language import ir
from schachett_rules.language.printer import format_ruleset
from schachett_rules.language.syntax import parse_ruleset
from schachett_rules.rules.check import check, raise_for
from schachett_rules.rules.diff import diff_rulesets
from schachett_rules.rules.grades import grade_counts, rule_basis, summary
from schachett_rules.rules.loader import load
from schachett_rules.rules.rulebook import render_ruleset

GRADED = '''ruleset g "graded" extends original
drop lacuna pawn-takes-suit
capture [§2, §3.3 inferred] {
    officer [§2 printed] takes lower: any
    pawn takes lower: pawn of same colour, suit of same colour
    suit [§2] takes lower: suit of same colour
}
'''


def _capture(text: str) -> ir.Capture:
    return next(st.clause for st in parse_ruleset(text).statements if isinstance(st, ir.ClauseStatement))


def test_2_a_rule_basis_parses_and_the_clause_basis_is_the_default():
    c = _capture(GRADED)
    officer, pawn, suit = c.rules
    assert officer.basis.cites == ("§2",) and officer.basis.grade is ir.Grade.printed
    assert pawn.basis is None
    assert rule_basis(c, pawn) == c.basis
    # a rule that cites without a grade takes its clause's grade
    assert suit.basis.grade is None
    assert rule_basis(c, suit).cites == ("§2",) and rule_basis(c, suit).grade is ir.Grade.inferred


def test_2_a_graded_capture_prints_back_to_the_same_ir():
    rs = parse_ruleset(GRADED)
    text = format_ruleset(rs)
    assert "officer [§2 printed] takes lower: any" in text
    assert "    pawn takes lower:" in text
    again = parse_ruleset(text)
    assert ir.strip_positions(again.model_dump()) == ir.strip_positions(rs.model_dump())


def test_2_a_rule_citing_a_section_that_does_not_exist_is_an_error_at_its_bracket(rules):
    # line 4, column 16: the bracket after `    officer    ` (the clause itself cites sound sections)
    path = rules(GRADED.replace("officer [§2 printed]", "officer    [§99 printed]"))
    errors = check(load(str(path)))
    assert len(errors) == 1
    err = errors[0]
    assert (err.line, err.column) == (4, 16)
    assert "§99" in err.message and "officer" in err.clause
    with pytest.raises(RuleCheckError):
        raise_for(errors)


def test_2_an_unchosen_option_rule_citing_nothing_real_is_found_too(rules):
    text = ('ruleset g extends original\n'
            'drop lacuna pawn-takes-suit\n'
            'lacuna extra [§2] "A made-up question." {\n'
            '    option a [§2 inferred] "one" { capture { officer [§2 printed] takes lower: any } }\n'
            '    option b [§2 inferred] "two" { capture { officer [§77] takes lower: any } }\n'
            '}\n'
            'choose extra a\n')
    errors = check(load(str(rules(text))))
    assert [(e.line, "§77" in e.message) for e in errors] == [(5, True)]


def test_2_the_originals_officer_rule_is_printed_while_its_clause_is_inferred():
    # §2 prints the officers' rule: "The D (Dame) therefore takes all Rooks, Bishops, in short all other
    # Officers, Pawns and Suit Cards"; whether a pawn takes a suit card is the lacuna pawn-takes-suit.
    c = load("original").clause("capture")
    assert c.basis.grade is ir.Grade.inferred
    by_taker = {r.taker: rule_basis(c, r) for r in c.rules}
    assert by_taker["officer"].grade is ir.Grade.printed and by_taker["officer"].cites == ("§2",)
    assert by_taker["pawn"].grade is ir.Grade.inferred
    for option in ("kinds-apart",):
        c2 = load("original", {"pawn-takes-suit": option}).clause("capture")
        assert {r.taker: rule_basis(c2, r).grade for r in c2.rules}["officer"] is ir.Grade.printed


def test_2_the_prose_shows_each_rules_grade():
    text = render_ruleset(load("original"))
    assert "[printed, §2] An officer takes any lower card." in text
    assert "[inferred, §2, §3.3] A pawn takes a lower pawn" in text


def test_2_rule_grades_are_counted_apart_from_clauses():
    clauses = [e.clause for e in load("original").clauses]
    counts = grade_counts(clauses)
    assert sum(counts.clauses.values()) == len(clauses)
    # officer and suit printed, pawn inferred (the across-kinds reading)
    assert dict(counts.rules) == {"printed": 2, "inferred": 1}
    assert summary(clauses)[1] == "of which 3 capture rules graded one by one: 2 printed, 1 inferred"


def test_2_a_changed_rule_grade_is_a_change_of_basis_not_of_rule(rules):
    path = rules(GRADED)
    other = rules(GRADED.replace("officer [§2 printed]", "officer [§2 uncertain]"), "other")
    d = diff_rulesets(load(str(path)), load(str(other)))
    entry = next(e for e in d.entries if e.key == "capture")
    assert entry.status == "changed" and not entry.rule_differs
    assert [g.grade for g in entry.a.rules] == ["printed", "inferred", "inferred"]
    assert [g.grade for g in entry.b.rules] == ["uncertain", "inferred", "inferred"]
    same = diff_rulesets(load(str(path)), load(str(path)))
    assert same.differences == []

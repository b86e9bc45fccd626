"""Grades: of each clause, of each rule inside a clause that grades its rules one by one, and how they are counted.

A clause has one basis (its citations and grade). A capture clause may also
give a basis to each of its rules (``officer [§2 printed] takes lower: any``);
a rule that gives none stands on its clause's basis, and a rule that cites
without a grade takes its clause's grade.

Counting: a clause counts once, under its own grade. The rules of a clause
that grades its rules one by one are counted apart, each under its own grade
(or its clause's): they say how much of the clause the manual prints, and are
never added to the count of clauses.

>>> from schachett_rules.language.syntax import parse_ruleset
>>> rs = parse_ruleset('ruleset x capture [§2 inferred] { officer [§2 printed] takes lower: any  pawn takes lower: pawn }')
>>> c = rs.statements[0].clause
>>> [(r.taker, b.grade.value) for r, b in graded_rules(c)]
[('officer', 'printed'), ('pawn', 'inferred')]
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from ..language import ir

GRADES = tuple(g.value for g in ir.Grade)


def rule_basis(clause, rule) -> ir.Basis | None:
    """The basis a rule of a clause stands on: its own (with its clause's grade if it gives none), else its clause's."""
    own = getattr(rule, "basis", None)
    if own is None:
        return clause.basis
    if own.grade is None and clause.basis is not None:
        return own.model_copy(update={"grade": clause.basis.grade})
    return own


def graded_rules(clause) -> tuple[tuple[object, ir.Basis], ...]:
    """The rules of a clause that grades its rules one by one, each with its basis; empty if it is graded as a whole.

    A clause grades its rules one by one when at least one of them has a basis of its own.
    """
    rules = clause.rules if isinstance(clause, ir.Capture) else ()
    if not any(r.basis is not None for r in rules):
        return ()
    return tuple((r, rule_basis(clause, r)) for r in rules)


def sureness(grade: ir.Grade) -> int:
    """How sure a grade is, 0 the surest (printed) and higher less sure, in the order the grades are listed."""
    return GRADES.index(grade.value)


def least_sure(parts) -> tuple[str, ir.Grade] | None:
    """Of ``(label, basis)`` pairs, the label and grade of the least sure (the first such), or None if none is graded."""
    graded = [(label, b.grade) for label, b in parts if b is not None and b.grade is not None]
    return max(graded, key=lambda x: sureness(x[1])) if graded else None


def surer_than_its_parts(basis: ir.Basis | None, parts) -> str | None:
    """Why a clause (or a contract) graded ``basis`` claims more than its parts allow, or None when it does not.

    A whole is no surer than the least sure of its rules: a capture clause graded printed cannot hold a rule the
    manual only lets us infer.

    >>> from schachett_rules.language.syntax import parse_ruleset
    >>> rs = parse_ruleset('ruleset x capture [§2 printed] { officer [§2 inferred] takes lower: any }')
    >>> c = rs.statements[0].clause
    >>> surer_than_its_parts(c.basis, [(f"rule {r.taker}", b) for r, b in graded_rules(c)])
    'it is graded printed, surer than its least sure part (rule officer, inferred); grade it inferred or less sure'
    """
    if basis is None or basis.grade is None:
        return None
    worst = least_sure(parts)
    if worst is None or sureness(worst[1]) <= sureness(basis.grade):
        return None
    label, grade = worst
    return (f"it is graded {basis.grade.value}, surer than its least sure part ({label}, {grade.value}); grade it "
            f"{grade.value} or less sure")


class GradeCounts(NamedTuple):
    """Clauses by grade, and the rules of clauses that grade them one by one, by grade."""

    clauses: Counter
    rules: Counter


def grade_counts(clauses) -> GradeCounts:
    """Count clauses (each once, under its own grade) and, apart, the rules graded one by one."""
    by_clause: Counter = Counter()
    by_rule: Counter = Counter()
    for c in clauses:
        by_clause[c.basis.grade.value] += 1
        for _, b in graded_rules(c):
            by_rule[b.grade.value] += 1
    return GradeCounts(by_clause, by_rule)


def count_words(counts: Counter) -> str:
    """A count of grades in words, in the order of the grades: '12 printed, 3 inferred'."""
    return ", ".join(f"{counts[g]} {g}" for g in GRADES if counts[g])


def summary(clauses) -> list[str]:
    """The grade counts as lines: the clauses, then (if any) the rules graded one by one.

    >>> from schachett_rules.rules.loader import load
    >>> summary(e.clause for e in load("original").clauses)[1]
    'of which 3 capture rules graded one by one: 2 printed, 1 inferred'
    """
    clauses = list(clauses)
    counts = grade_counts(clauses)
    lines = [f"{len(clauses)} clauses: {count_words(counts.clauses)}"]
    n = sum(counts.rules.values())
    if n:
        lines.append(f"of which {n} capture rule{'s' if n != 1 else ''} graded one by one: {count_words(counts.rules)}")
    return lines

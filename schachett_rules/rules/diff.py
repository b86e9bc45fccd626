"""Lining up two rulesets clause by clause: same, changed, only in one of them.

Clauses are matched by key (topic, and name where a topic has several) and
listed in the manual's order. Two clauses are the *same* when their rule and
their basis agree; *changed* when the rule differs, or only the basis does
(then the entry says so; a rule's own grade, where a clause grades its rules
one by one, is part of the basis); *only in A* or *only in B* otherwise.

>>> from schachett_rules.rules.loader import load
>>> d = diff_rulesets(load("original"), load("original"))
>>> d.differences
[]
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, ConfigDict

from ..language import ir
from .loader import Effective, Resolved
from .manual import load_manual
from ..language.printer import clause as clause_text
from .grades import graded_rules
from .prose import deck_of, filed_under, rule_grades, seats_of, section_order, sentence


class RuleGrade(BaseModel):
    """One rule of a clause that grades its rules one by one: the rule in words, its citations and grade."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    prose: str
    cites: tuple[str, ...]
    grade: str


class Side(BaseModel):
    """One ruleset's clause in a diff entry."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    ruleset: str
    cites: tuple[str, ...]
    grade: str
    prose: str
    rule: str
    lacuna: str | None = None
    option: str | None = None
    rules: tuple[RuleGrade, ...] = ()     # the clause's rules, where it grades them one by one


class Entry(BaseModel):
    """One key of the diff."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    key: str
    section: str
    status: Literal["same", "changed", "only-a", "only-b"]
    rule_differs: bool = False
    a: Side | None = None
    b: Side | None = None


class LacunaEntry(BaseModel):
    """A lacuna of either ruleset and the reading each plays."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    section: str
    a: str | None
    b: str | None


class Diff(BaseModel):
    """The whole comparison of ruleset A with ruleset B."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    a: str
    b: str
    entries: list[Entry]
    lacunae: list[LacunaEntry]

    @property
    def differences(self) -> list[Entry]:
        """The entries that are not the same."""
        return [e for e in self.entries if e.status != "same"]

    def mirrored(self) -> "Diff":
        """The same diff seen from the other side (B against A)."""
        flip = {"only-a": "only-b", "only-b": "only-a"}
        return Diff(a=self.b, b=self.a,
                    entries=[e.model_copy(update={"a": e.b, "b": e.a, "status": flip.get(e.status, e.status)})
                             for e in self.entries],
                    lacunae=[lac.model_copy(update={"a": lac.b, "b": lac.a}) for lac in self.lacunae])


def rule_content(c) -> dict:
    """What a clause says, without where it stands or what it or its rules cite (two clauses agree when these are equal)."""
    return _without_bases(ir.strip_positions(c.model_dump(mode="json", exclude={"basis", "because"})))


def _without_bases(data):
    # a rule's own basis is part of the clause's basis, not of what the rule says
    if isinstance(data, dict):
        return {k: _without_bases(v) for k, v in data.items() if k != "basis"}
    if isinstance(data, list):
        return [_without_bases(v) for v in data]
    return data


def basis_content(c) -> tuple:
    """What a clause and each of its rules graded one by one cite, and their grades (a changed grade is a change)."""
    return ((c.basis.cites, c.basis.grade),) + tuple((b.cites, b.grade) for _, b in graded_rules(c))


def _side(r: Resolved, e: Effective) -> Side:
    c = e.clause
    deck = deck_of(r)
    rules = tuple(RuleGrade(prose=text, cites=b.cites, grade=b.grade.value) for text, b in rule_grades(c, deck))
    return Side(ruleset=r.name, cites=c.basis.cites, grade=c.basis.grade.value, prose=sentence(c, deck, seats_of(r)),
                rule=clause_text(c.model_copy(update={"because": None})), lacuna=e.origin.lacuna, option=e.origin.option,
                rules=rules)


def diff_rulesets(a: Resolved, b: Resolved) -> Diff:
    """Compare two resolved rulesets."""
    manual = load_manual()
    order = section_order(manual)
    ka = {e.key: e for e in a.clauses}
    kb = {e.key: e for e in b.clauses}
    entries = []
    for key in list(ka) + [k for k in kb if k not in ka]:
        ea, eb = ka.get(key), kb.get(key)
        # Where the two file a key differently, the earlier section in the manual's order, so that
        # the diff of A with B and of B with A agree.
        section = min((filed_under(r, e) for r, e in ((a, ea), (b, eb)) if e), key=lambda s: (order(s), s))
        if ea and eb:
            rule_differs = rule_content(ea.clause) != rule_content(eb.clause)
            basis_differs = basis_content(ea.clause) != basis_content(eb.clause)
            status = "changed" if rule_differs or basis_differs else "same"
            entries.append(Entry(key=key, section=section, status=status, rule_differs=rule_differs,
                                 a=_side(a, ea), b=_side(b, eb)))
        elif ea:
            entries.append(Entry(key=key, section=section, status="only-a", rule_differs=True, a=_side(a, ea)))
        else:
            entries.append(Entry(key=key, section=section, status="only-b", rule_differs=True, b=_side(b, eb)))
    entries.sort(key=lambda e: (order(e.section), e.key))
    la = {c.lacuna.name: c for c in a.lacunae}
    lb = {c.lacuna.name: c for c in b.lacunae}
    lacunae = [LacunaEntry(name=n, section=min((c.lacuna.basis.section for c in (la.get(n), lb.get(n)) if c),
                                               key=lambda s: (order(s), s)),
                           a=la[n].option if n in la else None, b=lb[n].option if n in lb else None)
               for n in list(la) + [n for n in lb if n not in la]]
    lacunae.sort(key=lambda x: (order(x.section), x.name))
    return Diff(a=a.name, b=b.name, entries=entries, lacunae=lacunae)


STATUS_WORDS = {"same": "same", "changed": "changed", "only-a": "only in {a}", "only-b": "only in {b}"}


def format_text(d: Diff, show_same: bool = False) -> str:
    """The diff as plain text."""
    lines = [f"{d.a} ⟷ {d.b}: {len(d.differences)} of {len(d.entries)} clauses differ", ""]
    for e in d.entries:
        if e.status == "same" and not show_same:
            continue
        status = STATUS_WORDS[e.status].format(a=d.a, b=d.b)
        note = "" if e.rule_differs or e.status != "changed" else " (the rule agrees; only its basis differs)"
        lines.append(f"{e.section}  {e.key}: {status}{note}")
        for side in (e.a, e.b):
            if side is not None:
                via = f", reading {side.option} of {side.lacuna}" if side.lacuna else ""
                lines.append(f"  {side.ruleset} [{', '.join(side.cites)} {side.grade}{via}]: {side.prose}")
                lines += [f"    rule [{', '.join(g.cites)} {g.grade}]: {g.prose}" for g in side.rules]
        lines.append("")
    differing = [x for x in d.lacunae if x.a != x.b]
    if differing:
        lines.append("Lacunae")
        for x in differing:
            lines.append(f"  {x.section} {x.name}: {d.a} {x.a or '(none)'}, {d.b} {x.b or '(none)'}")
    return "\n".join(lines).rstrip() + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def format_markdown(d: Diff, show_same: bool = False) -> str:
    """The diff as a Markdown table."""
    lines = [f"| section | clause | status | {d.a} | {d.b} |", "|---|---|---|---|---|"]
    for e in d.entries:
        if e.status == "same" and not show_same:
            continue
        cells = []
        for side in (e.a, e.b):
            rules = "".join(f" — {g.prose} *[{', '.join(g.cites)} {g.grade}]*" for g in side.rules) if side else ""
            cells.append("—" if side is None else _cell(f"{side.prose} *[{', '.join(side.cites)} {side.grade}]*{rules}"))
        status = STATUS_WORDS[e.status].format(a=d.a, b=d.b)
        if e.status == "changed" and not e.rule_differs:
            status += " (basis only)"
        lines.append(f"| {e.section} | {e.key} | {status} | {cells[0]} | {cells[1]} |")
    return "\n".join(lines) + "\n"


def format_json(d: Diff) -> str:
    """The diff as JSON."""
    return json.dumps(d.model_dump(mode="json"), indent=2, ensure_ascii=False)

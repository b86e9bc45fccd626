"""A resolved ruleset's rulebook as data: its clauses in the manual's order, each in words with its grade and
sources, its contracts, and the reading it plays of each gap. ``schachett show`` prints it as text
(:func:`render_ruleset`), ``schachett rules print`` lays it out as a PDF (:mod:`..printing.rulebook_pdf`).

>>> from schachett_rules.rules.loader import load
>>> book = rulebook_of(load("original"))
>>> [s.heading for s in book.sections][:2]
['§1 Schachett', '§2 Ranking Order when Taking Tricks']
>>> text = render_ruleset(load("original"))
>>> "§7 Checkmate" in text and "[printed]" in text
True
"""

from __future__ import annotations

from dataclasses import dataclass

from .loader import Resolved
from .manual import Manual, load_manual
from .prose import deck_of, filed_under, heading_of, rule_grades, section_order, seats_of, sentence


@dataclass(frozen=True)
class Rule:
    """One rule of a clause that grades its rules one by one (a capture rule, a restriction's case)."""

    grade: str
    cites: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class Entry:
    """One clause in words: how sure we are of it, the other sections it rests on, the gap's reading it is."""

    grade: str
    also: tuple[str, ...]             # citations other than the section it is filed under
    reading: str                      # "reading X of lacuna Y", or ""
    text: str
    rules: tuple[Rule, ...]
    because: str


@dataclass(frozen=True)
class Section:
    """The clauses filed under one section of the manual (or of a family game's source)."""

    cite: str
    heading: str
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class ContractEntry:
    """A contract: its title, name and form, its grade and sources, and the clauses it changes."""

    title: str
    name: str
    form: str
    grade: str
    cites: tuple[str, ...]
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class Reading:
    """A gap of the manual: the question, every reading with its summary, the one played and why."""

    name: str
    cites: tuple[str, ...]
    question: str
    options: tuple[tuple[str, str, str, str], ...]   # name, cites, grade, summary
    played: str
    chosen_by: str                                   # the ruleset that chose it ("" where it is this one)
    because: str


@dataclass(frozen=True)
class Rulebook:
    """A ruleset's rulebook: what it is called, what it extends, its sections, contracts and readings."""

    name: str
    title: str
    chain: tuple[str, ...]                            # the rulesets it extends, nearest last
    sections: tuple[Section, ...]
    contracts: tuple[ContractEntry, ...]
    readings: tuple[Reading, ...]


def rulebook_of(r: Resolved, manual: Manual | None = None) -> Rulebook:
    """The rulebook of a resolved ruleset, its sections in the manual's order."""
    manual = manual or load_manual()
    deck, seats, deal = deck_of(r), seats_of(r), r.clause("deal")
    by_section: dict[str, list] = {}
    for e in r.clauses:
        by_section.setdefault(filed_under(r, e), []).append(e)

    def entry(c, grade: str, also=(), reading: str = "") -> Entry:
        rules = tuple(Rule(b.grade.value, tuple(b.cites), f"{text[0].upper()}{text[1:]}.")
                      for text, b in rule_grades(c, deck))
        return Entry(grade, tuple(also), reading, sentence(c, deck, seats, deal), rules, c.because or "")

    sections = []
    for cite in sorted(by_section, key=section_order(manual)):
        entries = []
        for e in by_section[cite]:
            c = e.clause
            reading = f"reading {e.origin.option} of lacuna {e.origin.lacuna}" if e.origin.lacuna else ""
            entries.append(entry(c, c.basis.grade.value, (x for x in c.basis.cites if x != cite), reading))
        sections.append(Section(cite, heading_of(manual, cite), tuple(entries)))
    contracts = tuple(
        ContractEntry(k.title, k.name, (" for each colour" if k.each_colour else "") + (f", like {k.like}" if k.like
                                                                                         else ""),
                      k.basis.grade.value, tuple(k.basis.cites),
                      tuple(entry(c, c.basis.grade.value if c.basis.grade else k.basis.grade.value) for c in k.clauses))
        for k in r.contracts)
    readings = tuple(
        Reading(ch.lacuna.name, tuple(ch.lacuna.basis.cites), ch.lacuna.question,
                tuple((o.name, ", ".join(o.basis.cites), o.basis.grade.value, o.summary) for o in ch.lacuna.options),
                ch.option, "" if ch.chosen_by == r.name else ch.chosen_by, ch.because or "")
        for ch in r.lacunae)
    return Rulebook(r.name, r.title or r.name, tuple(r.chain[:-1]), tuple(sections), contracts, readings)


def _entry_lines(e: Entry, indent: str, with_rules: bool = True) -> list[str]:
    src = f" (also {', '.join(e.also)})" if e.also else ""
    via = f" — {e.reading}" if e.reading else ""
    lines = [f"{indent}[{e.grade}]{src}{via}", f"{indent}  {e.text}"]
    if with_rules:
        lines += [f"{indent}    [{rule.grade}, {', '.join(rule.cites)}] {rule.text}" for rule in e.rules]
    if e.because:
        lines.append(f"{indent}  Why: {e.because}")
    return lines


def render_ruleset(r: Resolved, manual: Manual | None = None) -> str:
    """The whole ruleset in prose: clauses by section, then the contracts, then the lacunae with every reading."""
    book = rulebook_of(r, manual)
    lines = [f"{book.title}  (ruleset {book.name}" + (f", extends {' → '.join(book.chain)}" if book.chain else "")
             + ")", ""]
    for s in book.sections:
        lines.append(s.heading)
        for e in s.entries:
            lines += _entry_lines(e, "  ")
        lines.append("")
    if book.contracts:
        lines.append("Contracts")
        for k in book.contracts:
            lines.append(f"  {k.title} (contract {k.name}{k.form}) [{', '.join(k.cites)} {k.grade}]")
            if not k.entries:
                lines.append("    Nothing changes: the rules above are played as they stand.")
            for e in k.entries:
                lines.append(f"    [{e.grade}] {e.text}")
                if e.because:
                    lines.append(f"      Why: {e.because}")
        lines.append("")
    if book.readings:
        lines.append("Gaps and ambiguities")
        for g in book.readings:
            lines.append(f"  {g.name} ({', '.join(g.cites)}): {g.question}")
            for name, cites, grade, summary in g.options:
                mark = "▶" if name == g.played else " "
                lines.append(f"   {mark} {name} [{cites} {grade}]: {summary}")
            who = f" (chosen by {g.chosen_by})" if g.chosen_by else ""
            lines.append(f"    Plays {g.played}{who}." + (f" Why: {g.because}" if g.because else ""))
        lines.append("")
    return "\n".join(lines)

"""Any ruleset's rulebook, to print: its clauses by section, each in words with its grade and sources, its
contracts and the readings it plays, flowed onto A4 or US Letter pages as the rules sheet is
(:func:`~.rulesheet.flow_pdf`). The reconstruction, the ruleset to play, has its lesson instead
(``schachett rules print`` with no ruleset)."""

from __future__ import annotations

import html

import pymupdf

from ..language.ir import GRADE_MEANING, Grade
from ..rules.rulebook import Entry, Rulebook
from .rulesheet import CSS, flow_pdf, keep_headings

FOOTER = "{title} (ruleset {name}) · page {{page}} of {{pages}}"
GRADE_CSS = """
.grade { font-size: 7.5pt; color: #1f4d38; }
.cite { font-size: 7.5pt; color: #555; }
p.why { font-size: 8.5pt; color: #333; margin-left: 10pt; }
p.rule { font-size: 8.5pt; margin-left: 10pt; }
"""


def _e(text: str) -> str:
    return html.escape(text, quote=False)


def _entry_html(e: Entry, cites: str = "") -> str:
    # the grade and the sections it rests on lead the clause, as the site's badges do
    also = f" <span class='cite'>also {_e(', '.join(e.also))}</span>" if e.also else ""
    via = f" <span class='cite'>({_e(e.reading)})</span>" if e.reading else ""
    out = f"<p><span class='grade'>[{_e(e.grade)}]</span>{cites}{also}{via} {_e(e.text)}</p>"
    out += "".join(f"<p class='rule'><span class='grade'>[{_e(r.grade)}]</span> "
                   f"<span class='cite'>{_e(', '.join(r.cites))}</span> {_e(r.text)}</p>" for r in e.rules)
    if e.because:
        out += f"<p class='why'><i>Why:</i> {_e(e.because)}</p>"
    return out


def _entries(book: Rulebook) -> list[Entry]:
    return [e for s in book.sections for e in s.entries] + [e for k in book.contracts for e in k.entries]


def rulebook_chunks(book: Rulebook) -> list[tuple[str, float]]:
    """The rulebook as HTML pieces for :func:`~.rulesheet.flow_pdf`, a heading kept with what follows it."""
    extends = f", extending {_e(' and '.join(book.chain[::-1]))}" if book.chain else ""
    count = sum(len(s.entries) for s in book.sections)
    used = [g for g in Grade if any(e.grade == g.value for e in _entries(book))]
    grades = "; ".join(f"<i>{g.value}</i>: {_e(GRADE_MEANING[g])}" for g in used)
    chunks: list[tuple[str, float]] = [(
        f"<h1>{_e(book.title)}</h1><p>Ruleset <b>{_e(book.name)}</b>{extends}: {count} clauses, each under the "
        f"section of its source it rests on, with how sure we are of it in brackets ({grades}).</p>", 0.0)]
    for s in book.sections:
        # a section flows as one piece, its clauses spaced as paragraphs are
        chunks.append((f"<h2>{_e(s.heading)}</h2>", 0.0))
        chunks.append(("".join(_entry_html(e) for e in s.entries), 0.0))
    if book.contracts:
        chunks.append(("<h2>Contracts</h2><p>Before play the players bid for one of these contracts; each holds the "
                       "clauses that change when it is played, over the rules above.</p>", 0.0))
        for k in book.contracts:
            head = (f"<h3>{_e(k.title)}</h3><p><span class='grade'>[{_e(k.grade)}]</span> "
                    f"<span class='cite'>{_e(', '.join(k.cites))}</span> Contract <b>{_e(k.name)}</b>{_e(k.form)}."
                    + ("" if k.entries else " Nothing changes: the rules above are played as they stand.") + "</p>")
            chunks.append((head + "".join(_entry_html(e) for e in k.entries), 0.0))
    if book.readings:
        chunks.append(("<h2>The readings of the gaps</h2><p>Where the source is lost or unclear, the ruleset plays "
                       "one reading of each gap; the others are named beside it.</p>", 0.0))
        for g in book.readings:
            played = next((o for o in g.options if o[0] == g.played), None)
            others = ", ".join(o[0] for o in g.options if o[0] != g.played) or "none"
            who = f" (chosen by {_e(g.chosen_by)})" if g.chosen_by else ""
            text = (f"<p><b>{_e(g.name)}</b> <span class='cite'>{_e(', '.join(g.cites))}</span>: {_e(g.question)} "
                    f"It plays <b>{_e(g.played)}</b>{who}"
                    + (f" <span class='grade'>[{_e(played[2])}]</span>: {_e(played[3])}" if played else "")
                    + f". Other readings: {_e(others)}.</p>")
            if g.because:
                text += f"<p class='why'><i>Why:</i> {_e(g.because)}</p>"
            chunks.append((text, 0.0))
    return keep_headings(chunks)


def rulebook_pdf(book: Rulebook, paper: str) -> bytes:
    """The rulebook as PDF bytes, on ``paper`` (a4 or letter)."""
    archive = pymupdf.Archive()
    return flow_pdf(rulebook_chunks(book), archive, paper, CSS + GRADE_CSS,
                    FOOTER.format(title=book.title.replace("{", "{{").replace("}", "}}"), name=book.name),
                    {"title": f"{book.title}: the rulebook", "creator": "schachett rules print",
                     "subject": f"ruleset {book.name}, {paper} paper"})

"""The manual's pages (and the AI reconstruction's), each with the clauses that rest on it."""

from __future__ import annotations

import re

from ..kernel.tables import Tables
from ..kernel.trick import holders_of_faces
from ..rules.manual import Section, slugify
from .context import Context, render, section_page
from .svgcards import trick_svg

ATTRIBUTION = ("From the English AI translation, published by the Fuhs family's Project Schachett (June 2026), "
               "of the manual by Hans Schöffl (Saaz) and R. S., Mathematician (c. 1888).")
AI_ATTRIBUTION = ("From the AI's \"complete compiled rules\", published by the Fuhs family's Project Schachett "
                  "(June 2026); kept as it reads, errors included.")


def heading(section: Section) -> str:
    """A section's title as the site shows it."""
    prefix = "AI reconstruction " if section.source == "ai" else ""
    label = {"foreword": "Foreword", "3p": "The game for three", "title": "Title", "notes": "Notes"}.get(section.id)
    return f"{prefix}{label}" if label else f"{prefix}{section.id} {section.title}"


def _anchor_subsections(text: str) -> str:
    # Give each numbered item a stable anchor, so that citations like §3.2 land on it.
    return re.sub(r"^### (\S+(?: \(3p\))?)(.*)$", lambda m: f"### {m.group(1)}{m.group(2)} {{ #{slugify(m.group(1))} }}",
                  text, flags=re.M)


# The manual's worked examples, drawn; the winner is worked out by the printed ruleset's tables.
EXAMPLES = {
    "§2": [("§2: s6 is led; s7 takes it, the w8 played before it is only a discard", ["s6", "w8", "s7", "s1"]),
           ("§2: sL takes wS; the later wL does not, for of two equal officers the first played holds",
            ["wS", "sL", "wL", "w3"])],
    "§3": [("§3.2: w7 is led; a player with no white pawn or suit card may discard s8, which does not take",
            ["w7", "s8", "w1", "w2"]),
           ("§3.3: wV is led; s8 is discarded and does not take, being of the other colour",
            ["wV", "s8", "wI", "wII"])],
}


def played_from(t: Tables, leader: int, names: list[str]) -> list[tuple[int, int]]:
    """A trick's cards as ``(seat, face)``, the first led by ``leader`` and the rest played round the table.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> t = tables_for("original")
    >>> [(seat, t.deck.face_names[face]) for seat, face in played_from(t, 3, ["w1", "w2"])]
    [(3, 'w1'), (0, 'w2')]
    """
    plays, seat = [], leader
    for name in names:
        plays.append((seat, t.face(name)))
        seat = t.next_seat(seat)
    return plays


def examples_markdown(ctx: Context, section: Section, write) -> str:
    """The section's worked examples as trick pictures (empty if it has none)."""
    t = ctx.tables["original"]
    out = []
    for i, (caption, names) in enumerate(EXAMPLES.get(section.id, [])):
        plays = played_from(t, 0, names)
        winner = holders_of_faces(t, 0, plays)[-1][0]   # none of the examples is a last trick
        path = f"assets/examples/{slugify(section.id)}-{i + 1}.svg"
        write(path, trick_svg(t.deck, plays, leader=0, winner=winner, n_seats=t.n_seats,
                              labels=dict(enumerate(t.seat_names)), caption=caption))
        out.append(f"![{caption}](../{path}){{ .trick }}")
    if not out:
        return ""
    return "## The examples, drawn\n\n" + "\n\n".join(out) + "\n"


def section_markdown(ctx: Context, section: Section, write=None) -> str:
    """One section's page."""
    page = section_page(section)
    badges = [f'<span class="badge cite">{section.part.replace("-", " ")}</span>']
    if section.pages:
        pages = ", ".join(map(str, section.pages))
        badges.append(f'<span class="badge cite">page{"s" if len(section.pages) > 1 else ""} {pages}</span>')
    if section.status == "missing":
        badges.append('<span class="badge lost">lost</span>')
    rows = []
    for ref in ctx.cites.get(section.cite, []):
        rows.append({"ruleset": ref.ruleset, "link": ctx.clause_link(page, ref), "grade": ctx.grade(ref.grade),
                     "cites": ctx.cites_of(page, ref.cites)})
    lacunae = sorted({name for name, _ in ctx.lacuna_cites.get(section.cite, [])})
    lacuna_links = ", ".join(f"[{name}](../gaps/{name}.md)" for name in lacunae)
    examples = examples_markdown(ctx, section, write) if write is not None and not section.source else ""
    return render("section.md.j2", section=section, heading=heading(section), badges=" ".join(badges),
                  examples=examples,
                  pages=f"{section.pages[0]}–{section.pages[-1]}" if section.pages else "?",
                  gaps_link="../gaps/index.md", text=_anchor_subsections(section.text),
                  attribution=AI_ATTRIBUTION if section.source == "ai" else ATTRIBUTION,
                  clauses=rows, lacunae=lacuna_links)


def index_markdown(ctx: Context, source: str) -> str:
    """The list of a source's sections."""
    if source == "ai":
        lines = ["# The AI reconstruction", "",
                 "The AI that translated the manual also compiled what it called the complete rules of the game. It "
                 "fills the lost pages with guesses and changes some printed rules; it is kept here as it reads, "
                 "section by section, and compared with the manual on the page "
                 "[Printed rules against the AI reconstruction](../compare/ai.md). The ruleset "
                 "[ai-reconstruction](../rulebooks/ai-reconstruction.md) plays it.", "",
                 "| section | title |", "|---|---|"]
    else:
        lines = ["# The manual", "",
                 "The surviving pages of *Schachett*, by Hans Schöffl of Saaz and R. S., Mathematician (c. 1888), in the "
                 "English AI translation the Fuhs family published. Pages 11 to 14, which held §4 (seating and dealing) "
                 "and §5 (castling), are lost. Each section keeps the printed text, the translator's notes and our own "
                 "notes apart, and lists the clauses of every ruleset that rest on it.", "",
                 "| section | pages | title | status |", "|---|---|---|---|"]
    for s in ctx.manual.by_source(source):
        link = f"[{s.id}]({section_page(s).split('/')[-1]})"
        if source == "ai":
            lines.append(f"| {link} | {s.title} |")
        else:
            pages = f"{s.pages[0]}–{s.pages[-1]}" if len(s.pages) > 1 else (str(s.pages[0]) if s.pages else "")
            status = '<span class="badge lost">lost</span>' if s.status == "missing" else s.status
            lines.append(f"| {link} | {pages} | {s.title} | {status} |")
    return "\n".join(lines) + "\n"


def manual_pages(ctx: Context, write) -> list[tuple[str, str]]:
    """Write every section page; return (title, path) for the navigation, by source."""
    nav = []
    for source in ("", "ai"):
        folder = "ai" if source else "manual"
        write(f"{folder}/index.md", index_markdown(ctx, source))
        for s in ctx.manual.by_source(source):
            write(section_page(s), section_markdown(ctx, s, write))
            nav.append((source, heading(s).removeprefix("AI reconstruction "), section_page(s)))
    return nav

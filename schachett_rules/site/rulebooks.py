"""One rulebook per ruleset, generated from its rule file."""

from __future__ import annotations

from ..rules.loader import Resolved
from ..language.printer import format_ruleset
from ..rules.grades import GRADES, grade_counts
from ..kernel.tables import Tables
from ..rules.seating import and_list, describe_party
from ..rules.prose import deck_of, filed_under, rule_grades, seats_of, section_order, sentence
from .context import Context, clause_anchor, play_label, render
from .manual_pages import heading


def _indent(text: str, spaces: int = 4) -> str:
    return "\n".join((" " * spaces + line) if line else "" for line in text.splitlines())


def rulebook_markdown(ctx: Context, name: str) -> str:
    """A ruleset's rules in order, each with its section and grade, and its readings of the gaps."""
    r: Resolved = ctx.rulesets[name]
    page = ctx.rulebook_page(name)
    order = section_order(ctx.manual)
    deck = deck_of(r)
    counts = grade_counts([e.clause for e in r.clauses])
    seats, deal = seats_of(r), r.clause("deal")
    by_section: dict[str, list] = {}
    for e in r.clauses:
        by_section.setdefault(filed_under(r, e), []).append(e)
    sections = []
    for sec in sorted(by_section, key=order):
        res = ctx.resolve(sec)
        head = heading(res.section) if not res.subsection else f"{res.subsection.id} {res.subsection.title}"
        clauses = []
        for e in by_section[sec]:
            c = e.clause
            reading = ""
            if e.origin.lacuna:
                reading = f"reading *{e.origin.option}* of [{e.origin.lacuna}](../gaps/{e.origin.lacuna}.md)"
            elif e.origin.ruleset != name:
                reading = f"from [{e.origin.ruleset}]({e.origin.ruleset}.md#{clause_anchor(e.key)})"
            clauses.append({"anchor": clause_anchor(e.key), "key": e.key, "grade": ctx.grade(c.basis.grade),
                            "cites": ctx.cites_of(page, c.basis.cites), "reading": reading,
                            "prose": sentence(c, deck, seats, deal), "because": c.because,
                            "rules": [{"grade": ctx.grade(b.grade), "cites": ctx.cites_of(page, b.cites),
                                       "prose": text[0].upper() + text[1:] + "."} for text, b in rule_grades(c, deck)]})
        # the section's badge follows the heading, but the table of contents lists the heading alone
        label = head.replace('"', "&quot;")
        sections.append({"heading": f'{head} {ctx.cite(page, sec)} {{ data-toc-label="{label}" }}', "clauses": clauses})
    lacunae = []
    for ch in r.lacunae:
        opt = ch.lacuna.option(ch.option)
        others = ", ".join(o.name for o in ch.lacuna.options if o.name != ch.option) or "—"
        lacunae.append({"link": f"[{ch.lacuna.name}](../gaps/{ch.lacuna.name}.md)",
                        "cites": ctx.cites_of(page, ch.lacuna.basis.cites), "option": ch.option,
                        "grade": ctx.grade(opt.basis.grade), "others": others})
    chain = ", ".join(f"[{p}]({p}.md)" for p in r.chain[:-1][::-1])
    source = format_ruleset(_file_ir(name))
    return render("rulebook.md.j2", title=r.title or name, name=name, chain=chain, count=len(r.clauses),
                  grades=_counted(ctx, counts.clauses), rule_grades=_rule_counts(ctx, counts.rules),
                  language_link="../language.md", seating=seating_paragraph(ctx.tables[name]), lacunae=lacunae, sections=sections, source=_indent(source))


def seating_paragraph(t: Tables) -> str:
    """Seats and parties named once for the reader of a rulebook: from the dealer, by name, with the cards dealt face up."""
    if len(t.parties) < 2:
        return ""
    dealer, n = t.first_dealer, t.n_seats
    order = sorted(range(n), key=lambda s: (s - dealer) % n)
    places = ", ".join(t.seat_label(s, dealer) for s in order)
    names = and_list(t.seat_name(s) for s in order)
    parties = "; ".join(t.party_label(p, dealer) for p in range(len(t.parties)))
    named = f"these places are {names}" if not names.startswith("seat") else "these are seats " + and_list(
        str(s) for s in order)
    return (f"**Seats and parties.** The rules name seats from the dealer, in the order of play: {places}. "
            f"When {t.seat_title(dealer)} deals, {named}. The parties: {parties}. The deal passes from game to "
            "game, and the places named from the dealer move with it; the seats keep their names, and the parties "
            "their seats.")


def _counted(ctx: Context, counts) -> str:
    return ", ".join(f"{counts[g]} {ctx.grade(g)}" for g in GRADES if counts[g])


def _rule_counts(ctx: Context, counts) -> str:
    # rules graded one by one are counted apart from the clauses (rules/grades.py says why)
    n = sum(counts.values())
    if not n:
        return ""
    return f"of which {n} capture rule{'s' if n != 1 else ''} graded one by one: {_counted(ctx, counts)}"


def _file_ir(name: str):
    from ..rules.loader import locate, read_file
    return read_file(locate(name))


def rulebook_pages(ctx: Context, write) -> list[tuple[str, str]]:
    """Write every rulebook and its index; return (title, path) for the navigation."""
    nav = []
    lines = ["# Rulebooks", "",
             "Each ruleset is a rule file in the project; these pages are generated from the files, clause by clause.",
             "", "| ruleset | what | clauses | gaps |", "|---|---|---|---|"]
    for name, r in ctx.rulesets.items():
        write(ctx.rulebook_page(name), rulebook_markdown(ctx, name))
        nav.append(((r.title or name) + play_label(name).replace("*", ""), ctx.rulebook_page(name)))
        lines.append(f"| [{name}]({name}.md){play_label(name)} | {r.title} | {len(r.clauses)} | {len(r.lacunae)} |")
    write("rulebooks/index.md", "\n".join(lines) + "\n")
    return nav

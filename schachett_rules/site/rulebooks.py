"""One rulebook per ruleset, generated from its rule file."""

from __future__ import annotations

from pathlib import Path

from ..language import ir
from ..paths import variants_dir
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
    """A ruleset's rules in order, each with its section and grade, its contracts, and its readings of the gaps.

    A family game's page is the same rulebook, its citations pointing at the family's sources."""
    r: Resolved = ctx.ruleset(name)
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
            clauses.append(_clause_entry(ctx, page, e.key, c, deck, seats, deal, reading))
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
    contracts = [{"anchor": contract_anchor(k.name), "name": k.name, "title": k.title,
                  "grade": ctx.grade(k.basis.grade), "cites": ctx.cites_of(page, k.basis.cites),
                  "form": contract_form(k),
                  "clauses": [_clause_entry(ctx, page, key, c, deck, seats, deal, "", anchor=contract_anchor(k.name, key))
                              for key, c in ((ir.clause_key(c), c) for c in k.clauses)]}
                 for k in r.contracts]
    file = _shown_path(name)
    return render("rulebook.md.j2", title=r.title or name, name=name, chain=chain, count=len(r.clauses),
                  grades=_counted(ctx, counts.clauses), rule_grades=_rule_counts(ctx, counts.rules),
                  language_link="../language.md", seating=seating_paragraph(ctx.tables_of(name)), lacunae=lacunae,
                  sections=sections, contracts=contracts, file=file, source=_indent(source))


def contract_anchor(contract: str, key: str | None = None) -> str:
    """The anchor of a contract, or of one of its clauses, on its ruleset's page.

    >>> contract_anchor("rufer"), contract_anchor("rufer", "partner")
    ('contract-rufer', 'contract-rufer-partner')
    """
    return "contract-" + contract + ("" if key is None else clause_anchor(key).removeprefix("clause"))


def contract_form(k: ir.Contract) -> str:
    """What a contract is made of, in words: played in every colour, starting from another contract."""
    parts = (["bid for each colour as trumps"] if k.each_colour else []) + (
        [f"starts from [{k.like}](#{contract_anchor(k.like)})"] if k.like else [])
    return "; ".join(parts)


def _clause_entry(ctx: Context, page: str, key: str, c, deck, seats, deal, reading: str, anchor: str | None = None) -> dict:
    return {"anchor": anchor or clause_anchor(key), "key": key, "grade": ctx.grade(c.basis.grade),
            "cites": ctx.cites_of(page, c.basis.cites), "reading": reading,
            "prose": sentence(c, deck, seats, deal), "because": c.because,
            "rules": [{"grade": ctx.grade(b.grade), "cites": ctx.cites_of(page, b.cites),
                       "prose": text[0].upper() + text[1:] + "."} for text, b in rule_grades(c, deck)]}


def seating_paragraph(t: Tables) -> str:
    """Seats and parties named once for the reader of a rulebook: from the dealer, by name, with the cards dealt face up."""
    if len(t.parties) < 2:
        return ""
    dealer, n = t.first_dealer, t.n_seats
    order = sorted(range(n), key=lambda s: (s - dealer) % n)
    places = ", ".join(t.seat_label(s, dealer) for s in order)
    names = and_list(t.seat_name(s) for s in order)
    parties = "; ".join(t.party_label(p, dealer) for p in range(len(t.parties)))
    flow = t.flow
    if flow is not None and (flow.partner not in ("fixed", "each") or any(c.partner != "fixed" for c in flow.contracts)):
        # the family's games whose partners are made in each game: by the bidding, a called card, the cards held
        parties = ("none fixed: they are made in each game, by the contract bid, the card called or the cards "
                   "held (the clauses below say how)")
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


def _shown_path(name: str) -> str:
    """The rule file's path as a reader of the project finds it: variants/NAME.schachett, variants/family/NAME.schachett."""
    path = _locate(name)
    try:
        return path.relative_to(variants_dir().resolve().parent).as_posix()
    except ValueError:
        return path.name


def _locate(name: str):
    from ..rules.loader import locate
    return Path(locate(name)).resolve()


def _file_ir(name: str):
    from ..rules.loader import read_file
    return read_file(_locate(name))


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

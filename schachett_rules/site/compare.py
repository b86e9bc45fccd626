"""The comparison pages: sections against rulesets, and the printed rules against the AI reconstruction."""

from __future__ import annotations

import html
from pathlib import Path

import yaml

from ..rules.diff import rule_content
from ..errors import SchachettError
from ..paths import manual_dir
from ..rules.prose import deck_of, filed_under, rule_grades, section_order, sentence
from .context import Context, clause_anchor, play_label, rel, url_rel

KIND_WORDS = {"omission": "omission: the AI leaves it out", "contradiction": "contradiction: the AI says otherwise",
              "embellishment": "embellishment: the AI adds what the manual does not say",
              "correct": "correct: the AI restates the manual"}


def _short(text: str, limit: int = 110) -> str:
    return text if len(text) <= limit else text[:limit].rsplit(" ", 1)[0] + " …"


CELL_CHARS = 90                 # a matrix cell shows this much of the rule; a tap opens the rest
KEY_EM, RULESET_EM = 9.0, 7.5   # column widths (em of the table's type) below which the table scrolls sideways


def matrix_rows(ctx: Context) -> list[tuple[str, str, dict, bool]]:
    """Every rule of the matrix as (section, key, effective clause by ruleset, whether any ruleset differs).

    The rows come in manual order; a rule differs when some ruleset lacks it or says it otherwise than the
    printed ruleset (``original``).
    """
    order = section_order(ctx.manual)
    rows: dict[str, dict[str, object]] = {}
    filed: dict[str, str] = {}
    for n, r in matrix_rulesets(ctx).items():
        for e in r.clauses:
            rows.setdefault(e.key, {})[n] = e
            if e.key not in filed:
                section = filed_under(r, e)
                plain = section.removeprefix("ai:")
                try:
                    ctx.resolve(plain)
                    section = plain
                except SchachettError:  # an AI section with no printed counterpart (ai:notes)
                    pass
                filed[e.key] = section
    out = []
    for key in sorted(rows, key=lambda k: (order(filed[k]), k)):
        cells = rows[key]
        base = cells.get("original")
        differs = any(_differs(n, cells.get(n), base) for n in matrix_rulesets(ctx))
        out.append((filed[key], key, cells, differs))
    return out


def matrix_rulesets(ctx: Context) -> dict:
    """The rulesets the matrix lines up: Schachett's forms of fixed parties. The forms whose parties are made at
    the table (a called partner) bring bidding and calling, which the family's mechanism matrix compares; as
    columns here they made the matrix too wide for a desktop screen."""
    return {n: r for n, r in ctx.rulesets.items() if ctx.tables[n].flow is None}


def _differs(name: str, e, base) -> bool:
    if e is None:
        return base is not None
    return name != "original" and (base is None or rule_content(e.clause) != rule_content(base.clause))


def _words(text: str) -> str:
    """Text for a narrow cell: escaped, a formula's long name free to wrap after its underscores.

    >>> _words("round_half_up((winner - loser) / 4)")
    'round_<wbr>half_<wbr>up((winner - loser) / 4)'
    """
    return html.escape(text).replace("_", "_<wbr>")


def _rule_text(full: str) -> str:
    """A rule's words in a cell: whole when short, else the start with the rest behind a tap (no hover needed)."""
    short = _short(full, CELL_CHARS)
    if short == full:
        return _words(full)
    head = short.removesuffix(" …")
    return (f'<details class="more"><summary>{_words(head)}<span class="ellipsis"> … more</span></summary>'
            f"{_words(full[len(head):])}</details>")


def _rule_grades(clause, deck) -> str:
    """The grades of a clause that grades its rules one by one: a badge per rule, each rule's words a tap away."""
    graded = rule_grades(clause, deck)
    if not graded:
        return ""
    badges = "".join(f'<span class="badge grade-{b.grade.value}">{b.grade.value}</span>' for _w, b in graded)
    items = "".join(f'<li><span class="badge grade-{b.grade.value}">{b.grade.value}</span> {html.escape(words)} '
                    f'({html.escape(", ".join(b.cites))})</li>' for words, b in graded)
    return f'<details class="rule-grades"><summary>rules: {badges}</summary><ul>{items}</ul></details>'


def _matrix_table(ctx: Context, page: str, rows, decks) -> list[str]:
    """The matrix as one table: a card per rule on a narrow screen (site.css), a grid on a wide one."""
    names = list(matrix_rulesets(ctx))
    head = "".join(f'<th><a href="{url_rel(page, ctx.rulebook_page(n))}">{n}</a>{play_label(n, html_tags=True)}</th>'
                   for n in names)
    width = KEY_EM + RULESET_EM * len(names)
    out = ['<div class="matrix">', f'<table class="matrix-table" style="min-width: {width:g}em">',
           f'<thead><tr><th class="key">rule</th>{head}</tr></thead>', "<tbody>"]
    for section, key, cells, _ in rows:
        base = cells.get("original")
        tds = []
        for n in names:
            e = cells.get(n)
            shade = ' class="differs"' if _differs(n, e, base) else ""
            # on a narrow screen each cell is a line of the rule's card, headed by its ruleset
            label = f'<span class="cell-label">{n}</span>'
            if e is None:
                tds.append(f"<td{shade}>{label}—</td>")
                continue
            grade = e.clause.basis.grade.value
            link = url_rel(page, ctx.rulebook_page(n), clause_anchor(e.key))
            # a rule as the printed ruleset has it is not repeated: "=" says so, and the eye finds the differences
            text = "=" if n != "original" and not shade else _rule_text(sentence(e.clause, decks[n]))
            tds.append(f'<td{shade}>{label}<span class="cell">{text} <a class="badge grade-{grade}" href="{link}">'
                       f"{grade}</a>{_rule_grades(e.clause, decks[n])}</span></td>")
        out.append(f'<tr><th class="key" scope="row"><code>{html.escape(key)}</code> {ctx.cite_html(page, section)}</th>'
                   f"{''.join(tds)}</tr>")
    out += ["</tbody>", "</table>", "</div>", ""]
    return out


def matrix_markdown(ctx: Context) -> str:
    """Manual sections down, rulesets across: the rules that differ first, every rule on demand."""
    page = "compare/matrix.md"
    decks = {n: deck_of(r) for n, r in ctx.rulesets.items()}
    rows = matrix_rows(ctx)
    differ = [row for row in rows if row[3]]
    out = ["---", "hide:", "  - toc", "---", "", "# Comparison matrix", "",
           "Each row is a rule, filed under the manual section it rests on; each column a ruleset (on a narrow screen, "
           "each rule is a card with a line per ruleset). A cell gives the rule with its grade, which links to the "
           "clause; a long rule shows its start, and *more* opens the rest. A shaded cell differs from the printed "
           "ruleset (`original`); = says the rule is the printed one, perhaps with another grade; a dash: the ruleset "
           "has no such rule. Where a clause grades its rules one by one (capture), *rules* lists the grade of each. "
           "The forms with a called partner (parties made at the table) are compared with the family's games in "
           "[Mechanisms of the family](../family/mechanisms.md).",
           "",
           f"## The {len(differ)} rules that differ", "",
           f"Of {len(rows)} rules, these {len(differ)} are not the same in every ruleset; the other "
           f"{len(rows) - len(differ)} are below.", ""]
    out += _matrix_table(ctx, page, differ, decks)
    out += [f'<details class="all-rules"><summary>All {len(rows)} rules, the same ones too</summary>', ""]
    out += _matrix_table(ctx, page, rows, decks)
    out += ["</details>", ""]
    return "\n".join(out)


def load_divergences() -> list[dict]:
    """The catalogue of divergences between the printed manual and the AI reconstruction."""
    path: Path = manual_dir() / "ai-reconstruction" / "divergences.yaml"
    return yaml.safe_load(path.read_text(encoding="utf-8")) or []


def ai_markdown(ctx: Context) -> str:
    """Every divergence, one by one, with both texts and, where it changes play, its measured effect."""
    page = "compare/ai.md"
    entries = load_divergences()
    counts = {k: sum(1 for e in entries if e["kind"] == k) for k in KIND_WORDS}
    out = ["# The printed rules against the AI reconstruction", "",
           "The AI that translated the manual also compiled \"complete rules\". Here they are set against the surviving "
           "pages, divergence by divergence: " + ", ".join(f"{counts[k]} {k}{'s' if counts[k] != 1 else ''}" for k in
                                                           KIND_WORDS) + ". "
           "The rulesets [original](../rulebooks/original.md) and [ai-reconstruction](../rulebooks/ai-reconstruction.md) "
           "play the two; `schachett diff original ai-reconstruction` lines them up clause by clause.", ""]
    for kind in KIND_WORDS:
        group = [e for e in entries if e["kind"] == kind]
        if not group:
            continue
        out += [f"## {KIND_WORDS[kind][0].upper()}{KIND_WORDS[kind][1:]}", ""]
        for e in group:
            out.append(f"### {e['title']} {{ #{e['id']} }}")
            out.append("")
            badges = " ".join([ctx.cites_of(page, e.get("manual") or []), ctx.cites_of(page, e.get("ai") or [])])
            out.append(f'<span class="badge grade-{"printed" if kind == "correct" else "ai"}">{kind}</span> {badges}')
            out.append("")
            if e.get("manual_quote"):
                out += [f"**The manual:** *{e['manual_quote']}*", ""]
            elif e.get("manual"):
                out += ["**The manual:** the page is lost.", ""]
            if e.get("ai_quote"):
                out += [f"**The AI:** *{e['ai_quote']}*", ""]
            out += [e["note"].strip(), ""]
            if e.get("effect"):
                out += [f"**Measured effect:** {e['effect']}", ""]
            for key in e.get("clauses") or []:
                links = [f"[{n}]({rel(page, ctx.rulebook_page(n), clause_anchor(key))})"
                         for n in ("original", "ai-reconstruction") if ctx.rulesets[n].clause(key) is not None]
                if links:
                    out += [f"Clause `{key}` in " + " and ".join(links) + ".", ""]
    return "\n".join(out)


def compare_pages(ctx: Context, write) -> list[tuple[str, str]]:
    """Write the comparison pages."""
    write("compare/matrix.md", matrix_markdown(ctx))
    write("compare/ai.md", ai_markdown(ctx))
    return [("Comparison matrix", "compare/matrix.md"), ("Printed rules against the AI", "compare/ai.md")]

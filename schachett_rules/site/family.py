"""The family's section of the site: a page per game of variants/family/, their sources, and the mechanism matrix.

A game's page is its rulebook (rulebooks.py), so it shows its clauses in prose with their sources and grades
as every ruleset's page does. The matrix finds each mechanism in the compiled tables and in the clauses
(each contract's too), and every cell links to the clause it found.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Callable

from ..language import ir
from ..language.expr import render as render_expr
from ..language.printer import selector as selector_text
from ..kernel.tables import Tables
from ..rules.loader import Resolved
from ..rules.manual import Section
from .context import Context, clause_anchor, section_page, url_rel
from .rulebooks import contract_anchor, rulebook_markdown

INDEX = "family/index.md"
MATRIX = "family/mechanisms.md"

SOURCE_TITLES = {"schafkopf": "Bavarian Schafkopf", "wendish": "Wendish Schafkopf, Dreiwendsch, Officers' Schafkopf",
                 "euchre5": "Five-hand call-card euchre", "euchre": "Euchre", "whist": "Whist", "hearts": "Hearts"}


@dataclass(frozen=True)
class Found:
    """Where a mechanism is in a ruleset: a short word for the cell, and the clause's anchor on its page."""

    word: str
    anchor: str


def _clauses(r: Resolved):
    """Every clause of a ruleset with its anchor on the ruleset's page: its own, then each contract's."""
    for e in r.clauses:
        yield e.clause, clause_anchor(e.key), None
    for k in r.contracts:
        for c in k.clauses:
            yield c, contract_anchor(k.name, ir.clause_key(c)), k.name


def _first(r: Resolved, cls, test: Callable = lambda c: True, word: Callable = lambda c, k: "yes") -> Found | None:
    for c, anchor, contract in _clauses(r):
        if isinstance(c, cls) and test(c):
            return Found(word(c, contract), anchor)
    return None


def _all(r: Resolved, cls) -> Found | None:
    found = [(c, a) for c, a, _ in _clauses(r) if isinstance(c, cls)]
    if not found:
        return None
    names = sorted({getattr(c, "name", "") for c, _ in found} - {""})
    return Found(", ".join(names) or str(len(found)), found[0][1])


def _comparisons(e) -> list[ir.BinOp]:
    """The comparisons in an expression, in the order they are written."""
    out, todo = [], [e]
    while todo:
        x = todo.pop()
        if isinstance(x, ir.BinOp):
            if x.op in ("<", "<=", ">", ">=", "==", "!="):
                out.append(x)
            todo += [x.right, x.left]
        elif isinstance(x, ir.Neg):
            todo.append(x.operand)
        elif isinstance(x, ir.Call):
            todo += list(reversed(x.args))
    return out


def _thresholds(r: Resolved, t: Tables) -> Found | None:
    """A bonus for taking (or being held to) all or a large share: Schneider and Schwarz, Euchre's march, the Hearts
    moon. Found as a comparison, in a settlement's amount or in game points, of a number of tricks with none or all
    of them, or of card points with a line other than the one that wins the game."""
    for c, anchor, _ in _clauses(r):
        if isinstance(c, ir.Settlement):
            exprs, wins = [c.amount], (_comparisons(c.wins) if c.wins is not None else [])
        elif isinstance(c, ir.GamePoints):
            exprs, wins = [x for x in (c.declarer, c.others, c.each) if x is not None], []
        else:
            continue
        winning = {x.right.value for x in wins if isinstance(x.right, ir.Num)}
        for e in exprs:
            for cmp in _comparisons(e):
                if not (isinstance(cmp.left, ir.Name) and isinstance(cmp.right, ir.Num)):
                    continue
                q, n = cmp.left.name, cmp.right.value
                if "tricks" in q and n in (0, t.n_tricks):
                    return Found("all tricks" if n else "no trick", anchor)
                if ("points" in q or q in ("winner", "loser")) and n != 0 and n not in winning:
                    return Found(f"{cmp.op} {n} points", anchor)
    return None


def _hidden(r: Resolved) -> Found | None:
    """A partner not known at the start: the holder of a called card, or the holders of some cards."""
    found = _first(r, ir.Partner, lambda c: c.who == "called", lambda c, k: f"the called card's holder")
    if found:
        return found
    return _first(r, ir.Parties, lambda c: c.holders is not None and len(c.holders.terms) > 1,
                  lambda c, k: "the holders of " + " and ".join(
                      t.base.name for t in c.holders.terms))


def _alone(r: Resolved) -> Found | None:
    return (_first(r, ir.Parties, lambda c: c.each, lambda c, k: "each for himself")
            or _first(r, ir.Parties, lambda c: c.holders is not None and len(c.holders.terms) == 1,
                      lambda c, k: "one against the rest")
            or _first(r, ir.Partner, lambda c: c.who == "none", lambda c, k: k or "yes")
            or _first(r, ir.SitOut, word=lambda c, k: (k or "") + " (partner sits out)"))


def _auction(r: Resolved, t: Tables) -> Found | None:
    if t.flow is None or not t.flow.has_auction or not t.flow.rounds:
        return None           # an auction of no rounds (Whist's) is no bidding: the deal decides
    c = r.clause("auction")
    word = {"redeal": "all pass: redeal", "dealer": "dealer must bid", "play": "all pass: play " + (
        c.play.contract if c is not None and c.play is not None else "")}[t.flow.all_pass]
    return Found(f"{len(t.flow.rounds)} round{'s' if len(t.flow.rounds) != 1 else ''}; {word}", clause_anchor("auction"))


def _flow(t: Tables, attr: str):
    return getattr(t.flow, attr) if t.flow is not None else None


# The rows: a mechanism, what it is in a card player's words, and how it is found.
MECHANISMS: list[tuple[str, str, Callable[[Resolved, Tables], Found | None]]] = [
    ("contracts", "the players bid for one of several games before play",
     lambda r, t: Found(", ".join(k.name for k in r.contracts), contract_anchor(r.contracts[0].name))
     if r.contracts and _auction(r, t) else None),
    ("auction", "bidding rounds decide who declares which contract",
     _auction),
    ("turned trump", "a card turned up after the deal names or offers the trumps",
     lambda r, t: Found({"stock": "top of the stock", "dealer": "the dealer's last card"}[_flow(t, "turn")],
                        clause_anchor("deal")) if _flow(t, "turn") else None),
    ("called partner", "the declarer names a card; its holder is his partner",
     lambda r, t: _first(r, ir.CallRule, word=lambda c, k: (f"{k}: " if k else "") + selector_text(c.cards))),
    ("hidden partner", "who plays with whom shows only in play",
     lambda r, t: _hidden(r)),
    ("parties of one", "a player plays alone against the others",
     lambda r, t: _alone(r)),
    ("stock / skat", "cards left over after the deal",
     lambda r, t: Found(f"{_flow(t, 'stock')} cards", clause_anchor("deal")) if _flow(t, "stock") else None),
    ("exchange", "a player takes up cards and lays others away",
     lambda r, t: _first(r, ir.Exchange, word=lambda c, k: f"{c.who} takes {c.takes}, discards {c.discards}")),
    ("card offered", "the declarer offers a card; the first to take it gives one back and is his partner",
     lambda r, t: _first(r, ir.Offer, word=lambda c, k: (f"{k}: " if k else "") + selector_text(c.cards)
                         + (" face up" if c.face_up else " face down"))),
    ("passing", "each player passes cards to another before play",
     lambda r, t: _first(r, ir.Passing, word=lambda c, k: f"{c.count} cards")),
    ("tableau", "cards lie on the table, some covered by others",
     lambda r, t: Found(f"{_flow(t, 'covered')} covered", clause_anchor("deal")) if _flow(t, "covered") else None),
    ("restrictions", "cards that may not be led or played at some moments",
     lambda r, t: _all(r, ir.Restriction)),
    ("obligations", "a card that must be played when a certain card is led",
     lambda r, t: _all(r, ir.Obligation)),
    ("runners", "an unbroken run of top trumps held by one party pays extra",
     lambda r, t: _first(r, ir.Runners)),
    ("game points to a target", "deals are scored in game points until a party reaches a total",
     lambda r, t: _first(r, ir.GamePoints, lambda c: c.target is not None,
                         lambda c, k: f"to {c.target}" + (", lowest wins" if c.lowest_wins else ""))),
    ("Schneider / Schwarz-like thresholds", "a bonus for taking (or conceding) all, or a large share",
     _thresholds),
    ("castling", "a King changes places with an officer of another hand",
     lambda r, t: Found("yes", clause_anchor("castling")) if t.castling is not None else None),
    ("King fates", "checkmate, selfmate, stalemate: what becomes of a King in a trick scores",
     lambda r, t: Found(f"{len(t.events)} fates", clause_anchor(f"king {t.events[0].name}")) if t.events else None),
    ("promotion", "in the last trick low cards count as officers",
     lambda r, t: Found("last trick", clause_anchor("promotion"))
     if any(t.promoted_as[f] != f for f in range(t.n_faces)) else None),
]


def mechanism_cells(ctx: Context, name: str) -> dict[str, Found | None]:
    """Each mechanism as found in a ruleset (None where it has none)."""
    r, t = ctx.ruleset(name), ctx.tables_of(name)
    return {row: find(r, t) for row, _, find in MECHANISMS}


def matrix_markdown(ctx: Context) -> str:
    """The mechanism matrix: mechanisms down, the family's games and Schachett's rulesets across."""
    names = list(ctx.family) + list(ctx.rulesets)
    cells = {n: mechanism_cells(ctx, n) for n in names}
    first = {list(ctx.rulesets)[0]} if ctx.rulesets else set()      # Schachett's columns begin here
    mark = lambda n: ' class="schachett"' if n in first else ""
    head = "".join(f'<th{mark(n)}><a href="{url_rel(MATRIX, ctx.rulebook_page(n))}">{n}</a></th>' for n in names)
    rows = []
    for row, words, _ in MECHANISMS:
        tds = []
        for n in names:
            f = cells[n][row]
            label = f'<span class="cell-label">{n}</span>'
            edge = " schachett" if n in first else ""
            if f is None:
                tds.append(f'<td class="absent{edge}">{label}—</td>')
            else:
                href = url_rel(MATRIX, ctx.rulebook_page(n), f.anchor)
                tds.append(f'<td class="present{edge}">{label}<a href="{href}" title="{html.escape(f.word)}">'
                           f'✓ {html.escape(f.word)}</a></td>')
        rows.append(f'<tr><th class="key">{html.escape(row)}<br><small>{html.escape(words)}</small></th>{"".join(tds)}</tr>')
    width = 9 + 6 * len(names)
    table = (f'<div class="matrix family-matrix"><table class="matrix-table" style="min-width: {width}em">'
             f'<thead><tr><th class="key">mechanism</th>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table></div>')
    family_cols = ", ".join(f"[{n}]({n}.md)" for n in ctx.family)
    schachett_cols = ", ".join(f"[{n}](../rulebooks/{n}.md)" for n in ctx.rulesets)
    # the matrix wants the page's whole width: the navigation and the table of contents are folded away
    return ("---\nhide:\n  - navigation\n  - toc\n---\n\n# Mechanisms of the family\n\n"
            "Which game uses which mechanism, read from the rule files: every cell is found in a ruleset's compiled "
            "tables or in its clauses (a contract's clauses included), and links to the clause it was found in. "
            f"The family's games come first ({family_cols}), then Schachett's rulesets ({schachett_cols}). "
            "A dash: the ruleset has no such clause. The [language reference](../language.md#the-familys-clauses) "
            "explains each clause.\n\n" + table + "\n")


def _players(t: Tables) -> str:
    return f"{t.n_seats} players"


def index_markdown(ctx: Context) -> str:
    """The family's index: the games, what each is, and the commands to play them."""
    lines = ["# The family", "",
             "Schachett's foreword measures the game against the trick-taking games its players knew. The same rule "
             "language, compiler and engine play some of them: Bavarian and Wendish Schafkopf with its three- and "
             "two-hand forms, the five-hand call-card euchre Schachett's sources describe, and, as tests of how general "
             "the language is, Euchre, Whist and Hearts. Each game cites its own source clause by clause, as "
             "Schachett's rulesets cite the manual; the sources are kept as our own summaries.", "",
             "| game | ruleset | players | contracts | sources |", "|---|---|---|---|---|"]
    for name, r in ctx.family.items():
        t = ctx.family_tables[name]
        sources = sorted({c.split(":")[0] for e in r.clauses for c in e.clause.basis.cites if ":" in c})
        src = ", ".join(f"[{s}](sources/{s}/index.md)" for s in sources)
        contracts = "; ".join(k.title for k in r.contracts) or "—"
        if r.contracts and _auction(r, t) is None:     # Whist: a contract per colour, named by the deal, never bid
            contracts = "none bid: the turned card names the trumps"
        lines.append(f"| [{r.title}]({name}.md) | `{name}` | {t.n_seats} | {contracts} | {src} |")
    lines += ["", "[Which game uses which mechanism](mechanisms.md), beside Schachett's rulesets.", "",
              "Every game plays at the terminal, at the game server's tables and in simulations as Schachett does, "
              "with every bot, the strong ones too (they see only their own seat's cards and what the table has "
              "shown):", "", "```sh",
              "schachett check schafkopf                 # parse, check and compile",
              "schachett show hearts                     # the rules in prose, by the source's sections",
              "schachett play whist --seat 0             # play South against bots",
              "schachett play schafkopf --bots ismcts    # against the tree search player",
              "schachett simulate euchre --games 1000",
              "schachett duel dd mc officers-schafkopf --games 20",
              "schachett session hearts                  # deals until a player has 100 points",
              "```", "",
              "To write a game of your own, see [the tutorial](../family-tutorial.md)."]
    return "\n".join(lines) + "\n"


def source_markdown(ctx: Context, section: Section) -> str:
    """One section of a family source: our summary of it, and the clauses resting on it."""
    page = section_page(section)
    rows = [f"- {ctx.clause_link(page, ref)} {ctx.grade(ref.grade)}" for ref in ctx.cites.get(section.cite, [])]
    text = section.text.strip()
    return (f"# {section.cite} {section.title}\n\n"
            f"*{SOURCE_TITLES.get(section.source, section.source)}*: our summary of the source, not its text.\n\n"
            f"{text}\n\n## Clauses resting on it\n\n" + ("\n".join(rows) if rows else "None.") + "\n")


def source_index(ctx: Context, source: str) -> str:
    lines = [f"# {SOURCE_TITLES.get(source, source)}: the source", "",
             f"Cited as `{source}:§N`. Each section says what the source rules, in our words, where the source says "
             "it, and how the rule files read it.", "", "| section | title |", "|---|---|"]
    for s in ctx.manual.by_source(source):
        lines.append(f"| [{s.cite}]({section_page(s).split('/')[-1]}) | {s.title} |")
    return "\n".join(lines) + "\n"


def family_pages(ctx: Context, write) -> list[str]:
    """Write the family's pages; return the lines of their navigation."""
    write(INDEX, index_markdown(ctx))
    write(MATRIX, matrix_markdown(ctx))
    nav = ["* [The family](family/index.md)", "    * [Mechanisms](family/mechanisms.md)"]
    for name, r in ctx.family.items():
        write(ctx.rulebook_page(name), rulebook_markdown(ctx, name))
        nav.append(f"    * [{r.title}]({ctx.rulebook_page(name)})")
    nav.append("    * Sources")
    for source in SOURCE_TITLES:
        sections = ctx.manual.by_source(source)
        if not sections:
            continue
        folder = f"family/sources/{source}"
        write(f"{folder}/index.md", source_index(ctx, source))
        nav.append(f"        * [{SOURCE_TITLES[source]}]({folder}/index.md)")
        for s in sections:
            write(section_page(s), source_markdown(ctx, s))
            nav.append(f"            * [{s.cite} {s.title}]({section_page(s)})")
    return nav

"""What every page of the site needs: the manual, the rulesets, and links between them.

Every citation on the site goes through :meth:`Context.cite` — which resolves
it against the manual, so a citation that names no section fails the build —
and every clause of every ruleset is indexed by the sections it cites, so each
manual page can list the clauses that rest on it.
"""

from __future__ import annotations

import functools
import posixpath
import re
from dataclasses import dataclass, field

import jinja2

from ..language import ir
from ..kernel.compiler import Tables, compile_ruleset
from ..rules.loader import Effective, Resolved, load
from ..rules.manual import Manual, Section, load_manual, normalise_cite, slugify
from ..paths import family_rulesets, schachett_rulesets as known_rulesets
from ..rules.prose import filed_under

GRADE_WORDS = {g.value: text for g, text in ir.GRADE_MEANING.items()}

# The order rulesets appear in on the site: the printed game first, then the readings of it.
RULESET_ORDER = ["original", "three-player", "ai-reconstruction", "reconstruction"]
PLAY_THIS = "reconstruction"          # the ruleset the site teaches: marked "play this one" wherever rulesets are listed


def play_label(name: str, html_tags: bool = False) -> str:
    """The words after a ruleset's name in a list of rulesets: "play this one" for the one the site teaches.

    >>> play_label("reconstruction"), play_label("original")
    (' (*play this one*)', '')
    """
    if name != PLAY_THIS:
        return ""
    return " <em>(play this one)</em>" if html_tags else " (*play this one*)"


@dataclass(frozen=True)
class ClauseRef:
    """A clause of a ruleset, as a citing page sees it."""

    ruleset: str
    key: str
    grade: str
    cites: tuple[str, ...]
    section: str
    anchor: str
    lacuna: str | None = None
    option: str | None = None


def clause_anchor(key: str) -> str:
    """The anchor of a clause on its rulebook page.

    >>> clause_anchor("king checkmate"), clause_anchor("follow pawn")
    ('clause-king-checkmate', 'clause-follow-pawn')
    """
    return "clause-" + re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-")


# The family's games in the order of the site's pages: the Schafkopf games first, then the euchres, Whist and Hearts.
FAMILY_ORDER = ["schafkopf", "wendish-schafkopf", "dreiwendsch", "officers-schafkopf", "five-hand-euchre", "euchre",
                "whist", "hearts"]


def section_page(section: Section) -> str:
    """The site path of a manual (or AI reconstruction, or family source) section's page.

    >>> from schachett_rules.rules.manual import load_manual
    >>> m = load_manual()
    >>> section_page(m.resolve("§2").section), section_page(m.resolve("schafkopf:§2").section)
    ('manual/s2.md', 'family/sources/schafkopf/s2.md')
    """
    if section.source not in ("", "ai"):
        return f"family/sources/{section.source}/{slugify(section.id) or 'index'}.md"
    folder = "ai" if section.source == "ai" else "manual"
    return f"{folder}/{slugify(section.id) or 'index'}.md"


def rel(from_page: str, to_page: str, anchor: str | None = None) -> str:
    """A relative link from one site page to another (MkDocs checks them in strict mode).

    >>> rel("manual/s3.md", "rulebooks/original.md", "clause-ranking")
    '../rulebooks/original.md#clause-ranking'
    >>> rel("index.md", "index.md", "x")
    '#x'
    """
    if from_page == to_page:
        return f"#{anchor}" if anchor else posixpath.basename(to_page)
    path = posixpath.relpath(to_page, posixpath.dirname(from_page) or ".")
    return path + (f"#{anchor}" if anchor else "")


def url_rel(from_page: str, to_page: str, anchor: str | None = None) -> str:
    """A relative URL between two pages as the built site serves them (``page.md`` at ``page/``), for raw HTML.

    >>> url_rel("compare/matrix.md", "rulebooks/original.md", "clause-deck")
    '../../rulebooks/original/#clause-deck'
    >>> url_rel("compare/matrix.md", "manual/index.md")
    '../../manual/'
    """
    def url(page: str) -> str:
        base = page[:-3]
        return (base[: -len("index")] if base.endswith("index") else base + "/") or "./"
    href = posixpath.relpath(url(to_page), url(from_page)) + "/"
    href = "./" if href == "./" else href.replace("//", "/")
    return href + (f"#{anchor}" if anchor else "")


@dataclass
class Context:
    """The data of the whole site, loaded once per build."""

    manual: Manual
    rulesets: dict[str, Resolved]
    tables: dict[str, Tables]
    cites: dict[str, list[ClauseRef]] = field(default_factory=dict)   # section cite -> clauses citing it
    lacuna_cites: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # section cite -> (lacuna, page)
    family: dict[str, Resolved] = field(default_factory=dict)       # the family's games (variants/family/)
    family_tables: dict[str, Tables] = field(default_factory=dict)

    @classmethod
    def load(cls) -> "Context":
        """Load the manual and every ruleset, and index the citations."""
        names = sorted(known_rulesets(), key=lambda n: (RULESET_ORDER.index(n) if n in RULESET_ORDER else 99, n))
        rulesets = {n: load(n) for n in names}
        family_names = sorted(family_rulesets(), key=lambda n: (FAMILY_ORDER.index(n) if n in FAMILY_ORDER else 99, n))
        family = {n: load(n) for n in family_names}
        ctx = cls(manual=load_manual(), rulesets=rulesets, tables={n: compile_ruleset(r) for n, r in rulesets.items()},
                  family=family, family_tables={n: compile_ruleset(r) for n, r in family.items()})
        for name, r in list(rulesets.items()) + list(family.items()):
            for e in r.clauses:
                ref = ctx.clause_ref(name, e)
                for c in e.clause.basis.cites:
                    ctx.cites.setdefault(ctx.resolve(c).section.cite, []).append(ref)
            for k in r.contracts:      # a contract and its clauses rest on their sources too
                refs = [(k.basis, ClauseRef(ruleset=name, key=f"contract {k.name}", grade=k.basis.grade.value,
                                            cites=k.basis.cites, section=k.basis.section,
                                            anchor=f"contract-{k.name}"))]
                for c in k.clauses:
                    key = ir.clause_key(c)
                    basis = c.basis if c.basis.cites else k.basis
                    grade = (c.basis.grade or k.basis.grade).value
                    refs.append((basis, ClauseRef(ruleset=name, key=f"{k.name}: {key}", grade=grade, cites=basis.cites,
                                                  section=basis.section,
                                                  anchor=f"contract-{k.name}" + clause_anchor(key).removeprefix("clause"))))
                for basis, ref in refs:
                    for c in basis.cites:
                        ctx.cites.setdefault(ctx.resolve(c).section.cite, []).append(ref)
        return ctx

    def ruleset(self, name: str) -> Resolved:
        """A ruleset of Schachett's or of the family's, by name."""
        return self.rulesets[name] if name in self.rulesets else self.family[name]

    def tables_of(self, name: str) -> Tables:
        """The compiled tables of a ruleset of Schachett's or of the family's."""
        return self.tables[name] if name in self.tables else self.family_tables[name]

    # --- citations ----------------------------------------------------------------------------
    def resolve(self, cite: str):
        """The section a citation names (the build fails if there is none)."""
        return self.manual.resolve(cite)

    def cite(self, from_page: str, cite: str) -> str:
        """A citation as a badge linking to the section (or numbered item) it names."""
        res = self.resolve(cite)
        anchor = slugify(res.subsection.id) if res.subsection else None
        lost = " lost" if res.missing else ""
        return f'[{normalise_cite(cite)}]({rel(from_page, section_page(res.section), anchor)}){{ .badge .cite{lost} }}'

    def cite_html(self, from_page: str, cite: str) -> str:
        """A citation badge as raw HTML (for tables written in HTML)."""
        import html
        res = self.resolve(cite)
        anchor = slugify(res.subsection.id) if res.subsection else None
        href = url_rel(from_page, section_page(res.section), anchor)
        return f'<a class="badge cite" href="{href}">{html.escape(normalise_cite(cite))}</a>'

    def cites_of(self, from_page: str, cites) -> str:
        """Several citations as badges."""
        return " ".join(self.cite(from_page, c) for c in cites)

    @staticmethod
    def grade(grade) -> str:
        """A grade as a coloured badge, with its meaning on hover."""
        value = grade.value if hasattr(grade, "value") else str(grade)
        return f'<span class="badge grade-{value}" title="{GRADE_WORDS.get(value, "")}">{value}</span>'

    # --- clauses --------------------------------------------------------------------------------
    def clause_ref(self, ruleset: str, e: Effective) -> ClauseRef:
        """How other pages point at an effective clause."""
        r = self.ruleset(ruleset)
        return ClauseRef(ruleset=ruleset, key=e.key, grade=e.clause.basis.grade.value, cites=e.clause.basis.cites,
                         section=filed_under(r, e), anchor=clause_anchor(e.key), lacuna=e.origin.lacuna,
                         option=e.origin.option)

    def rulebook_page(self, ruleset: str) -> str:
        """The site path of a ruleset's rulebook: a family game's is its page in the family's section."""
        return f"family/{ruleset}.md" if ruleset in self.family else f"rulebooks/{ruleset}.md"

    def clause_link(self, from_page: str, ref: ClauseRef) -> str:
        """A link to a clause on its rulebook page."""
        return f"[{ref.ruleset}: {ref.key}]({rel(from_page, self.rulebook_page(ref.ruleset), ref.anchor)})"


@functools.lru_cache(maxsize=1)
def templates() -> jinja2.Environment:
    """The page templates; a name a template uses but the page does not give is an error."""
    env = jinja2.Environment(loader=jinja2.PackageLoader("schachett_rules.site", "templates"),
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                             trim_blocks=True, lstrip_blocks=True, autoescape=False)
    return env


def render(template: str, **values) -> str:
    """Fill a template."""
    return templates().get_template(template).render(**values)

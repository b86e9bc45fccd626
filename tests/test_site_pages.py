"""The site's pages, generated in this process without MkDocs: the fast lane's check of the site.

The whole build (tests/test_site.py, marked slow) plays every simulation the site shows and runs
``mkdocs build --strict``. Here the pages that need no simulation are generated, and one gap page
whose readings are played with a few hundred games, so the check costs seconds even from an empty
simulation cache. Links, anchors and citations are checked in the Markdown the site is built from.
"""

from __future__ import annotations

import functools
import importlib
import posixpath
import re

import pytest

from schachett_rules.paths import home
from schachett_rules.site.context import Context, clause_anchor, section_page
from schachett_rules.site.extra import cards_markdown, grammar_markdown

# site/__init__ re-exports the page functions under the modules' own names, so the modules are imported by path.
gaps, sims, manual_pages, rulebooks, compare, family = (importlib.import_module(f"schachett_rules.site.{m}") for m in
                                                        ("gaps", "sims", "manual_pages", "rulebooks", "compare", "family"))

GAP = "ties"          # a lacuna of the printed ruleset whose readings the batch plays
SMALL_GAMES = 300     # enough for the page's table; the measured effects are the slow build's business
DOCS = home() / "docs"
LINK = re.compile(r"\]\(([^)\s]+)\)(\{[^}]*\})?")
ANCHOR = re.compile(r"\{\s*#([\w-]+)[^}]*\}|\bid=\"([\w-]+)\"")


@pytest.fixture(scope="module")
def built():
    """(context, pages): the generated pages by path, as MkDocs would receive them."""
    pages: dict[str, str | bytes] = {}

    def write(path, content):
        pages[path] = content

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sims, "FAST_GAMES", SMALL_GAMES)
        mp.setattr(sims, "SLOW_GAMES", SMALL_GAMES)
        mp.setattr(sims, "STRONG_GAMES", 4)
        ctx = Context.load()
        gaps.index_lacuna_cites(ctx)
        manual_pages.manual_pages(ctx, write)
        rulebooks.rulebook_pages(ctx, write)
        compare.compare_pages(ctx, write)
        family.family_pages(ctx, write)
        write("cards.md", cards_markdown(ctx, write))
        write("language/grammar.md", grammar_markdown())
        lac, _ = gaps._lacunae(ctx)[GAP]
        write(f"gaps/{GAP}.md", gaps.gap_markdown(ctx, GAP, lac, write))
    return ctx, pages


def markdown(pages) -> dict[str, str]:
    return {p: c for p, c in pages.items() if p.endswith(".md")}


@functools.lru_cache(maxsize=None)     # a page is asked once for each of the thousands of links into it
def anchors(text: str) -> frozenset[str]:
    """The ids a page offers: explicit ``{#id}`` and ``id="…"``, and its headings' ids as MkDocs' toc makes them."""
    from markdown.extensions.toc import slugify
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    headings = {slugify(re.sub(r"\s*\{[^}]*\}\s*$", "", h), "-") for h in re.findall(r"^#{1,6} +(.+?) *$", text, re.M)}
    return frozenset({a or b for a, b in ANCHOR.findall(text)} | headings)


def links(page: str, text: str):
    """(href, target page, fragment, is a citation) for every Markdown link of a page, outside code blocks."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    for href, attrs in LINK.findall(text):
        if re.match(r"^[a-z]+:", href) or href.startswith("#") and not href[1:]:
            continue
        path, _, frag = href.partition("#")
        target = posixpath.normpath(posixpath.join(posixpath.dirname(page), path)) if path else page
        yield href, target, frag, ".cite" in (attrs or "")


def test_links_between_generated_pages_and_their_anchors_resolve(built):
    _, pages = built
    md = markdown(pages)
    broken, checked = [], 0
    for page, text in md.items():
        for href, target, frag, _ in links(page, text):
            if target in pages:
                checked += 1
                if frag and target in md and frag not in anchors(md[target]):
                    broken.append(f"{page} → {href} (no anchor {frag})")
            elif (DOCS / target).is_file():
                checked += 1
            elif target.startswith(("manual/", "ai/", "rulebooks/", "compare/", "family/", "language/grammar")):
                broken.append(f"{page} → {href} (no such page)")   # these pages were all generated here
    assert not broken, "\n".join(broken[:30])
    assert checked > 1000


def test_every_citation_leads_to_a_section_page_and_its_anchor(built):
    _, pages = built
    md = markdown(pages)
    seen = 0
    for page, text in md.items():
        for href, target, frag, cite in links(page, text):
            if not cite:
                continue
            seen += 1
            assert target.startswith(("manual/", "ai/", "family/sources/")) and target in md, \
                f"{page}: citation {href} → {target}"
            if frag:
                assert frag in anchors(md[target]), f"{page}: citation {href} has no anchor {frag}"
    assert seen > 500


def test_every_section_page_links_back_to_the_clauses_that_cite_it(built):
    ctx, pages = built
    missing = []
    for name, r in list(ctx.rulesets.items()) + list(ctx.family.items()):
        for e in r.clauses:
            for c in e.clause.basis.cites:
                page = section_page(ctx.resolve(c).section)
                back = {(t, f) for _, t, f, _ in links(page, pages[page])}
                if (ctx.rulebook_page(name), clause_anchor(e.key)) not in back:
                    missing.append(f"{page} lacks {ctx.rulebook_page(name)}#{clause_anchor(e.key)}")
    assert not missing, "\n".join(missing[:20])


def test_every_clause_has_its_anchor_on_its_rulebook_page(built):
    ctx, pages = built
    for name, r in list(ctx.rulesets.items()) + list(ctx.family.items()):
        have = anchors(pages[ctx.rulebook_page(name)])
        assert {clause_anchor(e.key) for e in r.clauses} <= have, name
        assert {rulebooks.contract_anchor(k.name) for k in r.contracts} <= have, name


def test_the_gap_page_plays_every_reading_on_the_same_deals(built):
    ctx, pages = built
    lac, _ = gaps._lacunae(ctx)[GAP]
    page = pages[f"gaps/{GAP}.md"]
    table = next(line for line in page.splitlines() if line.startswith("| measure |"))
    assert [cell.strip(" *") for cell in table.split("|")[2:-1]] == [o.name for o in lac.options]
    assert f"Random players, {SMALL_GAMES} games per reading on the same deals (seed {sims.SEED})" in page
    assert pages[f"gaps/{GAP}-effects.svg"].startswith(b"<?xml")
    # and again with strong players, named with their games, and the strong player against random ones
    strong = page[page.index("### What the readings do to a well-played game"):]
    assert f"Strong players on every seat (the sampling player, {sims.STRONG_BOTS[0]}" in strong
    assert "4 games per reading on the same deals" in strong
    # both readings played the same four deals, so each is compared with the ruleset's own deal by deal
    assert "each reading is compared with it deal by deal" in strong
    assert "strong player's share of decided games against random players" in strong
    # and how to ask the same question with more games
    assert f"`schachett sweep {gaps.sweep_ruleset(ctx, GAP, lac)} -l {GAP} -b {sims.STRONG_BOTS[0]} -n 2000`" in strong
    # and where the reader learns how strong those players are
    assert "[the players, ranked](../simulations/players.md)" in strong


def test_every_reading_of_castling_is_measured_where_castling_is_played(built):
    # the printed ruleset plays no castling (§5 is lost): a gap about how castling works measured there would show
    # its readings alike whatever they say; each is measured in a ruleset that castles
    from schachett_rules.language import ir
    ctx, _ = built
    about = {"castling", "castle-officer", "castle-king", "castle-limit", "castle-moment"}
    for name, (lac, _) in gaps._lacunae(ctx).items():
        if name in about:
            assert ctx.tables[gaps.sweep_ruleset(ctx, name, lac)].castling is not None, name
    moment = gaps._lacunae(ctx)["castle-moment"][0]
    assert all(isinstance(c, ir.CastleMoment) for o in moment.options for c in o.clauses)

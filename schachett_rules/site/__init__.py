"""The annotated rulebook site: every generated page, from the manual, the rule files and simulations.

:func:`build_pages` writes the pages through a ``write(path, content)``
callable: at build time ``docs/gen_pages.py`` hands it mkdocs-gen-files, so
no generated page is ever stored in ``docs/``.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from .compare import compare_pages
from .context import Context
from .family import family_pages
from .extra import _trick_picture, cards_markdown, errors_markdown, grammar_markdown, home_markdown
from .gaps import gap_pages, index_lacuna_cites
from .learn import PAGE as PLAY_PAGE, learn_pages
from .manual_pages import manual_pages
from .ranking import players_page
from .rulebooks import rulebook_pages
from .sims import simulation_pages
from .variants_pages import variant_pages


def _nav_block(items, indent: str = "    ") -> list[str]:
    return [f"{indent}* [{title}]({path})" for title, path in items]


def build_pages(write) -> Context:
    """Generate every page; return the context (the tests use it)."""
    ctx = Context.load()
    index_lacuna_cites(ctx)
    learn_pages(write)
    manual_nav = manual_pages(ctx, write)
    rulebook_nav = rulebook_pages(ctx, write)
    compare_nav = compare_pages(ctx, write)
    gap_nav = gap_pages(ctx, write)
    sim_nav = simulation_pages(ctx, write) + [players_page(ctx, write)]
    variant_nav = variant_pages(ctx, write)
    family_nav = family_pages(ctx, write)
    write("index.md", home_markdown(ctx))
    write("assets/trick.svg", _trick_picture(ctx))
    write("cards.md", cards_markdown(ctx, write))
    write("language/grammar.md", grammar_markdown())
    with tempfile.TemporaryDirectory() as tmp:
        write("language/errors.md", errors_markdown(Path(tmp)))
    summary = ["* [Home](index.md)",
               f"* [How to play]({PLAY_PAGE})",
               "* [The manual](manual/index.md)"] + _nav_block([(t, p) for s, t, p in manual_nav if not s]) + [
               "* [The AI reconstruction](ai/index.md)"] + _nav_block([(t, p) for s, t, p in manual_nav if s]) + [
               "* [Rulebooks](rulebooks/index.md)"] + _nav_block(rulebook_nav) + [
               "* Comparison"] + _nav_block(compare_nav) + [
               "* [Gaps and readings](gaps/index.md)"] + _nav_block(gap_nav) + [
               "* [Simulations](simulations/index.md)"] + _nav_block(sim_nav) + (
               ["* [New variants](variants/index.md)"] + _nav_block(variant_nav) if variant_nav else []) + [
               ] + family_nav + [
               "* [The cards](cards.md)",
               "* Rule language",
               "    * [Reference](language.md)",
               "    * [Tutorial: your own variant](tutorial.md)",
               "    * [Tutorial: a game of your own family](family-tutorial.md)",
               "    * [How a rule file becomes a game](pipeline.md)",
               "    * [Game records](records.md)",
               "    * [Grammar](language/grammar.md)",
               "    * [Error messages](language/errors.md)"]
    # The navigation file is built as a page too; it is kept out of the search index.
    write("SUMMARY.md", "---\nsearch:\n  exclude: true\n---\n\n" + "\n".join(summary) + "\n")
    return ctx

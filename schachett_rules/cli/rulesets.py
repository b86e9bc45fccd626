"""The commands that read rule files and the manual: ``check``, ``show``, ``diff``, ``schema``, ``manual``."""

from __future__ import annotations

import json

import click

from ..kernel.compiler import compile_ruleset
from ..language import ir
from ..language.printer import format_ruleset
from ..rules.grades import summary as grade_summary
from ..rules.diff import diff_rulesets, format_json, format_markdown, format_text
from ..rules.loader import load, locate, read_file
from ..rules.manual import load_manual
from ..rules.rulebook import render_ruleset
from .common import option_flag, options_of


@click.command()
@click.argument("ruleset")
@option_flag
def check(ruleset: str, option_items: tuple[str, ...]) -> None:
    """Parse, check and compile a rule file, and every reading of its lacunae.

    RULESET is a ruleset name (original) or a path to a .schachett file.
    """
    opts = options_of(ruleset, option_items)
    r = load(ruleset, opts)
    t = compile_ruleset(r)
    for chosen in r.lacunae:
        for o in chosen.lacuna.options:
            if o.name != chosen.option:
                compile_ruleset(load(ruleset, {**opts, chosen.lacuna.name: o.name}))
    extends = f" (extends {' → '.join(r.chain[:-1])})" if len(r.chain) > 1 else ""
    click.echo(f"{r.file}: ruleset {r.name} is sound{extends}")
    for line in grade_summary([e.clause for e in r.clauses]):
        click.echo(f"  {line}")
    click.echo(f"  deck of {t.n_cards} cards, {t.n_seats} seats, {t.n_tricks} tricks")
    if r.lacunae:
        click.echo(f"  {len(r.lacunae)} lacunae (every reading compiles):")
        width = max(len(c.lacuna.name) for c in r.lacunae)
        for c in r.lacunae:
            opt = c.lacuna.option(c.option)
            others = [o.name for o in c.lacuna.options if o.name != c.option]
            by = "" if c.chosen_by == r.name else f", chosen by {c.chosen_by}"
            click.echo(f"    {c.lacuna.name:<{width}}  {c.lacuna.basis.section:<6} plays {c.option} "
                       f"[{opt.basis.grade.value}{by}]" + (f"; also {', '.join(others)}" if others else ""))


@click.command()
@click.argument("ruleset")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "ir", "rules"]), default="text",
              show_default=True, help="text: prose by section; json: the resolved ruleset; ir: the file's IR; "
                                      "rules: the file printed back as rule text.")
@option_flag
def show(ruleset: str, fmt: str, option_items: tuple[str, ...]) -> None:
    """Show a ruleset as readable prose, grouped by manual section, or as data.

    The ruleset is checked and compiled first, as ``schachett check`` does: what check refuses, show refuses.
    """
    r = load(ruleset, options_of(ruleset, option_items))
    compile_ruleset(r)                 # every check, those that need the deck too
    if fmt in ("ir", "rules"):
        rs = read_file(locate(ruleset))
        click.echo(rs.model_dump_json(indent=2) if fmt == "ir" else format_ruleset(rs), nl=fmt == "ir")
        return
    if fmt == "json":
        click.echo(r.model_dump_json(indent=2))
    else:
        click.echo(render_ruleset(r))


@click.command()
@click.argument("a")
@click.argument("b")
@click.option("--format", "fmt", type=click.Choice(["text", "md", "json"]), default="text", show_default=True)
@click.option("--all", "show_all", is_flag=True, help="List the clauses that agree too.")
def diff(a: str, b: str, fmt: str, show_all: bool) -> None:
    """Line up two rulesets clause by clause: same, changed, only in one."""
    ra, rb = load(a), load(b)
    compile_ruleset(ra)                # what check refuses, diff refuses
    compile_ruleset(rb)
    d = diff_rulesets(ra, rb)
    click.echo({"text": lambda: format_text(d, show_all), "md": lambda: format_markdown(d, show_all),
                "json": lambda: format_json(d)}[fmt](), nl=fmt == "json")


@click.command()
def schema() -> None:
    """Print the JSON Schema of the rule files' IR."""
    click.echo(json.dumps(ir.json_schema(), indent=2))


@click.command()
@click.argument("cite", required=False)
def manual(cite: str | None) -> None:
    """List the manual's sections, or print one (e.g. `schachett manual §3.2`)."""
    m = load_manual()
    if not cite:
        for s in m:
            mark = " (lost)" if s.status == "missing" else ""
            pages = f"p.{s.pages[0]}" + (f"–{s.pages[-1]}" if len(s.pages) > 1 else "") if s.pages else ""
            click.echo(f"{s.cite:<14} {pages:<9} {s.title}{mark}")
        return
    res = m.resolve(cite)
    s = res.section
    text = s.subsection_text(res.subsection.id) if res.subsection else s.text
    click.echo(f"{s.cite} {s.title} (pages {', '.join(map(str, s.pages)) or '–'}; {s.status})\n")
    click.echo(text)
    if s.translator_notes.strip() not in ("", "None."):
        click.echo("\nTranslator's notes:\n" + s.translator_notes)
    if s.editor_notes.strip() not in ("", "None."):
        click.echo("\nEditor's notes:\n" + s.editor_notes)

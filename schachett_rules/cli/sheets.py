"""``schachett rules print`` and ``schachett scoresheet``: the rules sheet and the score sheet as PDF.

Both come from the rule file, as the site does: the rules sheet is the site's How to play lesson
(the reconstruction) or, for any other ruleset, its rulebook; the score sheet lays out one cycle of the
ruleset's session clause. The
output is checked before any work is done: its folder must exist, and a file already there is
never overwritten unless ``--force`` says so.
"""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import UsageError
from ..printing.layout import PAPERS
from . import output
from .common import force_flag, forced

TAUGHT = "reconstruction"


def _paper(paper: str) -> str:
    key = paper.lower()
    if key not in PAPERS:
        raise UsageError(f"--paper {paper}: the sheets are laid out for {' and '.join(PAPERS)} paper only")
    return key


def _sheet_options(kind: str):
    """The arguments both sheets take: the ruleset, the paper, the PDF to write, --force."""
    def decorate(command):
        for option in reversed((
                click.argument("ruleset", default=TAUGHT),
                click.option("--paper", default="a4", show_default=True, metavar="a4|letter",
                             help="The paper to print on."),
                click.option("--out", "out", type=click.Path(path_type=Path), default=None, metavar="FILE",
                             help=f"The PDF to write (default: schachett-{kind}-PAPER.pdf here)."),
                force_flag("Overwrite the file if it exists."))):
            command = option(command)
        return command
    return decorate


@click.group("rules")
def rules() -> None:
    """The rules of Schachett, to print."""


@rules.command("print")
@_sheet_options("rules")
@click.option("--rulebook", is_flag=True,
              help="The reconstruction's rulebook, clause by clause, instead of its rules sheet.")
def print_rules(ruleset: str, paper: str, out: Path | None, rulebook: bool) -> None:
    """The rules to print: for the reconstruction (the default) the rules sheet, how to play with the cards, the
    deal, the King events and the scoring in a few pages; for any other ruleset (a family game, a variant, a
    rule file of one's own), or for the reconstruction with ``--rulebook``, its rulebook, every clause by section
    with its grade and sources, its contracts and the readings it plays.
    """
    key = _paper(paper)
    if Path(ruleset).stem == TAUGHT and not rulebook:
        from ..printing.rulesheet import rules_pdf
        from ..site.learn import build_lesson

        target = output.check_file(out or Path(f"schachett-rules-{key}.pdf"), "--out", forced())
        output.write_file(target, rules_pdf(build_lesson(), key), "--out")
        click.echo(f"wrote {target}: the rules sheet on {key} paper; print at actual size (100 %)")
        return
    from ..kernel.compiler import compile_ruleset
    from ..printing.rulebook_pdf import rulebook_pdf
    from ..rules.loader import load
    from ..rules.rulebook import rulebook_of

    r = load(ruleset)
    compile_ruleset(r)                 # what check refuses, the rulebook refuses
    target = output.check_file(out or Path(f"schachett-rules-{r.name}-{key}.pdf"), "--out", forced())
    output.write_file(target, rulebook_pdf(rulebook_of(r), key), "--out")
    click.echo(f"wrote {target}: the rulebook of {r.title or r.name} on {key} paper")


@click.command("scoresheet")
@_sheet_options("scoresheet")
def scoresheet(ruleset: str, paper: str, out: Path | None) -> None:
    """A score sheet for one cycle of the session clause: its rounds and games, with the seat changes."""
    from ..kernel.compiler import compile_ruleset
    from ..printing.scoresheet import scoresheet_pdf
    from ..rules.loader import load

    key = _paper(paper)
    target = output.check_file(out or Path(f"schachett-scoresheet-{key}.pdf"), "--out", forced())
    r = load(ruleset)
    output.write_file(target, scoresheet_pdf(r, compile_ruleset(r), key), "--out")
    click.echo(f"wrote {target}: the score sheet for one cycle of {r.name} on {key} paper")

"""``schachett deck``: the deck itself, printed to cut out and play with.

Every output is checked before any work is done: its folder must exist, and a file already
there is never overwritten unless ``--force`` says so. A mistake in the arguments is one
paragraph and exit code 2; a ruleset that does not load is exit code 1.
"""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import SchachettError, UsageError
from ..printing.layout import PRINTABLE, Sheet
from . import output
from .common import force_flag, forced


@click.group()
def deck() -> None:
    """The deck of a ruleset, printed to cut out and play with."""


@deck.command("print")
@click.argument("ruleset", default="original")
@click.option("--paper", default="a4", show_default=True, metavar="a4|letter", help="The paper the sheets are for.")
@click.option("--out", "out", type=click.Path(path_type=Path), default=None, metavar="FILE",
              help="The PDF to write (default: schachett-deck-RULESET.pdf here, unless only --png or --svg is asked).")
@click.option("--bleed", type=float, default=0.0, show_default=True,
              help="Millimetres of art past the cut, as print shops ask (3 is usual): on every side of each PNG and SVG, "
                   "round the outside of each sheet's cards in the PDF.")
@click.option("--png", "png_dir", type=click.Path(path_type=Path), default=None, metavar="DIR",
              help="Also write each card as a 300 dpi PNG with its bleed into this folder.")
@click.option("--svg", "svg_dir", type=click.Path(path_type=Path), default=None, metavar="DIR",
              help="Also write each card as an SVG sized in millimetres with its bleed into this folder.")
@click.option("--option", "-o", "option_items", multiple=True, metavar="LACUNA=OPTION",
              help="Print the deck of another reading of a lacuna (its legend changes with the ranking or points).")
@force_flag("Overwrite files that already exist.")
def print_deck(ruleset: str, paper: str, out: Path | None, bleed: float, png_dir: Path | None, svg_dir: Path | None,
               option_items: tuple[str, ...]) -> None:
    """Print-and-play sheets: nine poker cards (63 x 88 mm) to a page, with crop marks and the backs.

    Each sheet of fronts is followed by its backs, mirrored for a duplex printer that flips on the
    long edge, so each back lies behind its front. The free places of the last sheet hold a legend
    card: the ranking, the points and what each kind of card takes. RULESET is a ruleset name
    (default: original) or a path to a .schachett file; two-deck rulesets print all their cards.
    """
    # Loaded here, as the other commands load theirs, so that `schachett --help` stays quick.
    from ..kernel.compiler import compile_ruleset
    from ..printing import render
    from ..rules.loader import load, parse_option_args

    sheet = Sheet.for_paper(paper, bleed)
    try:
        opts = parse_option_args(option_items)
    except SchachettError as err:
        raise UsageError(err.message) from None
    stem = Path(ruleset).stem
    if out is None and (png_dir or svg_dir):
        pdf = None
    else:
        pdf = output.check_file(out or Path(f"schachett-deck-{stem}.pdf"), "--out", forced())
    r = load(ruleset)                                # a ruleset that does not load is bad input (exit 1) ...
    if opts:
        try:
            r = load(ruleset, opts)
        except SchachettError as err:                # ... a reading it does not have is bad usage (exit 2)
            raise UsageError(err.message) from None
    t = compile_ruleset(r)
    targets = [(flag, folder, suffix) for flag, folder, suffix in (("--png", png_dir, ".png"), ("--svg", svg_dir, ".svg"))
               if folder is not None]
    for flag, folder, suffix in targets:
        output.check_folder(folder, flag, render.file_names(t, suffix), forced())
    title = r.title or r.name
    if pdf is not None:
        pages = []
        output.write_drawn(pdf.parent, lambda scratch: _drawn_pdf(render, t, title, sheet, scratch / pdf.name, pages),
                           "--out")
        pages = pages[0]
        click.echo(f"wrote {pdf}: {pages} pages for {t.n_cards} cards and their backs on {sheet.paper} paper "
                   f"(bleed {sheet.bleed:g} mm); print on both sides, flipping on the long edge, at 100 %")
        if sheet.mark_reach < PRINTABLE:
            click.echo(f"note: with a {sheet.bleed:g} mm bleed on {sheet.paper} paper some crop marks lie within "
                       f"{sheet.mark_reach:.1f} mm of the paper's edge, where many printers print nothing; a bleed "
                       f"of {max(0.0, sheet.bleed - (PRINTABLE - sheet.mark_reach)):.1f} mm or less keeps them", err=True)
    for flag, folder, suffix in targets:
        draw = render.write_pngs if suffix == ".png" else render.write_svgs
        files = output.write_drawn(folder, lambda scratch: draw(t, title, sheet.bleed, scratch), flag)
        click.echo(f"wrote {len(files)} {suffix[1:].upper()} files to {folder} (every face, the back and the legend)")


def _drawn_pdf(render, t, title: str, sheet: Sheet, path: Path, pages: list) -> list[Path]:
    """Draw the PDF aside (the output module then writes it whole); its page count goes into ``pages``."""
    pages.append(render.write_pdf(t, title, sheet, path))
    return [path]

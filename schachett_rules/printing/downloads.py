"""The printable sheets as downloads of the site: the rules sheet, the score sheet and the deck, on A4 and US Letter.

The deck is the reconstruction's, as ``schachett deck print reconstruction`` draws it: nine poker cards
to a sheet with crop marks, each sheet of fronts followed by its backs, without a bleed (a home printer
prints none).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from ..kernel.compiler import compile_ruleset
from ..rules.loader import load
from ..site.learn import RULESET, build_lesson
from .layout import PAPERS, Sheet
from .render import write_pdf
from .rulesheet import rules_pdf
from .scoresheet import scoresheet_pdf

KINDS = ("rules", "scoresheet", "deck")


def download_paths() -> list[str]:
    """The site paths of the downloads, as the How to play page links them.

    >>> download_paths()[:2], download_paths()[-1]
    (['downloads/schachett-rules-a4.pdf', 'downloads/schachett-rules-letter.pdf'], 'downloads/schachett-deck-letter.pdf')
    """
    return [f"downloads/schachett-{kind}-{paper}.pdf" for kind in KINDS for paper in PAPERS]


def deck_pdf(r, t, paper: str) -> bytes:
    """The deck's print-and-play sheets for ``paper`` as PDF bytes."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "deck.pdf"
        write_pdf(t, r.title or r.name, Sheet.for_paper(paper), path)
        return path.read_bytes()


def write_downloads(write) -> list[str]:
    """Write every download through ``write(path, bytes)``; returns the paths written."""
    lesson = build_lesson()
    r = load(RULESET)
    t = compile_ruleset(r)
    made = {"rules": lambda paper: rules_pdf(lesson, paper), "scoresheet": lambda paper: scoresheet_pdf(r, t, paper),
            "deck": lambda paper: deck_pdf(r, t, paper)}
    for kind in KINDS:
        for paper in PAPERS:
            write(f"downloads/schachett-{kind}-{paper}.pdf", made[kind](paper))
    return download_paths()

"""The printable sheets as downloads of the site: the rules sheet and the score sheet, on A4 and US Letter."""

from __future__ import annotations

from ..kernel.compiler import compile_ruleset
from ..rules.loader import load
from ..site.learn import RULESET, build_lesson
from .layout import PAPERS
from .rulesheet import rules_pdf
from .scoresheet import scoresheet_pdf


def download_paths() -> list[str]:
    """The site paths of the downloads, as the How to play page links them.

    >>> download_paths()[:2]
    ['downloads/schachett-rules-a4.pdf', 'downloads/schachett-rules-letter.pdf']
    """
    return [f"downloads/schachett-{kind}-{paper}.pdf" for kind in ("rules", "scoresheet") for paper in PAPERS]


def write_downloads(write) -> list[str]:
    """Write every download through ``write(path, bytes)``; returns the paths written."""
    lesson = build_lesson()
    r = load(RULESET)
    t = compile_ruleset(r)
    for paper in PAPERS:
        write(f"downloads/schachett-rules-{paper}.pdf", rules_pdf(lesson, paper))
        write(f"downloads/schachett-scoresheet-{paper}.pdf", scoresheet_pdf(r, t, paper))
    return download_paths()

"""The pieces a lesson is made of: parts with headings, and in them words, tables and pictures.

The site's How to play page and the printed rules sheet are two layouts of one lesson
(:mod:`.learn` builds it); both walk these pieces in order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..kernel.state import State
from .lesson_figures import Shown


class SiteOnly(str):
    """Words of the lesson for the site only: they point at what the printed sheet leaves out."""


@dataclass(frozen=True)
class Picture:
    """A drawing of the lesson: its file name, the SVG and the words under it.

    A picture of a trick from a game keeps the trick (``shown``) and what it draws of it: the cards in
    playing order as (seat, card) and the seat whose card is framed as the winner.
    """

    name: str
    svg: str
    caption: str = ""
    shown: Shown | None = None
    cards: tuple[tuple[int, str], ...] = ()
    winner: int | None = None


@dataclass(frozen=True)
class Table:
    """A small table: a header row and rows of cells (markdown allowed in cells)."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass
class Part:
    """One part of the lesson: a heading and its blocks (text, pictures, tables) in order."""

    title: str
    anchor: str
    blocks: list = field(default_factory=list)
    print_too: bool = True        # the printable sheet leaves the long sample hand out


@dataclass
class Lesson:
    """The whole lesson, and the facts the tests check it by."""

    title: str
    ruleset: str
    parts: list[Part]
    event_examples: dict[str, Picture]       # King event -> the figure that shows it
    sample: State

    @property
    def figures(self) -> list[Picture]:
        """Every picture of a trick from a game, in the order of the page."""
        return [b for p in self.parts for b in p.blocks if isinstance(b, Picture) and b.shown is not None]

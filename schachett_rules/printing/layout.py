"""Where the cards go on a printed sheet: nine poker cards, three by three, centred, in millimetres.

The cards touch, so one straight cut along each line frees two of them (a paper trimmer or a
guillotine goes right across the sheet). Crop marks extend every cut line into the margin, on
all four sides: each card corner lies on two marked lines. A bleed, when asked for, lets the
art of the cards run past the grid's outer cut lines (between two cards the cut is shared). The back of a
sheet is its mirror image across the long edge, as a duplex printer flipping on the long edge
prints it: a card at column c has its back at column 2 - c of the back sheet, in the same row.

>>> sheet = Sheet.for_paper("a4", bleed=3)
>>> sheet.origin
(10.5, 16.5)
>>> [round(x, 1) for x in sheet.cut_xs]
[10.5, 73.5, 136.5, 199.5]
>>> sheet.slot(4).cut
(73.5, 104.5, 136.5, 192.5)
>>> sheet.back_slot(0).cut == sheet.slot(2).cut
True
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import UsageError

CARD = (63.0, 88.0)                              # poker size, millimetres
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
COLS, ROWS = 3, 3
PER_SHEET = COLS * ROWS
MARK_GAP, MARK_LONG, MARK_SHORTEST = 1.0, 5.0, 2.0   # a crop mark starts this far outside the bleed
PRINTABLE = 4.5                                  # many printers print nothing nearer the paper's edge (mm)


@dataclass(frozen=True)
class Slot:
    """One card's place: its cut rectangle and how far its art runs past each side (left, top, right, bottom)."""

    index: int
    col: int
    row: int
    cut: tuple[float, float, float, float]
    bleed: tuple[float, float, float, float]

    @property
    def art(self) -> tuple[float, float, float, float]:
        """The rectangle the card's art fills: the cut, widened by the bleed on its free sides."""
        (x0, y0, x1, y1), (l, t, r, b) = self.cut, self.bleed
        return (x0 - l, y0 - t, x1 + r, y1 + b)


@dataclass(frozen=True)
class Sheet:
    """A sheet of paper and the 3 × 3 grid of cards on it."""

    paper: str
    size: tuple[float, float]
    bleed: float

    @classmethod
    def for_paper(cls, paper: str, bleed: float = 0.0) -> "Sheet":
        """The sheet for a paper name (a4, letter); a bleed that leaves no room for crop marks is refused."""
        key = paper.lower()
        if key not in PAPERS:
            raise UsageError(f"--paper {paper}: the sheets are laid out for {' and '.join(PAPERS)} paper only")
        if not bleed >= 0:                           # also refuses nan
            raise UsageError(f"--bleed {bleed:g}: a bleed is 0 mm or more")
        sheet = cls(key, PAPERS[key], float(bleed))
        if sheet.mark_length < MARK_SHORTEST:
            most = min(sheet.origin) - MARK_GAP - MARK_SHORTEST
            raise UsageError(f"--bleed {bleed:g}: on {key} paper nine cards with that bleed leave no room for the crop "
                             f"marks; the bleed can be at most {most:.1f} mm there")
        return sheet

    @property
    def origin(self) -> tuple[float, float]:
        """The top left corner of the grid: the grid is centred on the sheet."""
        return ((self.size[0] - COLS * CARD[0]) / 2, (self.size[1] - ROWS * CARD[1]) / 2)

    @property
    def cut_xs(self) -> list[float]:
        """The vertical cut lines, left to right."""
        return [self.origin[0] + i * CARD[0] for i in range(COLS + 1)]

    @property
    def cut_ys(self) -> list[float]:
        """The horizontal cut lines, top to bottom."""
        return [self.origin[1] + j * CARD[1] for j in range(ROWS + 1)]

    @property
    def mark_length(self) -> float:
        """How long the crop marks are: 5 mm, or less where the margin is narrow."""
        return min(MARK_LONG, min(self.origin) - self.bleed - MARK_GAP)

    @property
    def mark_reach(self) -> float:
        """How far from the paper's edge the crop marks begin at the least: printers leave 3 to 5 mm bare."""
        return min(self.origin) - self.bleed - MARK_GAP

    def slot(self, index: int) -> Slot:
        """The front place ``index`` (0..8, row by row); its art runs into the bleed on the grid's outer sides."""
        col, row = index % COLS, index // COLS
        x0, y0 = self.origin[0] + col * CARD[0], self.origin[1] + row * CARD[1]
        b = self.bleed
        sides = (b if col == 0 else 0.0, b if row == 0 else 0.0, b if col == COLS - 1 else 0.0,
                 b if row == ROWS - 1 else 0.0)
        return Slot(index, col, row, (x0, y0, x0 + CARD[0], y0 + CARD[1]), sides)

    def back_slot(self, index: int) -> Slot:
        """Where the back of front place ``index`` is printed: mirrored across the sheet's long edge."""
        front = self.slot(index)
        x0, y0, x1, y1 = front.cut
        l, t, r, b = front.bleed
        w = self.size[0]
        return Slot(index, COLS - 1 - front.col, front.row, (w - x1, y0, w - x0, y1), (r, t, l, b))

    def crop_marks(self) -> list[tuple[float, float, float, float]]:
        """Every crop mark as a line (x0, y0, x1, y1): each cut line extended into all four margins."""
        gap, long = self.bleed + MARK_GAP, self.mark_length
        (left, top), (right, bottom) = self.origin, (self.cut_xs[-1], self.cut_ys[-1])
        marks = []
        for x in self.cut_xs:
            marks += [(x, top - gap - long, x, top - gap), (x, bottom + gap, x, bottom + gap + long)]
        for y in self.cut_ys:
            marks += [(left - gap - long, y, left - gap, y), (right + gap, y, right + gap + long, y)]
        return marks


def sheets_needed(cards: int) -> int:
    """How many sheets ``cards`` cards fill, nine to a sheet.

    >>> sheets_needed(53), sheets_needed(54), sheets_needed(55)
    (6, 6, 7)
    """
    return -(-cards // PER_SHEET)

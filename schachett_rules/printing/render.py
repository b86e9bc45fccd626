"""The deck drawn for print: a PDF of sheets to cut, and one PNG or SVG file per card for a print shop.

Every picture is one of the site's card drawings at print size (:mod:`..site.printcards`),
turned into PDF or pixels by PyMuPDF. PyMuPDF brings its own fonts (a Helvetica, a Times and
Noto's symbol fonts) and looks at none on the machine, so a sheet prints the same wherever it
is made; the chess pieces are shapes and need no font at all.

Each card on a sheet carries an invisible word, ``schachett-card:wT#2`` (the second wT of the
deck), and each back ``schachett-back:wT#2`` at the mirrored place, so a program can tell
which card lies where, and that every back lies behind its front.
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

from ..kernel.tables import Tables
from ..site.printcards import CARD_MM, back_print_svg, face_print_svg, legend_print_svg
from ..site.svgcards import face_filename
from .layout import PER_SHEET, Sheet, sheets_needed

PT = 72 / 25.4                                   # points per millimetre
LEGEND, BACK = "legend", "back"
MARK_WIDTH = 0.25                                # points: a hairline that still prints
MARKS_LAYER = "crop marks"


def card_list(t: Tables) -> list[tuple[str, int]]:
    """Every card of the deck in deck order as (marker, face), then the legend (face -1) in each free place.

    The legend fills the last sheet's free places, one at least, so that each player may have one.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> cards = card_list(tables_for("original"))
    >>> len(cards), cards[:2], cards[-2:]
    (54, [('wK#1', 0), ('wD#1', 1)], [('legend#1', -1), ('legend#2', -1)])
    """
    d, seen, out = t.deck, {}, []
    for face in d.card_face:
        seen[face] = seen.get(face, 0) + 1
        out.append((f"{d.face_names[face]}#{seen[face]}", face))
    legends = sheets_needed(len(out) + 1) * PER_SHEET - len(out)
    return out + [(f"{LEGEND}#{i}", -1) for i in range(1, legends + 1)]


def card_files(t: Tables, title: str, bleed: float) -> dict[str, str]:
    """Each distinct picture as a print SVG, by file name: every face (``w-K.svg``), ``back.svg`` and ``legend.svg``."""
    d = t.deck
    files = {face_filename(d, f): face_print_svg(d, f, bleed) for f in range(len(d.face_names))}
    files[f"{BACK}.svg"] = back_print_svg(bleed=bleed)
    files[f"{LEGEND}.svg"] = legend_print_svg(t, title, bleed)
    return files


def _open_svg(svg: str) -> pymupdf.Document:
    return pymupdf.open(stream=svg.encode("utf-8"), filetype="svg")


def _as_pdf(svg: str) -> pymupdf.Document:
    """An SVG drawing as a one-page PDF, vectors and text kept, for placing on the sheets."""
    return pymupdf.open("pdf", _open_svg(svg).convert_to_pdf())


def _rect(mm: tuple[float, float, float, float]) -> pymupdf.Rect:
    return pymupdf.Rect(*(v * PT for v in mm))


def _place(page: pymupdf.Page, src: pymupdf.Document, slot, bleed: float, marker: str) -> None:
    """Draw one card's art into its place: the cut box, with the bleed only where no card lies beside it."""
    l, t, r, b = slot.bleed
    clip = _rect((bleed - l, bleed - t, bleed + CARD_MM[0] + r, bleed + CARD_MM[1] + b))
    page.show_pdf_page(_rect(slot.art), src, 0, clip=clip, keep_proportion=False)
    x0, y0, x1, y1 = slot.cut
    page.insert_text(((x0 + x1) / 2 * PT, (y0 + y1) / 2 * PT), marker, fontsize=1, render_mode=3)


def _marks_and_footer(page: pymupdf.Page, sheet: Sheet, footer: tuple[str, ...], layer: int) -> None:
    """The crop marks (in their own layer, which a viewer can hide), and a footer between the middle marks."""
    for x0, y0, x1, y1 in sheet.crop_marks():
        page.draw_line((x0 * PT, y0 * PT), (x1 * PT, y1 * PT), color=(0, 0, 0), width=MARK_WIDTH, oc=layer)
    room = (CARD_MM[0] - 6) * PT                 # inside the middle column, clear of the marks on its cut lines
    bottom = sheet.cut_ys[-1] + sheet.bleed
    size = min(5.5, *(room / pymupdf.get_text_length(line, fontname="helv", fontsize=1) for line in footer))
    y = (bottom + (sheet.size[1] - bottom) / 2) * PT - size * (len(footer) - 1) / 2 + size / 3
    for line in footer:
        width = pymupdf.get_text_length(line, fontname="helv", fontsize=size)
        page.insert_text(((sheet.size[0] * PT - width) / 2, y), line, fontname="helv", fontsize=size,
                         color=(0.35, 0.35, 0.35))
        y += size * 1.1


def write_pdf(t: Tables, title: str, sheet: Sheet, path: Path) -> int:
    """Write the print-and-play PDF: each sheet of fronts followed by its backs; returns the number of pages."""
    files = card_files(t, title, sheet.bleed)
    d = t.deck
    sources: dict[int, pymupdf.Document] = {}

    def source(face: int) -> pymupdf.Document:
        if face not in sources:
            name = f"{LEGEND}.svg" if face == -1 else f"{BACK}.svg" if face == -2 else face_filename(d, face)
            sources[face] = _as_pdf(files[name])
        return sources[face]

    cards = card_list(t)
    n_sheets = sheets_needed(len(cards))
    w, h = sheet.size[0] * PT, sheet.size[1] * PT
    doc = pymupdf.open()
    layer = doc.add_ocg(MARKS_LAYER, on=True)
    name = title or t.name
    for s in range(n_sheets):
        on_sheet = cards[s * PER_SHEET:(s + 1) * PER_SHEET]
        front = doc.new_page(width=w, height=h)
        for i, (marker, face) in enumerate(on_sheet):
            _place(front, source(face), sheet.slot(i), sheet.bleed, f"schachett-card:{marker}")
        _marks_and_footer(front, sheet, (f"{name}: sheet {s + 1} of {n_sheets}, fronts",
                                         "print both sides, flip on long edge, actual size (100 %)"), layer)
        back = doc.new_page(width=w, height=h)
        for i, (marker, _face) in enumerate(on_sheet):
            _place(back, source(-2), sheet.back_slot(i), sheet.bleed, f"schachett-back:{marker}")
        _marks_and_footer(back, sheet, (f"{name}: sheet {s + 1} of {n_sheets}, backs",), layer)
    doc.set_metadata({"title": f"{name}: the deck to print and cut", "creator": "schachett deck print",
                      "subject": f"{t.n_cards} cards and {len(cards) - t.n_cards} legend cards, poker size 63 x 88 mm, "
                                 f"{sheet.paper}, bleed {sheet.bleed:g} mm",
                      "keywords": f"ruleset {t.name}; paper {sheet.paper}; bleed {sheet.bleed:g} mm"})
    part = path.with_name(path.name + ".part")
    doc.save(part, garbage=4, deflate=True)
    part.replace(path)
    return doc.page_count


def png_size(bleed: float, dpi: int = 300) -> tuple[int, int]:
    """A card's size in pixels with its bleed: 63 + 2b by 88 + 2b millimetres at ``dpi``.

    >>> png_size(3)
    (815, 1110)
    """
    return tuple(round((mm + 2 * bleed) / 25.4 * dpi) for mm in CARD_MM)


def write_pngs(t: Tables, title: str, bleed: float, folder: Path, dpi: int = 300) -> list[Path]:
    """Write every distinct picture as a PNG at ``dpi`` with its bleed; returns the files written."""
    width, height = png_size(bleed, dpi)
    written = []
    for name, svg in card_files(t, title, bleed).items():
        page = _open_svg(svg)[0]
        pix = page.get_pixmap(matrix=pymupdf.Matrix(width / page.rect.width, height / page.rect.height))
        pix.set_dpi(dpi, dpi)
        path = folder / (name.removesuffix(".svg") + ".png")
        pix.save(path)
        written.append(path)
    return written


def write_svgs(t: Tables, title: str, bleed: float, folder: Path) -> list[Path]:
    """Write every distinct picture as an SVG file sized in millimetres with its bleed; returns the files."""
    written = []
    for name, svg in card_files(t, title, bleed).items():
        (folder / name).write_text(svg, encoding="utf-8")
        written.append(folder / name)
    return written


def file_names(t: Tables, suffix: str) -> list[str]:
    """The names of the files :func:`write_pngs` (``.png``) or :func:`write_svgs` (``.svg``) writes."""
    d = t.deck
    names = [face_filename(d, f) for f in range(len(d.face_names))] + [f"{BACK}.svg", f"{LEGEND}.svg"]
    return [n.removesuffix(".svg") + suffix for n in names]

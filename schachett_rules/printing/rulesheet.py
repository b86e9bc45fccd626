"""The rules sheet: the site's How to play lesson, laid out on A4 or US Letter pages as a PDF.

The lesson (:mod:`schachett_rules.site.learn`) is turned into HTML and flowed onto pages by
PyMuPDF's Story, with its trick drawings placed as vector SVG; every page carries a footer with
the ruleset and its page number. The long sample game stays on the site.
"""

from __future__ import annotations

import html
import io

import markdown
import pymupdf

from ..site.lesson_model import Lesson, Picture, SiteOnly, Table
from .layout import PAPERS

PT = 72 / 25.4
MARGIN = 16.0                                     # millimetres on every side
PAGE_BREAK = "<page-break>"
FOOTER = "Schachett, our reconstruction (ruleset {ruleset}) · page {page} of {pages}"
CSS = """
body { font-family: sans-serif; font-size: 9.5pt; line-height: 1.3; }
h1 { font-size: 18pt; margin: 0 0 4pt 0; }
h2 { font-size: 13pt; margin: 10pt 0 3pt 0; color: #1f4d38; }
h3 { font-size: 11pt; margin: 6pt 0 2pt 0; }
p { margin: 2pt 0 4pt 0; }
blockquote { margin: 2pt 0 4pt 10pt; font-size: 8pt; color: #444; }
table { border-collapse: collapse; margin: 3pt 0 5pt 0; }
td, th { border: 0.5pt solid #999; padding: 1.5pt 4pt; font-size: 8.5pt; text-align: left; }
th { background-color: #e8edf3; }
.pic { text-align: center; margin: 2pt 0; }
table.fig, table.fig td { border: none; }
table.fig td.why { font-size: 8.5pt; padding: 24pt 0 0 6pt; }
"""


def _table_html(tab: Table) -> str:
    def cell(s: str) -> str:
        return markdown.markdown(html.escape(s, quote=False)).removeprefix("<p>").removesuffix("</p>")
    head = "".join(f"<th>{cell(h)}</th>" for h in tab.header)
    rows = "".join("<tr>" + "".join(f"<td>{cell(c)}</td>" for c in row) + "</tr>" for row in tab.rows)
    return f"<table><tr>{head}</tr>{rows}</table>"


MIN_ROOM = 30.0                                   # points: less room than this left on a page starts the next
TABLE_ROW = 14.0                                  # points a table row takes, at the most
HEADING_KEEP = 80.0                               # points: a heading and four lines or so stay together
PIC_WIDTH, CARD_WIDTH = 190.0, 40.0               # points: a trick drawing, a card in the row of cards


def _svg_height(svg: str, width: float) -> float:
    """The height a drawing takes at ``width`` points, from its viewBox."""
    box = svg.split('viewBox="', 1)[1].split('"', 1)[0].split()
    return width * float(box[3]) / float(box[2])


def _is_why(block) -> bool:
    """Whether a block is the engine's reasons for a trick's cards, which print beside the trick's picture."""
    return isinstance(block, str) and block.startswith("*Why:*")


def lesson_chunks(lesson: Lesson, archive: pymupdf.Archive) -> list[tuple[str, float]]:
    """The printable parts of the lesson as HTML pieces, each with the height it must keep whole (0: may break).

    A drawing is a piece of its own, so that it moves whole to the next page rather than shrink
    into what is left of this one; the drawings go into ``archive``.
    """
    out = [(f"<h1>{html.escape(lesson.title)}</h1>"
            "<p>A card game of about 1888 for four players, crossing trick-taking with chess. This sheet teaches "
            f"our reconstruction (the ruleset <i>{lesson.ruleset}</i>); the quoted rules under each part are the "
            "rule file's own words, with the sections of the manual they rest on.</p>", 0.0)]
    text: list[str] = []

    def flush() -> None:
        if text:
            # a piece that opens with a heading keeps the heading with a few lines after it
            keep = HEADING_KEEP if text[0].startswith(("<h2", "<h3")) else 0.0
            out.append(("\n".join(text).replace('<a href="', '<span data-href="').replace("</a>", "</span>"), keep))
            text.clear()

    for part in lesson.parts:
        if not part.print_too:
            continue
        flush()
        text.append(f"<h2>{html.escape(part.title)}</h2>")
        blocks = [b for b in part.blocks if not isinstance(b, SiteOnly)]
        for i, block in enumerate(blocks):
            if i and isinstance(blocks[i - 1], Picture) and _is_why(block):
                continue                                 # set beside its picture
            if isinstance(block, Picture):
                flush()
                name = block.name.replace("/", "-")
                archive.add(block.svg.encode("utf-8"), name)
                img = f'<img src="{name}" width="{PIC_WIDTH:g}"/>'
                after = blocks[i + 1] if i + 1 < len(blocks) else None
                if _is_why(after):
                    # a trick and the reasons for its cards side by side: the page keeps room for the words
                    why = markdown.markdown(str(after)).removeprefix("<p>").removesuffix("</p>")
                    out.append((f'<table class="fig" style="width:100%"><tr><td style="width:{PIC_WIDTH + 8:g}pt">'
                                f'{img}</td><td class="why">{why}</td></tr></table>',
                                _svg_height(block.svg, PIC_WIDTH) + 10))
                else:
                    out.append((f'<p class="pic">{img}</p>', _svg_height(block.svg, PIC_WIDTH) + 6))
            elif isinstance(block, Table):
                if text and not text[-1].startswith("<h"):
                    text.append(_table_html(block))      # a table is kept whole with the words that lead to it
                    lead = text.pop(-2)
                    body = text.pop()
                    flush()
                    out.append((lead + body, 34.0 + TABLE_ROW * (len(block.rows) + 1)))
                else:
                    text.append(_table_html(block))
            elif isinstance(block, tuple) and block and block[0] == "cards":
                flush()
                imgs = []
                for pic in block[1]:
                    name = pic.name.replace("/", "-")
                    archive.add(pic.svg.encode("utf-8"), name)
                    imgs.append(f'<img src="{name}" width="{CARD_WIDTH:g}"/> ')
                out.append(('<p class="pic">' + "".join(imgs) + "</p>", _svg_height(block[1][0].svg, CARD_WIDTH) + 6))
            else:
                if str(block).startswith("#"):
                    flush()
                text.append(markdown.markdown(str(block)))
    flush()
    return keep_headings(out)


HEADING_ROOM = 30.0                               # points a heading takes, with the space above it


def keep_headings(chunks: list[tuple[str, float]]) -> list[tuple[str, float]]:
    """Join a piece that is a heading, or ends in one, to the piece after it, so no heading ends a page.

    >>> keep_headings([("<h3>B</h3>", 80.0), ("<p>b</p><table></table>", 60.0), ("<p>c</p>", 0.0)])
    [('<h3>B</h3><p>b</p><table></table>', 90.0), ('<p>c</p>', 0.0)]
    """
    out: list[tuple[str, float]] = []
    pending: tuple[str, float] | None = None
    for piece, keep in chunks:
        if pending is not None:
            head, head_keep = pending
            # the joined piece must find room for the heading and the start of what follows it
            piece, keep = head + piece, max(head_keep, HEADING_ROOM + (keep or HEADING_KEEP - HEADING_ROOM))
            pending = None
        if piece.rstrip().endswith(("</h1>", "</h2>", "</h3>")):
            pending = (piece, keep)
            continue
        out.append((piece, keep))
    if pending is not None:
        out.append(pending)
    return out


def flow_pdf(chunks: list[tuple[str, float]], archive: pymupdf.Archive, paper: str, css: str, footer: str,
             metadata: dict) -> bytes:
    """Flow HTML pieces onto pages of ``paper``; a piece with a height to keep moves whole to a new page.

    ``footer`` is formatted with ``page`` and ``pages`` at the foot of every page.
    """
    w, h = (v * PT for v in PAPERS[paper])
    buf = io.BytesIO()
    writer = pymupdf.DocumentWriter(buf)
    page_rect = pymupdf.Rect(0, 0, w, h)
    x0, y0, x1, y1 = MARGIN * PT, MARGIN * PT, w - MARGIN * PT, h - (MARGIN + 4) * PT
    device, y = writer.begin_page(page_rect), y0
    for piece, keep in chunks:
        # a new page when asked, when a piece to keep whole does not fit, or when hardly a line is left: MuPDF
        # lays a story in a box with no height below the page, where it is lost
        if piece == PAGE_BREAK or (keep and y + keep > y1 and y > y0) or y1 - y < MIN_ROOM:
            writer.end_page()
            device, y = writer.begin_page(page_rect), y0
            if piece == PAGE_BREAK:
                continue
        story = pymupdf.Story(html=piece, user_css=css, archive=archive)
        while True:
            more, filled = story.place(pymupdf.Rect(x0, y, x1, y1))
            story.draw(device)
            y = pymupdf.Rect(filled).y1 + 2
            if not more:
                break
            writer.end_page()
            device, y = writer.begin_page(page_rect), y0
    writer.end_page()
    writer.close()
    doc = pymupdf.open("pdf", buf.getvalue())
    for i, page in enumerate(doc, 1):
        text = footer.format(page=i, pages=doc.page_count)
        width = pymupdf.get_text_length(text, fontname="helv", fontsize=7.5)
        page.insert_text(((w - width) / 2, h - MARGIN * PT / 2), text, fontname="helv", fontsize=7.5,
                         color=(0.4, 0.4, 0.4))
    doc.set_metadata(metadata)
    return doc.tobytes(garbage=4, deflate=True)


def rules_pdf(lesson: Lesson, paper: str) -> bytes:
    """The rules sheet as PDF bytes, on ``paper`` (a4 or letter)."""
    archive = pymupdf.Archive()
    chunks = lesson_chunks(lesson, archive)
    return flow_pdf(chunks, archive, paper, CSS, FOOTER.replace("{ruleset}", lesson.ruleset),
                    {"title": f"{lesson.title}: the rules sheet", "creator": "schachett rules print",
                     "subject": f"ruleset {lesson.ruleset}, {paper} paper"})

"""The six chess pieces drawn as shapes, the way a chess diagram draws them.

A font's chess glyphs differ from one machine to the next (and one renderer's
black King is outlined like the white one), so the cards draw their pieces as
paths: a white piece is ivory with a dark outline, a black piece solid dark with
ivory detail lines. Each piece sits on a plinth in a 40 × 40 box, centred on
x = 20 and standing on y = 37.

>>> svg = piece_svg(0, 45, 55, 40, white=False, ink="#2e2d32")
>>> 'class="piece king black"' in svg and 'fill="#2e2d32"' in svg
True
"""

from __future__ import annotations

NAMES = ("king", "queen", "rook", "bishop", "knight", "pawn")
PALE = "#fffcf3"
PLINTH = "M9 37H31V34.6C31 33 30 32 28.4 32H11.6C10 32 9 33 9 34.6Z"
# Each piece: its filled parts, back to front, then the detail lines drawn over them.
SHAPES: tuple[tuple[tuple[str, ...], str], ...] = (
    (("M18.7 1.8H21.3V4.4H23.9V7H21.3V10.4H18.7V7H16.1V4.4H18.7Z",
      "M11.5 32C8.2 27.5 6.6 22.4 8.6 18.6C10.7 14.8 15.4 14.4 17.8 17C18.9 18.2 19.6 19.5 20 20.8"
      "C20.4 19.5 21.1 18.2 22.2 17C24.6 14.4 29.3 14.8 31.4 18.6C33.4 22.4 31.8 27.5 28.5 32Z",
      "M20 22C17.9 18.2 17.5 13.8 20 10.6C22.5 13.8 22.1 18.2 20 22Z"),
     "M12.6 27.8C17.4 26.2 22.6 26.2 27.4 27.8M11.2 24.6C17 22.6 23 22.6 28.8 24.6"),
    (("M11.5 32L8.4 14.5L14.2 23L14.3 11.4L18.4 22.2L20 9.6L21.6 22.2L25.7 11.4L25.8 23L31.6 14.5L28.5 32Z",
      "M8.4 14.5m-2.3 0a2.3 2.3 0 1 0 4.6 0a2.3 2.3 0 1 0-4.6 0",
      "M14.3 11.4m-2.3 0a2.3 2.3 0 1 0 4.6 0a2.3 2.3 0 1 0-4.6 0",
      "M20 9.6m-2.3 0a2.3 2.3 0 1 0 4.6 0a2.3 2.3 0 1 0-4.6 0",
      "M25.7 11.4m-2.3 0a2.3 2.3 0 1 0 4.6 0a2.3 2.3 0 1 0-4.6 0",
      "M31.6 14.5m-2.3 0a2.3 2.3 0 1 0 4.6 0a2.3 2.3 0 1 0-4.6 0"),
     "M12 28.4C17.2 26.8 22.8 26.8 28 28.4"),
    (("M13.2 32L14.6 17.5H25.4L26.8 32Z",
      "M11.4 17.5V7.5H15.2V10.8H18.2V7.5H21.8V10.8H24.8V7.5H28.6V17.5Z"),
     "M14.4 20.5H25.6M13.8 28.8H26.2"),
    (("M14.6 32C16 28.4 17.2 26.2 17.6 24H22.4C22.8 26.2 24 28.4 25.4 32Z",
      "M15.2 24.6V22.2H24.8V24.6Z",
      "M20 6.4C25.6 10 27.6 15 26 19C25 21.3 22.9 22.2 20 22.2C17.1 22.2 15 21.3 14 19C12.4 15 14.4 10 20 6.4Z",
      "M20 5m-2.2 0a2.2 2.2 0 1 0 4.4 0a2.2 2.2 0 1 0-4.4 0"),
     "M22.2 11L18.4 16.6"),
    (("M12.6 32C12.6 27 15 24 18.2 21.4C15.6 22.6 12.8 23.6 10.6 22.6C8.2 21.5 7.7 19 9.3 16.8"
      "C11.8 13.4 14.6 10.6 17.2 8.6L17.8 4.6L20.6 7.6C27.4 8.2 31.2 14.2 30.8 22C30.6 26 29.6 29 29.2 32Z",),
     "M15.6 13.2h.1M10.4 19.6h.1M22.6 9.8C26.4 13 27.6 18 27 24"),
    (("M15 32C15 26.6 17.2 23.2 18 20.4H22C22.8 23.2 25 26.6 25 32Z",
      "M14.4 20.8C14.4 18.6 16.6 17.6 20 17.6C23.4 17.6 25.6 18.6 25.6 20.8Z",
      "M20 12m-5.2 0a5.2 5.2 0 1 0 10.4 0a5.2 5.2 0 1 0-10.4 0"),
     ""),
)


def piece_svg(piece: int, cx: float, cy: float, size: float, white: bool, ink: str, pale: str = PALE) -> str:
    """Chess piece ``piece`` (0 King … 5 pawn) as an SVG group ``size`` units tall, centred on (cx, cy).

    A white piece is ``pale`` with ``ink`` outlines; a black piece is solid ``ink`` with ``pale`` detail lines.
    """
    parts, detail = SHAPES[piece]
    scale = size / 40
    fill, line = (pale, ink) if white else (ink, pale)
    shapes = "".join(f'<path d="{d}"/>' for d in (*parts, PLINTH))
    details = (f'<path d="{detail}" fill="none" stroke="{line}" stroke-width="1.3" stroke-linecap="round"/>'
               if detail else "")
    return (f'<g class="piece {NAMES[piece]} {"white" if white else "black"}" '
            f'transform="translate({cx - 20 * scale:.2f} {cy - 20 * scale:.2f}) scale({scale:.4f})">'
            f'<g fill="{fill}" stroke="{ink}" stroke-width="1.5" stroke-linejoin="round">{shapes}</g>{details}</g>')

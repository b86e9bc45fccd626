"""SVG drawings of the cards, of a whole deck, and of a trick on the table.

Everything is drawn from a compiled :class:`~schachett_rules.language.cards.Deck`, so a deck
declared with other colours, kinds or faces draws as well as the printed one. White
and black are the two colours of chess and nothing more: a white card has an ivory
face and dark ink, a black card a charcoal face and ivory ink. Officers and pawns
show their chess piece on an ivory medallion, drawn the way a chess diagram draws it
(outlined for white, solid for black) and drawn as shapes (:mod:`.pieces`), not as a
font's glyphs, which one machine draws solid and another outlined; pawns add their
number; suit cards show their Roman numeral over a row of diamond pips. The corner index
is the card's notation (``wT``, ``s8``, ``wIV``) as records write it, large and tight in
the corner so that it reads in a fanned hand, over the medallion in small (or a pip); the
same index, turned, sits in the opposite corner. Pure inline SVG: no fonts or images are
fetched, and every drawing is standalone XML with a ``<title>``.

>>> from schachett_rules.rules.loader import load
>>> deck = Deck.from_clause(load("original").clause("deck"))
>>> svg = card_svg(deck, deck.face("wT"))
>>> "<title>white Rook (wT)</title>" in svg, 'class="piece rook white"' in svg
(True, True)
>>> face_filename(deck, deck.face("sIV"))
's-IV.svg'
"""

from __future__ import annotations

import colorsys
import math
import re
import textwrap
from xml.sax.saxutils import escape

from ..language.cards import Deck
from ..language.syntax import roman_to_int
from .pieces import PALE, piece_svg

W, H = 90, 126                      # a card, in drawing units (width × 1.4)
TEXT_FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"
SERIF_FONT = "DejaVu Serif, Georgia, Times New Roman, serif"
IVORY, CHARCOAL = "#fbf7ec", "#2e2d32"
WIN = "#f2b705"                     # the winner's frame: gold, clear on felt, ivory and charcoal
FELT, FELT_EDGE, FELT_INK = "#2f6a4f", "#1f4d38", "#f4efdf"

# colour name -> (face, ink, edge, dark face, white chess pieces)
PALETTES = {
    "white": (IVORY, "#24211d", "#9c937f", False, True),
    "black": (CHARCOAL, "#f3ecda", "#5b5961", True, False),
    "red": ("#fbeceb", "#9b1c1c", "#c48a84", False, False),
    "green": ("#ecf5ee", "#1d5a31", "#86ad91", False, False),
    "blue": ("#eaf0fa", "#1c3d7a", "#8aa1c8", False, False),
    "yellow": ("#fbf5d9", "#6b5600", "#c2b26a", False, False),
    "violet": ("#f3ecf8", "#5a2a7a", "#ad93c0", False, False),
    "orange": ("#fdf0e3", "#8a4300", "#d0a37a", False, False),
}
PIECES = {"king": 0, "könig": 0, "dame": 1, "queen": 1, "rook": 2, "turm": 2, "castle": 2,
          "bishop": 3, "läufer": 3, "knight": 4, "springer": 4, "pawn": 5, "bauer": 5}
INDEX_X, INDEX_SIZE, INDEX_ROOM = 6, 16, 27   # the corner index: where, how large, and how wide at most


def _a(value) -> str:
    """Text escaped for XML content and double-quoted attributes."""
    return escape(str(value), {'"': "&quot;"})


def _n(x: float) -> str:
    """A coordinate, short: one decimal at most."""
    return f"{x:.1f}".rstrip("0").rstrip(".")


def _text(x, y, s, size, fill, font=TEXT_FONT, anchor="middle", extra="") -> str:
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-family="{font}" font-size="{_n(size)}" fill="{fill}" '
            f'text-anchor="{anchor}"{extra}>{_a(s)}</text>')


def _width(s: str, size: float) -> float:
    """Roughly how wide ``s`` is set at ``size`` in a bold face (DejaVu's proportions)."""
    em = sum(0.38 if ch in "Iijl1.,:;'|! " else 0.95 if ch in "MWmw" else 0.78 if ch.isupper()
             else 0.7 if ch.isdigit() else 0.62 for ch in s)
    return em * size


def _fit(s: str, size: float, room: float) -> float:
    """A font size no larger than ``size`` at which ``s`` fits in ``room`` units."""
    return min(size, room * size / max(_width(s, size), 1e-9))


def _palette(deck: Deck, colour: int) -> tuple:
    """The colours a deck colour is drawn in: by its name, else the chess pair, else a hue."""
    named = PALETTES.get(deck.colour_names[colour].lower())
    if named:
        return named
    if colour < 2:                  # an unnamed pair of colours plays the chess pair
        return PALETTES["white" if colour == 0 else "black"]
    hue = (colour * 0.618034) % 1   # further colours: hues spread by the golden ratio

    def hexa(light: float, sat: float) -> str:
        return "#" + "".join(f"{round(v * 255):02x}" for v in colorsys.hls_to_rgb(hue, light, sat))
    return hexa(0.95, 0.6), hexa(0.3, 0.65), hexa(0.65, 0.35), False, False


def face_label(deck: Deck, face: int) -> str:
    """The face in words: ``white Rook (wT)``, ``black pawn 8 (s8)``."""
    title = deck.face_title[face]
    if not title:
        kind = deck.kind_titles[deck.kinds.index(deck.face_kind[face])]
        title = f"{kind} {deck.face_symbol[face]}"
    return f"{deck.colour_names[deck.face_colour[face]]} {title} ({deck.face_names[face]})"


def _piece(deck: Deck, face: int) -> int | None:
    """Which chess piece (0 King … 5 pawn) a face shows, from its title or its kind."""
    kind = deck.face_kind[face]
    for word in (deck.face_title[face], kind, deck.kind_titles[deck.kinds.index(kind)]):
        if word.lower() in PIECES:
            return PIECES[word.lower()]
    return None


def _officer(deck: Deck, face: int) -> bool:
    """Whether a face is drawn as an officer (royal, or of a kind called officer) though no piece fits."""
    kind = deck.face_kind[face]
    return deck.face_royal[face] or "officer" in (kind + deck.kind_titles[deck.kinds.index(kind)]).lower()


def _pips(n: int, cy: float, ink: str) -> list[str]:
    """``n`` diamonds in centred rows of at most five, the rows as even as they go (more when many)."""
    rows = math.ceil(n / 5) if n <= 15 else 3
    per_row = math.ceil(n / rows)
    step = min(11.0, 62 / per_row, 25 / rows)
    r, out = step * 0.36, []
    for row in range(rows):
        in_row = n // rows + (row < n % rows)
        for col in range(in_row):
            x, y = W / 2 + (col - (in_row - 1) / 2) * step, cy + (row - (rows - 1) / 2) * step * 1.1
            out.append(f'<path d="M{_n(x)} {_n(y - r)}L{_n(x + r)} {_n(y)}L{_n(x)} {_n(y + r)}L{_n(x - r)} {_n(y)}Z" '
                       f'fill="{ink}"/>')
    return out


def _medallion(cy: float, r: float, pal: tuple, piece: int | None = None, size: float = 0,
               letter: str = "") -> list[str]:
    """An ivory disc holding a chess piece (drawn as shapes) or, when no piece fits, a letter."""
    face, ink, _, dark, white_pieces = pal
    disc_ink = face if dark else ink
    out = [f'<circle cx="{W / 2}" cy="{_n(cy)}" r="{_n(r)}" fill="{PALE}" stroke="{disc_ink}" stroke-width="1.2"/>',
           f'<circle cx="{W / 2}" cy="{_n(cy)}" r="{_n(r - 3)}" fill="none" stroke="{disc_ink}" '
           f'stroke-width="0.6" opacity="0.45"/>']
    if piece is not None:
        out.append(piece_svg(piece, W / 2, cy - size * 0.02, size, white_pieces, disc_ink))
    else:
        out.append(_text(W / 2, cy + size * 0.34, letter, size, disc_ink, SERIF_FONT, extra=' font-weight="bold"'))
    return out


def _legend(title: str, y: float, ink: str) -> str:
    """A face's title in small spaced capitals under its picture."""
    t = title.upper()
    return _text(W / 2, y, t, _fit(t, 8, 60 - 1.2 * len(t)), ink, extra=' letter-spacing="1.2"')


def _index(deck: Deck, face: int, pal: tuple, pips: bool) -> str:
    """The corner index: the card's notation over a small sign of its kind (its medallion, or a pip).

    The notation's colour letter is set small and its symbol large, so that the symbol stays in
    the narrow strip a fanned hand leaves in view (the face colour already tells the colour); the
    same index, turned, sits in the opposite corner.
    """
    bg, ink, _, dark, white_pieces = pal
    name, symbol = deck.face_names[face], deck.face_symbol[face]
    code = name.removesuffix(symbol) if name.endswith(symbol) else ""
    code_size = INDEX_SIZE * 0.55
    size = _fit(symbol if code else name, INDEX_SIZE, INDEX_ROOM - _width(code, code_size))
    base = 6 + INDEX_SIZE * 0.76
    parts = (f'<tspan font-size="{_n(code_size)}">{_a(code)}</tspan><tspan font-size="{_n(size)}">{_a(symbol)}</tspan>'
             if code else _a(name))
    out = [f'<text x="{INDEX_X}" y="{_n(base)}" font-family="{TEXT_FONT}" font-size="{_n(size)}" font-weight="bold" '
           f'fill="{ink}" class="index-name">{parts}</text>']
    piece, cx, cy = _piece(deck, face), INDEX_X + 7, base + 10
    if piece is not None:                  # the medallion in small, so that the colour reads as on the face
        disc_ink = bg if dark else ink
        out.append(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="7.2" fill="{PALE}" stroke="{disc_ink}" stroke-width="0.7"/>')
        out.append(piece_svg(piece, cx, cy - 0.2, 11.5, white_pieces, disc_ink))
    elif pips:
        out.append(f'<path d="M{_n(cx)} {_n(cy - 4)}L{_n(cx + 3.4)} {_n(cy)}L{_n(cx)} {_n(cy + 4)}L{_n(cx - 3.4)} '
                   f'{_n(cy)}Z" fill="{ink}" class="index-pip"/>')
    return "".join(out)


def _card_body(deck: Deck, face: int, printed: bool = False) -> str:
    """The elements of one card, drawn in a W × H box at the origin.

    ``printed`` leaves out the drawn edge: a printed card's edge is where it is cut, and its face
    colour runs on into the bleed.
    """
    pal = _palette(deck, deck.face_colour[face])
    bg, ink, edge, dark, white_pieces = pal
    symbol, title, value = deck.face_symbol[face], deck.face_title[face], deck.face_value[face]
    out = [] if printed else [f'<rect x="0.5" y="0.5" width="{W - 1}" height="{H - 1}" rx="7" fill="{bg}" '
                              f'stroke="{edge}"/>']
    out.append(f'<rect x="4.5" y="4.5" width="{W - 9}" height="{H - 9}" rx="4.5" fill="none" stroke="{ink}" '
               f'stroke-width="0.6" opacity="0.35"/>')
    piece = _piece(deck, face)
    pips = 0
    if piece == 5:                                       # a pawn: its piece, and its number as printed
        out += _medallion(50, 22, pal, piece, 32)
        out.append(_text(W / 2, 99, symbol, _fit(symbol, 24, 46), ink, SERIF_FONT, extra=' font-weight="bold"'))
    elif piece is not None or _officer(deck, face):      # an officer: its piece, or its letter if no piece fits
        out += _medallion(57, 26, pal, piece, 38, letter=symbol) if piece is not None else \
            _medallion(57, 26, pal, None, _fit(symbol, 28, 38), letter=symbol)
        out += [_legend(title, 98, ink)] if title else []
    else:                                                # a numbered card: its numeral over its pips
        numeral = roman_to_int(symbol) == value > 0 or symbol.isdigit()
        pips = value if numeral and value <= 45 else 0
        size = _fit(symbol, 28, 60)
        out.append(_text(W / 2, (57 if pips else 66) + size * 0.35, symbol, size, ink, SERIF_FONT,
                         extra=' font-weight="bold"'))
        out += _pips(pips, 85, ink) if pips else [_legend(title, 97, ink)] if title else []
    index = _index(deck, face, pal, bool(pips))
    out.append(f'<g class="index">{index}</g>')
    out.append(f'<g class="index" transform="rotate(180 {W / 2} {H / 2})">{index}</g>')
    return "".join(out)


def _card_group(deck: Deck, face: int, x: float, y: float, cls: str = "card") -> str:
    """A card placed at (x, y) inside a larger picture, with its own title."""
    return (f'<g class="{_a(cls)}" data-card="{_a(deck.face_names[face])}" '
            f'transform="translate({_n(x)} {_n(y)})"><title>{_a(face_label(deck, face))}</title>'
            f'{_card_body(deck, face)}</g>')


def _svg(width: float, height: float, title: str, body: str, view: str | None = None) -> str:
    view = view or f"0 0 {_n(width)} {_n(height)}"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" viewBox="{view}" '
            f'role="img"><title>{_a(title)}</title>{body}</svg>\n')


def card_svg(deck: Deck, face: int, width: int = 90) -> str:
    """One card as a standalone SVG, ``width`` pixels wide (the height is 1.4 times that).

    >>> from schachett_rules.rules.loader import load
    >>> deck = Deck.from_clause(load("original").clause("deck"))
    >>> svg = card_svg(deck, deck.face("s8"), width=180)
    >>> 'width="180" height="252"' in svg, "<title>black pawn 8 (s8)</title>" in svg
    (True, True)
    """
    if not 0 <= face < len(deck.face_names):
        raise ValueError(f"face {face} is not in the deck (faces 0..{len(deck.face_names) - 1})")
    return _svg(width, width * H / W, face_label(deck, face), _card_body(deck, face), f"0 0 {W} {H}")


def face_filename(deck: Deck, face: int) -> str:
    """A safe file name for a face: colour code, a hyphen, the symbol (``w-T.svg``)."""
    safe = lambda s: re.sub(r"[^A-Za-z0-9_]+", "_", s) or "_"
    return f"{safe(deck.colours[deck.face_colour[face]])}-{safe(deck.face_symbol[face])}.svg"


def deck_sheet_svg(deck: Deck, columns: int | None = None) -> str:
    """Every face of the deck in one picture: a row per colour and kind (wrapped after ``columns``).

    >>> from schachett_rules.rules.loader import load
    >>> sheet = deck_sheet_svg(Deck.from_clause(load("original").clause("deck")))
    >>> sheet.count('class="card"'), "black suit cards" in sheet
    (46, True)
    """
    rows = []
    for c, cname in enumerate(deck.colour_names):
        for kind, ktitle in zip(deck.kinds, deck.kind_titles):
            faces = [f for f in range(len(deck.face_names)) if deck.face_colour[f] == c and deck.face_kind[f] == kind]
            rows.append((f"{cname} {ktitle}{'' if ktitle.endswith('s') else 's'}", faces))
    cols = columns or max(len(f) for _, f in rows)
    gap, margin, head, foot = 12, 20, 20, 14
    width = 2 * margin + cols * (W + gap) - gap
    body, y = [], margin
    for label, faces in rows:
        body.append(_text(margin, y + 13, label, 12, "#3a362f", anchor="start",
                          extra=' font-weight="bold" letter-spacing="0.6"'))
        for start in range(0, len(faces), cols):
            y += head if start == 0 else foot + gap
            for i, f in enumerate(faces[start:start + cols]):
                x = margin + i * (W + gap)
                body.append(_card_group(deck, f, x, y))
                copies = bin(deck.face_cards[f]).count("1")
                if copies > 1:
                    body.append(_text(x + W / 2, y + H + 12, f"×{copies}", 10, "#5c564b"))
            y += H
        y += foot + gap
    height = y - gap + margin - foot + 4
    body.insert(0, f'<rect width="100%" height="100%" fill="#e9e5da"/>')
    return _svg(width, height, f"The deck: {len(deck.card_face)} cards, {len(deck.face_names)} faces", "".join(body))


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def trick_svg(deck: Deck, cards: list[tuple[int, int]], leader: int, winner: int | None, n_seats: int,
              labels: dict[int, str] | None = None, caption: str = "") -> str:
    """A trick laid on the table: ``cards`` are (seat, face) in play order; the winner's card is
    framed in gold; each card names its seat (:func:`~schachett_rules.rules.seating.seat_name`, or
    ``labels[seat]``), its place in play, who led and who won.
    Seat 0 sits at the bottom and the seats follow clockwise; four seats sit round a square table.

    >>> from schachett_rules.rules.loader import load
    >>> deck = Deck.from_clause(load("original").clause("deck"))
    >>> svg = trick_svg(deck, [(1, deck.face("w7")), (2, deck.face("wT")), (3, deck.face("s2")), (0, deck.face("w5"))],
    ...                 leader=1, winner=2, n_seats=4, labels={3: "dealer"}, caption="wT takes the trick")
    >>> svg.count('class="card winner"'), "dealer" in svg, "2nd · wins" in svg
    (1, True, True)
    """
    labels = labels or {}
    if n_seats < 1 or any(not 0 <= s < n_seats for s, _ in cards):
        raise ValueError(f"every seat must lie in 0..{n_seats - 1}")
    if any(not 0 <= f < len(deck.face_names) for _, f in cards):
        raise ValueError(f"every face must lie in 0..{len(deck.face_names) - 1}")
    square = n_seats == 4
    radius = 116 if square else max(100, 72 / math.sin(math.pi / n_seats)) if n_seats > 1 else 0
    body, points, seen = [], [], {}
    for order, (seat, face) in enumerate(cards, 1):
        angle = math.pi / 2 + 2 * math.pi * seat / n_seats
        dx, dy = math.cos(angle), math.sin(angle)
        seen[seat] = seen.get(seat, -1) + 1
        shift = 14 * seen[seat]                 # a seat playing twice (never in a legal trick) fans out
        cx, cy = radius * dx + shift, radius * dy + shift
        won = seat == winner
        if won:
            body.append(f'<rect x="{_n(cx - W / 2 - 5)}" y="{_n(cy - H / 2 - 5)}" width="{W + 10}" height="{H + 10}" '
                        f'rx="10" fill="none" stroke="{WIN}" stroke-width="4" class="winner-frame"/>')
        body.append(f'<rect x="{_n(cx - W / 2 + 2)}" y="{_n(cy - H / 2 + 3)}" width="{W}" height="{H}" rx="7" '
                    f'fill="#000" opacity="0.25"/>')
        body.append(_card_group(deck, face, cx - W / 2, cy - H / 2, cls="card winner" if won else "card"))
        lines = [labels.get(seat, f"seat {seat}"),
                 _ordinal(order) + (" · leads" if seat == leader else "") + (" · wins" if won else "")]
        if abs(dx) > 0.35:                      # beside the card, level with its outer end
            anchor, lx, top = "start" if dx > 0 else "end", cx + math.copysign(W / 2 + 12, dx), cy + dy * (H / 2 - 16) - 4
        else:                                   # above or below it
            anchor, lx, top = "middle", cx, cy + H / 2 + 24 if dy > 0 else cy - H / 2 - 26
        fill = WIN if won else FELT_INK
        body.append(_text(lx, top, lines[0], 13, fill, anchor=anchor, extra=' font-weight="bold" class="seat-label"'))
        body.append(_text(lx, top + 15, lines[1], 11, fill, anchor=anchor))
        text_w = max(_width(lines[0], 13), _width(lines[1], 11) * 0.9)
        box_x = {"start": (lx, lx + text_w), "end": (lx - text_w, lx)}.get(anchor, (lx - text_w / 2, lx + text_w / 2))
        points += [(x, y) for x in box_x for y in (top - 12, top + 18)]
        points += [(cx + sx * (W / 2 + 6), cy + sy * (H / 2 + 6)) for sx in (-1, 1) for sy in (-1, 1)]
    xs, ys = [x for x, _ in points] or [0], [y for _, y in points] or [0]
    ox, oy = -(min(xs) + max(xs)) / 2, -(min(ys) + max(ys)) / 2      # centre the cards on the table
    reach = max((max(abs(x + ox), abs(y + oy)) if square else math.hypot(x + ox, y + oy) for x, y in points), default=0)
    table = max(reach + 12, 120)
    felt = (f'<rect x="{_n(-table)}" y="{_n(-table)}" width="{_n(2 * table)}" height="{_n(2 * table)}" rx="22"'
            if square else f'<circle cx="0" cy="0" r="{_n(table)}"') + f' fill="{FELT}" stroke="{FELT_EDGE}" stroke-width="6"/>'
    lines = textwrap.wrap(caption, max(20, int(2 * table / 8.2)))
    half = table + 16
    height = 2 * half + 20 * len(lines) + (8 if lines else 0)
    text = "".join(_text(0, half + 8 + 20 * (i + 1) - 4, s, 15, "#2b2822") for i, s in enumerate(lines))
    page = f'<rect x="{_n(-half)}" y="{_n(-half)}" width="{_n(2 * half)}" height="{_n(height)}" fill="#fbfaf6"/>'
    title = caption or f"A trick at a table of {n_seats}"
    cards_g = f'<g transform="translate({_n(ox)} {_n(oy)})">{"".join(body)}</g>'
    return _svg(2 * half, height, title, page + felt + cards_g + text,
                f"{_n(-half)} {_n(-half)} {_n(2 * half)} {_n(height)}")

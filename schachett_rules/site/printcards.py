"""The cards at print size: each face with its bleed, the back they share, and a legend card.

A printed card is poker size, 63 × 88 mm, drawn from the same design as the site's cards
(:mod:`.svgcards`); only its edge changes: the card is cut, not drawn, so its face colour runs
on past the cut into the bleed. The card's 90 × 126 drawing is fitted to 63 × 88 mm (squeezed by
0.2 % in height, which nobody sees), and the bleed is added on every side. The back is one
design for every card: a chequered ground that carries on into the bleed, so a back printed a
millimetre off still looks the same, and a medallion with the white and the black King. The
legend card gives the ranking and the points and says in words what each kind takes, all of it
read from the compiled tables.

>>> from schachett_rules.kernel.compiler import tables_for
>>> t = tables_for("original")
>>> svg = face_print_svg(t.deck, t.face("wK"), bleed=3)
>>> 'width="69mm" height="94mm"' in svg, 'data-bleed-mm="3"' in svg
(True, True)
>>> "D 12" in " ".join(legend_lines(t))
True
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from ..language.cards import Deck
from .pieces import PALE, piece_svg
from .svgcards import CHARCOAL, IVORY, H, SERIF_FONT, W, _a, _card_body, _fit, _n, _palette, _text, \
    _width, face_label

if TYPE_CHECKING:
    from ..kernel.tables import Tables

CARD_MM = (63.0, 88.0)                           # poker size
BACK, BACK_CHECK, BACK_LINE = "#2f5d50", "#386b5c", "#e9dfc2"
INK = "#24211d"


def _mm(x: float) -> str:
    """A length to the thousandth, without trailing zeros."""
    return f"{x:.3f}".rstrip("0").rstrip(".")


def _print_svg(title: str, background: str, body: str, bleed: float, role: str) -> str:
    """A drawing in card units made a print file: sized in millimetres, its background run into the bleed."""
    if not bleed >= 0:
        raise ValueError(f"the bleed must be 0 mm or more, not {bleed}")
    bx, by = bleed * W / CARD_MM[0], bleed * H / CARD_MM[1]
    w_mm, h_mm = CARD_MM[0] + 2 * bleed, CARD_MM[1] + 2 * bleed
    box = f'x="{_mm(-bx)}" y="{_mm(-by)}" width="{_mm(W + 2 * bx)}" height="{_mm(H + 2 * by)}"'
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{_mm(w_mm)}mm" height="{_mm(h_mm)}mm" '
            f'viewBox="{_mm(-bx)} {_mm(-by)} {_mm(W + 2 * bx)} {_mm(H + 2 * by)}" preserveAspectRatio="none" '
            f'data-bleed-mm="{_mm(bleed)}" data-role="{role}" role="img"><title>{_a(title)}</title>'
            f'<rect {box} fill="{background}"/>{body}</svg>\n')


def face_print_svg(deck: Deck, face: int, bleed: float = 0.0) -> str:
    """One face as a print file, 63 × 88 mm plus ``bleed`` millimetres on every side."""
    if not 0 <= face < len(deck.face_names):
        raise ValueError(f"face {face} is not in the deck (faces 0..{len(deck.face_names) - 1})")
    background = _palette(deck, deck.face_colour[face])[0]
    return _print_svg(face_label(deck, face), background, _card_body(deck, face, printed=True), bleed, "face")


def back_print_svg(name: str = "Schachett", bleed: float = 0.0) -> str:
    """The back every card shares: a chequered ground, a frame, and the two Kings, the same either way up."""
    bx, by = bleed * W / CARD_MM[0], bleed * H / CARD_MM[1]
    step = 9                                     # ten squares across, fourteen down, aligned on the cut
    squares = []
    for row in range(-1 - int(by // step), 15 + int(by // step)):
        for col in range(-1 - int(bx // step), 11 + int(bx // step)):
            if (row + col) % 2:
                squares.append(f"M{col * step} {row * step}h{step}v{step}h-{step}Z")
    cx, cy = W / 2, H / 2
    label = name.upper()
    size = _fit(label, 8, 58 - 1.6 * len(label))
    word = _text(cx, cy + 41, label, size, BACK_LINE, extra=' font-weight="bold" letter-spacing="1.6"')
    body = [f'<path d="{"".join(squares)}" fill="{BACK_CHECK}"/>',
            f'<rect x="6" y="6" width="{W - 12}" height="{H - 12}" rx="5" fill="none" stroke="{BACK_LINE}" '
            f'stroke-width="1.4"/>',
            f'<rect x="9" y="9" width="{W - 18}" height="{H - 18}" rx="3.5" fill="none" stroke="{BACK_LINE}" '
            f'stroke-width="0.5"/>',
            f'<circle cx="{cx}" cy="{cy}" r="25" fill="{PALE}" stroke="{BACK_LINE}" stroke-width="1.6"/>',
            f'<circle cx="{cx}" cy="{cy}" r="22" fill="none" stroke="{INK}" stroke-width="0.5" opacity="0.4"/>',
            piece_svg(0, cx - 9, cy, 26, True, INK),
            piece_svg(0, cx + 9, cy, 26, False, CHARCOAL),
            word, f'<g transform="rotate(180 {cx} {cy})">{word}</g>']
    return _print_svg(f"The back of every card ({name})", BACK, "".join(body), bleed, "back")


def _kind_words(t: Tables, kind: str) -> str:
    title = t.deck.kind_titles[t.deck.kinds.index(kind)]
    words = t.capture_words.get(kind, (f"a {title} takes nothing", ""))[0]
    return words[0].upper() + words[1:] + "."


def rank_cells(t: Tables) -> list[tuple[str, str, str]]:
    """The faces from highest to lowest: (symbols, points, kind) for each rank, colours taken together.

    Symbols of one rank share a cell; points that differ by colour are shown for each.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> rank_cells(tables_for("original"))[:2]
    [('D', '12', 'officer'), ('T', '11', 'officer')]
    """
    d = t.deck
    by_rank: dict[int, list[str]] = {}
    for s, symbol in enumerate(d.symbols):
        faces = [c * len(d.symbols) + s for c in range(len(d.colours))]
        by_rank.setdefault(max(t.rank[f] for f in faces), []).append(symbol)
    cells = []
    for rank in sorted(by_rank, reverse=True):
        symbols = by_rank[rank]
        points = []
        for symbol in symbols:
            pts = {t.points[d.face(code + symbol)] for code in d.colours}
            points.append("/".join(map(str, sorted(pts))))
        kind = d.face_kind[d.symbols.index(symbols[0])]
        cells.append((" ".join(symbols), " ".join(points), kind))
    return cells


def legend_lines(t: Tables) -> list[str]:
    """The legend in plain lines, from the tables: ranking with points, captures, ties and the last trick.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> legend_lines(tables_for("original"))[-1]
    'Last trick: I counts as D, II as T, III as L, IV as S; IV scores 9.'
    """
    d = t.deck
    lines = ["Rank, high to low, with points: " + ", ".join(f"{s} {p}" for s, p, _ in rank_cells(t)) + "."]
    lines += [_kind_words(t, kind) for kind in d.kinds]
    ties: dict[str, list[str]] = {}                  # rule -> the kinds it holds for, said once
    for kind, (rule, _cite) in t.tie_words.items():
        title = "cards" if kind == "any" else d.kind_titles[d.kinds.index(kind)] + "s" if kind in d.kinds else kind
        ties.setdefault(rule, []).append(title)
    for rule, titles in ties.items():
        said = titles[0] if len(titles) == 1 else ", ".join(titles[:-1]) + " or " + titles[-1]
        lines.append(f"Of two equal {said} the {'first' if rule == 'first' else 'later'} played holds.")
    n = len(d.symbols)
    promoted = {d.symbols[f % n]: d.symbols[p % n] for f, p in enumerate(t.promoted_as) if f != p}
    scores = {d.symbols[f % n]: t.points_last[f] for f in range(t.n_faces) if t.points_last[f] != t.points[f]}
    if promoted or scores:
        parts = [", ".join(f"{a} counts as {b}" if i == 0 else f"{a} as {b}" for i, (a, b) in enumerate(promoted.items()))]
        parts += [", ".join(f"{a} scores {p}" for a, p in scores.items())] if scores else []
        lines.append("Last trick: " + "; ".join(p for p in parts if p) + ".")
    return lines


def _wrap(text: str, size: float, room: float) -> list[str]:
    """``text`` broken into lines that fit ``room`` units at ``size`` (a regular face, some 15 % narrower than bold)."""
    chars = max(8, int(len(text) * room / max(0.85 * _width(text, size), 1e-9)))
    return textwrap.wrap(text, chars)


def legend_print_svg(t: Tables, title: str = "", bleed: float = 0.0) -> str:
    """A legend card: the ranking and the points in a grid, then what each kind takes, in words.

    Everything on it comes from the compiled tables ``t``; ``title`` names the ruleset.
    """
    d = t.deck
    cells = rank_cells(t)
    kinds = list(d.kinds)
    tints = ["#eadcb8", "#d6dfe8", "#e4e1d6", "#dbe8d5", "#ecd9e2"]    # one per kind, told apart in grey too
    cols = 6 if len(cells) > 15 else 5
    rows = -(-len(cells) // cols)
    left, room, top = 7, W - 14, 25
    cw = room / cols
    ch = min(12.5, 50 / rows)
    body = [f'<rect x="4.5" y="4.5" width="{W - 9}" height="{H - 9}" rx="4.5" fill="none" stroke="{INK}" '
            f'stroke-width="0.6" opacity="0.35"/>',
            _text(W / 2, 13, "SCHACHETT", 7, INK, extra=' font-weight="bold" letter-spacing="1.6"'),
            _text(W / 2, 19.5, title or t.name, _fit(title or t.name, 4.6, room), INK, SERIF_FONT,
                  extra=' font-style="italic"'),
            _text(left, top - 1.5, "rank, high to low; points below", 3.3, INK, anchor="start", extra=' opacity="0.75"')]
    for i, (symbols, points, kind) in enumerate(cells):
        x, y = left + (i % cols) * cw, top + (i // cols) * ch
        body.append(f'<rect x="{_n(x + 0.4)}" y="{_n(y + 0.4)}" width="{_n(cw - 0.8)}" height="{_n(ch - 0.8)}" '
                    f'rx="1.5" fill="{tints[kinds.index(kind) % len(tints)]}" class="rank-cell"/>')
        body.append(_text(x + cw / 2, y + ch * 0.5, symbols, _fit(symbols, ch * 0.48, cw - 2), INK, SERIF_FONT,
                          extra=' font-weight="bold"'))
        body.append(_text(x + cw / 2, y + ch * 0.86, points, _fit(points, ch * 0.3, cw - 2), INK))
    y = top + rows * ch + 2.5
    key_x = left
    for ki, kind in enumerate(kinds):                    # which tint is which kind
        label = d.kind_titles[ki]
        body.append(f'<rect x="{_n(key_x)}" y="{_n(y)}" width="3" height="3" rx="0.6" '
                    f'fill="{tints[ki % len(tints)]}" stroke="{INK}" stroke-width="0.2"/>')
        body.append(_text(key_x + 4, y + 2.6, label, 3.2, INK, anchor="start"))
        key_x += 4 + _width(label, 3.2) * 0.9 + 4
    words = legend_lines(t)[1:]
    avail = H - 8 - (y + 6)
    size = 4.2
    while size > 2.6:                                    # the largest text that leaves the rules room
        wrapped = [_wrap(w, size, room) for w in words]
        if sum(len(w) for w in wrapped) * size * 1.22 + (len(words) - 1) * size * 0.45 <= avail:
            break
        size -= 0.1
    y += 6 + size
    for lines in wrapped:
        for line in lines:
            body.append(_text(left, y, line, size, INK, anchor="start", extra=' class="rule-line"'))
            y += size * 1.22
        y += size * 0.45
    return _print_svg(f"Legend: the ranking, the points and the captures of {title or t.name}", IVORY,
                      "".join(body), bleed, "legend")

"""A hand as the terminal and the server show it: cards by kind, then colour, then rank; the legal ones numbered.

>>> from schachett_rules.kernel.compiler import tables_for
>>> sort_cards(tables_for("original"), ["w7", "sIV", "wK", "wD", "s8"])
['wD', 'wK', 'w7', 's8', 'sIV']
"""

from __future__ import annotations

from ..kernel.tables import Tables


def sort_cards(t: Tables, names) -> list[str]:
    """Cards by kind (in the deck's order of kinds), then colour, then rank from high to low."""
    d = t.deck
    def key(name: str):
        f = t.face(name)
        return d.kinds.index(d.face_kind[f]), d.face_colour[f], -t.rank[f], f
    return sorted(names, key=key)


def render_hand(t: Tables, title: str, names, legal=None, start: int = 1) -> tuple[str, list[str]]:
    """A hand by kind; the legal cards numbered from ``start``. Returns the text and the numbered cards."""
    d, numbered = t.deck, []
    lines = [f"{title} ({len(names)} card{'' if len(names) == 1 else 's'}):"]
    left = list(legal or ())
    for ki, kind in enumerate(d.kinds):
        row = []
        for name in sort_cards(t, [n for n in names if d.face_kind[t.face(n)] == kind]):
            if name in left:
                left.remove(name)
                numbered.append(name)
                row.append(f"{start + len(numbered) - 1}:{name}")
            else:
                row.append(name)
        if row:
            lines.append(f"  {d.kind_titles[ki]:<10} " + " ".join(row))
    return "\n".join(lines), numbered

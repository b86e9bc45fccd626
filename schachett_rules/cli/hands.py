"""A hand as the terminal shows it: cards by kind, then colour, then rank (:func:`~..kernel.deal.sort_cards`);
the legal ones numbered.

>>> from schachett_rules.kernel.compiler import tables_for
>>> print(render_hand(tables_for("original"), "Your hand", ["w7", "sIV", "wK"], legal=["w7"])[0])
Your hand (3 cards):
  officer    wK
  pawn       1:w7
  suit card  sIV
"""

from __future__ import annotations

from ..kernel.deal import sort_cards
from ..kernel.tables import Tables


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

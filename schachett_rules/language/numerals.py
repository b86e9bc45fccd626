"""Roman numerals, which name the faces of some decks (the suit cards I..X of a ruleset, for example).

>>> [int_to_roman(n) for n in range(1, 6)]
['I', 'II', 'III', 'IV', 'V']
"""

from __future__ import annotations

ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def roman_to_int(symbol: str) -> int | None:
    """The value of a Roman numeral made of I, V, X, L, C, or None.

    >>> roman_to_int("IX"), roman_to_int("VIII"), roman_to_int("K")
    (9, 8, None)
    """
    if not symbol or any(ch not in ROMAN for ch in symbol):
        return None
    total = 0
    for i, ch in enumerate(symbol):
        v = ROMAN[ch]
        total += -v if i + 1 < len(symbol) and ROMAN[symbol[i + 1]] > v else v
    return total if int_to_roman(total) == symbol else None


def int_to_roman(n: int) -> str:
    """A Roman numeral for 1 ≤ n < 400.

    >>> int_to_roman(4), int_to_roman(10)
    ('IV', 'X')
    """
    out = []
    for value, sym in ((100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"),
                       (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out.append(sym)
            n -= value
    return "".join(out)

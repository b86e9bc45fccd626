"""Syntax errors in words: what was found, what was expected, a typical mistake it resembles, and a caret under the spot.

A catalogue of typical mistakes (``MISTAKES``) is matched against the parser
state the error stopped in, lark's ``match_examples``: a text that fails in the
same state as one of a mistake's snippets gets that mistake's sentence.

>>> print(excerpt("ruleset x seats [§1 printed] 4", 1, 30))
    ruleset x seats [§1 printed] 4
                                 ^
"""

from __future__ import annotations

import functools

from lark import Lark
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from .grammar import grammar
from .keywords import phrases
from ..errors import RuleSyntaxError

# Known mistakes, each with snippets that fail in the same parser state.
# The first matching label is the message shown.
MISTAKES: dict[str, list[str]] = {
    "a clause's basis is followed by ':' (for example `seats [§1 printed]: 4`)": [
        "ruleset x seats [§1 printed] 4",
        "ruleset x ranking [§2 printed] D > T",
        "ruleset x remaining [§6 printed] each hand",
    ],
    "a citation looks like §3.2, §4,4 (3p), p.15 or foreword": [
        "ruleset x seats [3.2 printed]: 4",
        "ruleset x seats [s3 printed]: 4",
        "ruleset x seats []: 4",
    ],
    f"the grade must be one of {', '.join(phrases('grade'))}": [
        "ruleset x seats [§1 sure]: 4",
        "ruleset x seats [§1 certain]: 4",
    ],
    "copies are written ×2 after the face's name (for example `T \"Rook\" ×2`)": [
        'ruleset x deck [§1 printed] { colours w "white" officer: T "Rook" x2 }',
        'ruleset x deck [§1 printed] { colours w "white" officer: T "Rook" 2 }',
    ],
    "ranks are separated by '>' (or '=' for equal ranks)": [
        "ruleset x ranking [§2 printed]: D, T",
        "ruleset x ranking [§2 printed]: D < T",
        "ruleset x ranking [§2 printed]: D T",
    ],
    "follow tiers are numbered: `1: officer  2: any`": [
        "ruleset x follow officer [§3.1 printed] { officer }",
        "ruleset x follow officer [§3.1 printed] { any }",
    ],
    "`choose` names a lacuna and one of its options: `choose deal kings-face-up`": [
        "ruleset x choose deal",
    ],
    "a rule file starts with `ruleset NAME \"Title\"`": [
        "seats [§1 printed]: 4",
        "ruleset",
        "ruleset X",
    ],
}

TERMINAL_WORDS = {
    "CITE": "a citation such as §3.2",
    "NAME": "a name in lower case",
    "FACE": "a face such as D, 8 or IV",
    "CARD": "a card such as wK or s8",
    "INT": "a whole number",
    "STRING": "a quoted text",
    "COPIES": "copies such as ×2",
    "ANY": "any",
    "ROYAL": "royal",
    "$END": "the end of the file",
}


def _word(parser: Lark, name: str) -> str:
    if name in TERMINAL_WORDS:
        return TERMINAL_WORDS[name]
    try:
        pattern = parser.get_terminal(name).pattern
    except KeyError:
        return name
    if pattern.type == "str":
        return f"'{pattern.value}'"
    return name.lower()


def excerpt(text: str, line: int, column: int) -> str:
    """The line of ``text`` at ``line`` (from 1), indented, with a caret under ``column`` (from 1)."""
    lines = text.splitlines() or [""]
    src = lines[line - 1] if 0 < line <= len(lines) else ""
    return f"    {src}\n    {' ' * max(column - 1, 0)}^"


@functools.lru_cache(maxsize=1)
def _mistake_parser():
    return grammar().parse


def friendly_error(err: UnexpectedInput, text: str, file: str) -> RuleSyntaxError:
    """Lark's syntax error ``err`` in ``text`` as a :class:`RuleSyntaxError`: found, expected, the mistake, a caret."""
    parser = grammar()
    line, column = getattr(err, "line", 1) or 1, getattr(err, "column", 1) or 1
    label = None
    try:
        label = err.match_examples(_mistake_parser(), MISTAKES, use_accepts=True)
    except Exception:  # the catalogue is a courtesy; never let it hide the real error
        label = None
    if isinstance(err, UnexpectedCharacters):
        found = repr(text[err.pos_in_stream]) if err.pos_in_stream < len(text) else "end of file"
        head = f"unexpected character {found}"
        expected = sorted(err.allowed or ())
    elif isinstance(err, UnexpectedEOF):
        head = "the file ends too early"
        expected = sorted(err.expected or ())
        lines = text.splitlines() or [""]
        line, column = len(lines), len(lines[-1]) + 1
    else:
        assert isinstance(err, UnexpectedToken)
        tok = err.token
        head = "unexpected end of file" if tok.type == "$END" else f"unexpected {tok.value!r}"
        expected = sorted(err.accepts or err.expected or ())
    words = sorted({_word(parser, e) for e in expected})
    if len(words) > 8:
        words = words[:8] + ["…"]
    message = head
    if label:
        message += f": {label}"
    if words:
        message += f"; expected {', '.join(words)}"
    return RuleSyntaxError(message, file, line, column, excerpt(text, line, column))


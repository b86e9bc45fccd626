"""Parsing rule files: rule text in, the IR out, or one syntax error in words.

The parts live in modules of their own: the grammar and its parsers
(:mod:`.grammar`), the IR built as the parser reduces (:mod:`.build`), syntax
errors in words (:mod:`.mistakes`) and Roman numerals (:mod:`.numerals`); this
module puts them together and keeps the names the rest of the package uses.

>>> rs = parse_ruleset('ruleset demo "A demo" seats [§1 printed]: 4')
>>> rs.name, rs.statements[0].clause.count
('demo', 4)
"""

from __future__ import annotations

import functools
import re

from lark import Token, Tree
from lark.exceptions import UnexpectedInput, UnexpectedToken

from . import ir
from .build import MAX_EXPR_DEPTH, BuildError
from .grammar import grammar, grammar_text, tree_grammar
from .mistakes import MISTAKES, excerpt, friendly_error
from .numerals import int_to_roman, roman_to_int
from ..errors import RuleSyntaxError

__all__ = ["MAX_EXPR_DEPTH", "MISTAKES", "grammar", "grammar_text", "int_to_roman", "parse_ruleset",
           "roman_to_int", "tree_of"]


def parse_ruleset(text: str, file: str = "<string>") -> ir.Ruleset:
    """Parse rule text into a :class:`~schachett_rules.language.ir.Ruleset`.

    Syntax errors become :class:`RuleSyntaxError` with file, line, column, a
    caret under the spot and what was expected, in words.

    >>> parse_ruleset("ruleset x seats [§1 printed] 4", "x.schachett")
    Traceback (most recent call last):
    ...
    schachett_rules.errors.RuleSyntaxError: x.schachett:1:30: unexpected '4': a clause's basis is followed by ':' (for example `seats [§1 printed]: 4`); expected ':'
        ruleset x seats [§1 printed] 4
                                     ^
    """
    return _parse(text, file)


_NAME = re.compile(r"[a-z][a-z0-9_]*(-[a-z0-9_]+)*\Z")


def _keyword_as_name(err) -> bool:
    """Where a name is due and a keyword stands (a kind called ``card``), read it as the name.

    The parser looks one word ahead, and the words it may see after a text include every keyword that may
    follow a text anywhere; so a name that is spelt like a keyword can reach it as the keyword. Keywords are
    not reserved words: a name is fed in its place and parsing goes on.
    """
    if (isinstance(err, UnexpectedToken) and err.token.type != "NAME" and "NAME" in err.expected
            and _NAME.match(str(err.token))):
        err.interactive_parser.feed_token(Token.new_borrow_pos("NAME", str(err.token), err.token))
        return True
    return False


@functools.lru_cache(maxsize=128)
def _parse(text: str, file: str) -> ir.Ruleset:
    # The IR is frozen, so a file read again unchanged (a parent of many rulesets) is parsed once.
    try:
        root = grammar().parse(text, on_error=_keyword_as_name)
        result = root.build()
    except UnexpectedInput as err:
        raise friendly_error(err, text, file) from None
    except BuildError as err:
        line, column = (err.pos.line, err.pos.column) if err.pos else (0, 0)
        raise RuleSyntaxError(err.message, file, line, column, excerpt(text, line, column) if line else "") from None
    return result.model_copy(update={"file": file})


def tree_of(text: str) -> Tree:
    """The raw Lark parse tree (for tools and tests that inspect the grammar)."""
    return tree_grammar().parse(text)

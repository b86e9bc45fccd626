"""The grammar of the rule language: schachett.lark with its generated keyword rules, and the LALR parsers built from it.

>>> "capture_rule: NAME" in grammar_text(), "!direction_word:" in grammar_text()
(True, True)
"""

from __future__ import annotations

import functools
from importlib import resources

from lark import Lark
from lark.grammar import Rule

from .build import ParseNode, placing
from .keywords import grammar_rules


def grammar_text() -> str:
    """The whole grammar: schachett.lark and the keyword rules generated from :mod:`.keywords`."""
    text = resources.files("schachett_rules.language").joinpath("schachett.lark").read_text(encoding="utf-8")
    generated = "\n".join(grammar_rules().values())
    return f"{text}\n// --- generated from keywords.py ---\n{generated}\n"


def _parser(**options) -> Lark:
    # LALR; cache=True keeps the built parser tables in the temp folder, so the command line starts
    # faster. An optional part the text leaves out comes to the builder as None (lark's default since 1.0).
    return Lark(grammar_text(), parser="lalr", cache=True, **options)


@functools.lru_cache(maxsize=1)
def grammar() -> Lark:
    """The compiled LALR parser for the rule language (built once); it builds the IR as it parses."""
    parser = _parser(tree_class=ParseNode)
    # Every IR node and error names its line and column. The parser's callbacks are the rules' own
    # (lark keeps them in this dict and reduces through it); each is wrapped to place its node.
    callbacks = parser._callbacks
    for rule, reduce in callbacks.items():
        if isinstance(rule, Rule):
            callbacks[rule] = placing(reduce)
    return parser


@functools.lru_cache(maxsize=1)
def tree_grammar() -> Lark:
    """The same grammar's parser giving a plain lark tree, for tools and tests that look at the grammar itself."""
    return _parser(propagate_positions=True)

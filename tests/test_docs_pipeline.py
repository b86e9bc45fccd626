"""docs/pipeline.md quotes the code: every quoted block is in the file it names, and its examples run."""

from __future__ import annotations

import doctest
import re

import pytest

from schachett_rules.paths import home

PAGE = home() / "docs" / "pipeline.md"
BLOCK = re.compile(r"^```(\w+)([^\n]*)\n(.*?)^```", re.M | re.S)


def blocks():
    return [(lang, re.search(r'title="([^"]+)"', info), body) for lang, info, body in BLOCK.findall(PAGE.read_text("utf-8"))]


QUOTES = [(m.group(1), body) for _, m, body in blocks() if m]


def test_the_page_quotes_every_stage():
    files = {path for path, _ in QUOTES}
    for stage in ("variants/", "language/schachett.lark", "language/syntax.py", "language/ir.py", "printer.py",
                  "rules/loader.py", "rules/check.py", "kernel/compiler.py", "kernel/tables.py", "kernel/trick.py",
                  "kernel/state.py", "playouts/", "players/", "site/"):
        assert any(stage in f for f in files), stage


@pytest.mark.parametrize("path, body", QUOTES, ids=[f"{p}:{i}" for i, (p, _) in enumerate(QUOTES)])
def test_each_quote_is_in_the_file_it_names(path, body):
    assert body.strip(), path
    assert body in (home() / path).read_text(encoding="utf-8"), f"{path} no longer holds:\n{body}"


def test_the_examples_on_the_page_give_what_the_page_says():
    examples = "\n".join(body for lang, _, body in blocks() if lang == "pycon")
    test = doctest.DocTestParser().get_doctest(examples, {}, "pipeline.md", str(PAGE), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
    assert runner.tries >= 8

"""The family's part of the language reference (docs/language.md, "The family's clauses") shows real clauses.

Every example there is a clause (or a contract, or a drop) of a rule file in variants/family/ (or of one of
Schachett's forms that use the family's clauses, in variants/), found there line by line; it parses on its own;
every file it comes from loads and compiles; and every clause kind the family added has its entry.
"""

from __future__ import annotations

import re

import pytest

from schachett_rules.kernel.compiler import compile_ruleset
from schachett_rules.language.syntax import parse_ruleset
from schachett_rules.paths import family_dir, family_rulesets, home, schachett_rulesets, variants_dir
from schachett_rules.rules.loader import load

PAGE = home() / "docs" / "language.md"


def section() -> str:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index("## The family's clauses")
    end = text.find("\n## ", start + 1)
    return text[start:] if end < 0 else text[start:end]


def examples() -> list[str]:
    return re.findall(r"^```\n(.*?)^```", section(), flags=re.S | re.M)


def family_lines() -> dict[str, list[str]]:
    return {p.stem: [line.strip() for line in p.read_text(encoding="utf-8").splitlines()]
            for p in sorted(family_dir().glob("*.schachett")) + sorted(variants_dir().glob("*.schachett"))}


def test_the_section_has_examples():
    assert len(examples()) >= 25


@pytest.mark.parametrize("example", examples(), ids=lambda e: e.splitlines()[0][:40])
def test_every_example_is_a_clause_of_a_family_file_and_parses(example):
    lines = [line.strip() for line in example.strip().splitlines()]
    n = len(lines)

    def at(file, i):   # the example's lines from line i on; its last line may go on with a `because`
        return file[i:i + n - 1] == lines[:-1] and file[i + n - 1].startswith(lines[-1])
    found = [name for name, file in family_lines().items() if any(at(file, i) for i in range(len(file) - n + 1))]
    assert found, f"not in any file of variants/family/: {example}"
    parsed = parse_ruleset("ruleset x\n" + example)
    assert len(parsed.statements) >= 1
    for name in found:
        compile_ruleset(load(name))


def test_every_game_named_as_a_user_exists():
    games = set(family_rulesets()) | set(schachett_rulesets())
    for line in re.findall(r"^\*Used in:\*(.*?)(?=\n\n|\Z)", section(), flags=re.S | re.M):
        named = set(re.findall(r"`([a-z-]+)`", line))
        assert named and named <= games, line


KINDS = ["restriction", "no lead", "no play", "no discard", "in first trick", "before last trick", "until played",
         "while holding", "obligation", "when led", "runners", "called", "of called colour", "holder of c2",
         "stock 4", "turn up top of stock", "turn up last dealt to dealer", "tableau 8 covered", "passing",
         "left, right, across, none", "exchange", "auction", "from dealer + 1", "first bid wins", "highest bid wins",
         "all pass: redeal", "all pass: play", "all pass: dealer must bid", "of turned colour", "except turned colour",
         "requires", "holds all of", "holds one of", "call [", "where not held and its colour held",
         "holder of called card", "where held", "partner [", "first other trick winner", "sit out", "value march", "game points",
         "declarer party", "other parties", "each party", "until 100 lowest wins", "declarer wins when",
         "per player", "per defender", "if(", "==", "for each colour like up", "drop contract", "class trump",
         "of trump shade", "holders of cQ, sQ", "each alone"]


def test_every_family_clause_kind_has_its_entry():
    text = section()
    missing = [k for k in KINDS if k not in text]
    assert not missing, missing

"""Clause diffs: two rulesets lined up by clause key (same, changed, only in one)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from schachett_rules.cli.main import main
from schachett_rules.rules.diff import diff_rulesets, format_text
from schachett_rules.rules.loader import load

PAIRS = [
    (("original", {}), ("three-player", {})),
    (("original", {}), ("original", {"castling": "both", "deal": "random"})),
    (("three-player", {}), ("original", {"castling": "as-three-player"})),
]


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def statuses(d) -> dict[str, str]:
    return {e.key: e.status for e in d.entries}


def cells(row: str) -> list[str]:
    """The cells of a Markdown table row (escaped pipes stay inside their cell)."""
    parts, cell, i = [], "", 0
    while i < len(row):
        if row[i] == "\\" and row[i + 1:i + 2] == "|":
            cell += "\\|"
            i += 2
            continue
        if row[i] == "|":
            parts.append(cell.strip())
            cell = ""
        else:
            cell += row[i]
        i += 1
    return parts[1:]


@pytest.mark.parametrize("ref, options", [("original", {}), ("three-player", {}),
                                          ("original", {"castling": "rescue"})])
def test_a_ruleset_against_itself_has_no_differences(ref, options):
    d = diff_rulesets(load(ref, options), load(ref, options))
    assert d.differences == []
    assert d.entries and all(e.status == "same" and not e.rule_differs for e in d.entries)
    assert all(x.a == x.b for x in d.lacunae)
    assert "0 of" in format_text(d)


@pytest.mark.parametrize("a, b", PAIRS)
def test_the_diff_is_symmetric(a, b):
    ra, rb = load(*a), load(*b)
    forward, backward = diff_rulesets(ra, rb), diff_rulesets(rb, ra)
    assert forward.differences                       # the pairs do differ
    assert forward.model_dump() == backward.mirrored().model_dump()
    assert backward.model_dump() == forward.mirrored().model_dump()


def test_original_against_three_player():
    d = diff_rulesets(load("original"), load("three-player"))
    s = statuses(d)
    for key in ("castling", "session"):
        assert s[key] == "changed"
        assert next(e for e in d.entries if e.key == key).rule_differs
    # Both deal from seat 0 and pass left; the four-player clause conjectures what the 3-player pages print.
    dealer = next(e for e in d.entries if e.key == "dealer")
    assert (dealer.status, dealer.rule_differs) == ("changed", False)
    assert s["dummy 2"] == "only-b"
    dummy = next(e for e in d.entries if e.key == "dummy 2")
    assert dummy.a is None and dummy.b.ruleset == "three-player" and "§4,2 (3p)" in dummy.b.cites
    # The deal is the same rule, printed in the 3-player part instead of read across from it.
    deal = next(e for e in d.entries if e.key == "deal")
    assert (deal.status, deal.rule_differs) == ("changed", False)
    assert deal.a.lacuna == "deal" and deal.b.lacuna is None
    # Clauses the 3-player game takes over unchanged.
    assert s["ranking"] == s["points"] == s["king checkmate"] == "same"
    # Lacunae: the three-player game drops the castling and deal lacunae and plays the rest alike.
    lac = {x.name: (x.a, x.b) for x in d.lacunae}
    assert lac["castling"] == ("none", None) and lac["deal"] == ("kings-face-up", None)
    assert lac["remaining"] == ("each-hand", "each-hand")
    castling = next(e for e in d.entries if e.key == "castling")
    assert castling.a.lacuna == "castling" and castling.a.option == "none"
    assert "§5 (3p)" in castling.b.cites and castling.b.grade == "printed"


def test_cli_diff_markdown_is_a_table():
    result = run("diff", "original", "three-player", "--format", "md")
    assert result.exit_code == 0, result.output
    lines = result.stdout.rstrip("\n").splitlines()
    assert lines[0] == "| section | clause | status | original | three-player |"
    assert lines[1] == "|---|---|---|---|---|"
    rows = {cells(line)[1]: cells(line) for line in lines[2:]}
    assert all(len(r) == 5 for r in rows.values())
    assert set(rows) == {e.key for e in diff_rulesets(load("original"), load("three-player")).differences}
    assert rows["dummy 2"][2] == "only in three-player" and rows["dummy 2"][3] == "—"
    assert rows["castling"][2] == "changed" and rows["castling"][0] == "§5"
    assert rows["deal"][2] == "changed (basis only)"


def test_cli_diff_json_is_the_diff():
    result = run("diff", "original", "three-player", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data == diff_rulesets(load("original"), load("three-player")).model_dump(mode="json")
    assert (data["a"], data["b"]) == ("original", "three-player")
    assert {e["key"]: e["status"] for e in data["entries"]}["dummy 2"] == "only-b"


def test_cli_diff_of_unknown_ruleset_exits_1():
    result = run("diff", "original", "no-such-ruleset")
    assert result.exit_code == 1 and result.stderr.startswith("error:")


@pytest.fixture
def basis_only(rules):
    return rules('ruleset basis-only "The same review rule, read another way" extends original\n'
                 "override review [§10.2 printed]: 1 previous trick\n", "basis-only")


def test_a_changed_basis_alone_is_a_change_with_the_same_rule(basis_only):
    d = diff_rulesets(load("original"), load(str(basis_only)))
    [entry] = d.differences
    assert (entry.key, entry.status, entry.rule_differs) == ("review", "changed", False)
    assert (entry.a.cites, entry.b.cites) == (("§10.3",), ("§10.2",))
    assert entry.a.grade == entry.b.grade == "printed"
    assert entry.a.prose == entry.b.prose
    assert "only its basis differs" in format_text(d)
    result = run("diff", "original", str(basis_only), "--format", "md")
    assert result.exit_code == 0, result.output
    [row] = result.stdout.splitlines()[2:]
    assert cells(row)[1:3] == ["review", "changed (basis only)"]


def test_a_changed_rule_is_a_change_of_the_rule(rules):
    path = rules('ruleset look-further "Two tricks may be looked at" extends original\n'
                 "override review [§10.3 design]: 2 previous tricks\n", "look-further")
    d = diff_rulesets(load("original"), load(str(path)))
    [entry] = d.differences
    assert (entry.key, entry.status, entry.rule_differs) == ("review", "changed", True)
    assert entry.a.rule != entry.b.rule

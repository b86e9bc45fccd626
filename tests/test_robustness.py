"""Random and mutated rule files and records never raise anything but the project's own errors.

Whatever a rule file or a game record says, parsing, resolving, checking, compiling, rendering,
playing and replaying it either works or raises a :class:`SchachettError` with a message a user
can act on; never a traceback from Lark, pydantic, ``json`` or the engine's own code.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schachett_rules.rules import check, loader

from schachett_rules.kernel import compiler

from schachett_rules.language import ir, syntax

from schachett_rules.engine import replay
from schachett_rules.kernel.state import State
from schachett_rules.kernel.deal import names_of
from schachett_rules.errors import IllegalAction, RecordError, RuleCheckError, RuleSyntaxError, SchachettError
from schachett_rules.paths import variants_dir
from schachett_rules.playouts.single import random_game
from schachett_rules.language.printer import format_ruleset
from schachett_rules.rules.rulebook import render_ruleset

ORIGINAL = (variants_dir() / "original.schachett").read_text(encoding="utf-8")
TOKEN = re.compile(r'"(?:\\.|[^"\\\n])*"|§[0-9.,]+|[A-Za-z0-9_×-]+|\S')
TOKENS = TOKEN.findall(ORIGINAL)
ODD = "§{}\"[]():,.;<>=+-*/×÷#\\ \n\t0123456789éüß→♚\u200b\u00a0𝔊"

robust = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
# Longer fuzzing runs: SCHACHETT_FUZZ_SCALE=20 pytest tests/test_robustness.py
SCALE = max(1, int(os.environ.get("SCHACHETT_FUZZ_SCALE", "1")))


@pytest.fixture(scope="module")
def workdir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("rules")


def run_rules(text: str, folder: Path, name: str = "mutant") -> str:
    """Parse, resolve, check, render, compile and play a rule text: the furthest stage reached.

    Only the project's own errors may escape.
    """
    path = folder / f"{name}.schachett"
    path.write_text(text, encoding="utf-8")
    rs = syntax.parse_ruleset(text, str(path))
    reparsed = syntax.parse_ruleset(format_ruleset(rs), str(path))   # printing a parsed file gives it back
    assert ir.strip_positions(reparsed.model_dump()) == ir.strip_positions(rs.model_dump())
    resolved = loader.resolve(rs, path)
    errors = check.check(resolved)
    for e in errors:
        assert isinstance(e, RuleCheckError) and e.message
    if not errors:
        assert render_ruleset(resolved)                 # `schachett show` renders what passes the checks
    check.raise_for(errors)
    t = compiler.compile_ruleset(resolved)
    rng = random.Random(0)
    game = State.deal(t, 0, rng)
    game.play_randomly(rng)
    game.result()
    random_game(t, t.n_seats - 1, random.Random(1))
    return "played"


def only_own_errors(text: str, folder: Path) -> str:
    try:
        return run_rules(text, folder)
    except SchachettError as err:
        assert str(err).strip(), "an error must say something"
        return type(err).__name__


# --- (a) mutations of the printed rules ------------------------------------------------------------

@st.composite
def mutated_rules(draw) -> str:
    text = ORIGINAL
    for _ in range(draw(st.integers(1, 3))):
        spans = [m.span() for m in TOKEN.finditer(text)] or [(0, 0)]
        how = draw(st.sampled_from(["delete", "duplicate-line", "swap", "replace", "insert", "number"]))
        if how == "delete":
            a = draw(st.integers(0, len(text)))
            b = draw(st.integers(a, min(len(text), a + 300)))
            text = text[:a] + text[b:]
        elif how == "duplicate-line":
            lines = text.splitlines(keepends=True) or [""]
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(i, lines[i])
            text = "".join(lines)
        elif how == "swap":
            i, j = sorted((draw(st.integers(0, len(spans) - 1)), draw(st.integers(0, len(spans) - 1))))
            (a, b), (c, d) = spans[i], spans[j]
            if i != j:
                text = text[:a] + text[c:d] + text[b:c] + text[a:b] + text[d:]
        elif how == "replace":
            a, b = spans[draw(st.integers(0, len(spans) - 1))]
            text = text[:a] + draw(st.sampled_from(TOKENS)) + text[b:]
        elif how == "insert":
            a = draw(st.integers(0, len(text)))
            text = text[:a] + draw(st.text(alphabet=ODD, min_size=1, max_size=6)) + text[a:]
        else:  # a number in the file becomes another, small or absurd
            numbers = [s for s in spans if text[s[0]:s[1]].isdigit()]
            if numbers:
                a, b = numbers[draw(st.integers(0, len(numbers) - 1))]
                text = text[:a] + str(draw(st.sampled_from([0, 1, 2, 3, 5, 12, 26, 52, 53, 10**6, 10**30]))) + text[b:]
    return text


@pytest.mark.slow
@settings(robust, max_examples=400 * SCALE)
@given(text=mutated_rules())
def test_mutated_rule_files_raise_only_own_errors(text, workdir):
    only_own_errors(text, workdir)


@pytest.mark.slow
def test_mutations_reach_every_stage(workdir):
    """The mutations are not all syntax errors: some get through to the checks, the compiler and play."""
    reached = set()
    rng = random.Random(3)
    for _ in range(300):
        text = ORIGINAL
        spans = [m.span() for m in TOKEN.finditer(text)]
        a, b = rng.choice(spans)
        text = text[:a] + rng.choice(TOKENS) + text[b:]
        reached.add(only_own_errors(text, workdir))
    assert {"RuleSyntaxError", "played"} <= reached
    assert reached & {"RuleCheckError", "RuleCheckErrors"}


# --- (b) rule files put together from snippets, good and bad ---------------------------------------

B = "[§1 printed]"
SNIPPETS: dict[str, list[str]] = {
    "deck": [
        'deck [§1 printed] { colours w "white", s "black" officer: K "King" royal, D pawn: 1..2 suit: I..II }',
        'deck [§1 printed] { colours w "white", s "black" officer: K "King" royal, D pawn: 1..4 }',
        'deck [§1 printed] { colours w "white", s "black" officer "officer": K "King" royal, D, T ×2 pawn: 1..2 }',
        'deck [§1 printed] { colours w "white" officer: K royal, D pawn: 1..4 suit: I..II }',
        'deck [§1 printed] { colours w "white", w "again" officer: K royal pawn: 1..4 }',
        'deck [§1 printed] { colours w "white", s "black" officer: K royal, D ×0 pawn: 1..4 }',
        'deck [§1 printed] { colours w "white", s "black" officer: K royal, D pawn: 4..1 }',
        'deck [§1 printed] { colours w "white", s "black" officer: K royal pawn: 1..4, K }',
        'deck [§1 printed] { colours w "white", s "black" officer: K royal, D ×100000 pawn: 1..4 }',
        'deck [§1 printed] { colours w "white", s "black" officer: K, D pawn: 1..4 }',
        'deck { colours w "white" officer: K }',
    ],
    "seats": [f"seats {B}: 2", f"seats {B}: 4", f"seats {B}: 3", f"seats {B}: 0", f"seats {B}: 1",
              f"seats {B}: 1000000000000", "seats: 4", "seats [§1]: 4"],
    "parties": [f"parties {B}: opposite", f"parties {B}: 0 | 1", f"parties {B}: 0 2 | 1 3", f"parties {B}: 0 1 2 3",
                f"parties {B}: 0 | 1 | 2", f"parties {B}: 0 | 0", f"parties {B}: 5 | 6"],
    "deal": ["deal [§4 conjecture] { hands 6 }", "deal [§4 conjecture] { give wK to dealer face up hands 6 }",
             "deal [§4 conjecture] { give wK to dealer face up give sK to dealer + 1 face up hands 3 }",
             "deal [§4 conjecture] { give wK to seat 5 face up hands 6 }",
             "deal [§4 conjecture] { give wZ to dealer face up hands 6 }",
             "deal [§4 conjecture] { give wK to dealer face up give wK to dealer - 1 face up hands 6 }",
             "deal [§4 conjecture] { hands 0 }", "deal [§4 conjecture] { hands 12 }", "deal [§4 conjecture] { hands 4 }"],
    "lead first": ["lead first [§10.1 printed]: dealer + 1", "lead first [§10.1 printed]: seat 1",
                   "lead first [§10.1 printed]: winner", "lead first [§10.1 printed]: seat 9",
                   "lead first [§10.1 printed]: dealer - 3"],
    "lead next": ["lead next [§10.1 inferred]: winner", "lead next [§10.1 inferred]: dealer"],
    "ranking": ["ranking [§2 printed]: D > K > 2 > 1 > II > I", "ranking [§2 printed]: D > K > 4 > 3 > 2 > 1",
                "ranking [§2 printed]: D > K > 2 = 1 > II = I", "ranking [§2 printed]: D = K > 4 > 3 > 2 > 1",
                "ranking [§2 printed]: D > K > 4 > 3 > 2", "ranking [§2 printed]: D > K > 4 > 4 > 3 > 2 > 1",
                "ranking [§2 printed]: D > Q > K > 4 > 3 > 2 > 1",
                "ranking [§2 printed]: D > T > K > 4 > 3 > 2 > 1 > II > I",
                "ranking [§2 printed]: D > K > 4 > 3 > 2 > 1 > II > I"],
    "capture": ["capture [§2 printed] { officer takes lower: any  pawn takes lower: pawn of same colour }",
                "capture [§2 printed] { officer takes lower: any }",
                "capture [§2 printed] { officer takes lower: any  pawn takes lower: pawn of led colour }",
                "capture [§2 printed] { officer takes lower: royal except K, w1, D of other colour  pawn takes lower: any }",
                "capture [§2 printed] { bishop takes lower: any }",
                "capture [§2 printed] { officer takes lower: any  officer takes lower: pawn }",
                "capture [§2 printed] { officer takes lower: zZ  pawn takes lower: Q }"],
    "ties": ["ties [§2 printed] { officer: first played holds }", "ties [§2 printed] { any: later played takes }",
             "ties [§2 printed] { knight: first played holds }"],
    "follow officer": ["follow officer [§3.1 printed] { 1: officer  2: any }",
                       "follow officer [§3.1 printed] { 1: officer except royal  2: royal  3: pawn of led colour  4: any }",
                       "follow officer [§3.1 printed] { 1: officer }",
                       "follow officer [§3.1 printed] { 1: officer of same colour  2: any }",
                       "follow officer [§3.1 printed] { 2: officer  1: any }"],
    "follow pawn": ["follow pawn [§3.2 printed] { 1: pawn of led colour  2: any }",
                    "follow pawn [§3.2 printed] { 1: pawn of other colour  2: w1, sK  3: any }",
                    "follow pawn [§3.2 printed] { 1: pawn of led colour }"],
    "follow suit": ["follow suit [§3.3 printed] { 1: suit of led colour  2: any }",
                    "follow ghost [§3.3 printed] { 1: any }"],
    "promotion": ["promotion [§11 printed] in last trick: 1 as D", "promotion [§11 printed] in last trick: 1 as Z",
                  "promotion [§11 printed] in last trick: 1 as D, 2 as K, D as 1"],
    "points": ["points [§12 printed] { pawn: value  D: 12  K: 0  suit: 0 }",
               "points [§12 printed] { pawn: value  D: 12  K: 0 }",
               "points [§12 printed] { pawn: value / 2  officer: 5 }",
               "points [§12 printed] { pawn: round_half_up(value / 2)  officer: 5 }",
               "points [§12 printed] { pawn: value / 0  officer: 5 }",
               "points [§12 printed] { pawn: nonsense  officer: 5 }",
               "points [§12 printed] { pawn: sqrt(value)  officer: 5 }",
               "points [§12 printed] { pawn: min(value)  officer: 5 }",
               "points [§12 printed] { pawn: value  D: 12 }",
               "points [§12 printed] { any: 1  D: 12 }",
               "points [§12 printed] { pawn of other colour: value  officer: 1 }",
               "points [§12 printed] { suit: 0  pawn: value  officer: 1 }"],
    "points promoted": ["points promoted [§12 printed] { 1: 12 }", "points promoted [§12 printed] { 2: 12 }",
                        "points promoted [§12 printed] { 1: remaining }"],
    "remaining": ["remaining [§6 inferred]: each hand", "remaining [§6 inferred]: all hands"],
    "king": ["king checkmate [§7 printed] { when: taken by opponent scores: taker first: 100 + 6 * remaining later: 6 * remaining }",
             "king selfmate [§8 printed] { when: taken by partner scores: opponents first: 50 + 4 * remaining later: 4 * remaining }",
             "king stalemate [§9 printed] { when: wins the trick scores: owner first: 25 + 2 * remaining later: trick }",
             "king twice [§9 printed] { when: wins the trick scores: owner first: 1 later: 1 }",
             "king broken [§7 printed] { when: taken by opponent scores: taker first: 100 / (remaining - remaining) later: 0 }",
             "king halves [§7 printed] { when: taken by opponent scores: taker first: remaining / 2 later: 0 }",
             "king odd [§7 printed] { when: taken by opponent scores: taker first: value later: winner }"],
    "king order": ["king order [§7 inferred] { count: all events same trick: play order }",
                   "king order [§7 inferred] { count: each event same trick: all first }"],
    "settlement": ['settlement [§12 printed] { unit "Pfg" amount: round_half_up((winner - loser) / 4) per player }',
                   'settlement [§12 printed] { unit "Pfg" amount: (winner - loser) / 4 per player }',
                   'settlement [§12 printed] { unit "Pfg" amount: winner / (winner - winner) per player }',
                   'settlement [§12 printed] { unit "Pfg" amount: remaining per player }',
                   'settlement [§12 printed] { unit "" amount: max(winner, loser, 3) - -loser per player }'],
    "penalty": ['penalty revoke [§3.4 printed] { offence "revoking" pays 25 to each opponent card taken back }',
                'penalty late [§3.4 printed] { offence "late" party scores nothing }',
                'penalty rich [§3.4 printed] { offence "rich" pays 100000000000000000000 to each player }'],
    "review": ["review [§10.3 printed]: 1 previous trick", "review [§10.3 printed]: 0 previous tricks"],
    "session": ["session [§13 printed] { round: 4 games cycle: 6 rounds stop: after cycle "
                "before even rounds: player 1 after A changes with left neighbour }",
                "session [§13 printed] { round: 0 games cycle: 0 rounds }"],
    "dealer": ["dealer [§4 inferred]: seat 0 deals first, passes left", "dealer [§4 inferred]: passes right",
               "dealer [§4 inferred]: seat 9 deals first, passes left"],
    "stake": ["stake [§12 inferred]: per seat", "stake [§12 inferred]: per player"],
    "settle": ["settle penalties [§12 inferred]: each penalty rounded", "settle penalties [§12 inferred]: summed per game"],
    "castling": ["castling [§5 conjecture]: none"],
    "extra": ['lacuna gap [§6] "A question" { option one [§6 inferred] "one" { remaining: each hand } '
              'option two [§6 conjecture] "two" { remaining: all hands } }',
              'lacuna gap [§6] "A question" { option one [§6] "one" { remaining: each hand } }',
              'lacuna dup [§2] "Twice" { option a [§2 inferred] "a" { ties { any: first played holds } } '
              'option a [§2 inferred] "again" { } }',
              "choose gap two", "choose gap three", "choose nothing one", "drop seats", "drop lacuna gap",
              "drop §3.2", "override seats [§1 printed]: 4", "lacuna", "§14", '"unterminated', "{ }",
              "ranking [§14 printed]: D > K > 4 > 3 > 2 > 1", "seats [p.999 printed]: 2",
              "seats [ai:§2 ai]: 2", "seats [zz:§2 ai]: 2"],
}
HEADERS = ['ruleset gen "Generated"', "ruleset gen", 'ruleset gen "Child" extends original',
           'ruleset gen "Loop" extends gen', 'ruleset gen "Orphan" extends nothing-here', 'ruleset Gen "Upper"',
           ""]


@st.composite
def generated_rules(draw) -> str:
    """A file of the first (sound) snippet of every topic, but for up to four topics drawn at random:
    these are left out or given any snippet, good or bad. A quarter of the files are sound and get played."""
    topics = [k for k in SNIPPETS if k != "extra"]
    odd = draw(st.sets(st.sampled_from(topics + ["extra", "header"]), max_size=4))
    parts = []
    for topic in topics:
        if topic not in odd:
            parts.append(SNIPPETS[topic][0])
        elif draw(st.integers(0, 4)):             # an odd topic is left out one time in five
            parts.append(draw(st.sampled_from(SNIPPETS[topic])))
    if "extra" in odd:
        parts += draw(st.lists(st.sampled_from(SNIPPETS["extra"]), min_size=1, max_size=3))
    parts = draw(st.permutations(parts))
    header = draw(st.sampled_from(HEADERS)) if "header" in odd else HEADERS[0]
    return "\n".join([header] + list(parts))


@pytest.mark.slow
@settings(robust, max_examples=500 * SCALE)
@given(text=generated_rules())
def test_generated_rule_files_raise_only_own_errors(text, workdir):
    only_own_errors(text, workdir)


def test_a_generated_file_of_good_snippets_plays(workdir):
    """The generator's first choices make a sound ruleset, so (b) also exercises the engine."""
    text = "\n".join(['ruleset gen "Generated"'] + [v[0] for k, v in SNIPPETS.items() if k != "extra"])
    assert run_rules(text, workdir) == "played"


# --- (c) mutated game records ------------------------------------------------------------------------

def _record(seed: int, options: dict | None = None) -> dict:
    t = compiler.tables_for("original", tuple(sorted((options or {}).items())))
    rng = random.Random(seed)
    game = State.deal(t, seed % 4, rng)
    game.play_randomly(rng)
    return json.loads(replay.record_of(game, "original", options).model_dump_json())


BASE_RECORD = _record(11)
CARD_NAMES = sorted({c for h in BASE_RECORD["hands"] for c in h})


def _run_record(text: str) -> str:
    try:
        rec = replay.parse_record(text, "game.json")
        replay.replay(rec, "game.json")
        return "replayed"
    except SchachettError as err:
        assert str(err).strip()
        return type(err).__name__


@st.composite
def mutated_records(draw) -> str:
    data = json.loads(json.dumps(BASE_RECORD))
    acts, hands = data["actions"], data["hands"]
    for _ in range(draw(st.integers(1, 3))):
        how = draw(st.sampled_from(["unknown-card", "other-card", "swap", "drop", "dealer", "move-king",
                                    "duplicate", "penalty", "castle", "options", "ruleset", "hand-size", "junk"]))
        i = draw(st.integers(0, max(len(acts) - 1, 0)))
        if how == "unknown-card" and acts:
            acts[i] = draw(st.sampled_from(["wZ", "xK", "w9", "sXI", "", "K", "w 1", "wk", "♚", "s0"]))
        elif how == "other-card" and acts:
            acts[i] = draw(st.sampled_from(CARD_NAMES))
        elif how == "swap" and acts:
            j = draw(st.integers(0, len(acts) - 1))
            acts[i], acts[j] = acts[j], acts[i]
        elif how == "drop" and acts:
            del acts[i]
        elif how == "dealer":
            data["dealer"] = draw(st.sampled_from([-1, 7, "x", None, 1.5, True, 10**20, [0],
                                                   (BASE_RECORD["dealer"] + 1) % 4]))
        elif how == "move-king" and any("wK" in h for h in hands):
            s = next(k for k, h in enumerate(hands) if "wK" in h)
            o = (s + draw(st.integers(1, 3))) % 4
            j = draw(st.integers(0, len(hands[o]) - 1))
            hands[s][hands[s].index("wK")], hands[o][j] = hands[o][j], "wK"
        elif how == "duplicate":
            s, o = draw(st.integers(0, 3)), draw(st.integers(0, 3))
            if hands[s] and hands[o]:
                hands[o][draw(st.integers(0, len(hands[o]) - 1))] = hands[s][0]
        elif how == "penalty":
            acts.insert(i, {"penalty": {"seat": draw(st.sampled_from([0, 1, 3, -1, 4, 99])),
                                        "name": draw(st.sampled_from(["revoke", "late-revoke", "looking-back",
                                                                      "out-of-turn", "cheating", ""]))}})
        elif how == "castle":
            acts.insert(i, {"castle": {"seat": draw(st.integers(-1, 5)), "officer": draw(st.sampled_from(CARD_NAMES))}})
        elif how == "options":
            data["options"] = draw(st.sampled_from([{"§4": "random"}, {"§4": "nope"}, {"nope": "x"}, {"§7": "per-event"},
                                                    {"king-order": "both-first"}, [], {"deal": 3}]))
        elif how == "ruleset":
            data["ruleset"] = draw(st.sampled_from(["nope", "", "Original", "../original", "original.schachett", 7]))
        elif how == "hand-size":
            s = draw(st.integers(0, 3))
            if hands[s]:
                hands[s].pop()
        else:
            acts.insert(i, draw(st.sampled_from([{}, {"play": "wK"}, None, 3, ["wK"], {"penalty": {"seat": 0}},
                                                 {"castle": {"seat": 0, "officer": "wT", "extra": 1}}])))
    text = json.dumps(data)
    if draw(st.booleans()) and draw(st.integers(0, 4)) == 0:   # now and then, break the JSON itself
        a = draw(st.integers(0, len(text)))
        text = text[:a] + draw(st.sampled_from(["", "{", "]", ",", '"', "\\", "NaN", "1e999999"])) + text[a + 1:]
    return text


@pytest.mark.slow
@settings(robust, max_examples=400 * SCALE)
@given(text=mutated_records())
def test_mutated_records_raise_only_own_errors(text):
    _run_record(text)


@pytest.mark.parametrize("seed,options", [(11, {}), (2, {}), (5, {"deal": "random"}),
                                          (8, {"king-order": "both-first", "promoted-points": "as-officers"})])
def test_unmutated_records_replay(seed, options):
    data = _record(seed, options)
    report = replay.replay(replay.parse_record(json.dumps(data)), "game.json")
    assert len(report.tricks) == 13
    assert sum(report.result.settlement) == 0
    again = replay.replay(replay.parse_record(json.dumps(data)))
    assert again.as_json() == report.as_json()


@pytest.mark.parametrize("raw", ["", "{", "[]", "null", "1", '"original"', "[" * 100000 + "]" * 100000,
                                 '{"dealer": ' + "9" * 5000 + "}", "\ud800", '{"ruleset": "original"}'])
def test_broken_record_json_is_a_record_error(raw):
    with pytest.raises(RecordError):
        replay.parse_record(raw, "game.json")


# --- messages that name what they should -------------------------------------------------------------

def _resolve_text(text: str, folder: Path, name: str = "msg"):
    path = folder / f"{name}.schachett"
    path.write_text(text, encoding="utf-8")
    return compiler.compile_ruleset(loader.resolve(syntax.parse_ruleset(text, str(path)), path))


def test_syntax_error_names_file_line_column_with_a_caret():
    text = ORIGINAL.replace("seats [§1 printed]: 4", "seats [§1 printed] 4")
    line = next(i for i, s in enumerate(text.splitlines(), 1) if s.startswith("seats"))
    with pytest.raises(RuleSyntaxError) as info:
        syntax.parse_ruleset(text, "broken.schachett")
    err = info.value
    column = len("seats [§1 printed] ") + 1
    assert (err.file, err.line, err.column) == ("broken.schachett", line, column)
    first, source, caret = str(err).splitlines()[:3]
    assert first.startswith(f"broken.schachett:{line}:{column}: ")
    assert source.strip() == "seats [§1 printed] 4"
    assert caret.strip() == "^" and caret.index("^") == source.index("4")


def test_tier_numbering_error_points_at_the_tier():
    text = 'ruleset x\nfollow pawn [§3.2 printed] {\n    1: pawn\n    3: any\n}\n'
    with pytest.raises(RuleSyntaxError) as info:
        syntax.parse_ruleset(text, "tiers.schachett")
    assert (info.value.line, info.value.column) == (4, 5)
    assert str(info.value).startswith("tiers.schachett:4:5: follow tiers must be numbered")


def test_absurd_numbers_are_rule_errors(workdir):
    with pytest.raises(RuleSyntaxError, match=r"too large"):
        syntax.parse_ruleset("ruleset x seats [§1 printed]: " + "7" * 5000)
    with pytest.raises(RuleSyntaxError, match=r"at most 1000 cards"):
        syntax.parse_ruleset('ruleset x deck [§1 printed] { colours w "w" pawn: 1..100000000 }')
    with pytest.raises(RuleCheckError, match=r"at most 1000"):
        _resolve_text(ORIGINAL.replace('T "Rook" ×2', 'T "Rook" ×1000000000'), workdir)
    with pytest.raises(RuleCheckError, match=r"1000000000000 seats"):
        _resolve_text(ORIGINAL.replace("seats [§1 printed]: 4", "seats [§1 printed]: 1000000000000"), workdir)


def test_division_by_zero_in_a_clause_names_the_clause(workdir):
    with pytest.raises(RuleCheckError) as info:
        _resolve_text(ORIGINAL.replace("first: 100 + 6 * remaining", "first: 100 / (remaining - remaining)"), workdir)
    assert "king checkmate" in str(info.value) and "division by zero" in str(info.value)
    assert re.search(r"msg\.schachett:\d+:\d+: ", str(info.value))


def _forced_follow(record: dict, tables):
    """A play in the record where the follower held a card the follow rules forbade: (index, illegal card)."""
    game = State.from_record(tables, record["dealer"], record["hands"])
    for i, card in enumerate(record["actions"]):
        legal = game.legal()
        if game.trick and tables.deck.face_kind[tables.deck.card_face[game.trick[0][1]]] == "pawn":
            hand = names_of(tables, game.hands[game.to_move])
            bad = [c for c in hand if c not in legal]
            if bad:
                return i, bad[0], game.trick_number, game.to_move
        game.play(card)
    return None


def test_illegal_card_names_trick_seat_card_and_clause():
    t = compiler.tables_for("original")
    for seed in range(50):
        data = _record(seed)
        found = _forced_follow(data, t)
        if found:
            break
    assert found, "no record with a forced follow to a led pawn"
    index, card, trick, seat = found
    data["actions"][index] = card
    with pytest.raises(IllegalAction) as info:
        replay.replay(replay.parse_record(json.dumps(data)), "game.json")
    message = str(info.value)
    assert f"trick {trick}" in message and f"seat {seat}" in message and f"card {card}" in message
    assert "§3.2" in message and "must follow" in message
    assert f"action {index + 1}" in message
    assert message.count(f"trick {trick}") == 1        # the place is said once, not once per layer
    assert info.value.clause and "§3.2" in info.value.clause


def test_unknown_card_in_a_record_names_the_card():
    data = json.loads(json.dumps(BASE_RECORD))
    data["actions"][0] = "wQ"
    with pytest.raises(SchachettError, match=r"wQ"):
        replay.replay(replay.parse_record(json.dumps(data)))
    data = json.loads(json.dumps(BASE_RECORD))
    data["hands"][2][4] = "sXII"
    with pytest.raises(RecordError, match=r"sXII"):
        replay.replay(replay.parse_record(json.dumps(data)))


def test_moved_king_and_bad_dealer_are_record_errors():
    for dealer in (-1, 7):
        data = dict(BASE_RECORD, dealer=dealer)
        with pytest.raises(RecordError, match=rf"dealer {dealer}"):
            replay.replay(replay.parse_record(json.dumps(data)))
    with pytest.raises(RecordError, match=r"dealer"):
        replay.parse_record(json.dumps(dict(BASE_RECORD, dealer="x")))
    data = json.loads(json.dumps(BASE_RECORD))
    s = next(k for k, h in enumerate(data["hands"]) if "wK" in h)
    o = (s + 1) % 4
    data["hands"][s][data["hands"][s].index("wK")], data["hands"][o][0] = data["hands"][o][0], "wK"
    with pytest.raises(RecordError, match=r"wK face up"):
        replay.replay(replay.parse_record(json.dumps(data)))


def test_castle_and_unknown_penalty_are_illegal_actions():
    data = json.loads(json.dumps(BASE_RECORD))
    data["actions"].insert(0, {"castle": {"seat": 0, "officer": "wT"}})
    with pytest.raises(IllegalAction, match=r"castling"):
        replay.replay(replay.parse_record(json.dumps(data)))
    data = json.loads(json.dumps(BASE_RECORD))
    data["actions"].insert(5, {"penalty": {"seat": 1, "name": "cheating"}})
    with pytest.raises(IllegalAction, match=r"cheating"):
        replay.replay(replay.parse_record(json.dumps(data)))


def test_citing_a_section_the_manual_lacks_is_an_error(workdir):
    with pytest.raises(RuleCheckError) as info:
        _resolve_text(ORIGINAL.replace("seats [§1 printed]", "seats [§14 printed]"), workdir)
    assert "§14" in str(info.value)


def test_lacuna_without_choice_is_an_error_naming_it(workdir):
    text = re.sub(r"choose ties officers\n", "", ORIGINAL)
    assert text != ORIGINAL
    with pytest.raises(RuleCheckError) as info:
        _resolve_text(text, workdir)
    assert "lacuna ties" in str(info.value) and "choose ties" in str(info.value)


def test_extends_cycle_is_an_error_naming_the_loop(tmp_path):
    (tmp_path / "alpha.schachett").write_text('ruleset alpha "A" extends beta\n', encoding="utf-8")
    (tmp_path / "beta.schachett").write_text('ruleset beta "B" extends alpha\n', encoding="utf-8")
    with pytest.raises(RuleCheckError) as info:
        loader.load(str(tmp_path / "alpha.schachett"))
    message = str(info.value)
    assert "loop" in message and "alpha → beta → alpha" in message


def test_override_of_a_clause_the_parent_lacks_is_an_error(tmp_path):
    path = tmp_path / "child.schachett"
    path.write_text('ruleset child "C" extends original\n'
                    'override penalty cheating [§3.4 printed] { offence "cheating" pays 5 to each player }\n',
                    encoding="utf-8")
    with pytest.raises(RuleCheckError) as info:
        loader.load(str(path))
    assert "penalty cheating" in str(info.value) and "parent" in str(info.value)
    path.write_text('ruleset child "C" extends original\noverride seats [§1 printed]: 4\n', encoding="utf-8")
    assert loader.load(str(path)).clause("seats").count == 4


@pytest.mark.parametrize("ranking,face", [
    ("D > T > L > S > K > 8 > 7 > 6 > 5 > 4 > 3 > 2 > X > IX > VIII > VII > VI > V > IV > III > II > I", "1"),
    ("D > T > L > S > K > 8 > 7 > 6 > 5 > 4 > 3 > 2 > 1 > X > IX > VIII > VII > VI > V > IV > III > II > I > VII", "VII"),
    ("D > T > L > S > K > 8 > 7 > 6 > 5 > 4 > 3 > 2 > 1 > X > IX > VIII > VII > VI > V > IV > III > II = II > I", "II"),
])
def test_ranking_that_misses_or_repeats_a_face_names_it(ranking, face, workdir):
    good = "D > T > L > S > K > 8 > 7 > 6 > 5 > 4 > 3 > 2 > 1 > X > IX > VIII > VII > VI > V > IV > III > II > I"
    text = ORIGINAL.replace(f"ranking [§2, §1 inferred]: {good}", f"ranking [§2, §1 inferred]: {ranking}")
    assert text != ORIGINAL
    with pytest.raises(RuleCheckError) as info:
        _resolve_text(text, workdir)
    assert re.search(rf"(leaves out|names) {re.escape(face)}\b", str(info.value))


def test_follow_tiers_without_any_give_the_no_legal_card_error(workdir):
    text = ORIGINAL.replace("    2: suit of led colour\n    3: any\n", "    2: suit of led colour\n")
    assert text != ORIGINAL
    with pytest.raises(RuleCheckError) as info:
        _resolve_text(text, workdir)
    assert "no legal card" in str(info.value) and "follow pawn" in str(info.value)


def test_option_clause_without_grade_takes_the_options_grade(workdir):
    text = ORIGINAL.replace("ranking [§2, §1 inferred]", "ranking [§2, §1]")
    path = workdir / "nograde.schachett"
    path.write_text(text, encoding="utf-8")
    resolved = loader.resolve(syntax.parse_ruleset(text, str(path)), path)
    ranking = resolved.effective("ranking").clause
    assert ranking.basis.cites == ("§2", "§1") and ranking.basis.grade == ir.Grade.inferred
    assert "[inferred]" in render_ruleset(resolved)


def test_show_renders_a_ruleset_that_fails_only_in_the_compiler(workdir):
    """`schachett show` renders after the checks but before compiling; prose must not trip on such clauses."""
    text = ORIGINAL.replace("lead first [§10.1 printed]: dealer + 1", "lead first [§10.1 printed]: winner")
    path = workdir / "leadwinner.schachett"
    path.write_text(text, encoding="utf-8")
    resolved = loader.resolve(syntax.parse_ruleset(text, str(path)), path)
    assert check.check(resolved) == []
    assert "winner" in render_ruleset(resolved).lower()
    with pytest.raises(RuleCheckError, match=r"first trick has no winner"):
        compiler.compile_ruleset(resolved)


def test_a_record_names_a_ruleset_never_a_path():
    for bad in ("/etc/passwd", "../variants/original", "variants/original.schachett"):
        record = dict(BASE_RECORD, ruleset=bad)
        with pytest.raises(RecordError, match="not a ruleset name"):
            replay.parse_record(json.dumps(record), "game.json")


@pytest.mark.parametrize("dealer", [True, 1.0, "2"])
def test_a_record_seat_must_be_a_whole_number(dealer):
    with pytest.raises(RecordError, match="dealer"):
        replay.parse_record(json.dumps(dict(BASE_RECORD, dealer=dealer)), "game.json")


def test_a_rule_file_with_a_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "bom.schachett"
    path.write_bytes("\ufeff".encode() + ORIGINAL.replace("ruleset original", "ruleset bom").encode())
    assert loader.load(str(path)).name == "bom"


def test_a_settlement_that_fails_on_some_game_is_refused_with_its_clause(workdir):
    text = ORIGINAL.replace("amount: round_half_up((winner - loser) / 4)", "amount: winner / loser")
    with pytest.raises(RuleCheckError) as info:
        _resolve_text(text, workdir)
    assert "settlement" in str(info.value) and "division by zero" in str(info.value)

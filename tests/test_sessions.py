"""Sessions (§13; §4,2 (3p), §12 (3p)): played cycles, the ledger per player, session files.

The rotation itself (six seatings, each pair partnered equally) is tested on
the seatings in tests/test_clauses.py; here the sessions are played.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schachett_rules.cli.main import main
from schachett_rules.kernel.compiler import compile_ruleset
from schachett_rules.errors import RecordError
from schachett_rules.rules.loader import load
from schachett_rules.engine.replay import replay
from schachett_rules.engine.session import DUMMY, ledger, play_session, read_session

# The deck of §1, as names: what every game must play exactly once.
DECK = Counter(
    [f"{c}{f}" for c in "ws" for f in ("K", "D", "T", "T", "L", "L", "S", "S")]
    + [f"{c}{n}" for c in "ws" for n in range(1, 9)]
    + [f"{c}{r}" for c in "ws" for r in ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")]
)
CARD_POINTS = 2 * (sum(range(1, 9)) + 2 * 9 + 2 * 10 + 2 * 11 + 12)   # §12: 216


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def played(ref: str, seed: int, options: dict[str, str] | None = None, cycles: int = 1):
    """Play a session the way ``schachett session`` does: the dealer clause says who deals first."""
    options = options or {}
    r = load(ref, options)
    t = compile_ruleset(r)
    clause = r.clause("session")
    players = list("ABC") if clause.reign is not None else list("ABCD")
    return t, play_session(t, r.name, options, clause, players, cycles, seed)


def money_sum(lines) -> Fraction:
    return sum((Fraction(x.money).limit_denominator() for x in lines), Fraction(0))


def table_of(output: str) -> list[str]:
    """The ledger table of a command's output: from the header line to the sum line."""
    lines = output.splitlines()
    start = next(i for i, s in enumerate(lines) if s.startswith("player"))
    end = next(i for i, s in enumerate(lines) if s.startswith("sum"))
    return lines[start:end + 1]


@pytest.fixture(scope="module")
def original_session():
    return played("original", 11)


@pytest.fixture(scope="module")
def three_player_session():
    return played("three-player", 12)


# --- §13: the played cycle -----------------------------------------------------------------------------

def test_s13_one_played_cycle_partners_every_pair_in_exactly_8_games(original_session):
    t, session = original_session
    assert len(session.games) == 24
    counts = Counter({frozenset(p): 0 for p in combinations("ABCD", 2)})
    for g in session.games:
        for party in t.parties:
            counts[frozenset(g.seating[s] for s in party)] += 1
    assert len(counts) == 6 and set(counts.values()) == {8}


def test_s13_the_seating_changes_only_between_rounds(original_session):
    _, session = original_session
    assert [g.round for g in session.games] == [r for r in range(1, 7) for _ in range(4)]
    for first, *rest in (session.games[i:i + 4] for i in range(0, 24, 4)):
        assert all(g.seating == first.seating for g in rest)
    assert len({tuple(g.seating) for g in session.games}) == 6
    assert session.games[0].seating == list("ABCD")


# --- the ledger -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("which", ["original_session", "three_player_session"])
def test_s12_the_ledger_sums_to_zero_after_every_game(which, request):
    t, session = request.getfixturevalue(which)
    sums, numbers = [], []
    last = []

    def after(number, lines):
        numbers.append(number)
        sums.append(money_sum(lines))
        last[:] = lines

    final = ledger(t, session, after_each=after)
    assert numbers == list(range(1, 25))
    assert sums == [0] * 24
    assert final == last
    assert any(x.money != 0 for x in final)          # money did change hands
    assert [x.games for x in final] == [24] * len(session.players)


def test_s12_3p_the_kaisers_ledger_includes_the_dummys_money(three_player_session):
    t, session = three_player_session
    expected = {p: Fraction(0) for p in session.players}
    dummy_money = Fraction(0)
    for g in session.games:
        assert g.seating[2] == DUMMY
        net = [Fraction(x).limit_denominator() for x in replay(g.record).result.net]
        assert sum(net) == 0
        expected[g.seating[0]] += net[0] + net[2]    # the Kaiser wins or pays for his dummy too
        expected[g.seating[1]] += net[1]
        expected[g.seating[3]] += net[3]
        dummy_money += abs(net[2])
    assert dummy_money > 0
    lines = ledger(t, session)
    assert {x.player: Fraction(x.money).limit_denominator() for x in lines} == expected
    # The dummy is no player: it counts no games of its own.
    assert [x.player for x in lines] == ["A", "B", "C"] and all(x.games == 24 for x in lines)


# --- the command line: session files ------------------------------------------------------------------------

def test_a_session_file_replays_to_the_same_ledger(tmp_path):
    path = tmp_path / "s.json"
    played_run = run("session", "original", "--cycles", "1", "--seed", "3", "--quiet", "--json", str(path))
    assert played_run.exit_code == 0, played_run.output
    replayed = run("replay", str(path))
    assert replayed.exit_code == 0, replayed.output
    table = table_of(played_run.stdout)
    assert table == table_of(replayed.stdout)
    assert len(table) == 6 and [s.split()[0] for s in table[1:5]] == list("ABCD")
    assert "24 games of original, replayed" in replayed.stdout
    as_json = run("replay", "--json", str(path))
    data = json.loads(as_json.stdout)
    assert data["games"] == 24
    by_player = {x["player"]: x for x in data["ledger"]}
    for row in table[1:5]:
        player, games, won, points, pfg = row.split()
        assert (by_player[player]["games"], by_player[player]["won"], by_player[player]["points"]) == \
            (int(games), int(won), int(points))
        assert by_player[player]["money"] == float(pfg)


def test_the_same_seed_gives_the_same_session(tmp_path):
    paths = [tmp_path / f"{i}.json" for i in range(3)]
    outputs = []
    for path, seed in zip(paths, ("8", "8", "9")):
        result = run("session", "three-player", "--seed", seed, "--quiet", "--json", str(path))
        assert result.exit_code == 0, result.output
        outputs.append(result.stdout)
    assert paths[0].read_text() == paths[1].read_text() and outputs[0] == outputs[1]
    assert paths[0].read_text() != paths[2].read_text()
    assert read_session(paths[0]).games[0].record.hands != read_session(paths[2]).games[0].record.hands


@pytest.mark.parametrize("ruleset, players", [("original", "A,B,C"), ("original", "A,B,C,D,E"),
                                              ("three-player", "A,B,C,D"), ("original", "A,B,A,D")])
def test_players_that_do_not_fit_the_session_are_a_usage_error(ruleset, players):
    result = run("session", ruleset, "--players", players, "--quiet")
    assert result.exit_code == 2, result.output
    assert "--players" in result.stderr and "players" in result.stderr
    assert "Traceback" not in result.output


@pytest.fixture(scope="module")
def session_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("sessions") / "good.json"
    result = run("session", "original", "--seed", "4", "--quiet", "--json", str(path))
    assert result.exit_code == 0, result.output
    return path


def broken(session_file: Path, tmp_path: Path, edit) -> Path:
    data = json.loads(session_file.read_text())
    edit(data["games"][4])
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data))
    return path


def _short_hand(game):
    game["record"]["hands"][0].pop()


def _swapped_cards(game):
    actions = game["record"]["actions"]
    actions[0], actions[1] = actions[1], actions[0]


def _no_dealer(game):
    del game["record"]["dealer"]


def _other_ruleset(game):
    game["record"]["ruleset"] = "three-player"


@pytest.mark.parametrize("edit, words", [
    (_short_hand, "seat 0 is dealt 12 cards"),
    (_swapped_cards, "action 1, trick 1"),
    (_no_dealer, "dealer"),
    (_other_ruleset, "the record plays three-player"),
])
def test_a_broken_game_in_a_session_file_is_a_record_error_naming_the_game(session_file, tmp_path, edit, words):
    path = broken(session_file, tmp_path, edit)
    result = run("replay", str(path))
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    message = result.stderr
    assert message.startswith("error: ") and "game 5" in message and words in message


def test_a_broken_game_record_in_a_session_is_a_record_error_through_the_api(session_file, tmp_path):
    session = read_session(broken(session_file, tmp_path, _short_hand))
    t = compile_ruleset(load("original"))
    seen = []
    with pytest.raises(RecordError, match=r"^game 5: seat 0 is dealt 12 cards"):
        ledger(t, session, after_each=lambda n, lines: seen.append(n))
    assert seen == [1, 2, 3, 4]                    # the games before it were scored
    with pytest.raises(RecordError, match=r"game 5: the field record\.dealer is wrong"):
        read_session(broken(session_file, tmp_path, _no_dealer))


def test_a_session_names_a_ruleset_never_a_path(session_file, tmp_path):
    data = json.loads(session_file.read_text())
    data["ruleset"] = "../variants/original"
    path = tmp_path / "path.json"
    path.write_text(json.dumps(data))
    with pytest.raises(RecordError, match="not a ruleset name"):
        read_session(path)


# --- random sessions keep every invariant (hypothesis) ---------------------------------------------------

RULESETS = [("original", {}), ("three-player", {}), ("original", {"castling": "both"})]


@pytest.mark.slow
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**31 - 1), which=st.sampled_from(RULESETS))
def test_random_sessions_keep_every_invariant(seed, which):
    ref, options = which
    t, session = played(ref, seed, options)
    assert len(session.games) == 24
    resolved = load(ref, options)
    kaiser = {p: Fraction(0) for p in session.players}
    for g in session.games:
        report = replay(g.record, f"game {g.number}", resolved=resolved)
        tricks = report.tricks
        assert len(tricks) == 13 and all(len(tr.cards) == 4 for tr in tricks)
        # §1: every card of the deck is played exactly once (a rescued King is played again later,
        # the officer that took its place counts in its trick).
        assert Counter(c for tr in tricks for _, c in tr.cards) == DECK
        assert Counter(c for h in g.record.hands for c in h) == DECK
        # §12 and §11: 216 card points, and 9 more for each suit card IV promoted in the last trick.
        promoted = sum(1 for _, c in tricks[-1].cards if c[1:] == "IV")
        assert sum(report.result.card_points) == CARD_POINTS + 9 * promoted
        assert sum(tr.points for tr in tricks) == CARD_POINTS + 9 * promoted
        # §7–§9: each King meets exactly one fate.
        assert sorted(e.king for e in report.result.events) == ["sK", "wK"]
        assert sum(len(tr.events) for tr in tricks) == 2
        # §12: the money sums to zero in every game.
        net = [Fraction(x).limit_denominator() for x in report.result.net]
        assert sum(net) == 0
        for c in report.castles:
            assert c.cite == "§5 (3p)"
        if ref == "three-player":
            kaiser[g.seating[0]] += net[0] + net[2]
            kaiser[g.seating[1]] += net[1]
            kaiser[g.seating[3]] += net[3]
    lines = ledger(t, session)
    assert money_sum(lines) == 0
    assert sum(x.games for x in lines) == 24 * (3 if ref == "three-player" else 4)
    if ref == "three-player":
        assert {x.player: Fraction(x.money).limit_denominator() for x in lines} == kaiser

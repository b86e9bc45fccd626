"""The ``schachett`` command line: exit codes, messages and outputs.

Exit 0 when all is well, 1 for bad input (a rule file, a record), 2 for bad usage; bad input is
one paragraph starting with ``error:``, never a traceback.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from schachett_rules.language import ir, syntax
from schachett_rules.cli.main import main
from schachett_rules.paths import variants_dir

ORIGINAL = variants_dir() / "original.schachett"
LACUNAE = ["suit-order", "pawn-takes-suit", "ties", "king-follow", "deal", "castling", "castle-officer", "castle-king", "castle-limit", "castle-moment", "remaining", "king-order",
           "penalty-money", "promoted-points", "rounding"]


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def assert_clean_failure(result, code: int) -> str:
    """A failure with the given exit code and a one-paragraph message, no traceback."""
    assert result.exit_code == code, (result.exit_code, result.output)
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    return result.stderr


@pytest.fixture(scope="module")
def sampled(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("records") / "game.json"
    result = run("sample", "original", "--seed", "3", "--out", str(out))
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture
def broken_rules(tmp_path) -> tuple[Path, int, int]:
    text = ORIGINAL.read_text(encoding="utf-8").replace("seats [§1 printed]: 4", "seats [§1 printed] 4")
    path = tmp_path / "broken.schachett"
    path.write_text(text, encoding="utf-8")
    line = next(i for i, s in enumerate(text.splitlines(), 1) if s.startswith("seats"))
    return path, line, len("seats [§1 printed] ") + 1


# --- check ------------------------------------------------------------------------------------------

def test_check_original_is_sound_and_lists_the_lacunae():
    result = run("check", "original")
    assert result.exit_code == 0, result.output
    assert "ruleset original is sound" in result.stdout
    assert "deck of 52 cards, 4 seats, 13 tricks" in result.stdout
    assert f"{len(LACUNAE)} lacunae" in result.stdout
    for name in LACUNAE:
        assert re.search(rf"^\s+{re.escape(name)}\s+§", result.stdout, re.M), name
    assert re.search(r"deal\s+§4\s+plays kings-face-up \[inferred\]; also random", result.stdout)


def test_check_with_an_option_says_who_chose_it():
    result = run("check", "original", "--option", "deal=random")
    assert result.exit_code == 0, result.output
    assert re.search(r"deal\s+§4\s+plays random \[ai, chosen by --option\]; also kings-face-up", result.stdout)


def test_check_broken_file_exits_1_naming_file_line_column(broken_rules):
    path, line, column = broken_rules
    err = assert_clean_failure(run("check", str(path)), 1)
    assert err.startswith("error: ")
    assert f"{path}:{line}:{column}:" in err
    assert "seats [§1 printed] 4" in err and "^" in err
    assert err.count("error:") == 1


def test_check_semantic_error_exits_1_naming_file_line_column(tmp_path):
    text = ORIGINAL.read_text(encoding="utf-8").replace("seats [§1 printed]", "seats [§14 printed]")
    path = tmp_path / "cites.schachett"
    path.write_text(text, encoding="utf-8")
    line = next(i for i, s in enumerate(text.splitlines(), 1) if s.startswith("seats"))
    err = assert_clean_failure(run("check", str(path)), 1)
    assert re.match(rf"error: {re.escape(str(path))}:{line}:\d+: seats \[§14\]: citation '§14'", err), err


def test_check_unknown_ruleset_exits_1():
    err = assert_clean_failure(run("check", "no-such-ruleset"), 1)
    assert "no ruleset 'no-such-ruleset'" in err and "original" in err


@pytest.mark.slow
def test_console_script_exit_codes(broken_rules):
    """The installed `schachett` script, run for real: exit 1 for bad input, 2 for bad usage, 0 otherwise."""
    script = Path(sys.executable).with_name("schachett")
    assert script.exists(), script
    path, line, column = broken_rules
    bad = subprocess.run([str(script), "check", str(path)], capture_output=True, text=True, timeout=120)
    assert bad.returncode == 1
    assert bad.stderr.startswith(f"error: {path}:{line}:{column}:")
    assert "Traceback" not in bad.stderr + bad.stdout
    usage = subprocess.run([str(script), "simulate", "original", "--games", "0"], capture_output=True, text=True,
                           timeout=120)
    assert usage.returncode == 2
    ok = subprocess.run([str(script), "check", "original"], capture_output=True, text=True, timeout=120)
    assert ok.returncode == 0 and "is sound" in ok.stdout


def test_python_m_runs_the_same_command(broken_rules):
    """`python -m schachett_rules` is the `schachett` command: its name in the usage, its exit codes."""
    path, line, column = broken_rules
    usage = subprocess.run([sys.executable, "-m", "schachett_rules", "--help"], capture_output=True, text=True,
                           timeout=120)
    assert usage.returncode == 0 and usage.stdout.startswith("Usage: schachett ")
    bad = subprocess.run([sys.executable, "-m", "schachett_rules", "check", str(path)], capture_output=True,
                         text=True, timeout=120)
    assert bad.returncode == 1 and bad.stderr.startswith(f"error: {path}:{line}:{column}:")


# --- show -------------------------------------------------------------------------------------------

def test_show_prints_sections_and_grades():
    result = run("show", "original")
    assert result.exit_code == 0, result.output
    out = result.stdout
    for heading in ("§1 Schachett", "§2 Ranking Order when Taking Tricks", "§3.2 Rules when leading a Pawn",
                    "§7 Checkmate", "§12 "):
        assert re.search(rf"^{re.escape(heading)}", out, re.M), heading
    for grade in ("[printed]", "[inferred]", "[conjecture]"):
        assert grade in out
    assert "Gaps and ambiguities" in out
    assert "▶ kings-face-up" in out


def test_show_json_is_the_resolved_ruleset():
    result = run("show", "original", "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["name"] == "original"
    assert {c["key"] for c in data["clauses"]} >= {"deck", "seats", "ranking", "capture", "follow pawn", "settlement"}
    assert [c["lacuna"]["name"] for c in data["lacunae"]] == LACUNAE


def test_show_rules_round_trips():
    result = run("show", "original", "--format", "rules")
    assert result.exit_code == 0, result.output
    again = syntax.parse_ruleset(result.stdout, "printed.schachett")
    original = syntax.parse_ruleset(ORIGINAL.read_text(encoding="utf-8"), str(ORIGINAL))
    assert ir.strip_positions(again.model_dump()) == ir.strip_positions(original.model_dump())


def test_show_ir_is_json_of_the_file():
    result = run("show", "original", "--format", "ir")
    assert result.exit_code == 0, result.output
    assert ir.Ruleset.model_validate_json(result.stdout).name == "original"


# --- sample and replay --------------------------------------------------------------------------------

def test_replay_prints_13_tricks_and_a_settlement(sampled):
    result = run("replay", str(sampled))
    assert result.exit_code == 0, result.output
    out = result.stdout
    numbers = [int(n) for n in re.findall(r"^Trick (\d+)", out, re.M)]
    assert numbers == list(range(1, 14))
    assert "Trick 13 — last trick" in out
    assert len(re.findall(r"^  → (South|West|North|East) wins with \S+, \d+ card points$", out, re.M)) == 13
    party = r"(South and North|West and East)"
    assert re.search(rf"^Card points: {party} \d+, {party} \d+$", out, re.M)
    assert re.search(rf"^Totals: +{party} \d+, {party} \d+", out, re.M)
    assert re.search(r"^Parties: South and North \(seats 0 and 2\), which holds the [ws]K; .*$", out, re.M)
    settlement = re.search(r"^Settlement \(Pfg\): (.*)$", out, re.M)
    assert settlement
    amounts = [int(x) for x in re.findall(r"(?:South|West|North|East) ([+-]?\d+)", settlement.group(1))]
    assert len(amounts) == 4 and sum(amounts) == 0


def test_replay_json_has_the_documented_keys(sampled):
    result = run("replay", str(sampled), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {"tricks", "events", "card_points", "totals", "settlement"} <= set(data)
    assert len(data["tricks"]) == 13
    assert [t["number"] for t in data["tricks"]] == list(range(1, 14))
    assert sum(data["card_points"]) >= 216
    assert len(data["events"]) == 2
    assert sum(data["settlement"]["by_seat"]) == 0
    assert data["totals"] == [c + e for c, e in zip(data["card_points"], data["event_points"])]


def test_sample_is_reproducible_and_replays(sampled, tmp_path):
    again = tmp_path / "again.json"
    assert run("sample", "original", "--seed", "3", "--out", str(again)).exit_code == 0
    assert json.loads(again.read_text()) == json.loads(sampled.read_text())
    record = json.loads(sampled.read_text())
    assert record["ruleset"] == "original" and record["dealer"] == 3
    assert len(record["actions"]) == 52 and [len(h) for h in record["hands"]] == [13] * 4


def _illegal_record(sampled: Path, tmp_path: Path) -> tuple[Path, int, int, str]:
    """The sampled record with one follower's card replaced by a card of his hand he may not play."""
    from schachett_rules.kernel.compiler import tables_for
    from schachett_rules.kernel.state import State
    from schachett_rules.kernel.deal import names_of
    t = tables_for("original")
    record = json.loads(sampled.read_text())
    game = State.from_record(t, record["dealer"], record["hands"])
    for i, card in enumerate(record["actions"]):
        legal = game.legal()
        bad = [c for c in names_of(t, game.hands[game.to_move]) if c not in legal]
        if bad:
            record["actions"][i] = bad[0]
            path = tmp_path / "illegal.json"
            path.write_text(json.dumps(record), encoding="utf-8")
            return path, game.trick_number, game.to_move, bad[0]
        game.play(card)
    raise AssertionError("the sampled game never restricted a follower")


def test_replay_illegal_record_exits_1_naming_trick_and_seat(sampled, tmp_path):
    path, trick, seat, card = _illegal_record(sampled, tmp_path)
    err = assert_clean_failure(run("replay", str(path)), 1)
    assert err.startswith("error: ")
    assert f"trick {trick}" in err and f"seat {seat}" in err and f"card {card}" in err
    assert re.search(r"\(§3\.\d\)", err), err              # the follow clause it breaks, cited


@pytest.mark.parametrize("option,words", [
    ("deal=nope", "--option deal=nope: lacuna deal has no option 'nope'"),
    ("nope=random", "--option nope=random"),
    ("nonsense", "LACUNA=OPTION"),
])
def test_replay_bad_option_is_a_usage_error(sampled, option, words):
    """A bad --option is the user's slip (exit 2), not a fault of the record's own options."""
    err = assert_clean_failure(run("replay", str(sampled), "--option", option), 2)
    assert words in err and "record's options" not in err


def test_replay_with_another_reading(sampled):
    result = run("replay", str(sampled), "--json", "--option", "promoted-points=as-officers")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["options"]["promoted-points"] == "as-officers"


@pytest.mark.parametrize("content,words", [
    ("{not json", "not valid JSON"),
    ('{"ruleset": "original"}', "dealer"),
    (None, "no such record file"),
])
def test_replay_bad_record_files_exit_1(tmp_path, content, words):
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    err = assert_clean_failure(run("replay", str(path)), 1)
    assert words in err


# --- simulate -------------------------------------------------------------------------------------------

def test_simulate_same_seed_same_output():
    first = run("simulate", "original", "--games", "300", "--seed", "7", "-q")
    second = run("simulate", "original", "--games", "300", "--seed", "7", "-q")
    assert first.exit_code == 0 and second.exit_code == 0, first.output
    assert first.stdout == second.stdout
    assert first.stdout.startswith("300 games of original, bots random, seed 7")
    other = run("simulate", "original", "--games", "300", "--seed", "8", "-q")
    assert other.exit_code == 0 and other.stdout != first.stdout


def test_simulate_json_output(tmp_path):
    out = tmp_path / "stats.json"
    result = run("simulate", "original", "--games", "200", "--seed", "1", "-q", "--json", str(out))
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["games"] == 200 and sum(data["wins"]) + data["draws"] == 200


@pytest.mark.parametrize("args,words", [
    (["--games", "0"], "--games"),
    (["--option", "nonsense"], "LACUNA=OPTION"),
    (["--option", "deal=nope"], "lacuna deal has no option 'nope'"),
    (["--option", "nope=random"], "no lacuna 'nope'"),
])
def test_simulate_bad_usage_exits_2(args, words):
    games = [] if "--games" in args else ["--games", "10"]
    result = run("simulate", "original", "-q", *games, *args)
    err = assert_clean_failure(result, 2)
    assert words in err
    assert result.stdout == ""


# --- manual ------------------------------------------------------------------------------------------------

def test_manual_prints_a_subsection():
    result = run("manual", "§3.2")
    assert result.exit_code == 0, result.output
    assert "When a B (Pawn) is led, each player must play a (higher or lower) B of the same color." in result.stdout
    assert "When an F (Suit Card) is led" not in result.stdout         # §3.3, not §3.2


def test_manual_lists_sections_and_marks_lost_ones():
    result = run("manual")
    assert result.exit_code == 0, result.output
    assert re.search(r"^§4\s.*\(lost\)$", result.stdout, re.M)
    assert re.search(r"^§3\s", result.stdout, re.M)


def test_manual_unknown_section_exits_1():
    err = assert_clean_failure(run("manual", "§14"), 1)
    assert "§14" in err


def test_every_command_that_reads_a_rule_file_refuses_what_check_refuses(tmp_path):
    # §3.2's follow clause deleted: no rule says what may be played to a led pawn
    text = ORIGINAL.read_text(encoding="utf-8").replace("ruleset original", "ruleset nofollow")
    start = text.index("follow pawn [§3.2 printed] {")
    broken = tmp_path / "nofollow.schachett"
    broken.write_text(text[:start] + text[text.index("}", start) + 1:], encoding="utf-8")
    for args in (["check"], ["show"], ["show", "--format", "json"], ["show", "--format", "rules"], ["sample"]):
        err = assert_clean_failure(run(*args, str(broken)), 1)
        assert "no `follow pawn` clause says what may be played when a pawn is led" in err, args
    err = assert_clean_failure(run("diff", "original", str(broken)), 1)
    assert "follow pawn" in err


def test_an_output_in_a_system_folder_names_the_real_reason():
    # /proc exists but takes no new file: the error must not say that it does not exist
    result = run("sample", "original", "--out", "/proc/version", "--force")
    err = assert_clean_failure(result, 2)
    assert "it belongs to a file system the operating system keeps for itself" in err
    assert "no such file" not in err

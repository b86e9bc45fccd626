"""Bad names and paths: a clear one-paragraph error with the place, never a traceback, never a file outside.

Each test asserts the exit code (1: bad input), that no traceback appears, and that the message names
where the trouble is (the rule file and line, or the name as given).
"""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from schachett_rules.cli.main import main
from schachett_rules.engine.replay import GameRecord
from schachett_rules.paths import MAX_NAME, is_ruleset_name

import pytest
from pydantic import ValidationError


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def refused(result) -> str:
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    return result.stderr


def test_a_ruleset_name_of_300_characters_is_refused_by_its_length():
    message = refused(run("check", "x" * 300))
    assert f"at most {MAX_NAME} characters" in message and "(300 characters)" in message
    assert message.count("\n") == 1                      # one paragraph


def test_extends_with_a_name_too_long_names_the_file_and_line(tmp_path: Path):
    child = tmp_path / "kid.schachett"
    child.write_text('ruleset kid "A child" extends ' + "y" * 300 + "\n", encoding="utf-8")
    message = refused(run("check", str(child)))
    assert f"{child}:1:1" in message and "extends" in message


def test_a_link_beside_a_rule_file_is_not_followed_out_of_its_folder(tmp_path: Path):
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.schachett"
    secret.write_text("the first line of a file that is not ours\n", encoding="utf-8")
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / "evil.schachett").symlink_to(secret)
    child = folder / "kid.schachett"
    child.write_text('ruleset kid "A child" extends evil\n', encoding="utf-8")
    message = refused(run("check", str(child)))
    assert "link" in message and f"{child}:1:1" in message
    assert "the first line of a file" not in message      # the target's text is never echoed


def test_a_record_naming_a_ruleset_too_long_is_a_validation_error_not_an_os_error():
    assert not is_ruleset_name("r" * (MAX_NAME + 1)) and is_ruleset_name("r" * MAX_NAME)
    with pytest.raises(ValidationError):
        GameRecord(ruleset="r" * 300, dealer=0, hands=[], actions=[])


def _variant(tmp_path: Path, name: str, edit) -> Path:
    from schachett_rules.paths import variants_dir
    text = (variants_dir() / "original.schachett").read_text(encoding="utf-8")
    text = edit(text.replace("ruleset original ", f"ruleset {name} ", 1))
    path = tmp_path / f"{name}.schachett"
    path.write_text(text, encoding="utf-8")
    return path


def test_two_choose_lines_for_one_lacuna_in_one_file_are_refused_with_both_lines(tmp_path: Path):
    path = _variant(tmp_path, "twice", lambda t: t + "\nchoose castling as-three-player\n")
    message = refused(run("check", str(path)))
    first = next(i for i, line in enumerate(path.read_text().splitlines(), 1) if line.startswith("choose castling"))
    assert f"line {first}" in message and "chosen once per file" in message and f"{path}:" in message


def test_a_child_may_choose_again_what_its_parent_chose(tmp_path: Path):
    child = tmp_path / "kid.schachett"
    child.write_text('ruleset kid "A child" extends original\nchoose castling as-three-player\n', encoding="utf-8")
    assert run("check", str(child)).exit_code == 0


def test_a_flat_stake_settles_every_decided_game_for_the_stake(tmp_path: Path):
    # §12 settles by the difference of points; a designer may play for a flat 10 Pfg a game instead.
    path = _variant(tmp_path, "flat", lambda t: t.replace("amount: round_half_up((winner - loser) / 4)", "amount: 10"))
    result = run("simulate", str(path), "--games", "40", "--workers", "1", "--no-cache", "--quiet", "--seed", "3")
    assert result.exit_code == 0, result.output
    assert "money per winning player: mean 10.00, sd 0.00" in result.output


@pytest.fixture(scope="module")
def session_file(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("session") / "s.json"
    result = run("session", "original", "--cycles", "1", "--seed", "2", "--quiet", "--json", str(out))
    assert result.exit_code == 0, result.output
    return out


def _edited(session_file: Path, tmp_path: Path, edit) -> Path:
    import json
    data = json.loads(session_file.read_text(encoding="utf-8"))
    edit(data)
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_13_an_edited_seating_is_refused_naming_the_schedule(session_file: Path, tmp_path: Path):
    # §13: the first round is played as the lots seated the players, A B C D; seats 1 and 2 swapped is not it.
    def swap(data):
        data["games"][0]["seating"] = ["A", "C", "B", "D"]
    path = _edited(session_file, tmp_path, swap)
    message = refused(run("replay", str(path)))
    assert str(path) in message and "game 1" in message and "A, B, C, D" in message


def test_13_a_game_number_out_of_order_is_refused(session_file: Path, tmp_path: Path):
    def renumber(data):
        data["games"][-1]["number"] = 999
    message = refused(run("replay", str(_edited(session_file, tmp_path, renumber))))
    assert "game 999" in message and "1, 2, 3" in message


def test_13_round_0_is_refused(session_file: Path, tmp_path: Path):
    def zero(data):
        data["games"][0]["round"] = 0
    message = refused(run("replay", str(_edited(session_file, tmp_path, zero))))
    assert "round 0" in message and "round 1" in message


def test_13_every_game_twice_is_refused(session_file: Path, tmp_path: Path):
    def twice(data):
        data["games"] = data["games"] + data["games"]
    message = refused(run("replay", str(_edited(session_file, tmp_path, twice))))
    assert "game 1" in message


def test_an_edited_three_player_seating_is_an_error_not_a_key_error(tmp_path: Path):
    import json
    out = tmp_path / "k.json"
    assert run("session", "three-player", "--cycles", "1", "--seed", "2", "--quiet", "--json", str(out)).exit_code == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    data["games"][0]["seating"] = ["dummy", "B", "A", "C"]       # the dummy put in the Kaiser's place
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    message = refused(run("replay", str(path)))
    assert "game 1" in message and "schedule" in message


@pytest.mark.parametrize("args", [
    ["simulate", "original", "--games", "99999999999999999999999999"],
    ["sweep", "original", "--lacuna", "castling", "--games", "99999999999999999999999999"],
    ["compare", "original", "reconstruction", "--games", "99999999999999999999999999"],
    ["session", "original", "--cycles", "99999999999"],
])
def test_a_count_past_any_reasonable_run_is_a_usage_error_at_once(args):
    result = run(*args)
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "is not in the range" in result.output and ("--games" in result.output or "--cycles" in result.output)


@pytest.mark.parametrize("edit, words", [
    (lambda t: t.replace("    D: 12\n", "    D: 9223372036854775808\n", 1), "points must lie between"),
    (lambda t: t.replace("amount: round_half_up((winner - loser) / 4)", "amount: winner * 9223372036854775807"),
     "at most 1,000,000,000"),
])
def test_points_and_amounts_too_large_to_count_are_refused_by_check(tmp_path: Path, edit, words):
    path = _variant(tmp_path, "huge", edit)
    message = refused(run("check", str(path)))
    assert words in message and f"{path}:" in message


def test_10_3p_a_dummy_laid_open_after_a_trick_that_never_comes_is_refused(tmp_path: Path):
    # §10 (3p): the dummy's cards are laid out after the first trick; a rule file may move that moment, but
    # only to a moment of the game (a game of 13 tricks has nothing left to see after trick 13).
    from schachett_rules.paths import variants_dir
    text = (variants_dir() / "three-player.schachett").read_text(encoding="utf-8")
    for after in ("13", "99999999999999999999"):
        path = tmp_path / "tp.schachett"
        path.write_text(text.replace("ruleset three-player ", "ruleset tp ", 1)
                        .replace("exposed after trick 1,", f"exposed after trick {after},"), encoding="utf-8")
        message = refused(run("check", str(path)))
        assert f"exposed after trick {after}" in message and f"{path}:12:" in message


def test_a_non_utf8_rule_file_is_refused_with_line_and_column(tmp_path: Path):
    path = tmp_path / "latin.schachett"
    path.write_bytes('ruleset latin "L" extends original\n# caf'.encode() + b"\xe9 au lait\n")
    message = refused(run("check", str(path)))
    assert f"{path}:2:6" in message and "UTF-8" in message


@pytest.mark.parametrize("text, words", [
    ("override seats [§1 design]: 4\noverride seats [§1 design]: 4\n", "given twice in this file (first at line 2)"),
    ("override seats [§1]: 4\n", "[§1] has none"),
])
def test_a_clear_word_for_a_doubled_override_and_a_missing_grade(tmp_path: Path, text, words):
    path = tmp_path / "kid.schachett"
    path.write_text('ruleset kid "A child" extends original\n' + text, encoding="utf-8")
    assert words in refused(run("check", str(path)))


def test_dropping_a_lacuna_the_parent_dropped_names_who_dropped_it(tmp_path: Path):
    path = tmp_path / "kid.schachett"
    path.write_text('ruleset kid "A child" extends eight-players\ndrop lacuna deal\n', encoding="utf-8")
    message = refused(run("check", str(path)))
    assert "dropped already, by ruleset eight-players" in message and "eight-players.schachett:" in message


def test_a_record_of_a_ruleset_of_ones_own_replays_beside_its_rule_file(tmp_path: Path):
    # The record names its ruleset ('mine'); wherever the folder goes, the rule file beside it is found.
    rules = _variant(tmp_path, "mine", lambda t: t)
    record, session = tmp_path / "game.json", tmp_path / "session.json"
    assert run("sample", str(rules), "--seed", "4", "--out", str(record)).exit_code == 0
    assert run("session", str(rules), "--cycles", "1", "--quiet", "--json", str(session)).exit_code == 0
    for path in (record, session):
        result = run("replay", str(path))
        assert result.exit_code == 0, result.output
    (rules).unlink()
    message = refused(run("replay", str(record)))
    assert "'mine'" in message and str(tmp_path) in message


def test_1_a_table_of_10_30_seats_is_refused_by_check_and_show_and_its_prose_names_no_seat(tmp_path: Path):
    # §1: four players. A mutated seat count is refused by every command that reads the file, and the prose
    # (which the rulebook pages write without compiling) must not walk round an endless table.
    from schachett_rules.rules.loader import load
    from schachett_rules.rules.rulebook import render_ruleset
    path = _variant(tmp_path, "endless", lambda t: t.replace("seats [§1 printed]: 4", "seats [§1 printed]: " + "1" + "0" * 30))
    assert "cannot each be dealt a card" in refused(run("check", str(path)))
    assert "cannot each be dealt a card" in refused(run("show", str(path)))
    assert "Partners sit opposite each other;" in render_ruleset(load(str(path)))   # no seat named

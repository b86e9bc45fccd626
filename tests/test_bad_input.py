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

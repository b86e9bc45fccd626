"""The command line loads a command's module only when that command runs.

``schachett --help`` lists every command from the table in :mod:`schachett_rules.cli.main`,
and ``schachett check`` needs only the rule files' modules: neither may import numpy, numba,
matplotlib or mkdocs, which take a good part of a second to load.
"""

from __future__ import annotations

import importlib
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from schachett_rules.cli.main import COMMANDS, main

HEAVY = ("numpy", "numba", "matplotlib", "mkdocs")
PROJECT = Path(__file__).resolve().parent.parent


def run_fresh(*args: str) -> subprocess.CompletedProcess:
    """Run the command line in a fresh interpreter, where no command's module is loaded yet."""
    code = ("import json, sys\n"
            "from schachett_rules.cli.main import main\n"
            "try:\n"
            f"    main({list(args)!r})\n"
            "except SystemExit as stop:\n"
            "    status = stop.code or 0\n"
            f"heavy = sorted({{name.split('.')[0] for name in sys.modules}} & {set(HEAVY)!r})\n"
            "print(json.dumps({'status': status, 'heavy': heavy}), file=sys.stderr)\n")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(PROJECT), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=PROJECT, env=env,
                          check=False)


def loaded_by(*args: str) -> dict:
    """The exit code of a command run in a fresh interpreter, and the heavy packages it imported."""
    return json.loads(run_fresh(*args).stderr.strip().splitlines()[-1])


@pytest.mark.parametrize("args", [["--help"], ["check", "original"]])
def test_help_and_check_load_no_heavy_package(args):
    assert loaded_by(*args) == {"status": 0, "heavy": []}


def test_a_command_that_plays_loads_its_modules_when_it_runs():
    # the other side of the test above: the stand-in listing must not hide a command that needs numpy
    assert "numpy" in loaded_by("sample", "original", "--seed", "1")["heavy"]


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_listed_line_is_the_first_paragraph_of_the_commands_help(name):
    module, summary = COMMANDS[name]
    command = getattr(importlib.import_module(f"schachett_rules.cli.{module}"), name)
    assert isinstance(command, click.Command) and command.name == name
    first_paragraph = inspect.cleandoc(command.help).split("\n\n")[0]
    assert summary.split() == first_paragraph.split()


def test_every_command_is_listed_in_the_help():
    out = CliRunner().invoke(main, ["--help"], terminal_width=200).output
    listed = [line.split()[0] for line in out.split("Commands:\n")[1].splitlines() if line.strip()]
    assert listed == sorted(COMMANDS)


def test_a_mistyped_command_is_offered_a_command_not_yet_loaded():
    done = run_fresh("simulat")
    assert json.loads(done.stderr.strip().splitlines()[-1])["status"] == 2
    assert "No such command 'simulat'" in done.stderr
    if hasattr(click.exceptions, "NoSuchCommand"):   # click 8.4 and later suggest a close name
        assert "Did you mean 'simulate'?" in done.stderr

"""The family tutorial (docs/family-tutorial.md) is true: every step's file is built from the page and checked, and
every output the page shows is what the command prints.

A step's block adds its clauses to the file so far, or replaces the clauses of the same key (the page says "replace
the ranking ..."); a step may remove clauses first (`<!-- step 4 removes: parties -->`). The whole file shown at the
end must be the file the steps build.
"""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from schachett_rules.cli.main import main
from schachett_rules.kernel.compiler import compile_ruleset
from schachett_rules.language import ir
from schachett_rules.language.printer import format_ruleset
from schachett_rules.language.syntax import parse_ruleset
from schachett_rules.paths import home
from schachett_rules.rules.loader import load

PAGE = home() / "docs" / "family-tutorial.md"
FILE = "little-schafkopf.schachett"
BLOCK = re.compile(r"<!-- (step \d+(?: removes: [a-z ,]+)?|output: [^>]+|the whole file) -->\n *```text\n(.*?)\n *```",
                   re.S)


def blocks() -> list[tuple[str, str]]:
    """(marker, text) in the page's order; an indented block (in a note) is dedented."""
    out = []
    for marker, text in BLOCK.findall(PAGE.read_text(encoding="utf-8")):
        lines = text.splitlines()
        pad = min((len(x) - len(x.lstrip()) for x in lines if x.strip()), default=0) if marker == "the whole file" else 0
        out.append((marker, "\n".join(x[pad:] for x in lines)))
    return out


def key(statement) -> str:
    return f"contract {statement.name}" if isinstance(statement, ir.Contract) else ir.clause_key(statement.clause)


def merged(text: str, block: str, remove: tuple[str, ...]) -> str:
    """The file after a step: its clauses replace those of the same key, new ones go last."""
    if not text:
        return block + "\n"
    base, add = parse_ruleset(text), parse_ruleset("ruleset x\n" + block)
    statements = [s for s in base.statements if key(s) not in remove]
    keys = [key(s) for s in statements]
    for s in add.statements:
        if key(s) in keys:
            statements[keys.index(key(s))] = s
        else:
            statements.append(s)
            keys.append(key(s))
    return format_ruleset(base.model_copy(update={"statements": tuple(statements)}))


def run(*args, input=None) -> str:
    result = CliRunner().invoke(main, list(args), input=input)
    assert result.exit_code in (0, 1), result.output
    return result.output.strip("\n")


@pytest.fixture(scope="module")
def walked(tmp_path_factory):
    """Walk the page: build each step's file, run the command of each output block; (outputs, files by step)."""
    folder = tmp_path_factory.mktemp("tutorial")
    mp = pytest.MonkeyPatch()
    mp.chdir(folder)
    text, files, outputs = "", {}, []
    try:
        for marker, block in blocks():
            if marker.startswith("step"):
                step = int(marker.split()[1])
                remove = tuple(k.strip() for k in marker.partition("removes:")[2].split(",") if k.strip())
                text = merged(text, block, remove)
                (folder / FILE).write_text(text, encoding="utf-8")
                files[step] = text
            elif marker == "the whole file":
                outputs.append((marker, block, format_ruleset(parse_ruleset(block))))
            else:
                what = marker.removeprefix("output: ")
                if what == "check":
                    got = run("check", FILE)
                elif what.startswith("show"):
                    got = run("show", FILE)
                elif what.startswith("play"):
                    for old in folder.glob("schachett-game-*.json"):
                        old.unlink()
                    got = run("play", FILE, "--seat", "0", "--seed", "5", "--bots", "random", input="1\n" * 100)
                elif what.startswith("simulate"):
                    got = run("simulate", FILE, "--games", "400", "--seed", "1", "--quiet", "--workers", "1")
                elif what == "session":
                    got = run("session", FILE, "--seed", "3", "--quiet")
                else:
                    raise AssertionError(f"an output block of no known command: {marker}")
                outputs.append((what, block, got))
    finally:
        mp.undo()
    return outputs, files


def test_the_page_has_five_steps_and_an_output_for_every_command(walked):
    outputs, files = walked
    assert sorted(files) == [1, 2, 3, 4, 5]
    assert [w for w, _, _ in outputs] == ["check", "check", "the whole file", "show (the end)", "play (the start)",
                                          "play (the end)", "simulate (the start and the end)", "session"]


def test_step_1_is_refused_with_what_it_lacks_and_every_later_step_is_sound(walked, tmp_path):
    _, files = walked
    for step, text in files.items():
        path = tmp_path / str(step) / FILE
        path.parent.mkdir()
        path.write_text(text, encoding="utf-8")
        if step == 1:
            assert "the ruleset has no parties, deal" in run("check", str(path))
        else:
            compile_ruleset(load(str(path)))
            assert "is sound" in run("check", str(path))
    assert "parties" not in files[5] and "contract rufer" in files[5]


def test_every_output_is_what_the_command_prints(walked):
    outputs, files = walked
    for what, shown, got in outputs:
        if what == "the whole file":
            assert got == format_ruleset(parse_ruleset(files[5])), "the whole file is not the file the steps build"
        elif what in ("check", "session"):
            assert got == shown, what
        elif what == "show (the end)":
            assert got.endswith(shown), what
        elif what == "play (the start)":
            assert got.startswith(shown), what
        elif what == "play (the end)":
            assert got.endswith(shown), what
        elif what.startswith("simulate"):
            head, _, tail = shown.partition("\n...\n")
            assert got.startswith(head) and got.endswith(tail), what

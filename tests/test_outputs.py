"""Nothing is lost: what the commands write, where, and what they refuse.

An existing file is replaced only with --force; nothing is written into the package, variants/,
manual/ or docs/; a site is built only into a new or empty folder or an earlier build; every
output path is checked before the work; a write that fails leaves no half file. Each refusal
is one paragraph naming the path, exit 2 (bad usage); a failed write is exit 1; never a traceback.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import schachett_rules
from schachett_rules.cli import output
from schachett_rules.cli.main import main
from schachett_rules.paths import home, manual_dir, variants_dir

ORIGINAL = variants_dir() / "original.schachett"
OLD = b'{"kept": "the bytes of a file that was here before"}\n'


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, [str(a) for a in args], input=input)


def refused(result, *names: str, code: int = 2) -> str:
    """A clean refusal: the exit code, one paragraph on stderr naming the paths, no traceback."""
    assert result.exit_code == code, (result.exit_code, result.output)
    assert isinstance(result.exception, SystemExit), result.exception
    assert "Traceback" not in result.output
    message = result.stderr
    assert message.startswith("error: ") and message.strip().count("\n") == 0, message
    for name in names:
        assert name in message, (name, message)
    return message


def digest(folder: Path) -> dict[str, str]:
    """Every file under a folder with the hash of its bytes."""
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}


@pytest.fixture
def no_run(monkeypatch):
    """Fail the test if a command starts its long work: the refusal must come before it."""
    def boom(*args, **kwargs):
        raise AssertionError("the long run started before the output path was checked")
    import schachett_rules.engine.session as session
    import schachett_rules.simulation.simulate as simulate
    monkeypatch.setattr(simulate, "cached_run", boom)
    monkeypatch.setattr(session, "play_session", boom)


WRITERS = {   # every command that writes a file, with the argument that names it
    "sample": ["sample", "original", "--seed", "3", "--out"],
    "simulate --json": ["simulate", "original", "--games", "60", "-q", "--json"],
    "session --json": ["session", "original", "-q", "--json"],
    "play --out": ["play", "original", "--seed", "3", "--bots", "random", "--out"],
}


# --- an existing file is kept unless --force -------------------------------------------------------------

@pytest.mark.parametrize("command", WRITERS)
def test_an_existing_file_is_kept_without_force(command, tmp_path, no_run):
    target = tmp_path / "earlier.json"
    target.write_bytes(OLD)
    result = run(*WRITERS[command], target, input="1\n" * 13)
    message = refused(result, str(target), "--force")
    assert "already exists" in message
    assert target.read_bytes() == OLD
    assert "Your hand" not in result.output   # play: nothing was dealt


@pytest.mark.parametrize("command", ["sample", "simulate --json", "session --json"])
def test_force_replaces_the_file_whole(command, tmp_path):
    target = tmp_path / "earlier.json"
    target.write_bytes(OLD)
    result = run(*WRITERS[command], target, "--force")
    assert result.exit_code == 0, result.output
    assert json.loads(target.read_text(encoding="utf-8"))["ruleset"] == "original"
    assert [p.name for p in tmp_path.iterdir()] == ["earlier.json"]   # no temporary file left beside it


def test_play_keeps_an_earlier_game_saved_under_the_default_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    earlier = tmp_path / "schachett-game-3.json"
    earlier.write_bytes(OLD)
    result = run("play", "original", "--seed", "3", "--bots", "random", input="1\n" * 13)
    refused(result, "schachett-game-3.json", "--force")
    assert earlier.read_bytes() == OLD


def test_play_with_force_saves_over_the_earlier_game(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    earlier = tmp_path / "schachett-game-3.json"
    earlier.write_bytes(OLD)
    result = run("play", "original", "--seed", "3", "--bots", "random", "--force", input="1\n" * 13)
    assert result.exit_code == 0, result.output
    assert json.loads(earlier.read_text(encoding="utf-8"))["ruleset"] == "original"


# --- nothing is written into the package, variants/, manual/ or docs/ -----------------------------------------

PROTECTED = {"variants": variants_dir(), "manual": manual_dir(), "package": Path(schachett_rules.__file__).parent,
             "docs": home() / "docs"}


@pytest.mark.parametrize("force", [[], ["--force"]])
def test_sample_never_replaces_a_rule_file(force, no_run):
    before = ORIGINAL.read_bytes()
    message = refused(run("sample", "original", "--out", ORIGINAL, *force), str(ORIGINAL), "--force")
    assert "rule files" in message
    assert ORIGINAL.read_bytes() == before


@pytest.mark.parametrize("where", PROTECTED)
@pytest.mark.parametrize("force", [[], ["--force"]])
def test_no_file_is_written_into_a_protected_folder(where, force, no_run):
    folder = PROTECTED[where]
    before = digest(folder)
    new = folder / "written-by-a-command.json"
    refused(run("sample", "original", "--out", new, *force), str(new), "--force")
    refused(run("simulate", "original", "-n", "60", "-q", "--json", new, *force), str(new), "--force")
    refused(run("simulate", "original", "-n", "60", "-q", "--plot", folder, *force), str(folder), "--force")
    refused(run("simulate", "original", "-n", "60", "-q", "--plot", folder / "plots", *force), "--force")
    assert digest(folder) == before


def test_plots_are_refused_in_the_rule_folder_given_with_a_slash(no_run):
    before = digest(variants_dir())
    refused(run("simulate", "original", "-n", "60", "-q", "--plot", f"{variants_dir()}/"), "variants", "--force")
    assert digest(variants_dir()) == before


# --- plots --------------------------------------------------------------------------------------------------

def test_plots_keep_existing_figures_without_force_and_never_touch_other_files(tmp_path):
    folder = tmp_path / "plots"
    folder.mkdir()
    (folder / "points.svg").write_bytes(OLD)
    (folder / "notes.txt").write_bytes(OLD)
    message = refused(run("simulate", "original", "-n", "60", "-q", "--plot", folder), str(folder), "points.svg",
                      "--force")
    assert "notes.txt" not in message
    assert (folder / "points.svg").read_bytes() == OLD
    result = run("simulate", "original", "-n", "60", "-q", "--plot", folder, "--force")
    assert result.exit_code == 0, result.output
    assert (folder / "points.svg").read_bytes().lstrip().startswith(b"<?xml")
    assert (folder / "notes.txt").read_bytes() == OLD


def test_the_plot_names_checked_are_the_plots_drawn(tmp_path):
    """The check before the run lists the files plot_stats writes, no more and no fewer."""
    from schachett_rules.simulation.plots import FIGURES, FORMATS
    assert run("simulate", "original", "-n", "60", "-q", "--plot", tmp_path / "p").exit_code == 0
    assert sorted(p.name for p in (tmp_path / "p").iterdir()) == sorted(f"{f}.{e}" for f in FIGURES for e in FORMATS)


# --- every path is checked before the work -------------------------------------------------------------------

@pytest.mark.parametrize("command", WRITERS)
def test_a_missing_folder_is_named_before_the_run(command, tmp_path, no_run):
    target = tmp_path / "nodir" / "x.json"
    message = refused(run(*WRITERS[command], target, input="1\n" * 13), str(target))
    assert "there is no folder" in message and str(tmp_path / "nodir") in message


@pytest.mark.parametrize("command", WRITERS)
def test_a_folder_where_a_file_is_wanted(command, tmp_path, no_run):
    result = run(*WRITERS[command], tmp_path, input="1\n" * 13)
    if command == "session --json":   # click's own check of the option (a usage message of its own form)
        assert result.exit_code == 2 and "Traceback" not in result.output
        assert f"'{tmp_path}' is a directory" in result.stderr
        return
    assert "is a folder" in refused(result, str(tmp_path))


@pytest.mark.parametrize("command", WRITERS)
def test_a_name_too_long_for_the_file_system(command, tmp_path, no_run):
    target = tmp_path / ("x" * 300 + ".json")
    message = refused(run(*WRITERS[command], target, input="1\n" * 13), "x" * 300)
    assert "too long" in message


def test_a_folder_inside_a_file(tmp_path, no_run):
    (tmp_path / "plain").write_bytes(OLD)
    target = tmp_path / "plain" / "x.json"
    message = refused(run("sample", "original", "--out", target), str(target))
    assert "is a file, not a folder" in message
    refused(run("simulate", "original", "-n", "60", "-q", "--plot", tmp_path / "plain"), "plain", "not a folder")
    assert (tmp_path / "plain").read_bytes() == OLD


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="permissions do not bind the superuser")
def test_an_unwritable_folder_is_named_before_the_run(tmp_path, no_run):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        message = refused(run("simulate", "original", "-n", "60", "-q", "--json", folder / "x.json"), str(folder))
        assert "cannot write" in message
    finally:
        folder.chmod(0o700)


# --- a failed write leaves no half file ---------------------------------------------------------------------

@pytest.mark.parametrize("code, words", [(errno.ENOSPC, "no space left"), (errno.EIO, "input/output error")])
def test_a_failing_disk_leaves_the_earlier_file_and_no_temporary_one(code, words, tmp_path, monkeypatch):
    target = tmp_path / "earlier.json"
    target.write_bytes(OLD)

    def full(fd):
        raise OSError(code, os.strerror(code))
    monkeypatch.setattr(output.os, "fsync", full)
    message = refused(run("sample", "original", "--out", target, "--force"), str(target), code=1)
    assert words in message
    assert target.read_bytes() == OLD
    assert [p.name for p in tmp_path.iterdir()] == ["earlier.json"]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_dev_full_is_one_paragraph():
    refused(run("sample", "original", "--out", "/dev/full"), "/dev/full", "no space left", code=1)


# --- the site ------------------------------------------------------------------------------------------------

@pytest.fixture
def fake_mkdocs(monkeypatch):
    """mkdocs replaced by a stand-in that writes a two-file site, so the folder handling is tested in seconds."""
    import subprocess

    class Done:
        returncode = 0

    def build(args, **kwargs):
        site = Path(args[args.index("--site-dir") + 1])
        site.mkdir(parents=True, exist_ok=True)
        (site / "index.html").write_text("<h1>Schachett</h1>", encoding="utf-8")
        (site / "assets").mkdir(exist_ok=True)
        (site / "assets" / "site.css").write_text("body {}", encoding="utf-8")
        return Done()
    monkeypatch.setattr(subprocess, "run", build)


@pytest.mark.slow
@pytest.mark.parametrize("force", [[], ["--force"]])
def test_site_build_never_writes_into_the_project_or_its_sources(force, fake_mkdocs):
    for folder in (home(), home() / "docs", home() / "docs" / "site", variants_dir(), manual_dir(),
                   Path(schachett_rules.__file__).parent):
        before = digest(folder) if folder.is_dir() else None
        refused(run("site", "build", "--dir", folder, *force), str(folder), "--force")
        assert (digest(folder) if folder.is_dir() else None) == before


def test_site_build_refuses_a_folder_of_other_files(tmp_path, fake_mkdocs):
    (tmp_path / "thesis.tex").write_bytes(OLD)
    message = refused(run("site", "build", "--dir", tmp_path), str(tmp_path), "--force")
    assert "not empty" in message
    assert digest(tmp_path) == {"thesis.tex": hashlib.sha256(OLD).hexdigest()}
    assert not [p for p in tmp_path.parent.iterdir() if p.name.startswith(".schachett-")]


def test_site_build_into_a_new_folder_leaves_a_marker_and_replaces_only_its_own_build(tmp_path, fake_mkdocs):
    target = tmp_path / "site"
    assert run("site", "build", "--dir", target).exit_code == 0
    assert (target / "index.html").is_file() and (target / output.SITE_MARKER).is_file()
    (target / "stale.html").write_text("from the earlier build", encoding="utf-8")
    assert run("site", "build", "--dir", target).exit_code == 0
    assert (target / "index.html").is_file() and (target / output.SITE_MARKER).is_file()
    assert not (target / "stale.html").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]   # no staging folder left


def test_site_build_with_force_adds_its_files_and_deletes_nothing(tmp_path, fake_mkdocs):
    (tmp_path / "thesis.tex").write_bytes(OLD)
    (tmp_path / "index.html").write_bytes(OLD)
    result = run("site", "build", "--dir", tmp_path, "--force")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "thesis.tex").read_bytes() == OLD
    assert (tmp_path / "index.html").read_text(encoding="utf-8") == "<h1>Schachett</h1>"
    assert not (tmp_path / output.SITE_MARKER).exists()   # still not ours: the next build needs --force again


def test_a_failed_site_build_leaves_the_earlier_one(tmp_path, fake_mkdocs, monkeypatch):
    import subprocess
    target = tmp_path / "site"
    assert run("site", "build", "--dir", target).exit_code == 0
    before = digest(target)

    class Failed:
        returncode = 1
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: Failed())
    refused(run("site", "build", "--dir", target), str(target), code=1)
    assert digest(target) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_site_build_strong_games_reaches_the_build_and_is_checked_first(tmp_path, monkeypatch):
    import subprocess
    seen = []

    class Done:
        returncode = 0

    def build(args, **kwargs):
        seen.append(kwargs["env"].get("SCHACHETT_SITE_STRONG_GAMES"))
        Path(args[args.index("--site-dir") + 1]).mkdir(parents=True, exist_ok=True)
        return Done()
    monkeypatch.setattr(subprocess, "run", build)
    monkeypatch.delenv("SCHACHETT_SITE_STRONG_GAMES", raising=False)
    assert run("site", "build", "--dir", tmp_path / "a", "--strong-games", "30").exit_code == 0
    assert run("site", "build", "--dir", tmp_path / "b").exit_code == 0
    assert seen == ["30", None]                  # without the option the pages play the default 200
    # too few games to compare two readings by, and a variable that is not a number: refused before any work
    result = run("site", "build", "--dir", tmp_path / "c", "--strong-games", "4")
    assert result.exit_code == 2 and "--strong-games" in result.output
    monkeypatch.setenv("SCHACHETT_SITE_STRONG_GAMES", "lots")
    message = refused(run("site", "build", "--dir", tmp_path / "d"), "SCHACHETT_SITE_STRONG_GAMES", code=1)
    assert "'lots'" in message and "--strong-games" in message
    assert len(seen) == 2 and not (tmp_path / "c").exists() and not (tmp_path / "d").exists()


@pytest.mark.parametrize("command", [["sample"], ["play"], ["session"], ["simulate"], ["site", "build"]])
def test_every_command_that_writes_offers_force(command):
    result = run(*command, "--help")
    assert result.exit_code == 0 and "--force" in result.output

"""Shared helpers: rule files written on the fly, deals with chosen cards, and the site built once per run."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from schachett_rules.kernel.compiler import Tables, compile_ruleset
from schachett_rules.kernel.state import State
from schachett_rules.paths import home
from schachett_rules.rules.loader import load


def pytest_configure(config):
    """A run that leaves out the slow tests is the fast lane: the sampling tests sample less (:mod:`tests.lane`)."""
    from tests import lane
    lane.FAST = "not slow" in (config.getoption("markexpr") or "")


def deal_with(t: Tables, dealer: int, fixed: dict[int, list[str]]) -> list[list[str]]:
    """A full deal in which the given seats hold the given cards.

    Face-up cards of the deal clause go where the clause says; the other
    cards fill the hands in deck order (so the deal is the same every run).
    """
    d = t.deck
    pool = [d.card_name(c) for c in range(t.n_cards)]
    hands: list[list[str]] = [[] for _ in range(t.n_seats)]
    for face, base, offset in t.gives:
        seat = (dealer + offset) % t.n_seats if base == "dealer" else offset
        name = d.face_names[face]
        if name not in fixed.get(seat, []):
            hands[seat].append(name)
            pool.remove(name)
    for seat, cards in fixed.items():
        for name in cards:
            pool.remove(name)  # a ValueError here means the test asked for a card twice
            hands[seat].append(name)
    for seat in range(t.n_seats):
        while len(hands[seat]) < t.hand_size:
            hands[seat].append(pool.pop(0))
    assert not pool
    return hands


def game_with(ref: str, fixed: dict[int, list[str]], dealer: int = 3, options: dict | None = None,
              path: Path | None = None) -> State:
    """A game of a ruleset (name or file) whose deal gives the seats the chosen cards."""
    t = compile_ruleset(load(str(path) if path else ref, options))
    return State.from_record(t, dealer, deal_with(t, dealer, fixed))


@pytest.fixture
def rules(tmp_path):
    """Write a rule file into a temporary folder and return its path."""
    def write(text: str, name: str = "variant") -> Path:
        p = tmp_path / f"{name}.schachett"
        p.write_text(text, encoding="utf-8")
        return p
    return write


@pytest.fixture(autouse=True, scope="session")
def _simulation_cache(tmp_path_factory):
    """Runs the tests play are cached in a folder of their own, not in the project's cache."""
    os.environ["SCHACHETT_CACHE"] = str(tmp_path_factory.mktemp("simulation-cache"))
    yield


@pytest.fixture(scope="session")
def game_server(tmp_path_factory):
    """One `schachett serve` process shared by the game server's tests (tests/serving.py)."""
    from tests.serving import serving
    with serving(tmp_path_factory.mktemp("game-server")) as running:
        yield running


def shared_folder(tmp_path_factory) -> Path:
    """A folder every test process of this run sees: the run's base temp folder, or, under pytest-xdist, the folder
    that holds each worker's own base temp (pytest makes both afresh for each run)."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


# The suite's site plays a tenth of the strong games the real build plays (`schachett site build --strong-games`):
# the same pages from the same code. The strong players take most of the build's time (with 50 games, 10 of its
# 17 minutes of CPU on the slower machine, the gap pages' sampling players and their duels 8.6 of them), and the
# build is most of the suite's.
SITE_STRONG_GAMES = 20


def build_site(out: Path) -> tuple[bool, str]:
    """Build the whole site strictly into ``out``: whether the build succeeded, and its output."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", DISABLE_MKDOCS_2_WARNING="true",
               SCHACHETT_SITE_STRONG_GAMES=str(SITE_STRONG_GAMES))
    env.pop("SCHACHETT_SITE_URL", None)        # the sitemap test (tests/test_learn.py) names the default address
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                            cwd=home(), env=env, capture_output=True, text=True)
    return result.returncode == 0, result.stdout + result.stderr


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, _simulation_cache) -> Path:
    """The whole site, built once for the run however many xdist workers ask for it (the build takes minutes).

    The first worker to ask builds it under a file lock; the others wait for the lock and take its outcome: the
    folder when the build succeeded, the build's own output as their failure when it did not. The tests only read
    the folder.
    """
    from filelock import FileLock
    root = shared_folder(tmp_path_factory)
    out = root / "site"
    built = root / "site.built"     # written only after a successful build, so a half-built folder is never served
    failed = root / "site.failed"
    with FileLock(str(root / "site.lock")):
        if not built.is_file() and not failed.is_file():
            if out.exists():
                shutil.rmtree(out)     # left by a worker that died while building: its pages are not all there
            ok, output = build_site(out)
            (built if ok else failed).write_text(output, encoding="utf-8")
    assert built.is_file(), failed.read_text(encoding="utf-8")
    return out

#!/usr/bin/env python3
"""The project's two jobs, runnable on a fresh machine with nothing but Python 3.11.

    python3 tasks.py build   # set up, check every ruleset, simulate, build the site (site/)
    python3 tasks.py test    # set up, run the whole test suite

Arguments after ``test`` go to pytest: ``python3 tasks.py test -m "not slow"`` is the fast lane,
everything but the tests marked slow (the whole site build, long hypothesis runs, the Dask
cluster, long simulations); CI runs the whole suite. The tests run in one process per core
(pytest-xdist); ``-n 0`` runs them in one.

Each job creates ``.venv`` on first use and installs the project into it; a
later run reinstalls only when pyproject.toml has changed.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".installed"


def run(*args: str | Path, **kw) -> None:
    """Run a command, echoing it; stop the job if it fails."""
    print("+", " ".join(str(a) for a in args), flush=True)
    result = subprocess.run([str(a) for a in args], cwd=ROOT, **kw)
    if result.returncode:
        sys.exit(result.returncode)


def setup() -> None:
    """Create the virtual environment and install the project (once per pyproject change)."""
    if sys.version_info < (3, 11):
        sys.exit(f"Python 3.11 or newer is needed; this is {sys.version.split()[0]}")
    if not (BIN / "python").exists():
        print(f"creating {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    want = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == want:
        return
    run(BIN / "python", "-m", "pip", "install", "--quiet", "--upgrade", "pip")
    run(BIN / "python", "-m", "pip", "install", "--quiet", "-e", ".[test,site]")
    STAMP.write_text(want)


def build() -> None:
    """Check every ruleset, simulate the printed game (build/), and build the site (site/)."""
    setup()
    out = ROOT / "build"
    out.mkdir(exist_ok=True)
    schachett = BIN / "schachett"
    for rules in sorted((ROOT / "variants").glob("*.schachett")):
        run(schachett, "check", rules)
        with open(out / f"{rules.stem}.txt", "w", encoding="utf-8") as fh:
            run(schachett, "show", rules.stem, stdout=fh)
    with open(out / "simulation-original.txt", "w", encoding="utf-8") as fh:
        run(schachett, "simulate", "original", "--games", "10000", "--seed", "7",
            "--json", out / "simulation-original.json", "--force", stdout=fh)   # build/ is this job's own
    print((out / "simulation-original.txt").read_text(encoding="utf-8"))
    run(schachett, "site", "build")
    print(f"Done: rulesets checked; prose and simulation in {out}/; the site is in {ROOT / 'site'}/ "
          f"(open site/index.html, or run: .venv/bin/schachett site serve)")


def workers(args: list[str]) -> list[str]:
    """pytest-xdist's arguments for one test process per core, a test file to each in turn (its module fixtures
    are made once), unless the arguments already say how to run (``-n 0``: in this process alone)."""
    if any(a.startswith(("-n", "--numprocesses", "--dist")) or a in ("no:xdist", "-pno:xdist") for a in args):
        return []
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return ["-n", str(cores), "--dist", "loadfile"] if cores > 1 else []


def test() -> None:
    """Run the whole test suite (or what the pytest arguments select, e.g. ``-m "not slow"``), a process a core."""
    setup()
    args = sys.argv[2:]
    # pytest keeps each test module with its asserts rewritten as bytecode beside it (__pycache__, ignored by git);
    # where the environment forbids bytecode, every test process rewrites all of them again, seconds a run
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    run(BIN / "python", "-m", "pytest", *workers(args), *args, env=env)


JOBS = {"build": build, "test": test, "setup": setup}

if __name__ == "__main__":
    if len(sys.argv) < 2 or sys.argv[1] not in JOBS:
        sys.exit(f"usage: python3 tasks.py {{{'|'.join(JOBS)}}} [pytest arguments for test]")
    JOBS[sys.argv[1]]()

"""Hostile command lines, seeded and bounded: no traceback, no odd exit code, no error without a place,
no input wrong by construction accepted, no file of the project touched.

The cases come from tests/fuzzing.py; ``python benchmarks/fuzz.py`` runs thousands of them and prints
the figures by kind. Here a few hundred run, against a copy of the project's data (``SCHACHETT_HOME``),
so a command that would destroy ``variants/`` or ``manual/`` destroys only the copy and fails the test.
"""

from __future__ import annotations

import pytest

from tests.fuzzing import GENERATORS, cases, run_case, sandbox, snapshot

pytestmark = pytest.mark.slow


@pytest.fixture()
def home_copy(tmp_path, monkeypatch):
    monkeypatch.setenv("SCHACHETT_HOME", str(tmp_path / "home"))   # restored after the test
    sandbox(tmp_path)
    return tmp_path


@pytest.mark.parametrize("kind", sorted(GENERATORS))
def test_hostile_inputs_are_refused_cleanly(kind, home_copy):
    count = 120 if kind in ("rule", "cli") else 60
    problems = []
    for case in cases(seed=sorted(GENERATORS).index(kind) + 101, count=count, folder=home_copy, kinds=(kind,)):
        before = snapshot()
        verdict = run_case(case, before, limit=60)
        problems += [f"{' '.join(case.args)[:150]} ({case.note}): {p}" for p in verdict.problems]
    assert not problems, "\n".join(problems[:20])

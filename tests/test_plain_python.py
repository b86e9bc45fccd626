"""The compiled state run as plain Python (numba disabled) gives what the compiled code gives.

The kernel's state calls the leaf rules of kernel/core.py as Python; the play-outs and the batch call the same
source compiled by numba. Here a second process runs the compiled module itself with ``NUMBA_DISABLE_JIT=1``:
the play-outs, the batch and an apply-and-undo walk, for every ruleset and the castling readings, and the
results must be the compiled ones number for number. A fault that only numba's arithmetic shows (a wrapping
word, a cast) cannot hide behind the same compiled code on both sides.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from tests.test_state import CASES

SCRIPT = textwrap.dedent('''
    import json, sys, warnings
    import numpy as np
    warnings.simplefilter("ignore", RuntimeWarning)      # the words wrap on purpose, as in the compiled code
    from schachett_rules.kernel.compiler import tables_for
    from schachett_rules.kernel.state import State
    from schachett_rules.kernel.streams import GameStream
    from schachett_rules.playouts.batch import random_batch, uniforms
    from schachett_rules.playouts.single import random_game
    from schachett_rules.playouts.walk import CompiledState

    def run(cases):
        out = []
        for ref, options in cases:
            t = tables_for(ref, tuple(tuple(o) for o in options))
            games = [random_game(t, g % t.n_seats, GameStream(g, 3)) for g in range(4)]
            batch = random_batch(t, np.arange(4) % t.n_seats, uniforms(t, 4, np.random.default_rng(2)))
            state = State.deal(t, 1 % t.n_seats, GameStream(7, 0))
            walk = CompiledState(state)
            steps = walk.walk(np.random.default_rng(4).random(64), 150)
            out.append({"games": [[list(o.totals), list(o.trick_winners), [list(c) for c in o.castles],
                                   [[e[1], e[2], e[3], e[4]] for e in o.events]] for o in games],
                        "batch": [batch.totals.tolist(), batch.winners.tolist(), batch.castle_log.tolist()],
                        "walk": [steps, walk.hands(), walk.points(), walk.phase]})
        return out

    print(json.dumps(run(json.loads(sys.argv[1]))))
''')


@pytest.mark.slow
def test_the_compiled_state_as_plain_python_gives_the_compiled_results():
    cases = [[ref, [list(o) for o in options]] for ref, options in CASES]
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    plain = subprocess.run([sys.executable, "-c", SCRIPT, json.dumps(cases)], capture_output=True, text=True,
                           env=env, timeout=1200)
    assert plain.returncode == 0, plain.stderr[-3000:]
    namespace: dict = {}
    exec(SCRIPT.split("print(json.dumps")[0], namespace)           # the same script, compiled, in this process
    compiled = namespace["run"](cases)
    for (ref, options), a, b in zip(cases, json.loads(plain.stdout), json.loads(json.dumps(compiled))):
        assert a == b, (ref, options)
    assert any(c for case in compiled for game in case["games"] for c in game[2])   # castles were played
    assert np.asarray([case["walk"][0] for case in compiled]).min() == 150

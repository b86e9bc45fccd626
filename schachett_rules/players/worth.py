"""What a finished play-out is worth to each party, by the measure its ruleset decides the game by.

In Schachett a party wants points, and a play-out is worth its points less the others'. A game of the family
decided by game points alone (no settlement: the fewest points in Hearts, the tricks over six in Whist) is
worth its game points less the others', as the kernel's :func:`~schachett_rules.kernel.scoring.outcome`
counts them (the moon shot and the tricks included), turned round where the fewest win.

>>> from schachett_rules.kernel.compiler import tables_for
>>> values(tables_for("original"), [120, 80], [7, 6], [0] * 4)
[40, -40]
>>> values(tables_for("hearts"), [20, 0, 6, 0], [5, 2, 3, 3], [0] * 4)     # 20 points: the worst of four
[-14, 26, 14, 26]
>>> values(tables_for("hearts"), [26, 0, 0, 0], [9, 2, 1, 1], [0] * 4)     # the moon shot: each other as if he took all 26
[78, 26, 26, 26]
>>> values(tables_for("whist"), [0, 0], [8, 5], [0] * 4)                 # two game points to none
[2, -2]
"""

from __future__ import annotations

from fractions import Fraction

from ..kernel.scoring import outcome
from ..kernel.tables import Tables
from ..playouts.single import rollout


def by_game_points(t: Tables) -> bool:
    """Whether the ruleset decides a game by its game points alone (no settlement in money)."""
    return t.settlement is None and t.game_points is not None


def measures(t: Tables, totals, game_points) -> list:
    """Each party's measure, the higher the better: its game points (negated where the fewest win) where the
    ruleset decides a game by them, else its points.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> measures(tables_for("hearts"), [20, 0, 6, 0], [20, 0, 6, 0]), measures(tables_for("original"), [120, 80], ())
    ([-20, 0, -6, 0], [120, 80])
    """
    if by_game_points(t):
        sign = -1 if t.game_points.lowest_wins else 1
        return [sign * g for g in game_points]
    return list(totals)


def values(t: Tables, totals, tricks, hands) -> list:
    """Each party's worth of a finished game: its measure less all the others' together."""
    gp = outcome(t, tuple(totals), tuple(tricks), hands)[2] if by_game_points(t) else ()
    measure = measures(t, totals, [Fraction(g) for g in gp])
    whole = sum(measure)
    return [int(m) if isinstance(m, int) or m.denominator == 1 else float(m)
            for m in (2 * m - whole for m in measure)]


def played_out(state, rng) -> list:
    """Each party's worth (:func:`values`) of the game after a random play-out from ``state`` (of the game itself
    when it is over); the state is not changed."""
    t = state.t
    if state.over:
        totals = state.points
    else:
        totals = rollout(state, rng)
    if not by_game_points(t):
        return values(t, totals, (), ())
    return values(t, totals, tricks_taken(state, rng, totals), state.start_hands or tuple(state.hands))


def tricks_taken(state, rng, totals) -> list[int]:
    """The tricks each party took in the game just played out from ``state`` (the kernel's tricks up to the
    position, the compiled play-out's after it)."""
    from ..playouts import single
    t = state.t
    tricks = [0] * len(t.parties)
    for entry in state.trick_log:
        tricks[t.party_of[entry[2]]] += 1
    if not state.over:
        # the play-out just played lies in this thread's compiled arrays: its tricks from the position on
        c, _plan, arrays, _args = single._arrays(t)
        for winner in arrays.tricks[state.done:, c.T_WINNER].tolist():
            tricks[t.party_of[winner]] += 1
    return tricks

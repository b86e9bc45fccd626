"""The par of a position and its best line, in words and as JSON (what ``schachett solve`` prints).

>>> from schachett_rules.kernel.compiler import tables_for
>>> from schachett_rules.kernel.state import State
>>> from schachett_rules.kernel.streams import GameStream
>>> t = tables_for("original")
>>> game = State.deal(t, 0, GameStream(4, 0))
>>> while game.done < 11:
...     _ = game.apply(game.legal_actions()[0])
>>> rep = analyse(game, "original", "seed 4, after 44 cards")
>>> rep["value"] == rep["totals"][rep["side"]] - rep["totals"][1 - rep["side"]], len(rep["tricks"])
(True, 2)
"""

from __future__ import annotations

import time

from ..kernel.state import State
from ..kernel.tables import Tables
from .exact import ENTRY_BYTES, SearchLimit, Solver, describe_action, worth_words

DEFAULT_BUDGET = 3_000_000_000    # positions in all: ten to twenty minutes, room for a whole deal of four hands


def table_bits_for(state: State, most_mb: int | None = None) -> int:
    """The size of the transposition table (2**bits entries of 32 bytes) for a question from ``state``: a whole deal
    of thirteen tricks searches hundreds of millions of positions, and a table of 2**23 entries (256 MB) saves a
    fifth of them over one of 2**22; a late position needs a small one. ``most_mb``: no more than that many
    megabytes (a smaller table answers the same, with more positions searched again).

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> from schachett_rules.kernel.streams import GameStream
    >>> deal = State.deal(tables_for("original"), 0, GameStream(0, 0))
    >>> table_bits_for(deal), table_bits_for(deal, most_mb=100)
    (23, 21)
    """
    left = state.t.n_tricks - state.done
    bits = 20 if left <= 8 else 22 if left <= 10 else 23
    if most_mb is not None:
        bits = min(bits, ((most_mb << 20) // ENTRY_BYTES).bit_length() - 1)
    return bits


def analyse(state: State, ruleset: str, where: str, budget: int = DEFAULT_BUDGET, solver: Solver | None = None,
            progress=None) -> dict:
    """The par of ``state`` for the party deciding now, its best line and the tricks it makes, as JSON-ready data
    (``low`` and ``high`` are the value too, as in :func:`unfinished`, where they differ; ``totals`` are the
    parties' points at the end of the line, ``counted`` their tricks' worth as the value counts it).

    Raises :class:`~schachett_rules.errors.SchachettError` when the search needs more than ``budget`` positions in
    all. ``progress(low, high, nodes)`` hears how the search goes (:meth:`~.exact.Solver.par`).
    """
    t = state.t
    solver = solver or Solver(t, table_bits=table_bits_for(state))
    start = time.perf_counter()
    par = solver.par(state, budget=budget, progress=progress)
    seconds = time.perf_counter() - start
    game = state.clone()
    first = len(game.tricks)
    for action in par.line:
        game.apply(action)
    tricks = [{"trick": tr.number, "leader": t.seat_name(tr.leader),
               "cards": [[t.seat_name(s), c] for s, c in tr.cards], "winner": t.seat_name(tr.winner),
               "points": tr.points, "events": [f"{e.event} of {e.king} ({e.points})" for e in tr.events]}
              for tr in game.tricks[first:]]
    return _report(state, ruleset, where, par.side, seconds, solver, value=par.value, low=par.value, high=par.value,
                   future=par.future, totals=list(par.totals), counted=solver.worth_so_far(game),
                   line=[describe_action(t, a) for a in par.line], tricks=tricks, nodes=par.nodes, solved=True)


def _report(state: State, ruleset: str, where: str, side: int, seconds: float, solver: Solver, **found) -> dict:
    """The keys every report has (where, for whom, the points so far, the time and table), with ``found``."""
    return {"ruleset": ruleset, "position": where, "trick": state.trick_number, "side": side,
            "party": state.t.party_names[side], "value_counts": worth_words(state.base),
            "points_now": list(state.points), "seconds": round(seconds, 3),
            "table_mb": round(solver.table_bytes() / (1 << 20), 1), **found}


def unfinished(state: State, ruleset: str, where: str, limit: SearchLimit, seconds: float, solver: Solver) -> dict:
    """What a search stopped by its budget had proved, in the keys of :func:`analyse`: ``low`` and ``high`` bound
    the final value of the party deciding now (``value`` is that value once they meet, else None), and there is no
    line; ``solved`` is False.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> from schachett_rules.kernel.streams import GameStream
    >>> game = State.deal(tables_for("original"), 0, GameStream(0, 0))
    >>> solver = Solver(game.t, table_bits=16)
    >>> try:
    ...     analyse(game, "original", "the deal of seed 0", budget=200_000, solver=solver)
    ... except SearchLimit as limit:
    ...     rep = unfinished(game, "original", "the deal of seed 0", limit, 0.5, solver)
    >>> rep["solved"], rep["value"], rep["low"] < rep["high"], rep["line"]
    (False, None, True, [])
    """
    return _report(state, ruleset, where, solver.side_of(state), seconds, solver,
                   value=limit.low if limit.low == limit.high else None, low=limit.low, high=limit.high, line=[],
                   tricks=[], nodes=limit.budget, solved=False)


def format_analysis(rep: dict, t: Tables) -> str:
    """The analysis as text: who is to move, the par, the best line trick by trick. Where the value counts
    something other than the points (Whist's tricks, Hearts' points against their taker), the parties' totals
    are given as it counts them, which is what the value is made of."""
    side, others = rep["side"], [p for p in range(len(t.parties)) if p != rep["side"]]
    points = rep["value_counts"] == "the points"
    ends = rep["totals"] if points else rep["counted"]
    each = ", ".join(f"{t.party_names[p]} {ends[p]}" for p in [side, *others])
    lines = [f"Par of {rep['ruleset']}, {rep['position']} (trick {rep['trick']}), every hand open:",
             f"  {rep['party']} to decide; with best play by all, the game ends {each}"
             f"{'' if points else ' as the value counts them'}: {rep['value']:+d} for {rep['party']} "
             f"({rep['future']:+d} from here).",
             *([] if points else [f"  The value counts {rep['value_counts']}."]),
             f"  {rep['nodes']:,} positions searched in {rep['seconds']:.2f} s, "
             f"with a table of {rep['table_mb']:g} MB.",
             "", "Best line:"]
    for tr in rep["tricks"]:
        cards = ", ".join(f"{seat} {card}" for seat, card in tr["cards"])
        events = f"; {', '.join(tr['events'])}" if tr["events"] else ""
        lines.append(f"  trick {tr['trick']:>2}: {cards} → {tr['winner']} takes {tr['points']}{events}")
    castles = [a for a in rep["line"] if " castles " in a or " lets " in a]
    if castles:
        lines.append("  castling on the way: " + "; ".join(castles))
    return "\n".join(lines)

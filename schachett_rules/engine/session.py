"""Sessions: rounds, cycles, the seat changes between rounds (§13), and a ledger per player.

>>> from schachett_rules.rules.loader import load
>>> for seating in seatings(load("original").clause("session"), "ABCD"):
...     print("".join(seating))
ABCD
ACBD
ACDB
ADCB
ADBC
ABDC
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations

from pydantic import BaseModel, ConfigDict

from ..language import ir
from ..kernel.chance import random_action
from ..kernel.records import money
from ..kernel.state import State
from ..kernel.tables import Tables
from ..errors import RecordError
from ..rules.loader import load
from ..paths import RulesetName
from ..kernel.streams import GameStream
from .replay import GameRecord, record_of, replay


DUMMY = "dummy"


def _change(seating: list[str], session: ir.Session, round_number: int, a: str) -> None:
    parity = "even" if round_number % 2 == 0 else "odd"
    n = len(seating)
    for ch in session.changes:
        if ch.rounds != parity:
            continue
        if ch.seats is not None:
            i, j = ch.seats
        else:
            i = (seating.index(a) + ch.after_a) % n
            j = (i + 1) % n  # the left neighbour sits on the next seat
        seating[i], seating[j] = seating[j], seating[i]


def _reign_seating(session: ir.Session, players, kaiser: int, n_seats: int) -> list[str]:
    reign = session.reign
    order = list(players[kaiser:]) + list(players[:kaiser])
    seating = [DUMMY] * n_seats
    for seat, player in zip(reign.seats, order):
        seating[seat] = player
    return seating


def seatings(session: ir.Session, players, n_seats: int | None = None) -> list[list[str]]:
    """Who sits on each seat in each round of a cycle; the first player is A.

    With a Kaiser schedule (``reign``), the players reign in turn from the
    first seat of the reign, the others sitting in lot order after him, and the
    dummy's seat is marked ``dummy``.
    """
    if session.reign is not None:
        n = n_seats or max(session.reign.seats + (session.reign.dummy,)) + 1
        out: list[list[str]] = []
        seating: list[str] = []
        for round_number in range(1, session.rounds_per_cycle + 1):
            reign_index, within = divmod(round_number - 1, session.reign.rounds)
            if within == 0:
                seating = _reign_seating(session, players, reign_index % len(players), n)
            else:
                _change(seating, session, round_number, players[0])
            out.append(list(seating))
        return out
    seating = list(players)
    out = [list(seating)]
    for round_number in range(2, session.rounds_per_cycle + 1):
        _change(seating, session, round_number, players[0])
        out.append(list(seating))
    return out


def next_cycle_start(session: ir.Session, players) -> list[str]:
    """The seating the change before the next cycle's first round produces."""
    seating = seatings(session, players)[-1]
    _change(seating, session, session.rounds_per_cycle + 1, players[0])
    return seating


def partner_counts(session: ir.Session, players, parties) -> Counter:
    """How many rounds of a cycle each pair of players plays in one party."""
    counts: Counter = Counter({frozenset(p): 0 for p in combinations(players, 2)})
    for seating in seatings(session, players):
        for party in parties:
            for a, b in combinations([seating[s] for s in party], 2):
                counts[frozenset((a, b))] += 1
    return counts


# --- playing a session --------------------------------------------------------------------------

class SessionGame(BaseModel):
    """One game of a session: who sat where, and its record."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    number: int
    round: int
    seating: list[str]
    record: GameRecord


class SessionRecord(BaseModel):
    """A whole session as JSON: the players and every game's record."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    ruleset: RulesetName
    options: dict[str, str] = {}
    players: list[str]
    games: list[SessionGame]


class LedgerLine(BaseModel):
    """One player's account over a session (``game_points``: toward the target, where games are played to one)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    player: str
    games: int
    won: int
    points: int
    money: int | float
    game_points: int | float = 0


def _ledger_lines(players, acc) -> list[LedgerLine]:
    return [LedgerLine(player=p, games=acc[p][0], won=acc[p][1], points=acc[p][2], money=money(acc[p][3]),
                       game_points=money(acc[p][4])) for p in players]


def target_of(t: Tables) -> tuple[int, bool] | None:
    """A session played to a target of game points: (the target, whether the fewest win), or None."""
    gp = t.game_points
    return (gp.target, gp.lowest_wins) if gp is not None and gp.target is not None else None


def reached(t: Tables, lines: list[LedgerLine]) -> bool:
    """Whether a player has reached the target of game points (the session is over)."""
    target = target_of(t)
    return target is not None and any(line.game_points >= target[0] for line in lines)


def session_winners(t: Tables, lines: list[LedgerLine]) -> list[str]:
    """The players who won a session played to a target: the most game points (the fewest, in Hearts)."""
    target = target_of(t)
    if target is None or not lines:
        return []
    scores = [line.game_points for line in lines]
    best = min(scores) if target[1] else max(scores)
    return [line.player for line in lines if line.game_points == best]


def ledger(t: Tables, session: SessionRecord, after_each=None, near=None) -> list[LedgerLine]:
    """Replay every game of a session and keep each player's account.

    ``after_each`` is called with the running ledger after every game (the
    tests use it to see that the money sums to zero game by game). ``near``: the session file's folder,
    where a ruleset of one's own may lie beside it.
    """
    acc = {p: [0, 0, 0, Fraction(0), Fraction(0)] for p in session.players}
    resolved = load(session.ruleset, session.options, chosen_by="the session's options", near=near)
    clause = resolved.clause("session")
    if clause is not None:
        check_schedule(clause, session, t)
    elif target_of(t) is not None:
        check_target_schedule(t, session)
    for g in session.games:
        if g.record.ruleset != session.ruleset:
            raise RecordError(f"game {g.number}: the record plays {g.record.ruleset}, but the session is a session "
                              f"of {session.ruleset}")
        # The ruleset is read once for the session; a game with options of its own is loaded with them.
        own = g.record.options != session.options
        report = replay(g.record, f"game {g.number}", resolved=None if own else resolved, near=near,
                        tables=None if own else t)
        r = report.result
        if r is None:
            raise RecordError(f"game {g.number}: the record stops before the game is over ({report.stopped}); a "
                              f"session holds finished games only")
        strangers = [p for p in g.seating if p not in acc and p != DUMMY]
        if len(g.seating) != t.n_seats or strangers:
            raise RecordError(f"game {g.number}: the seating {g.seating} must name {t.n_seats} seats, each a player "
                              f"of the session ({', '.join(session.players)}) or 'dummy'")
        for seat in range(t.n_seats):
            player = g.seating[t.controller(seat)]  # a dummy's money goes to the player who plays it
            # the game's own parties where it made them (a called partner, the Old Ones), else the ruleset's
            party = next(i for i, p in enumerate(r.parties) if seat in p) if r.parties else t.party_of[seat]
            acc[player][3] += Fraction(r.net[seat]).limit_denominator()
            if seat == t.controller(seat):
                acc[player][0] += 1
                acc[player][1] += int(r.winner == party)
                acc[player][2] += r.totals[party]
                if r.game_points:
                    acc[player][4] += Fraction(r.game_points[party]).limit_denominator()
        if after_each is not None:
            after_each(g.number, _ledger_lines(session.players, acc))
        lines = _ledger_lines(session.players, acc)
        if clause is None and reached(t, lines) and g is not session.games[-1]:
            raise RecordError(f"game {g.number}: a player has reached {target_of(t)[0]} game points, so the session "
                              f"is over, but the file goes on with game {g.number + 1} ({_gp_cite(t)})")
    return _ledger_lines(session.players, acc)


def _gp_cite(t: Tables) -> str:
    return ", ".join(t.game_points.basis.cites) if t.game_points.basis else "game points"


def check_target_schedule(t: Tables, session: SessionRecord) -> None:
    """That a session played to a target numbers its games 1, 2, 3, …, seats its players in lot order, and has
    each game dealt as the dealer clause passes the deal and numbered as it was played."""
    want = list(session.players)
    for i, g in enumerate(session.games):
        if g.number != i + 1:
            raise RecordError(f"game {g.number} stands in place {i + 1} of the file: a session numbers its games "
                              f"1, 2, 3, … in the order they were played")
        if list(g.seating) != want:
            raise RecordError(f"game {g.number}: the seating {', '.join(g.seating)} is not the players in lot order "
                              f"({', '.join(want)}); a session played to a target keeps its seats")
        if g.record.game != i or g.record.dealer != t.dealer_of(i):
            raise RecordError(f"game {g.number}: its record says game {g.record.game + 1} dealt by seat "
                              f"{g.record.dealer}, but the session's game {g.number} is dealt by seat "
                              f"{t.dealer_of(i)} ({t.dealer_cite})")


def check_schedule(clause: ir.Session, session: SessionRecord, t: Tables) -> None:
    """That a session file follows its ruleset's schedule: games numbered 1, 2, 3, … in order, each in its
    round, each round seated as the seat changes (§13) or the reigns make it.

    An edited file is refused game by game, naming what the schedule says instead.
    """
    cite = ", ".join(clause.basis.cites) if clause.basis else "session"
    try:
        check_players(clause, list(session.players), t)
    except RecordError as err:
        raise RecordError(f"the session's players: {err.message}") from None
    plan = seatings(clause, list(session.players), t.n_seats)
    for i, g in enumerate(session.games):
        if g.number != i + 1:
            raise RecordError(f"game {g.number} stands in place {i + 1} of the file: a session numbers its games "
                              f"1, 2, 3, … in the order they were played")
        want_round = i // clause.games_per_round + 1
        if g.round != want_round:
            raise RecordError(f"game {g.number}: it says round {g.round}, but with {clause.games_per_round} games a "
                              f"round it belongs to round {want_round} ({cite})")
        want = plan[(want_round - 1) % len(plan)]
        if list(g.seating) != want:
            raise RecordError(f"game {g.number}: the seating {', '.join(g.seating)} is not the schedule's for round "
                              f"{g.round}, which seats {', '.join(want)} ({cite})")


def play_session(t: Tables, ruleset: str, options: dict[str, str], session: ir.Session, players: list[str],
                 cycles: int, seed: int, progress=None) -> SessionRecord:
    """Play whole cycles with random players: seat changes between rounds, the deal passing on.

    Who deals each game is the tables' answer (:meth:`Tables.dealer_of`, from the dealer clause).
    """
    games, number = [], 0
    for cycle in range(cycles):
        for rnd, seating in enumerate(seatings(session, players, t.n_seats), start=1):
            for _ in range(session.games_per_round):
                rng = GameStream(seed, number)
                game = State.deal(t, t.dealer_of(number), rng)
                game.advance(lambda seat, state: random_action(state, rng))
                games.append(SessionGame(number=number + 1, round=cycle * session.rounds_per_cycle + rnd,
                                         seating=list(seating), record=record_of(game, ruleset, options)))
                number += 1
                if progress is not None:
                    progress(1)
    return SessionRecord(ruleset=ruleset, options=options, players=list(players), games=games)


def play_to_target(t: Tables, ruleset: str, options: dict[str, str], players: list[str], seed: int,
                   most: int = 1000, progress=None) -> SessionRecord:
    """Play games with random players until a player reaches the target of game points (the game points clause),
    the players keeping their seats in lot order and the deal passing on; at most ``most`` games."""
    target = target_of(t)
    if target is None:
        raise RecordError(f"ruleset {t.name} plays no session to a target: its game points clause names none")
    games: list[SessionGame] = []
    totals = {p: Fraction(0) for p in players}
    for number in range(most):
        rng = GameStream(seed, number)
        game = State.deal(t, t.dealer_of(number), rng, game=number)
        game.advance(lambda seat, state: random_action(state, rng))
        games.append(SessionGame(number=number + 1, round=1, seating=list(players),
                                 record=record_of(game, ruleset, options)))
        if progress is not None:
            progress(1)
        r = game.result()
        for seat, player in enumerate(players):
            party = next(i for i, p in enumerate(r.parties) if seat in p)
            totals[player] += Fraction(r.game_points[party]).limit_denominator()
        if any(v >= target[0] for v in totals.values()):
            break
    return SessionRecord(ruleset=ruleset, options=options, players=list(players), games=games)


def format_ledger(lines: list[LedgerLine], unit: str, game_points: bool = False) -> str:
    """The ledger as a table (with each player's game points, for a session played to a target).

    A game settled by game points alone (Hearts) has no money column.
    """
    money = bool(unit) or not game_points
    unit = unit or "money"
    head = f" {unit:>8}" if money else ""
    gp = f" {'game pts':>8}" if game_points else ""
    out = [f"{'player':<8} {'games':>5} {'won':>5} {'points':>8}{head}{gp}"]
    for line in lines:
        cash = f" {line.money:>+8g}" if money else ""
        extra = f" {line.game_points:>8g}" if game_points else ""
        out.append(f"{line.player:<8} {line.games:>5} {line.won:>5} {line.points:>8}{cash}{extra}")
    if money:
        total = sum(Fraction(x.money).limit_denominator() for x in lines)
        out.append(f"{'sum':<8} {'':>5} {'':>5} {'':>8} {float(total):>+8g}")
    return "\n".join(out)


def players_wanted(session: ir.Session, t: Tables) -> int:
    """How many players a session is played by: one per seat, or one per seat of the reign under a Kaiser schedule."""
    return len(session.reign.seats) if session.reign is not None else t.n_seats


def default_players(session: ir.Session, t: Tables) -> list[str]:
    """The players' names when none are given: the session clause's ``players``, else A, B, C … in lot order.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> default_players(load("three-player").clause("session"), tables_for("three-player"))
    ['A', 'B', 'C']
    >>> default_players(load("six-players").clause("session"), tables_for("six-players"))
    ['A', 'B', 'C', 'D', 'E', 'F']
    """
    n = players_wanted(session, t)
    if len(session.players) == n:
        return list(session.players)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return list(letters[:n]) if n <= len(letters) else [f"P{i + 1}" for i in range(n)]


def check_players(session: ir.Session, players: list[str], t: Tables) -> None:
    """That the players fit the session: one per seat, or one per non-dummy seat under a Kaiser schedule."""
    want = players_wanted(session, t)
    if len(players) != want or len(set(players)) != len(players):
        raise RecordError(f"this session needs {want} players with different names, not {', '.join(players)}")
    if DUMMY in players:
        raise RecordError(f"'{DUMMY}' names the dummy's seat; choose other names for the players")
    if session.reign is not None and session.reign.rounds * len(players) != session.rounds_per_cycle:
        raise RecordError(f"{len(players)} reigns of {session.reign.rounds} rounds do not make the cycle of "
                          f"{session.rounds_per_cycle} rounds")


def is_session_file(path) -> bool:
    """Whether a JSON file holds a session (an object with "games") rather than one game."""
    import json
    from pathlib import Path
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return False  # the game-record reader reports what is wrong with it
    return isinstance(data, dict) and "games" in data and "hands" not in data


def read_session(path) -> SessionRecord:
    """Read and validate a session file."""
    import json
    from pathlib import Path
    from pydantic import ValidationError
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return SessionRecord.model_validate(data)
    except (OSError, ValueError, RecursionError) as err:
        if isinstance(err, ValidationError):
            first = err.errors()[0]
            loc = list(first["loc"])
            if len(loc) > 2 and loc[0] == "games" and isinstance(loc[1], int):
                # Name the game as the session numbers it (from 1), not by its index in the list.
                game = data["games"][loc[1]]
                number = game.get("number") if isinstance(game, dict) else None
                where = ".".join(str(x) for x in loc[2:])
                raise RecordError(f"{path}: game {number if isinstance(number, int) else loc[1] + 1}: the field "
                                  f"{where} is wrong: {first['msg']}") from None
            where = ".".join(str(x) for x in loc)
            raise RecordError(f"{path}: the session's field {where} is wrong: {first['msg']}") from None
        raise RecordError(f"{path}: not a readable session file ({err})") from None

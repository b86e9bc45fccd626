"""King events and settlement, shared by the recorded engine and the fast play-outs.

Both paths call these same functions, so a King's fate and a game's money can
never be worked out two ways.
"""

from __future__ import annotations

from fractions import Fraction

from .tables import EventTable, Tables
from .core import RELATIONS, SCORERS, event_points, king_fate, king_scorer, relation, scores_for
from ..language.expr import evaluate


class KingCount:
    """How many Kings have met their fate so far: in all, and per kind of event."""

    __slots__ = ("total", "per_event")

    def __init__(self) -> None:
        self.total = 0
        self.per_event: dict[str, int] = {}

    @classmethod
    def copy_of(cls, other: "KingCount") -> "KingCount":
        """A copy to work out a trick provisionally without counting its Kings yet."""
        new = cls()
        new.total, new.per_event = other.total, dict(other.per_event)
        return new


def event_of(t: Tables) -> tuple[int, int, int]:
    """For each relation of a King's player to the winner (self, partner, opponent): the event's index, -1 for none."""
    return t.event_of


def fate_word(t: Tables, seat: int, winner: int) -> str:
    """How a King played from ``seat`` fares when ``winner`` takes the trick, as the event tables' ``when`` says it.

    ``'self'`` if it took the trick, ``'partner'`` if a partner of its seat did, ``'opponent'`` if an opponent did
    (:func:`~.core.relation`).

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> t = tables_for("original")
    >>> fate_word(t, 0, 0), fate_word(t, 0, 2), fate_word(t, 0, 1)
    ('self', 'partner', 'opponent')
    """
    return RELATIONS[relation(t.party_of, seat, winner)]


def scorer_parties(t: Tables, scorer: int) -> tuple[int, ...]:
    """The parties a :func:`~.core.king_scorer` answer names (:func:`~.core.scores_for` each)."""
    return tuple(p for p in range(len(t.parties)) if scores_for(scorer, p))


def king_events(t: Tables, trick_index: int, kings: list[tuple[int, int]], winner: int,
                count: KingCount) -> list[tuple[EventTable, int, int, bool, int, tuple[int, ...]]]:
    """The King events of one trick.

    ``kings`` lists the royal cards of the trick in play order as (seat, face).
    Returns, for each King that meets a fate: the event, the King's face, its
    owner (the seat that played it), whether it counts as the first King, the
    points, and the parties that score them.
    """
    out = []
    events, party_of, of = t.events, t.party_of, event_of(t)
    firsts, laters = [e.first for e in events], [e.later for e in events]
    before_total = count.total
    each_before = [count.per_event.get(e.name, 0) for e in events]
    each = list(each_before)
    for seat, face in kings:
        e, first = king_fate(party_of, of, t.count_each_event, t.same_trick_all_first, seat, winner,
                             count.total, before_total, each, each_before)
        if e < 0:
            continue
        ev = events[e]
        points = event_points(firsts, laters, e, first, trick_index)
        parties = scorer_parties(t, king_scorer(SCORERS.index(ev.scores), party_of, seat, winner))
        out.append((ev, face, seat, first, points, parties))
        count.total += 1
        each[e] += 1
        count.per_event[ev.name] = count.per_event.get(ev.name, 0) + 1
    return out


def amount(t: Tables, winner_points: int, loser_points: int, facts: dict | None = None) -> Fraction:
    """What each player of the winning party receives (and each loser pays); ``facts`` the game's
    (:func:`game_facts`) where the amount speaks of the declarer, the tricks, the runners or a value."""
    return evaluate(t.settlement.amount, {**(facts or {}), "winner": winner_points, "loser": loser_points})


def runners_held(t: Tables, hands) -> int:
    """How many of the runners clause's cards, from the highest down, one party held without a gap in ``hands``
    (the hands as play began).

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> runners_held(tables_for("original"), [0, 0, 0, 0])      # a ruleset without runners
    0
    """
    count, side = 0, None
    for card in t.runners:
        seat = next((s for s, h in enumerate(hands) if h >> card & 1), None)
        party = t.party_of[seat] if seat is not None else None
        if party is None or (side is not None and party != side):
            break
        side = party
        count += 1
    return count


def game_facts(t: Tables, totals, tricks, hands) -> dict:
    """What the expressions that score a game may ask of it: the declarer's party's points and tricks, the
    defenders', the most and all points, whether the declarer played alone, the runners, the contract's values."""
    dp = t.declarer_party
    facts = {"max_points": max(totals) if totals else 0, "all_points": sum(totals), "runners": runners_held(t, hands),
             "declarer_points": totals[dp] if dp >= 0 else 0, "declarer_tricks": tricks[dp] if dp >= 0 else 0,
             "defender_points": sum(x for p, x in enumerate(totals) if p != dp) if dp >= 0 else 0,
             "defender_tricks": sum(x for p, x in enumerate(tricks) if p != dp) if dp >= 0 else 0,
             "alone": int(dp >= 0 and (len(t.parties[dp]) == 1 or bool(t.sitting)))}
    facts.update(dict(t.values))
    return facts


def game_points(t: Tables, totals, tricks, facts: dict) -> tuple[Fraction, ...]:
    """The game points of each party (the game points clause): its own expression for the declarer's party and
    for the others, or one for every party; each asks the party's own ``points`` and ``tricks`` besides ``facts``."""
    gp = t.game_points
    if gp is None:
        return ()
    dp = t.declarer_party
    out = []
    for p in range(len(t.parties)):
        expr = gp.each if gp.each is not None else (gp.declarer if p == dp else gp.others if dp >= 0 else None)
        env = {**facts, "points": totals[p], "tricks": tricks[p]}
        out.append(evaluate(expr, env) if expr is not None else Fraction(0))
    return tuple(out)


def outcome(t: Tables, totals: tuple[int, ...], tricks, hands) -> tuple[int | None, tuple[Fraction, ...],
                                                                         tuple[Fraction, ...]]:
    """A finished game's winner (None: nobody), money by seat and game points by party, from its points and tricks
    by party and the hands as play began (the one place these are decided: the state's result, the batch's)."""
    facts = game_facts(t, totals, tricks, hands)
    winner, money_by_seat = settle_game(t, totals, facts)
    gp = game_points(t, totals, tricks, facts)
    if t.settlement is None and gp:
        best = (min if t.game_points.lowest_wins else max)(gp)
        winner = gp.index(best) if list(gp).count(best) == 1 else None
    return winner, money_by_seat, gp


def settle_game(t: Tables, totals: tuple[int, ...], facts: dict) -> tuple[int | None, tuple[Fraction, ...]]:
    """The winning party and the money per seat of a game (the settlement clause; no money without one).

    With ``declarer wins when``, the declarer's party wins when the expression comes to more than nothing, and
    the other party otherwise; without it the party with more points wins, and equal points pay nothing. Per
    player, each loser pays each winner the amount (:func:`stake_money`); per defender, each defender settles the
    amount with the declarer's party, whose players share what it wins or pays.
    """
    n = t.n_seats
    s = t.settlement
    if s is None:
        return None, tuple(Fraction(0) for _ in range(n))
    dp = t.declarer_party
    if s.wins is not None and dp >= 0:
        won = evaluate(s.wins, facts) > 0
        w = dp if won else next(p for p in range(len(t.parties)) if p != dp)
    else:
        if len(totals) != 2 or totals[0] == totals[1]:
            return None, tuple(Fraction(0) for _ in range(n))
        w = 0 if totals[0] > totals[1] else 1
    (loser,) = [p for p in range(len(t.parties)) if p != w] if len(t.parties) == 2 else (None,)
    a = amount(t, totals[w], totals[loser] if loser is not None else 0, facts)
    if s.per == "defender" and dp >= 0:
        return w, defender_money(t, dp, a if w == dp else -a)
    return w, stake_money(t, w, a)


def defender_money(t: Tables, declarer_party: int, a: Fraction) -> tuple[Fraction, ...]:
    """Each defender pays ``a`` to the declarer's party (receives it when ``a`` is negative), whose players share
    the sum equally.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> [int(m) for m in defender_money(tables_for("original"), 0, Fraction(5))]
    [5, -5, 5, -5]
    """
    out = [Fraction(0)] * t.n_seats
    defenders = [s for s in range(t.n_seats) if t.party_of[s] != declarer_party]
    mine = players_of(t, declarer_party)
    for s in defenders:
        out[s] -= a
    for s in mine:
        out[s] += a * len(defenders) / len(mine)
    return tuple(out)


def settle(t: Tables, totals: tuple[int, ...], facts: dict | None = None) -> tuple[int | None, tuple[Fraction, ...]]:
    """The winning party (None on a tie) and the money per seat for a game's totals (:func:`settle_game`).

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> winner, money = settle(tables_for("original"), (190, 68))
    >>> winner, [int(m) for m in money]
    (0, [31, -31, 31, -31])
    """
    return settle_game(t, totals, facts or {})


def players_of(t: Tables, party: int) -> tuple[int, ...]:
    """The seats of a party's players: each seat played by its own player (a dummy's seat is its player's)."""
    return tuple(sorted({t.controller(s) for s in t.parties[party]}))


def stake_money(t: Tables, winner: int, a: Fraction) -> tuple[Fraction, ...]:
    """The money per seat when party ``winner`` wins an amount ``a`` (the settlement's amount), by the stake clause.

    Per seat, every seat of the winners receives ``a`` and every seat of the
    losers pays it. Per player, every player settles once on the seat he
    sits on: the party with fewer players receives (or pays) ``a`` once per
    player, and the other party's players share that sum equally, so the
    money at the table sums to zero. With as many players on each side the
    two are the same.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> [str(m) for m in stake_money(tables_for("three-player", (("stake", "single"),)), 0, Fraction(31))]
    ['31', '-31/2', '0', '-31/2']
    """
    n = t.n_seats
    if t.stake == "seat":
        return tuple(a if t.party_of[s] == winner else -a for s in range(n))
    players = [players_of(t, p) for p in range(len(t.parties))]
    total = a * min(len(ps) for ps in players)
    out = [Fraction(0)] * n
    for p, ps in enumerate(players):
        for s in ps:
            out[s] = total / len(ps) if p == winner else -total / len(ps)
    return tuple(out)


def penalty_money(t: Tables, points: int) -> Fraction:
    """The money for ``points`` of penalty owed by one player to another: settled as a game won by that many points."""
    return amount(t, points, 0)


def penalty_payees(t: Tables, seat: int, to: str) -> tuple[int, tuple[int, ...]]:
    """Who pays a penalty incurred at ``seat`` and who receives it (``to``: 'opponents' or 'players'), as seats.

    Per seat (the stake clause), every seat of the opponents (or every other
    seat) receives. Per player, a player receives once however many seats
    he plays, on his own seat, and the payer is the player of ``seat``.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> penalty_payees(tables_for("three-player"), 1, "opponents")
    (1, (0, 2))
    >>> penalty_payees(tables_for("three-player", (("stake", "single"),)), 1, "opponents")
    (1, (0,))
    """
    payees = t.opponents(seat) if to == "opponents" else tuple(s for s in range(t.n_seats) if s != seat)
    if t.stake == "seat":
        return seat, payees
    payer = t.controller(seat)
    return payer, tuple(sorted({t.controller(s) for s in payees} - {payer}))


def penalty_settlement(t: Tables, debts) -> tuple[Fraction, ...]:
    """The money per seat for a game's penalty debts, each ``(payer, payee, points)``, by ``settle penalties``.

    Each penalty rounded: every debt is turned into money on its own
    (:func:`penalty_money`). Summed per game: the points each pair of players
    owe each other are netted first and turned into money once.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> [int(m) for m in penalty_settlement(tables_for("original"), [(1, 0, 25), (1, 0, 25)])]
    [12, -12, 0, 0]
    >>> t = tables_for("original", (("penalty-money", "per-game"),))
    >>> [int(m) for m in penalty_settlement(t, [(1, 0, 25), (1, 0, 25)])]
    [13, -13, 0, 0]
    """
    out = [Fraction(0)] * t.n_seats
    if t.penalty_rounding == "each":
        owed = [(payer, payee, points) for payer, payee, points in debts]
    else:
        net: dict[tuple[int, int], int] = {}
        for payer, payee, points in debts:
            lo, hi = min(payer, payee), max(payer, payee)
            net[lo, hi] = net.get((lo, hi), 0) + (points if payer == lo else -points)
        owed = [(lo, hi, p) if p > 0 else (hi, lo, -p) for (lo, hi), p in sorted(net.items()) if p]
    for payer, payee, points in owed:
        m = penalty_money(t, points)
        out[payee] += m
        out[payer] -= m
    return tuple(out)

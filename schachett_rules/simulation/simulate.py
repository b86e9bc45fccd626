"""Simulating many games and measuring what happens.

A run is described by a :class:`Spec`: the ruleset and its readings, the bots,
the number of games and the seed. Game ``i`` is dealt by seat ``i mod n`` and
played from its own random stream seeded with ``(seed, i)``, and games are
played in fixed chunks whose statistics are exact and merged in order: a run
gives the same report however many workers play it, and the same seed gives
the same report.

Game ``i`` draws its random numbers from its own stream (:mod:`.streams`), the
deal first: every run with the same seed deals the same cards, whatever the
bots, the readings or the path. Random players are played by the compiled batch
(every ruleset of two parties; the batch, the play-outs and the engine play the
same games, castles included, from the same numbers); other bots by the engine,
each seeing only its own observation.

>>> stats = run(Spec(ruleset="original", games=300, seed=7))
>>> stats.games, sum(stats.wins) + stats.draws
(300, 300)
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from fractions import Fraction
from pathlib import Path

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, field_validator

from .. import paths
from ..errors import SchachettError
from ..kernel.state import State
from ..kernel.compiler import tables_for
from ..kernel.records import GameResult, money
from ..kernel.scoring import stake_money
from ..kernel.tables import Tables
from .fingerprint import code_version
from ..language import ir
from ..language.expr import evaluate_arrays
from ..players import bot_kind, bot_problem, make_bot
from ..players.bots import play_game
from ..kernel.core import seat_at
from ..playouts.batch import draws_per_game, random_batch, supported
from ..playouts.plan import G_CONTRACT, G_SITTING, G_THROWN, G_TRICKS
from ..playouts.results import score_of
from ..kernel.streams import GameStream
from ..playouts.streams import block_uniforms
from ..rules.loader import load
from ..rules.seating import seat_words
from .parallel import map_chunks
from .stats import Stats, wilson

STRONG = ("mc", "dd", "ismcts")      # bots that think: their runs go in small chunks



class Spec(BaseModel):
    """Everything that decides a run's result (and so the key of its cache entry)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    ruleset: str
    options: dict[str, str] = {}
    bots: tuple[str, ...] = ("random",)
    games: int = Field(ge=1)
    seed: int = 0
    samples: int = Field(default=24, ge=1)   # the Monte-Carlo player's deals per decision
    chunk: int = Field(default=0, ge=0)      # games per chunk; 0: chosen by the kind of run

    @field_validator("bots")
    @classmethod
    def _known_bots(cls, value):
        for name in value:
            problem = bot_problem(name)
            if problem:
                raise ValueError(problem)
        return value

    @property
    def all_random(self) -> bool:
        """Whether every seat plays at random (then the fast paths serve)."""
        return set(self.bots) == {"random"}

    def chunk_size(self, t: Tables) -> int:
        """Games per chunk: large for batches, small for thinking bots."""
        if self.chunk:
            return self.chunk
        if self.all_random:
            return 10000 if batched(t) else 1000
        return 8 if any(bot_kind(name) in STRONG for name in self.bots) else 40

    def seat_bots(self, t: Tables) -> list[str]:
        """The bot on each seat: one name for all, one per party, or one per seat."""
        names = list(self.bots)
        if len(names) == 1:
            return names * t.n_seats
        if len(names) == len(t.parties):
            return [names[t.party_of[s]] for s in range(t.n_seats)]
        if len(names) == t.n_seats:
            return names
        raise ValueError(f"{len(names)} bots for {len(t.parties)} parties and {t.n_seats} seats: give one bot, "
                         f"one per party or one per seat")

    def key(self, t: Tables, ir_json: str) -> str:
        """A hash of everything that decides the result: the ruleset's IR, options, bots, games, seed."""
        blob = json.dumps({"ir": ir_json, "spec": self.model_dump(mode="json"), "version": code_version(),
                           "chunk": self.chunk_size(t)}, sort_keys=True)
        return hashlib.sha256(blob.encode()).hexdigest()[:24]


def tables_of(spec: Spec) -> Tables:
    """Load and compile the spec's ruleset (once per process: every chunk of a run needs it)."""
    return tables_for(spec.ruleset, tuple(sorted(spec.options.items())))


def empty_stats(t: Tables) -> Stats:
    """Fresh statistics for a ruleset."""
    return Stats.empty(t.name, len(t.parties), t.n_seats, t.n_tricks, [e.name for e in t.events])


# --- one game's contribution ----------------------------------------------------------------------

def _leads(running: np.ndarray, winner: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Lead changes, the trick from which the winner leads for good, and whether the loser was ever ahead,
    from running differences.

    ``running`` holds, for each game and after each trick, the first party's points so
    far minus the second's; ``winner`` is +1 or -1 (0 for equal final points).

    >>> _leads(np.array([[5, -3, 4], [2, 2, 9]]), np.array([1, 1]))[2].tolist()   # the second never trails
    [True, False]
    """
    sign = np.sign(running)
    games, tricks = sign.shape
    # carry the last leader over tricks where the parties are level
    idx = np.where(sign != 0, np.arange(tricks), -1)
    idx = np.maximum.accumulate(idx, axis=1)
    filled = np.where(idx >= 0, np.take_along_axis(sign, np.maximum(idx, 0), axis=1), 0)
    changes = ((filled[:, 1:] != filled[:, :-1]) & (filled[:, :-1] != 0)).sum(axis=1)
    wrong = filled != winner[:, None]
    last_wrong = np.where(wrong.any(axis=1), tricks - 1 - np.argmax(wrong[:, ::-1], axis=1), -1)
    loser_led = (winner != 0) & (sign == -winner[:, None]).any(axis=1)
    return changes, last_wrong + 1, loser_led


def add_batch(stats: Stats, t: Tables, dealers: np.ndarray, out) -> None:
    """Add a batch of games (arrays from :mod:`.batch`) to the statistics, all at once."""
    games = len(dealers)
    n = t.n_seats
    totals = out.totals
    stats.games += games
    diff = totals[:, 0] - totals[:, 1]
    winner = np.where(diff > 0, 0, np.where(diff < 0, 1, -1))
    for p in range(2):
        stats.wins[p] += int((winner == p).sum())
        col = totals[:, p]
        stats.points[p].add_sums(games, int(col.sum()), int((col * col).sum()), int(col.min()), int(col.max()))
        stats.add_hist(p, col)
    stats.add_hist(None, totals[:, 0] - totals[:, 1])
    stats.draws += int((winner == -1).sum())
    cards = out.card_points[:, 0] - out.card_points[:, 1]
    stats.kings_turned += int(((diff != 0) & (np.sign(cards) != np.sign(diff))).sum())
    stats.difference.add_sums(games, int(diff.sum()), int((diff * diff).sum()), int(diff.min()), int(diff.max()))
    decided = winner >= 0
    hi = np.maximum(totals[:, 0], totals[:, 1])
    lo = np.minimum(totals[:, 0], totals[:, 1])
    num, den = evaluate_arrays(t.settlement.amount, {"winner": hi, "loser": lo})
    # what each seat receives per pfennig of the amount when party 0 or 1 wins (the stake clause, kernel.scoring)
    shares = [stake_money(t, w, Fraction(1)) for w in range(2)]
    whole = all(x.denominator == 1 for share in shares for x in share)
    amount = [Fraction(int(a), int(b)) for a, b in zip(num, den)] if np.any(den != 1) or not whole else None
    if amount is None:
        a = num[decided]
        if len(a):
            stats.money_per_winner.add_sums(len(a), int(a.sum()), int((a * a).sum()), int(a.min()), int(a.max()))
    else:
        for i in np.nonzero(decided)[0]:
            stats.money_per_winner.add(amount[i])
    seat_party = np.array(t.party_of)
    for seat in range(n):
        share = (shares[0][seat], shares[1][seat])
        sign = (np.where(winner == 0, int(share[0]), np.where(winner == 1, int(share[1]), 0)) if whole else
                [share[w] if w >= 0 else 0 for w in winner.tolist()])
        money = sign * num if amount is None else None
        positions = (seat - dealers) % n
        for pos in range(n):
            mask = positions == pos
            if amount is None:
                m = money[mask]
                if len(m):
                    stats.position_money[pos].add_sums(len(m), int(m.sum()), int((m * m).sum()), int(m.min()), int(m.max()))
            else:
                for i in np.nonzero(mask)[0]:
                    stats.position_money[pos].add(sign[i] * amount[i])
        if amount is None:
            stats.seat_money[seat].add_sums(games, int(money.sum()), int((money * money).sum()), int(money.min()),
                                            int(money.max()))
        else:
            for i in range(games):
                stats.seat_money[seat].add(sign[i] * amount[i])
    leader = np.array([t.first_leader(d) for d in range(n)])[dealers]
    stats.leader_party_wins += int((winner == seat_party[leader]).sum())
    present = out.event_kind >= 0
    counts = present.sum(axis=1)
    for k, v in zip(*np.unique(counts, return_counts=True)):
        stats.events_per_game[int(k)] = stats.events_per_game.get(int(k), 0) + int(v)
    for i, name in enumerate(stats.event_names):
        here = out.event_kind == i
        by_trick = np.bincount(out.event_trick[here], minlength=t.n_tricks)
        stats.events_by_trick[name] = [a + int(b) for a, b in zip(stats.events_by_trick[name], by_trick)]
        stats.first_events[name] += int((here & out.event_first).sum())
    tricks_of_kings = np.where(present, out.event_trick, -1)
    if tricks_of_kings.shape[1] >= 2:
        same = np.zeros(games, dtype=bool)
        for a in range(tricks_of_kings.shape[1]):
            for b in range(a + 1, tricks_of_kings.shape[1]):
                same |= (tricks_of_kings[:, a] >= 0) & (tricks_of_kings[:, a] == tricks_of_kings[:, b])
        stats.same_trick += int(same.sum())
    # running difference after each trick: card points of the trick and the Kings' points
    per_trick = np.zeros((games, t.n_tricks), dtype=np.int64)
    won_sign = np.where(seat_party[out.winners] == 0, 1, -1)
    per_trick += won_sign * out.trick_points
    for slot in range(out.event_kind.shape[1]):
        has = present[:, slot]
        rows = np.nonzero(has)[0]
        sign = np.where(out.event_party[rows, slot] == 0, 1, -1)
        np.add.at(per_trick, (rows, out.event_trick[rows, slot]), sign * out.event_points[rows, slot])
    running = np.cumsum(per_trick, axis=1)
    final = np.where(winner == 0, 1, np.where(winner == 1, -1, 0))
    changes, settled, loser_led = _leads(running, final)
    stats.loser_led += int(loser_led.sum())
    stats.lead_changes.add_sums(games, int(changes.sum()), int((changes * changes).sum()), int(changes.min()),
                                int(changes.max()))
    for k, v in zip(*np.unique(settled[decided], return_counts=True)):
        stats.decided_at[int(k)] += int(v)
    stats.length.add_sums(games, games * t.n_tricks, games * t.n_tricks ** 2, t.n_tricks, t.n_tricks)
    if amount is None:
        paid = np.where(decided, num, 0)
    else:
        paid = [float(amount[i]) if decided[i] else 0.0 for i in range(games)]
    columns = {"win": winner == 0, "decided": decided, "leader": winner == seat_party[leader], "kings": counts,
               "changes": changes, "swung": np.ones(games, dtype=np.int64), "loser_led": loser_led, "money": paid,
               "points": totals[:, 0]}
    for i, name in enumerate(stats.event_names):
        columns["event:" + name] = (out.event_kind == i).sum(axis=1)
    stats.by_game.extend({k: np.asarray(v, dtype=np.float64) for k, v in columns.items()}, games)
    if out.castles is not None:
        stats.castles += int(out.castles.sum())
        stats.games_with_castling += int((out.castles > 0).sum())


def add_game(stats: Stats, t: Tables, game) -> None:
    """Add one finished engine game to the statistics (the same figures as :func:`add_batch`).

    A game that made its own parties (a declarer and his partner, the holders of the Old Ones) counts the
    declaring side as party 0 and the defenders as party 1; the contracts bid, the games thrown in and the
    game points by seat are counted besides.
    """
    played = game.t                      # the game's own tables: its parties
    # each trick's swing toward party 0: its card points and the King events it scored
    swing = []
    for tr in game.tricks:
        x = tr.points if played.party_of[tr.winner] == 0 else -tr.points
        for e in tr.events:
            for p in e.scoring_parties:
                x += e.points if p == 0 else -e.points
        swing.append(x)
    leader = game._tricks[0][0] if game._tricks else played.first_leader(game.dealer)
    add_result(stats, t, played, game.dealer, game.result(), leader, len(game.castles), swing)


def add_result(stats: Stats, t: Tables, played: Tables, dealer: int, r, leader: int, castles: int,
               swing: list[int]) -> None:
    """Add one finished game's result ``r`` (a :class:`~..kernel.records.GameResult`) to the statistics: ``played``
    the game's own tables, ``leader`` the seat that led first, ``swing`` each trick's points toward party 0."""
    n = t.n_seats
    stats.games += 1
    if t.flow is not None:
        name = r.contract or ("thrown in" if r.thrown_in else "(no contract)")
        tally = stats.contracts.setdefault(name, [0, 0])
        tally[0] += 1
        tally[1] += int(r.winner is not None and r.winner == played.declarer_party >= 0)
        stats.thrown_in += int(r.thrown_in)
        for seat in range(n):
            party = next((i for i, p in enumerate(r.parties) if seat in p), None)
            gp = Fraction(r.game_points[party]).limit_denominator() if r.game_points and party is not None else 0
            stats.seat_game_points[seat].add(gp)
            stats.position_game_points[(seat - dealer) % n].add(gp)
    if r.winner is None:
        stats.draws += 1
    else:
        stats.wins[r.winner] += 1
        stats.money_per_winner.add(Fraction(r.settlement[played.parties[r.winner][0]]).limit_denominator())
        stats.leader_party_wins += int(played.party_of[leader] == r.winner)
    for p, v in enumerate(r.totals):
        stats.points[p].add(v)
        stats.add_hist(p, [v])
    two = len(r.totals) == 2
    card_diff, total_diff = (r.card_points[0] - r.card_points[1], r.totals[0] - r.totals[1]) if two else (0, 0)
    if two and total_diff and (card_diff > 0) - (card_diff < 0) != (total_diff > 0) - (total_diff < 0):
        stats.kings_turned += 1
    if two:
        stats.difference.add(total_diff)
        stats.add_hist(None, [total_diff])
    for seat in range(n):
        m = Fraction(r.settlement[seat]).limit_denominator()
        stats.seat_money[seat].add(m)
        stats.position_money[(seat - dealer) % n].add(m)
    tricks = []
    for e in r.events:
        stats.events_by_trick[e.event][e.trick - 1] += 1
        stats.first_events[e.event] += e.order == "first"
        tricks.append(e.trick)
    stats.events_per_game[len(tricks)] = stats.events_per_game.get(len(tricks), 0) + 1
    stats.same_trick += len(tricks) != len(set(tricks))
    stats.castles += castles
    stats.games_with_castling += bool(castles)
    decided = r.winner is not None
    row = {"win": int(r.winner == 0), "decided": int(decided), "kings": len(tricks), "points": r.totals[0],
           "leader": int(decided and played.party_of[leader] == r.winner),
           "money": float(Fraction(r.settlement[played.parties[r.winner][0]])) if decided else 0.0}
    for e in r.events:
        row["event:" + e.event] = row.get("event:" + e.event, 0) + 1
    if two and swing:
        final = np.array([0 if r.winner is None else (1 if r.winner == 0 else -1)])
        changes, settled, loser_led = _leads(np.cumsum(np.array([swing], dtype=np.int64), axis=1), final)
        stats.loser_led += int(loser_led[0])
        stats.lead_changes.add(int(changes[0]))
        if r.winner is not None and int(settled[0]) < len(stats.decided_at):
            stats.decided_at[int(settled[0])] += 1
        row.update(changes=int(changes[0]), swung=1, loser_led=int(loser_led[0]))
    stats.length.add(len(swing))
    stats.by_game.add(row)


def add_batch_games(stats: Stats, t: Tables, dealers: np.ndarray, out) -> None:
    """Add a batch of games of a ruleset that :func:`add_batch` cannot count at once (game points, more than two
    parties, a game bid before play), game by game: each result scored by the kernel on the game's own tables
    (:func:`~..playouts.results.score_of`)."""
    n = t.n_seats
    for g in range(len(dealers)):
        bid, party_of = out.game[g], out.party_of[g]
        played = int(bid[G_TRICKS])
        sitting = int(bid[G_SITTING])
        winners = out.winners[g, :played]
        hands = [0] * n              # the hands as play began: every card is played
        for i in range(played):
            lead = int(out.leaders[g, i])
            for k, card in enumerate(out.trick_cards[g, i].tolist()):
                if card >= 0:
                    hands[seat_at(sitting, lead, k, n)] |= 1 << card
        tricks = [0] * n
        for w in winners.tolist():
            tricks[party_of[w]] += 1
        game_t, winner, money_by_seat, gp = score_of(t, bid, party_of, out.totals[g].tolist(), tricks, hands)
        parties = len(game_t.parties)
        totals = tuple(int(x) for x in out.totals[g, :parties])
        cards = tuple(int(x) for x in out.card_points[g, :parties])
        contract = int(bid[G_CONTRACT])
        r = GameResult(card_points=cards, event_points=tuple(a - b for a, b in zip(totals, cards)), totals=totals,
                       winner=winner, unit=t.settlement.unit if t.settlement else "",
                       settlement=tuple(money(m) for m in money_by_seat), penalties=(0,) * n,
                       net=tuple(money(m) for m in money_by_seat), events=(), tricks=tuple(tricks[:parties]),
                       parties=tuple(game_t.parties), game_points=tuple(money(x) for x in gp),
                       thrown_in=bool(bid[G_THROWN]),
                       contract=t.flow.contracts[contract].name if contract >= 0 else None)
        swing = [int(p) if party_of[w] == 0 else -int(p) for w, p in zip(winners, out.trick_points[g, :played])]
        leader = int(out.leaders[g, 0]) if played else game_t.first_leader(int(dealers[g]))
        add_result(stats, t, game_t, int(dealers[g]), r, leader, int(out.castles[g]), swing)


# --- chunks ------------------------------------------------------------------------------------

def batched(t: Tables) -> bool:
    """Whether a run of random games plays in batches (the batch plays the ruleset, and either :func:`add_batch`
    counts two parties settled in money or :func:`add_batch_games` counts a game without King events)."""
    return supported(t) is None and (_at_once(t) or not t.events)


def _at_once(t: Tables) -> bool:
    """Two parties settled in money, the same in every game (none made by the bidding, nobody sitting out)."""
    flow = t.flow
    fixed = flow is None or (flow.partner == "fixed" and all(c.partner == "fixed" and not c.sit_out
                                                             for c in flow.contracts))
    return len(t.parties) == 2 and t.settlement is not None and fixed


def run_chunk(spec: Spec, index: int) -> Stats:
    """Play chunk ``index`` of a run: its games and their statistics (the unit of parallel work)."""
    t = tables_of(spec)
    size = spec.chunk_size(t)
    first = index * size
    count = min(size, spec.games - first)
    stats = empty_stats(t)
    if count <= 0:
        return stats
    if spec.all_random:
        if batched(t):
            numbers = np.arange(first, first + count)
            u = block_uniforms(spec.seed, numbers, draws_per_game(t))
            dealers = numbers % t.n_seats
            # game i of a run is game i of one long session: the deal passes on, and so does Hearts' passing
            (add_batch if _at_once(t) else add_batch_games)(stats, t, dealers, random_batch(t, dealers, u, numbers))
            return stats
        for i in range(first, first + count):
            stream = GameStream(spec.seed, i)
            game = State.deal(t, i % t.n_seats, stream, game=i)
            game.play_randomly(stream)
            add_game(stats, t, game)
        return stats
    names = spec.seat_bots(t)
    bots = [make_bot(name, t, **({"samples": spec.samples} if name == "mc" else {})) for name in names]
    for i in range(first, first + count):
        add_game(stats, t, play_game(t, i % t.n_seats, bots, GameStream(spec.seed, i), game_number=i))
    return stats


def chunks(spec: Spec, t: Tables) -> int:
    """How many chunks a run has."""
    size = spec.chunk_size(t)
    return (spec.games + size - 1) // size


def run_kind(spec: Spec, t: Tables) -> tuple:
    """What compiled code a run plays through: the batch's, the engine's random player's, or its bots'.

    >>> t = tables_for("original")
    >>> run_kind(Spec(ruleset="original", games=9), t), run_kind(Spec(ruleset="original", games=9, bots=("dd:4", "mc")), t)
    (('random', 'batch'), ('dd', 'mc'))
    """
    if spec.all_random:
        return ("random", "batch" if batched(t) else "engine")
    return tuple(sorted({bot_kind(name) for name in spec.seat_bots(t)}))


def run(spec: Spec, workers: int = 1, progress=None, backend: str = "local", address: str | None = None) -> Stats:
    """Play a whole run and return its statistics (merged in chunk order, so the same for any workers)."""
    t = tables_of(spec)
    stats = empty_stats(t)
    stats.seed = spec.seed
    size = spec.chunk_size(t)
    try:
        for index, part in map_chunks(run_chunk, spec, chunks(spec, t), workers, backend, address,
                                      warm=(run_kind(spec, t), spec.model_copy(update={"games": 1, "chunk": 1}))):
            stats.merge(part)
            if progress is not None:
                progress(min(size, spec.games - index * size))
    except KeyboardInterrupt:
        stats.stopped = True  # the chunks finished so far are kept; the caller says so
    return stats


def cache_dir():
    """Where finished runs are kept (``SCHACHETT_CACHE`` or ``.cache/simulations`` in the project)."""
    return Path(os.environ.get("SCHACHETT_CACHE") or paths.home() / ".cache" / "simulations")


def cache_write(path: Path, text: str) -> None:
    """Keep ``text`` in the cache file ``path``, whole: written to a temporary file of this writer's own beside it,
    then renamed into place, so that two processes finishing the same run at once (two test workers, two
    simulations) never read or rename each other's half-written file."""
    import tempfile
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.stem + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def spec_key(spec: Spec) -> str:
    """The cache key: the ruleset's IR (positions left out), options, bots, games, seed."""
    t = tables_of(spec)
    resolved = load(spec.ruleset, dict(spec.options))
    ir_json = json.dumps(ir.strip_positions(resolved.model_dump(mode="json")), sort_keys=True)
    return spec.key(t, ir_json)


def cached_run(spec: Spec, workers: int = 1, progress=None, backend: str = "local", address: str | None = None,
               use_cache: bool = True) -> tuple[Stats, bool]:
    """A run's statistics from the cache, or played and stored; also whether it came from the cache."""
    path = cache_dir() / f"{spec_key(spec)}.json"
    if use_cache and path.is_file():
        try:
            return Stats.from_dict(json.loads(path.read_text(encoding="utf-8"))), True
        except (ValueError, KeyError, TypeError):
            pass  # a damaged entry is played again and rewritten
    stats = run(spec, workers, progress, backend, address)
    if not stats.stopped and use_cache:
        cache_write(path, json.dumps(stats.to_dict()))
    return stats, False


# --- the report -----------------------------------------------------------------------------------

def stats_json(s: Stats) -> dict:
    """The whole result as JSON-ready data."""
    n = s.games
    decided = n - s.draws
    kings = sum(k * v for k, v in s.events_per_game.items())
    return {
        "ruleset": s.ruleset, "games": n, "wins": s.wins, "draws": s.draws,
        "win_rate_ci95": [list(wilson(w, n)) for w in s.wins],
        "points": [p.as_json() for p in s.points], "difference": s.difference.as_json(),
        "money_per_winner": s.money_per_winner.as_json(),
        "seat_money": [m.as_json() for m in s.seat_money],
        "position_money": [m.as_json() for m in s.position_money],
        "first_leader_party_wins": s.leader_party_wins,
        "first_leader_party_win_rate_ci95": list(wilson(s.leader_party_wins, decided)),
        "king_events": {name: {"count": sum(c), "per_game": sum(c) / max(n, 1), "first": s.first_events[name],
                               "by_trick": c, "share_of_kings_ci95": list(wilson(sum(c), kings))}
                        for name, c in s.events_by_trick.items()},
        "both_kings_same_trick": s.same_trick,
        "kings_turn_the_result": s.kings_turned,
        "kings_turn_the_result_ci95": list(wilson(s.kings_turned, max(decided, 1))),
        "loser_was_ahead": s.loser_led, "loser_was_ahead_ci95": list(wilson(s.loser_led, max(decided, 1))),
        "events_per_game": {str(k): v for k, v in sorted(s.events_per_game.items())},
        "castles": s.castles, "games_with_castling": s.games_with_castling,
        "lead_changes": s.lead_changes.as_json(),
        "decided_from_trick": {str(i + 1): v for i, v in enumerate(s.decided_at)},
        "length": s.length.as_json(),
        "points_histogram": [{str(k * s.BIN): v for k, v in sorted(h.items())} for h in s.points_hist],
        "difference_histogram": {str(k * s.BIN): v for k, v in sorted(s.difference_hist.items())},
        "stopped": s.stopped,
    }


ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def _tables_of(s: Stats) -> Tables | None:
    try:
        return tables_for(s.ruleset)
    except SchachettError:      # a rule file no longer where the run found it
        return None


def parties_made_in_game(t: Tables) -> bool:
    """Whether a game's parties are made at the table (a declarer and a called partner, the Old Ones' holders)."""
    flow = t.flow
    fixed = ("fixed", "each")
    return flow is not None and (flow.partner not in fixed or any(c.partner not in fixed for c in flow.contracts))


def party_titles(s: Stats) -> list[str]:
    """The parties of a run's ruleset by their names (its seats' names joined, where it names none); where the
    game makes its parties, the declaring side and the defenders (as :func:`add_game` counts them)."""
    t = _tables_of(s)
    names = [] if t is None else (["the declaring side", "the defenders"]
                                  if parties_made_in_game(t) and not t.party_names_fixed else list(t.party_names))
    return names if len(names) == s.n_parties else [f"the {ORDINALS[p]} party" for p in range(s.n_parties)]


def format_stats(s: Stats, spec: Spec | None = None) -> str:
    """The report as plain text (the same for the same run)."""
    n = s.games
    decided = n - s.draws
    head = f"{n} games of {s.ruleset}"
    if spec is not None:
        head += f", bots {','.join(spec.bots)}, seed {spec.seed}"
        if spec.options:
            head += ", options " + ", ".join(f"{k}={v}" for k, v in spec.options.items())
    parties = party_titles(s)
    lines = [head, "", "Party results (95% intervals)"]
    for p, w in enumerate(s.wins):
        lo, hi = wilson(w, n)
        pts = s.points[p]
        plo, phi = pts.ci()
        lines.append(f"  {parties[p]}: wins {w:>7} = {100 * w / n:5.1f}%  [{100 * lo:5.1f}, {100 * hi:5.1f}]   "
                     f"points mean {pts.mean:7.1f} [{plo:.1f}, {phi:.1f}]  sd {pts.sd:6.1f}  "
                     f"range {float(pts.low):g}..{float(pts.high):g}")
    lines.append(f"  equal points: {s.draws} = {100 * s.draws / n:.1f}%")
    lo, hi = wilson(s.leader_party_wins, decided)
    lines.append(f"  the party that leads first wins {100 * s.leader_party_wins / max(1, decided):.1f}% "
                 f"of decided games [{100 * lo:.1f}, {100 * hi:.1f}]")
    t = _tables_of(s)
    money = t is None or t.settlement is not None
    kings = t is None or bool(t.royal_cards)
    d = s.difference
    if s.n_parties == 2 and any(p.high for p in s.points):
        lines.append(f"  difference ({parties[0]} − {parties[1]}): mean {d.mean:.1f}, sd {d.sd:.1f}")
    if money:
        lines += _money_lines(s)
    if kings:
        lines += _king_lines(s, n, decided)
    # the course of the game is told by the points in the tricks: a game that counts tricks only has none to tell
    counted = any(p.high for p in s.points)
    lines += _course_lines(s, n, decided, castling=t is None or t.castling is not None,
                           two=s.n_parties == 2 and counted)
    offers = t is not None and t.flow is not None and any(c.offer is not None and c.offer.refused == "redeal"
                                                          for c in t.flow.contracts)
    lines += _family_lines(s, n, bidding=t is None or (t.flow is not None and t.flow.has_auction and len(t.flow.contracts) > 1),
                           offers_refused=offers, seat_names=None if t is None else t.seat_names)
    return "\n".join(lines)


def _money_lines(s: Stats) -> list[str]:
    lines = []
    lines.append(f"  money per winning player: mean {s.money_per_winner.mean:.2f}, sd {s.money_per_winner.sd:.2f}, "
                 f"max {float(s.money_per_winner.high or 0):g}")
    lines.append("  mean money by seat: " + ", ".join(f"seat {i} {r.mean:+.2f}" for i, r in enumerate(s.seat_money)))
    names = [seat_words(k, s.n_seats) for k in range(s.n_seats)]
    lines.append("  mean money by place at the table: " + ", ".join(
        f"{names[i]} {r.mean:+.2f} [{r.ci()[0]:+.2f}, {r.ci()[1]:+.2f}]" for i, r in enumerate(s.position_money)))
    return lines


def _king_lines(s: Stats, n: int, decided: int) -> list[str]:
    lines = [""]
    lines.append("King events")
    lines.append("  event        per game  first   " + " ".join(f"{t + 1:>5}" for t in range(s.n_tricks)))
    lines.append("  " + " " * 33 + "(share of games, by trick, %)")
    for name, by_trick in s.events_by_trick.items():
        total = sum(by_trick)
        lines.append(f"  {name:<12} {total / n:8.3f}  {s.first_events[name] / n:5.3f}   "
                     + " ".join(f"{100 * c / n:5.1f}" for c in by_trick))
    lines.append(f"  two Kings or more fall in the same trick in {100 * s.same_trick / n:.1f}% of games")
    lo, hi = wilson(s.kings_turned, max(decided, 1))
    lines.append(f"  the King events turn the result in {100 * s.kings_turned / max(decided, 1):.1f}% of decided games "
                 f"[{100 * lo:.1f}, {100 * hi:.1f}] (the card points alone would have given the other party the win)")
    lines.append("  King events per game: " + ", ".join(f"{k}: {100 * v / n:.1f}%"
                                                        for k, v in sorted(s.events_per_game.items())))
    return lines


def _course_lines(s: Stats, n: int, decided: int, castling: bool, two: bool) -> list[str]:
    """Castling, lead changes, when the result is settled and drama: for a game of two parties (and Kings)."""
    if not (castling or two):
        return []
    lines = ["", "Course of the game"]
    if castling:
        lines.append(f"  castling: {s.castles} castles, in {100 * s.games_with_castling / n:.1f}% of games"
                     if s.castles else "  castling: none")
    if not two:
        return lines
    lo, hi = s.lead_changes.ci()
    lines.append(f"  lead changes per game: mean {s.lead_changes.mean:.2f} [{lo:.2f}, {hi:.2f}], "
                 f"max {float(s.lead_changes.high or 0):g}")
    if decided:
        cumulative, median = 0, None
        for i, v in enumerate(s.decided_at):
            cumulative += v
            if median is None and cumulative * 2 >= decided:
                median = i + 1
        lines.append(f"  decided (from that trick on the eventual winner is ahead for good) by trick {median} in "
                     "half the decided games; by trick: " + " ".join(f"{100 * v / decided:.0f}" for v in s.decided_at)
                     + " %")
        lo, hi = wilson(s.loser_led, decided)
        lines.append(f"  drama: the eventual loser was ahead after some trick in {100 * s.loser_led / decided:.1f}% "
                     f"of decided games [{100 * lo:.1f}, {100 * hi:.1f}]")
    if s.length.n and s.length.low != s.length.high:
        lines.append(f"  length: mean {s.length.mean:.1f} tricks")
    return lines


def _family_lines(s: Stats, n: int, bidding: bool, offers_refused: bool = False,
                  seat_names: tuple[str, ...] | None = None) -> list[str]:
    """The contracts played and won, the deals thrown in (``offers_refused``: a deal is thrown in too where nobody
    takes the card a declarer offers), and the game points by seat (by the ruleset's ``seat_names``) and place."""
    lines = []
    if bidding and set(s.contracts) - {"(no contract)"}:
        lines.append("")
        lines.append("Contracts (how often each was played, and how often the declaring side won it)")
        for name, (games, won) in sorted(s.contracts.items(), key=lambda kv: -kv[1][0]):
            lo, hi = wilson(won, games)
            lines.append(f"  {name:<16} {games:>7} = {100 * games / n:5.1f}% of games; won {100 * won / games:5.1f}% "
                         f"[{100 * lo:.1f}, {100 * hi:.1f}]")
        if s.thrown_in:
            why = "every player passed" + (", or nobody took the card offered" if offers_refused else "")
            lines.append(f"  thrown in ({why}): {s.thrown_in} = {100 * s.thrown_in / n:.1f}%")
    if any(x.n for x in s.seat_game_points) and any(x.total for x in s.seat_game_points):
        lines.append("")
        lines.append("Game points")
        seats = seat_names or tuple(f"seat {i}" for i in range(s.n_seats))
        lines.append("  mean game points by seat: " + ", ".join(f"{seats[i]} {r.mean:.2f}"
                                                            for i, r in enumerate(s.seat_game_points)))
        names = [seat_words(k, s.n_seats) for k in range(s.n_seats)]
        lines.append("  mean game points by place at the table: " + ", ".join(
            f"{names[i]} {r.mean:.2f} [{r.ci()[0]:.2f}, {r.ci()[1]:.2f}]"
            for i, r in enumerate(s.position_game_points)))
    return lines

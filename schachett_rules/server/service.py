"""The game server's one authority: tables created, actions taken, views answered, all through the database.

The service holds no game logic. For a table it keeps the ruleset, the readings, the places
(a person with a key, or a bot), and for each game its seating, dealer, deal and actions; a
game's :class:`~schachett_rules.kernel.state.State` is rebuilt from these rows
(:func:`~schachett_rules.engine.replay.state_of`), and every decision goes through the State:
whose decision it is, whether an action is legal (the kernel's error names the clause), and
:meth:`State.advance <schachett_rules.kernel.state.State.advance>` walks the game on with the
bots (:func:`players.bots.chooser`) until a person must decide.

Concurrency: every method is synchronous and runs in a worker thread. A table is touched by one
thread at a time (a lock per table in this process), and across processes by one transaction at
a time (``SELECT … FOR UPDATE`` on PostgreSQL, ``BEGIN IMMEDIATE`` on SQLite). A process keeps
the State of a table it has seen, with the table's version; each request reads the version from
the database and rebuilds the State when another process has changed the table since. Bots
decide inside the acting request's thread; the compiled play-outs the Monte-Carlo bot uses keep
their arrays per thread, so threads never share them.
"""

from __future__ import annotations

import random
import secrets
import threading
import time
import zlib
from collections import OrderedDict
from dataclasses import dataclass, field

from sqlalchemy import insert, select, update

from .. import paths
from ..engine.replay import GameRecord, apply_step, format_report, record_hands, record_of, replay, state_of
from ..errors import IllegalAction, SchachettError
from ..kernel.actions import Pass
from ..kernel.deal import names_of, sort_cards
from ..kernel.state import State
from ..kernel.verify import decision_action
from ..kernel.streams import GameStream
from ..kernel.tables import Tables
from ..players import BOTS, make_bot
from ..players.bots import chooser
from ..rules.loader import Resolved, load
from . import store as db
from .keys import hash_key, match, new_key
from .requests import RequestError, citation, parse_action
from .session_plan import Plan, rules_of
from .views import seat_view

MAX_OPTIONS = 64


@dataclass
class Place:
    """One player of a table: a person (with a key's hash) or a bot; ``bot`` plays for a person who is away."""

    place: int
    kind: str
    bot: str
    key_hash: str | None
    away: bool

    @property
    def label(self) -> str:
        return f"bot:{self.bot}" if self.kind == "bot" else "person"


@dataclass
class Game:
    """One game of a table, as stored."""

    number: int
    round: int
    dealer: int
    seating: list[str]
    hands: list[list[str]]
    over: bool = False
    result: dict | None = None
    deal: dict | None = None      # the game's number in its session, the stock and the turned card

    def record(self, L: "Loaded", actions: list) -> GameRecord:
        """This game's record with ``actions``."""
        return GameRecord(ruleset=L.ruleset, options=L.options, dealer=self.dealer, hands=self.hands,
                          actions=actions, **(self.deal or {}))


@dataclass
class Loaded:
    """A table as this process holds it: its rows and the State of its current game."""

    id: str
    ruleset: str
    options: dict[str, str]
    seed: int
    version: int
    r: Resolved
    t: Tables
    plan: Plan
    places: list[Place]
    games: list[Game]
    state: State
    stored_games: int = 0         # how many game rows the database has
    stored_actions: int = 0       # how many actions of the current game it has
    stored_over: bool = False
    ledger: list | None = None
    ended: dict | None = None     # the current game's result, report and record, once it is over
    moved: set = field(default_factory=set)   # places whose away flag changed since they were stored

    @property
    def game(self) -> Game:
        return self.games[-1]

    def seat_of(self, place: int | None) -> int | None:
        """The seat the player of ``place`` sits on in the current game (None: a spectator)."""
        if place is None:
            return None
        return self.game.seating.index(self.plan.players[place])


class Service:
    """Tables in a database: create one, act at one, answer a seat's (or a spectator's) view.

    >>> service = Service(db.Store.open("sqlite://"))
    >>> table, places = service.create({"ruleset": "original", "seats": ["person", "bot:random", "bot:random",
    ...                                                                   "bot:random"]})
    >>> key = places[0]["key"]
    >>> view = service.view(table, key)
    >>> view["seat"], len(view["hand"]), view["turn"]["yours"]      # the bots have played up to South's card
    (0, 13, True)
    >>> service.act(table, key, {"card": view["legal"][0]})["hand"] == view["hand"]
    False
    >>> service.act(table, "not-a-key", {"card": "w7"})
    Traceback (most recent call last):
    ...
    schachett_rules.server.requests.RequestError: this key is not a key of this table: open your invitation link again
    """

    CACHED = 2000        # tables kept in memory; one that falls out is rebuilt from its rows when next asked
    STRIPES = 256        # locks: a table's is stripe hash(id) % 256, so the locks are bounded however many tables

    def __init__(self, store: db.Store):
        self.store = store
        self._cache: OrderedDict[str, Loaded] = OrderedDict()
        self._stripes = [threading.Lock() for _ in range(self.STRIPES)]
        self._cache_lock = threading.Lock()     # the cache's order is shared by every table's thread

    # --- rulesets -------------------------------------------------------------------------------
    @staticmethod
    def rules(ruleset: str, options: dict[str, str]) -> tuple[Resolved, Tables, Plan]:
        """The resolved ruleset, its tables and its session plan (kept per ruleset and readings)."""
        return rules_of(ruleset, tuple(sorted(options.items())))

    def _check_create(self, body: object) -> tuple[str, dict, list[str]]:
        if not isinstance(body, dict) or not set(body) <= {"ruleset", "options", "seats"}:
            raise RequestError(400, 'a new table is {"ruleset": NAME, "options": {LACUNA: OPTION}, '
                                    '"seats": ["person", "bot:heuristic", ...]}')
        ruleset, options, seats = body.get("ruleset", "reconstruction"), body.get("options") or {}, body.get("seats")
        if not isinstance(ruleset, str) or not paths.is_ruleset_name(ruleset) or ruleset not in paths.known_rulesets():
            raise RequestError(400, f"there is no ruleset {str(ruleset)[:70]!r}; the rulesets are "
                                    f"{', '.join(paths.known_rulesets())}")
        if (not isinstance(options, dict) or len(options) > MAX_OPTIONS
                or not all(isinstance(k, str) and isinstance(v, str) and len(k) < 80 and len(v) < 80
                           for k, v in options.items())):
            raise RequestError(400, '"options" maps a lacuna (its name or section) to one of its options, both as text')
        base = load(ruleset)
        for k, v in options.items():
            try:
                chosen = base.find_lacuna(k)
            except SchachettError as err:
                raise RequestError(400, err.message) from None
            if chosen.lacuna.option(v) is None:
                raise RequestError(400, f"lacuna {chosen.lacuna.name} has no option {v!r}; its options are "
                                        f"{', '.join(o.name for o in chosen.lacuna.options)}")
        _, _, plan = self.rules(ruleset, options)
        n = len(plan.players)
        kinds = ["person"] + [f"bot:{b}" for b in BOTS]
        if seats is None:
            seats = ["person"] + ["bot:heuristic"] * (n - 1)
        if not isinstance(seats, list) or len(seats) != n or not all(s in kinds for s in seats):
            raise RequestError(400, f"ruleset {ruleset} is played by {n} players: \"seats\" lists {n} of "
                                    f"{', '.join(kinds)}, one per player in the order of the first game's seats")
        if "person" not in seats:
            raise RequestError(400, "a table needs at least one person: a seat \"person\"")
        return ruleset, options, seats

    # --- the cached table ----------------------------------------------------------------------------
    def _lock(self, table_id: str) -> threading.Lock:
        return self._stripes[zlib.crc32(str(table_id).encode()) % self.STRIPES]

    def _keep(self, loaded: Loaded) -> None:
        """Keep a table's copy (under its lock), forgetting the least recently used beyond :attr:`CACHED`."""
        with self._cache_lock:
            self._cache[loaded.id] = loaded
            self._cache.move_to_end(loaded.id)
            while len(self._cache) > self.CACHED:
                self._cache.popitem(last=False)

    def _row(self, conn, table_id: object, for_update: bool = False):
        if not isinstance(table_id, str) or len(table_id) > 32:
            raise RequestError(404, "there is no such table")
        q = select(db.tables).where(db.tables.c.id == table_id)
        if for_update and self.store.locks_rows:
            q = q.with_for_update()
        row = conn.execute(q).mappings().first()
        if row is None:
            raise RequestError(404, f"there is no table {table_id!r}")
        return row

    def _loaded(self, conn, row) -> Loaded:
        """The table at the database's version: this process's copy if it is current, else rebuilt from its rows."""
        have = self._cache.get(row["id"])
        if have is not None and have.version == row["version"]:
            self._keep(have)
            return have
        r, t, plan = self.rules(row["ruleset"], dict(row["options"]))
        places = [Place(p["place"], p["kind"], p["bot"], p["key_hash"], p["away"]) for p in conn.execute(
            select(db.places).where(db.places.c.table_id == row["id"]).order_by(db.places.c.place)).mappings()]
        games = [Game(g["number"], g["round"], g["dealer"], list(g["seating"]), g["hands"], g["over"], g["result"],
                      g["deal"])
                 for g in conn.execute(select(db.games).where(db.games.c.table_id == row["id"])
                                       .order_by(db.games.c.number)).mappings()]
        game = games[-1]
        acts = self._actions(conn, row["id"], game.number)
        state = state_of(GameRecord(ruleset=row["ruleset"], options=dict(row["options"]), dealer=game.dealer,
                                    hands=game.hands, actions=acts, **(game.deal or {})), t,
                         f"table {row['id']}, game {game.number}")
        finished = [g for g in games if g.over]
        loaded = Loaded(id=row["id"], ruleset=row["ruleset"], options=dict(row["options"]), seed=int(row["seed"]),
                        version=row["version"], r=r, t=t, plan=plan, places=places, games=games, state=state,
                        stored_games=len(games), stored_actions=len(acts), stored_over=game.over,
                        ledger=finished[-1].result.get("ledger") if finished else None)
        if game.over:
            loaded.ended = self._ended(loaded)
        self._keep(loaded)
        return loaded

    @staticmethod
    def _actions(conn, table_id: str, number: int) -> list:
        return [a for (a,) in conn.execute(select(db.actions.c.action).where(
            (db.actions.c.table_id == table_id) & (db.actions.c.number == number)).order_by(db.actions.c.idx))]

    # --- creating a table ------------------------------------------------------------------------------
    def create(self, body: object) -> tuple[str, list[dict]]:
        """A new table from ``{"ruleset", "options", "seats"}``: its id and, per player, the kind and the key."""
        ruleset, options, seats = self._check_create(body)
        r, t, plan = self.rules(ruleset, options)
        table_id = secrets.token_urlsafe(9)           # public (spectators use it); the keys are the secrets
        keys = [new_key() if s == "person" else None for s in seats]
        places = [Place(i, "person" if s == "person" else "bot", "heuristic" if s == "person" else s[4:],
                        hash_key(k) if k else None, False) for i, (s, k) in enumerate(zip(seats, keys))]
        seed = secrets.randbits(63)
        loaded = Loaded(id=table_id, ruleset=ruleset, options=options, seed=seed, version=0, r=r, t=t, plan=plan,
                        places=places, games=[], state=None)  # type: ignore[arg-type]
        self._start_game(loaded)
        with self.store.engine.begin() as conn:
            conn.execute(insert(db.tables).values(id=table_id, ruleset=ruleset, options=options, players=plan.players,
                                                  seed=str(seed), version=0,
                                                  created=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())))
            conn.execute(insert(db.places), [dict(table_id=table_id, place=p.place, kind=p.kind, bot=p.bot,
                                                  key_hash=p.key_hash, away=p.away) for p in places])
            self._save(conn, loaded)
        with self._lock(table_id):
            self._keep(loaded)
        return table_id, [{"player": plan.players[i], "seat": loaded.seat_of(i), "kind": places[i].label,
                           "key": k} for i, k in enumerate(keys)]

    def _start_game(self, L: Loaded) -> None:
        number = len(L.games) + 1
        seating, dealer = L.plan.seating(number), L.plan.dealer(number)
        # the game's number in the session says where Hearts passes its cards, as in a session of the CLI
        state = State.deal(L.t, dealer, GameStream(L.seed, number - 1), game=number - 1)
        dealt = state.log[0]
        L.games.append(Game(number, L.plan.round_of(number), dealer, seating, [list(h) for h in record_hands(state)],
                            deal={"game": number - 1, "stock": list(dealt.stock), "turned": dealt.turned}))
        L.state, L.ended = state, None
        self._bots_play(L)

    def _bots_play(self, L: Loaded) -> None:
        """Walk the game on with the bots until a person (who is not away) must decide, or the game ends."""
        g = L.game
        by_name = {L.plan.players[p.place]: p for p in L.places}
        bots = {}
        for seat in L.plan.free_seats(g.seating):
            p = by_name[g.seating[seat]]
            bots[seat] = make_bot(p.bot, L.t) if p.kind == "bot" or p.away else None
        rng = random.Random(f"{L.seed}:{g.number}:{len(L.state.history())}")
        L.state.advance(chooser(bots, rng))
        if L.state.over and L.ended is None:
            L.ended = self._ended(L)

    def _ended(self, L: Loaded) -> dict:
        """A finished game's result and its report, as ``schachett replay`` gives them (everything is public now)."""
        record = record_of(L.state, L.ruleset, L.options)
        rep = replay(record, resolved=L.r, tables=L.t)
        return {"result": L.state.result().model_dump(mode="json"), "report": format_report(rep, L.t),
                "record": record.model_dump(mode="json", by_alias=True)}

    # --- storing ----------------------------------------------------------------------------------------
    def _save(self, conn, L: Loaded) -> None:
        """Write what changed since the rows were read: new games, new actions, a game's end, the version."""
        for g in L.games[L.stored_games:]:
            conn.execute(insert(db.games).values(table_id=L.id, number=g.number, round=g.round, dealer=g.dealer,
                                                 seating=g.seating, hands=g.hands, deal=g.deal, over=False,
                                                 result=None))
            L.stored_actions, L.stored_over = 0, False
        L.stored_games = len(L.games)
        for i in L.moved:
            conn.execute(update(db.places).where((db.places.c.table_id == L.id) & (db.places.c.place == i))
                         .values(away=L.places[i].away))
        L.moved.clear()
        acts = [a if isinstance(a, str) else a.model_dump(mode="json", by_alias=True)
                for a in record_of(L.state, L.ruleset, L.options, passes=True).actions]
        if len(acts) > L.stored_actions:
            conn.execute(insert(db.actions), [dict(table_id=L.id, number=L.game.number, idx=i, action=a)
                                              for i, a in enumerate(acts) if i >= L.stored_actions])
            L.stored_actions = len(acts)
        if L.state.over and not L.stored_over:
            L.ledger = L.plan.ledger(self._finished(conn, L))
            L.game.over, L.game.result = True, {"net": L.ended["result"]["net"], "ledger": L.ledger}
            conn.execute(update(db.games).where((db.games.c.table_id == L.id) & (db.games.c.number == L.game.number))
                         .values(over=True, result=L.game.result))
            L.stored_over = True

    def _finished(self, conn, L: Loaded) -> list[tuple[int, list[str], GameRecord]]:
        out = []
        for g in L.games[:-1]:
            rec = g.record(L, self._actions(conn, L.id, g.number))
            out.append((g.number, g.seating, rec))
        return out + [(L.game.number, L.game.seating, record_of(L.state, L.ruleset, L.options))]

    # --- acting ------------------------------------------------------------------------------------------
    def _place(self, L: Loaded, key: str | None) -> int | None:
        if key is None:
            return None
        found = match(key, [p.key_hash for p in L.places])
        if found is None:
            raise RequestError(403, "this key is not a key of this table: open your invitation link again")
        return found

    def act(self, table_id: str, key: str | None, data: object) -> dict:
        """Take one action for the key's player; the new view, or a :class:`RequestError` and nothing changed."""
        kind, value = parse_action(data)
        if key is None:
            raise RequestError(401, "acting at a table needs the key of your invitation (Authorization: Bearer KEY)")
        with self._lock(table_id):
            try:
                with self.store.engine.begin() as conn:
                    L = self._loaded(conn, self._row(conn, table_id, for_update=True))
                    place = self._place(L, key)
                    if self._do(L, place, kind, value):      # a refusal raises before anything is changed
                        self._save(conn, L)
                        conn.execute(update(db.tables).where(db.tables.c.id == L.id).values(version=L.version + 1))
                        L.version += 1
            except RequestError:
                raise
            except BaseException:
                with self._cache_lock:
                    self._cache.pop(table_id, None)     # the copy may be half changed: the next request rebuilds it
                raise
            return self._view(L, place)

    def _do(self, L: Loaded, place: int, kind: str, value) -> bool:
        """Apply one action; refuse it (nothing changed) if the rules or the table do not allow it now."""
        p, state, seat = L.places[place], L.state, L.seat_of(place)
        if kind == "away":
            if p.kind != "person" or p.away == value:
                return False
            p.away = value
            L.moved.add(p.place)
            self._bots_play(L)
            return True
        if kind == "next":
            if not state.over:
                raise RequestError(409, f"game {L.game.number} is not over yet: it is in trick {state.trick_number}")
            self._start_game(L)
            return True
        if state.over:
            raise RequestError(409, f"game {L.game.number} is over; send {{\"next\": true}} for the next game")
        if p.away:
            raise RequestError(409, "a bot plays your seat while you are away; send {\"away\": false} to take it back")
        decider = state.decider()
        if decider != seat:
            obs = state.observation(seat)
            raise RequestError(409, f"it is not your decision: {L.t.seat_name(decider)} (seat {decider}) decides now, "
                                    f"in trick {obs.trick_number}")
        for name in ([value] if kind == "card" else [x for x in value if x] if kind == "castle" else []):
            try:
                L.t.face(name)
            except SchachettError:      # said here: the kernel's words would quote example cards, maybe hidden ones
                raise RequestError(422, f"{name!r} is not a card of this deck: a card is its colour and its face, "
                                        f"as the manual writes them") from None
        try:
            if kind == "card":
                action = state.verify_play(value, by=seat)
            elif kind == "decide":
                action = self._decision(L, seat, value)
            else:
                action = self._castle_action(L, seat, kind, value)
        except IllegalAction as err:
            # the rule's words without the engine's "trick 3, seat 0, card w7:" before them: the person knows those
            said = f"{value} may not be played now: {err.reason}" if kind == "card" else err.reason
            raise RequestError(422, said, citation(err.clause) or citation(err.reason)) from None
        state.apply(action)
        self._bots_play(L)
        return True

    @staticmethod
    def _decision(L: Loaded, seat: int, word: str):
        """The decision before play the seat names by one of its view's options (the kernel's words)."""
        obs = L.state.observation(seat)
        if obs.decision not in ("give", "bid", "call", "discard", "answer"):
            raise RequestError(409, f"no decision before play is asked of you now: the game is at its {obs.phase}")
        if word not in obs.options:
            # said here, not by the kernel: its words could quote a card of a hand this seat does not see
            raise RequestError(422, f"{word[:40]!r} is not open now; the options are {', '.join(obs.options)}")
        return decision_action(L.state, word)

    @staticmethod
    def _castle_action(L: Loaded, seat: int, kind: str, value):
        state = L.state
        obs = state.observation(seat)
        if obs.decision != "castle":
            raise RequestError(409, "no chance to castle is offered to you now: a card is due")
        castler = obs.castle_offers[0].seat
        if kind == "pass":
            return state.verify(Pass(castler))
        officer, king = value
        return state.verify_castle(castler, officer, king)

    # --- answering -------------------------------------------------------------------------------------
    def view(self, table_id: str, key: str | None) -> dict:
        """The view of the key's player, or the spectators' view without a key."""
        with self._lock(table_id), self.store.engine.connect() as conn:
            L = self._loaded(conn, self._row(conn, table_id))
            return self._view(L, self._place(L, key))

    def version(self, table_id: str) -> int:
        """The table's version in the database (changes with every action)."""
        with self.store.engine.connect() as conn:
            return self._row(conn, table_id)["version"]

    def versions(self, table_ids: list[str]) -> dict[str, int]:
        """The versions of several tables, in one query (for pushing changes made by other processes)."""
        if not table_ids:
            return {}
        with self.store.engine.connect() as conn:
            return dict(conn.execute(select(db.tables.c.id, db.tables.c.version)
                                     .where(db.tables.c.id.in_(table_ids))).all())

    def _view(self, L: Loaded, place: int | None) -> dict:
        t, g, seat = L.t, L.game, L.seat_of(place)
        view = seat_view(L.state, seat)
        by_name = {L.plan.players[p.place]: p for p in L.places}
        seats = []
        for s in range(t.n_seats):
            who = g.seating[s]
            p = by_name.get(who)
            seats.append({"seat": s, "name": t.seat_name(s), "player": who,
                          "party": view["parties"][s] if view["parties"] is not None else None,
                          "played_by": t.controller(s), "kind": p.label if p else who,
                          "away": bool(p and p.away), "you": p is not None and p.place == place})
        view.update({
            "table": L.id, "version": L.version, "ruleset": L.ruleset, "title": L.r.title or L.ruleset,
            "options": {c.lacuna.name: c.option for c in L.r.lacunae}, "game": g.number, "round": g.round,
            "seats": seats, "party_names": list(t.party_names), "ledger": L.ledger,
            "player": L.plan.players[place] if place is not None else None,
            "away": L.places[place].away if place is not None else None,
            "games": [{"number": x.number, "over": x.over or (x is g and L.state.over)} for x in L.games],
            "result": L.ended["result"] if L.ended else None, "report": L.ended["report"] if L.ended else None,
        })
        if L.state.over and place is not None and L.places[place].kind == "person":
            view["decision"] = "next"
        return view

    # --- records -------------------------------------------------------------------------------------
    def record(self, table_id: str, number: int | None = None) -> dict:
        """The record of a finished game (the last finished one by default), as JSON."""
        with self._lock(table_id), self.store.engine.connect() as conn:
            L = self._loaded(conn, self._row(conn, table_id))
            done = [g.number for g in L.games if g.over]
            if number is None:
                if not done:
                    raise RequestError(409, f"no game of table {table_id} is over yet")
                number = done[-1]
            if number not in done:
                raise RequestError(404 if not 1 <= number <= len(L.games) else 409,
                                   f"table {table_id} has no finished game {number}")
            if number == L.game.number:
                return L.ended["record"]
            g = L.games[number - 1]
            return g.record(L, self._actions(conn, L.id, number)).model_dump(mode="json", by_alias=True)

    def replay(self, table_id: str, number: int) -> dict:
        """A finished game for the replay viewer: the report as ``schachett replay --json`` gives it, and before each
        trick every hand (a finished game is public: its record holds every hand)."""
        record = GameRecord.model_validate(self.record(table_id, number))
        r, t, _ = self.rules(record.ruleset, dict(record.options))
        state = State.from_record(t, record.dealer, record.hands, record.game, record.stock, record.turned)
        hands_before = []
        for action in record.actions:
            if state.phase_name == "play" and not state.trick and len(hands_before) == state.done:
                hands_before.append(self._hands(state))
            apply_step(state, action)
        state.lapse()
        report = replay(record, resolved=r, tables=t)
        return {"report": report.as_json(), "text": format_report(report, t), "hands": hands_before,
                "end": self._hands(state), "seat_names": list(t.seat_names), "party_names": list(t.party_names)}

    @staticmethod
    def _hands(state: State) -> list[list[str]]:
        return [sort_cards(state.t, names_of(state.t, h)) for h in state.hands]

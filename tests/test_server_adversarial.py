"""An adversary at the game server: forged and swapped keys, acting for another seat, out of turn, illegal
cards, malformed and huge messages, floods.

After every attempt the game is unchanged (the engine, rebuilding the game from the database rows,
finds the same actions), and no answer holds a card its asker may not see: every response is
scanned for the names of the cards in hands the asker's observation does not show (a name the
request itself sent back is its own word, not a leak).
"""

from __future__ import annotations

import json
import re
import secrets

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.serving import engine_state, hidden_cards, serving

WORD = re.compile(r"[A-Za-z0-9]+")


@pytest.fixture
def server(game_server):
    return game_server


def tokens(value) -> set[str]:
    return set(WORD.findall(value if isinstance(value, str) else json.dumps(value)))


class Guard:
    """Sends a request, scans its answer against the asker's observation, and checks that nothing changed."""

    def __init__(self, server, table: str, keys: dict[int, str]):
        self.server, self.table, self.keys = server, table, keys
        self.seat_of_key = {k: s for s, k in keys.items()}
        self.scanned = 0

    def snapshot(self):
        state, _ = engine_state(self.server.db, self.table)
        return state.history()

    def scan(self, response: httpx.Response | str, key: str | None, sent, state=None) -> None:
        state, t = state or engine_state(self.server.db, self.table)
        seat = self.seat_of_key.get(key)
        secret = hidden_cards(state, t, seat) - tokens(sent)
        body = response if isinstance(response, str) else response.text
        # the table's id is random text of letters, digits, "-" and "_" (secrets.token_urlsafe): an id such as
        # "Xq-s7_b0aZ3k" would read as the card s7, so it is taken out before the words are read
        leaked = secret & tokens(body.replace(self.table, " "))
        assert not leaked, f"an answer to seat {seat} holds hidden cards {leaked}: {body[:300]}"
        self.scanned += 1

    def attempt(self, key: str | None, body, status: int, raw: bytes | None = None, headers=None, table=None) -> dict:
        """An action that must be refused with ``status``, leaving the game as it was."""
        game = engine_state(self.server.db, self.table)
        before = game[0].history()
        h = dict(headers or {})
        if key is not None:
            h.setdefault("Authorization", f"Bearer {key}")
        url = f"{self.server.url}/api/tables/{table or self.table}/actions"
        r = httpx.post(url, content=raw, headers=h | {"Content-Type": "application/json"}) if raw is not None \
            else httpx.post(url, json=body, headers=h)
        assert r.status_code == status, (body if raw is None else raw[:80], r.status_code, r.text)
        answer = r.json()
        assert set(answer) == {"error", "clause"} and answer["error"]
        assert "Traceback" not in r.text
        self.scan(r, key, body if raw is None else raw.decode("utf-8", "replace"), game)
        assert self.snapshot() == before, f"a refused request changed the game: {body!r}"
        return answer

    def view(self, key: str | None) -> dict:
        r = httpx.get(f"{self.server.url}/api/tables/{self.table}",
                      headers={"Authorization": f"Bearer {key}"} if key else {})
        assert r.status_code == 200, r.text
        self.scan(r, key, "")
        return r.json()


def new_table(server, ruleset: str, seats: list[str]) -> tuple[str, dict[int, str]]:
    made = httpx.post(server.url + "/api/tables", json={"ruleset": ruleset, "seats": seats}).json()
    return made["table"], {s["seat"]: s["key"] for s in made["seats"] if s["key"]}


@pytest.mark.parametrize("steps", [pytest.param(3, id="first-cards"), pytest.param(52, id="whole-game",
                                                                                 marks=pytest.mark.slow)])
def test_no_attempt_changes_the_game_or_shows_a_hidden_card(server, steps):
    table, keys = new_table(server, "original", ["person"] * 4)
    other_table, other_keys = new_table(server, "original", ["person"] * 4)
    guard = Guard(server, table, keys)
    for step in range(steps):
        views = {s: guard.view(k) for s, k in keys.items()}
        guard.view(None)
        mover = next(s for s, v in views.items() if v["turn"]["yours"])
        idle = next(s for s in keys if s != mover)
        mine = views[mover]
        state, t = engine_state(server.db, table)
        theirs = [c for s in range(4) if s != mover for c in state.observation(s).hands[s] if c not in mine["hand"]]
        # keys: forged, of another table, of another seat, none, malformed header
        guard.attempt(secrets.token_urlsafe(24), {"card": mine["legal"][0]}, 403)
        guard.attempt(other_keys[mover], {"card": mine["legal"][0]}, 403)
        guard.attempt(keys[idle], {"card": mine["legal"][0]}, 409)          # out of turn: not its decision
        if theirs:
            guard.attempt(keys[idle], {"card": theirs[step % len(theirs)]}, 409)    # a card of another hand
        guard.attempt(None, {"card": mine["legal"][0]}, 401)
        guard.attempt(None, {"card": mine["legal"][0]}, 401, headers={"Authorization": "Basic " + keys[mover]})
        guard.attempt(keys[mover], {"card": mine["legal"][0]}, 404, table="no-such-table")
        # illegal for the mover: a card it does not hold, a card the follow rules forbid, a castle, the next game
        if theirs:
            guard.attempt(keys[mover], {"card": theirs[(step * 7) % len(theirs)]}, 422)
        forbidden = [c for c in mine["hand"] if c not in mine["legal"]]
        if forbidden:
            assert guard.attempt(keys[mover], {"card": forbidden[0]}, 422)["clause"].startswith("§3")
        guard.attempt(keys[mover], {"castle": {"officer": "wT"}}, 409)
        guard.attempt(keys[mover], {"next": True}, 409)
        if step % 13 == 0:    # malformed and huge messages, every trick
            for raw in (b"not json", b"\xff\xfe", b"[" * 100_000 + b"]" * 100_000, b"[" * 8000 + b"]" * 8000, b"[]", b"null", b'"w7"',
                        b'{"card": "w7", "by": 3}', b'{"card": 7}', b'{"card": null}', b'{"card": "' + b"w" * 500 + b'"}',
                        b'{"castle": "wT"}', b'{"castle": {"officer": ["wT"]}}', b'{"away": "yes"}', b'{"eval": "1+1"}',
                        b'{"__proto__": {"card": "w7"}}', b'{"next": 1}'):
                guard.attempt(keys[mover], None, 413 if len(raw) > 16384 else 400, raw=raw)
            guard.attempt(keys[mover], None, 413, raw=json.dumps({"card": "w7", "pad": "x" * 17000}).encode())
        r = httpx.post(f"{server.url}/api/tables/{table}/actions", json={"card": mine["legal"][0]},
                       headers={"Authorization": f"Bearer {keys[mover]}"})
        assert r.status_code == 200, r.text
        guard.scan(r, keys[mover], "")
    final = guard.view(None)
    assert final["over"] == (steps == 52)
    assert guard.scanned > steps * 12


def test_the_three_player_game_keeps_the_dummy_and_the_castles_honest(server):
    table, keys = new_table(server, "three-player", ["person"] * 3)
    guard = Guard(server, table, keys)
    for _ in range(6):
        views = {s: guard.view(k) for s, k in keys.items()}
        mover = next(s for s, v in views.items() if v["turn"]["yours"])
        idle = next(s for s in keys if s != mover)
        v = views[mover]
        guard.attempt(keys[idle], {"pass": True}, 409)
        if v["decision"] == "castle":
            guard.attempt(keys[mover], {"castle": {"officer": "sIV"}}, 422)     # not an officer on offer
            send = {"pass": True}
        else:
            guard.attempt(keys[mover], {"pass": True}, 409)
            send = {"card": v["legal"][0]}
        r = httpx.post(f"{server.url}/api/tables/{table}/actions", json=send,
                       headers={"Authorization": f"Bearer {keys[mover]}"})
        assert r.status_code == 200, r.text
        guard.scan(r, keys[mover], "")


def test_the_websocket_refuses_bad_keys_and_spectators_cannot_act(server):
    table, keys = new_table(server, "original", ["person"] * 4)
    guard = Guard(server, table, keys)
    url = server.url.replace("http", "ws") + f"/ws/tables/{table}"
    for first, words in (({"key": secrets.token_urlsafe(24)}, "not a key of this table"),
                         ({"key": 12}, "the key is a text"), ({"who": "me"}, "the first message"), ([1], "the first message")):
        with connect(url) as ws:
            ws.send(json.dumps(first))
            answer = ws.recv(5)
            assert json.loads(answer)["type"] == "error" and words in answer
            with pytest.raises(ConnectionClosed):
                ws.recv(5)
    before = guard.snapshot()
    with connect(url) as ws:
        ws.send(json.dumps({"key": None}))
        guard.scan(ws.recv(5), None, "")
        ws.send(json.dumps({"card": "w7"}))
        answer = json.loads(ws.recv(5))
        assert answer["type"] == "error" and "needs the key" in answer["error"]
        ws.send("{not json")
        assert json.loads(ws.recv(5))["type"] == "error"
    assert guard.snapshot() == before


@pytest.mark.slow          # a server of its own with low limits (the fast lane: the limiter's doctest)
def test_floods_are_refused_per_key_and_per_address(tmp_path):
    # the extra flags come after the generous ones tests/serving.py gives, and win: a key may make a request a
    # second (3 at once), an address two a second (6 at once)
    with serving(tmp_path, extra=("--rate-per-key", "1", "--rate-per-address", "2")) as server:
        table, keys = new_table(server, "original", ["person"] * 4)
        before = engine_state(server.db, table)[0].history()
        answers = [httpx.post(f"{server.url}/api/tables/{table}/actions", json={"card": "zz"},
                              headers={"Authorization": f"Bearer {keys[0]}"}) for _ in range(5)]
        refused = [r.json()["error"] for r in answers if r.status_code == 429]
        assert refused and all("too many requests" in e for e in refused)
        assert any("with this key" in e for e in refused)
        flood = [httpx.get(f"{server.url}/api/tables/{table}") for _ in range(12)]
        assert any(r.status_code == 429 and "from this address" in r.json()["error"] for r in flood)
        assert engine_state(server.db, table)[0].history() == before

"""The game server's JSON API and WebSocket, against a real `schachett serve` process.

What a seat is shown is checked against the engine's own observation of that seat, rebuilt from
the database rows by the engine (tests/serving.py), never against the server's code.
"""

from __future__ import annotations

import json
import re
import socket

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from schachett_rules.engine.replay import GameRecord, replay
from tests.serving import engine_state, hidden_cards, serving


@pytest.fixture
def server(game_server):
    return game_server


def new_table(server, ruleset="original", seats=None, options=None) -> dict:
    body = {"ruleset": ruleset, "seats": seats or ["person", "bot:heuristic", "bot:random", "bot:heuristic"]}
    if options:
        body["options"] = options
    r = httpx.post(server.url + "/api/tables", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def view(server, table, key=None) -> dict:
    r = httpx.get(f"{server.url}/api/tables/{table}", headers={"Authorization": f"Bearer {key}"} if key else {})
    assert r.status_code == 200, r.text
    return r.json()


def act(server, table, key, action) -> httpx.Response:
    return httpx.post(f"{server.url}/api/tables/{table}/actions", json=action,
                      headers={"Authorization": f"Bearer {key}"})


def assert_view_is_the_observation(server, table, v, seat):
    """The seat's view holds the engine's observation of the seat, and no card of a hand it may not see."""
    state, t = engine_state(server.db, table)
    obs = state.observation(seat) if seat is not None else None
    if obs is not None:
        assert sorted(v["hand"] or []) == sorted(obs.hands.get(seat, ()))
        assert {h["seat"] for h in v["hands"]} == set(obs.hands)
        assert set(v["legal"]) == set(obs.legal)
        assert [tuple(c) for c in v["trick"]] == list(obs.trick)
        assert v["decision"] == obs.decision or (v["decision"] == "next" and state.over)
    secret = hidden_cards(state, t, seat)
    # the rule that narrows a choice is quoted from the rule file (it may name cards: "no lead h until played
    # h, sQ"); it is the engine's own words for the seat, and the rest of the view is scanned for hidden cards
    if obs is not None:
        assert v.get("forced_by") == obs.forced_by
    v = {k: x for k, x in v.items() if k != "forced_by"}
    words = set(json.dumps(v).replace('"', " ").replace(",", " ").replace("[", " ").replace("]", " ").split())
    assert not secret & words, f"the view shows hidden cards {secret & words}"


def test_a_person_plays_a_whole_game_against_bots_and_its_record_replays(server):
    made = new_table(server)
    assert [s["kind"] for s in made["seats"]] == ["person", "bot:heuristic", "bot:random", "bot:heuristic"]
    key, table = made["seats"][0]["key"], made["table"]
    assert len(key) >= 22 and made["seats"][0]["url"].endswith("#k=" + key)   # 128 bits are 22 base64 characters
    cards_played = 0
    while True:
        v = view(server, table, key)
        assert_view_is_the_observation(server, table, v, 0)
        if v["over"]:
            break
        assert v["turn"]["yours"] and v["decision"] == "card"
        r = act(server, table, key, {"card": v["legal"][0]})
        assert r.status_code == 200, r.text
        cards_played += 1
    assert cards_played == 13              # §1: 52 cards, 13 to each of four players
    record = httpx.get(f"{server.url}/api/tables/{table}/record").json()
    assert sorted(len(h) for h in record["hands"]) == [13, 13, 13, 13]
    report = replay(GameRecord.model_validate(record))
    assert list(report.result.totals) == v["result"]["totals"]
    assert len(report.tricks) == 13
    # the points of the tricks are the cards' (§12): every card point of the deck is in some party's total
    assert sum(report.result.card_points) == sum(tr.points for tr in report.tricks)


def test_an_illegal_card_is_refused_with_its_clause_and_nothing_changes(server):
    made = new_table(server, seats=["person", "bot:random", "bot:random", "bot:random"])
    key, table = made["seats"][0]["key"], made["table"]
    for _ in range(13):
        v = view(server, table, key)
        wrong = [c for c in v["hand"] if c not in v["legal"]]
        if wrong:
            r = act(server, table, key, {"card": wrong[0]})
            assert r.status_code == 422
            body = r.json()
            # §3.1–§3.3 are the follow rules (officer, pawn, suit card led)
            assert body["clause"] in ("§3.1", "§3.2", "§3.3") and "must follow" in body["error"]
            assert view(server, table, key) == v
            return
        act(server, table, key, {"card": v["legal"][0]})
    pytest.fail("in 13 tricks the person never held a card the follow rules forbade")


def test_a_spectator_sees_only_what_every_player_sees(server):
    table = new_table(server)["table"]
    v = view(server, table)
    assert v["seat"] is None and v["hand"] is None and v["legal"] == []
    assert v["hands"] == []                      # no hand lies open in the first trick of the four-player game
    assert sorted(c for _, c in v["kings"]) == ["sK", "wK"]   # the Kings are dealt face up (original's deal)
    assert_view_is_the_observation(server, table, v, None)


def test_the_three_player_game_offers_castling_to_the_kaisers_left(server):
    # §5 (3p): the player left of the Kaiser may castle before play, with the player opposite him; about one deal
    # in a hundred gives that player no officer to castle with, and a table's deal is the server's secret, so
    # tables are opened until one deals the castle (twenty such deals in a row: about once in 10^42 runs)
    for _ in range(20):
        made = new_table(server, "three-player", ["person", "person", "person"])
        keys = {s["seat"]: s["key"] for s in made["seats"]}
        assert sorted(keys) == [0, 1, 3]         # seat 2 is the dummy, played by the Kaiser (§4,2 (3p))
        table = made["table"]
        left = view(server, table, keys[1])
        if left["decision"] == "castle":
            break
        assert left["castle_offers"] == []
    assert left["decision"] == "castle" and left["turn"]["yours"]
    offer = left["castle_offers"][0]
    assert offer["king"] == "sK" and offer["with_seat"] == 3
    kaiser = view(server, table, keys[0])
    assert kaiser["decision"] == "none" and kaiser["castle_offers"] == []
    r = act(server, table, keys[0], {"castle": {"officer": offer["officers"][0]}})
    assert r.status_code == 409                 # not the Kaiser's decision
    r = act(server, table, keys[1], {"castle": {"officer": offer["officers"][0]}})
    assert r.status_code == 200, r.text
    castles = r.json()["castles"]
    assert [(c["seat"], c["king"], c["officer"]) for c in castles] == [(1, "sK", offer["officers"][0])]
    assert_view_is_the_observation(server, table, view(server, table, keys[3]), 3)


def test_the_kaiser_plays_the_dummys_cards(server):
    made = new_table(server, "three-player", ["person", "bot:heuristic", "bot:heuristic"])
    key, table = made["seats"][0]["key"], made["table"]
    v = view(server, table, key)
    assert v["plays_for"] == [0, 2]
    assert v["turn"]["seat"] == 2 and v["turn"]["yours"]     # the dummy plays before the Kaiser in trick 1
    assert v["hand"] is None and [h["seat"] for h in v["hands"]] == [2]   # one hand at a time (§10 (3p))
    r = act(server, table, key, {"card": v["legal"][0]})
    assert r.status_code == 200, r.text
    assert_view_is_the_observation(server, table, r.json(), 0)


def test_a_session_goes_on_with_the_seat_changes_and_a_ledger(server):
    made = new_table(server, seats=["person", "bot:random", "bot:random", "bot:random"])
    key, table = made["seats"][0]["key"], made["table"]
    assert act(server, table, key, {"away": True}).json()["over"]     # bots finish the game for the person
    seatings = []
    for game in range(2, 6):
        v = act(server, table, key, {"next": True}).json()
        assert v["game"] == game and v["over"]
        seatings.append("".join(s["player"] for s in v["seats"]))
    assert seatings == ["ABCD", "ABCD", "ABCD", "ACBD"]     # §13: after a round of 4 games, B and C change seats
    ledger = v["ledger"]
    assert [x["player"] for x in ledger] == list("ABCD") and all(x["games"] == 5 for x in ledger)
    assert sum(x["money"] for x in ledger) == 0
    back = act(server, table, key, {"away": False}).json()
    assert back["away"] is False and back["decision"] == "next"
    assert [g["number"] for g in back["games"]] == [1, 2, 3, 4, 5]
    assert httpx.get(f"{server.url}/api/tables/{table}/games/3/record").status_code == 200
    steps = httpx.get(f"{server.url}/api/tables/{table}/games/3/replay").json()
    assert len(steps["hands"]) == 13 and [len(h) for h in steps["hands"][0]] == [13] * 4
    assert steps["report"]["over"] and len(steps["report"]["tricks"]) == 13


def test_the_websocket_pushes_every_new_view_and_takes_actions(server):
    made = new_table(server, seats=["person", "bot:heuristic", "person", "bot:heuristic"])
    keys = {s["seat"]: s["key"] for s in made["seats"] if s["key"]}
    table = made["table"]
    mover = next(s for s, k in keys.items() if view(server, table, k)["turn"]["yours"])
    other = 2 - mover                       # South (0) and North (2) are the people
    ws_url = server.url.replace("http", "ws") + f"/ws/tables/{table}"
    with connect(ws_url) as them, connect(ws_url) as watcher:
        them.send(json.dumps({"key": keys[other]}))
        watcher.send(json.dumps({"key": None}))
        first = json.loads(them.recv(5))["view"]
        assert first["seat"] == other and json.loads(watcher.recv(5))["view"]["seat"] is None
        v = view(server, table, keys[mover])
        assert act(server, table, keys[mover], {"card": v["legal"][0]}).status_code == 200
        pushed = json.loads(them.recv(5))
        assert pushed["type"] == "view" and pushed["view"]["version"] > first["version"]
        assert_view_is_the_observation(server, table, pushed["view"], other)
        assert json.loads(watcher.recv(5))["view"]["hand"] is None
        assert pushed["view"]["turn"]["yours"]      # two bots played, then the other person's card is due
        them.send(json.dumps({"card": "zz"}))
        refused = json.loads(them.recv(5))
        assert refused["type"] == "error" and "is not a card of this deck" in refused["error"]
        them.send(json.dumps({"card": pushed["view"]["legal"][0]}))
        answer = json.loads(them.recv(5))
        assert answer["type"] == "answer" and answer["view"]["version"] > pushed["view"]["version"]
        them.send("x" * 20000)                     # over 16 KiB: the socket is closed as "message too big"
        with pytest.raises(ConnectionClosed) as closed:
            them.recv(5)
        assert closed.value.rcvd.code == 1009


@pytest.mark.slow          # a server of its own, killed and started again (the fast lane: tests/test_server_store.py)
def test_a_restart_mid_game_loses_nothing(tmp_path):
    with serving(tmp_path) as server:
        made = new_table(server, "three-player", ["person", "bot:heuristic", "bot:heuristic"])
        key, table = made["seats"][0]["key"], made["table"]
        for _ in range(4):
            v = view(server, table, key)
            if v["decision"] == "castle":
                act(server, table, key, {"pass": True})
            else:
                act(server, table, key, {"card": v["legal"][0]})
        before = view(server, table, key)
        server.restart(kill=True)           # as a crash: no chance to save anything on the way out
        after = view(server, table, key)
        assert after == before
        while not after["over"]:
            r = act(server, table, key, {"pass": True} if after["decision"] == "castle" else {"card": after["legal"][0]})
            assert r.status_code == 200, r.text
            after = r.json()
        assert len(httpx.get(f"{server.url}/api/tables/{table}/record").json()["actions"]) >= 52


def test_a_new_table_is_checked_before_it_is_made(server):
    cases = [({"ruleset": "../etc/passwd"}, "there is no ruleset"),
             ({"ruleset": "original", "seats": ["person"]}, "played by 4 players"),
             ({"ruleset": "original", "seats": ["bot:random"] * 4}, "at least one person"),
             ({"ruleset": "original", "seats": ["person", "bot:alphago", "person", "person"]}, "played by 4 players"),
             ({"ruleset": "original", "options": {"deal": "dealt-by-moonlight"}}, "has no option"),
             ({"ruleset": "original", "options": {"no-such-gap": "x"}}, "no lacuna"),
             ({"ruleset": "original", "colour": "red"}, "a new table is"),
             ([1, 2, 3], "a new table is")]
    for body, words in cases:
        r = httpx.post(server.url + "/api/tables", json=body)
        assert r.status_code == 400 and words in r.json()["error"], (body, r.text)


def test_a_reading_of_a_lacuna_is_played_at_the_table(server):
    made = new_table(server, options={"deal": "random"})
    v = view(server, made["table"], made["seats"][0]["key"])
    assert v["options"]["deal"] == "random"
    assert v["kings"] == []                       # the random deal (§4 lost) deals nothing face up


def test_the_pages_answer_and_hold_no_keys(server):
    made = new_table(server)
    home = httpx.get(server.url + "/")
    assert home.status_code == 200 and "reconstruction" in home.text
    assert "default-src 'self'" in home.headers["content-security-policy"]
    page = httpx.get(f"{server.url}/tables/{made['table']}")
    assert page.status_code == 200 and made["seats"][0]["key"] not in page.text
    assert httpx.get(f"{server.url}/tables/nope").status_code == 404
    svg = httpx.get(server.url + "/cards/original/wT.svg")
    assert svg.status_code == 200 and "<title>white Rook (wT)</title>" in svg.text
    assert httpx.get(server.url + "/cards/original/wZ.svg").status_code == 404
    form = httpx.post(server.url + "/tables", data={"ruleset": "original", "seat:0": "person", "seat:1": "bot:random",
                                                    "seat:2": "person", "seat:3": "bot:mc"})
    assert form.status_code == 200 and len(set(re.findall(r"#k=([\w-]+)", form.text))) == 2   # two people


def test_serve_refuses_a_database_or_an_address_it_cannot_use_in_one_paragraph(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from schachett_rules.cli.main import main
    monkeypatch.chdir(tmp_path)
    bad = CliRunner().invoke(main, ["serve", "--db", "nosuchdb://x/y"])
    assert bad.exit_code == 1 and "has no dialect" in bad.output and "Traceback" not in bad.output
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = CliRunner().invoke(main, ["serve", "--port", str(busy.getsockname()[1])])
    assert taken.exit_code == 2 and "cannot be used" in taken.output and "Traceback" not in taken.output
    assert "serve" in CliRunner().invoke(main, ["--help"]).output


def test_the_dummy_lies_open_to_everyone_after_the_first_trick(server):
    made = new_table(server, "three-player", ["person", "bot:random", "bot:random"])
    key, table = made["seats"][0]["key"], made["table"]
    v = view(server, table, key)
    assert [h["seat"] for h in view(server, table)["hands"]] == []       # trick 1: closed to the spectators
    while engine_state(server.db, table)[0].done < 1:    # (a rescue of trick 1 is decided before it is done)
        v = act(server, table, key, {"pass": True} if v["decision"] == "castle" else {"card": v["legal"][0]}).json()
    watched = view(server, table)
    # §10 (3p): the dummy's cards are laid out face up after the first trick
    assert [h["seat"] for h in watched["hands"]] == [2]
    state, _ = engine_state(server.db, table)
    assert sorted(watched["hands"][0]["cards"]) == sorted(state.observation(1).hands[2])
    assert watched["dummy"] == watched["hands"]

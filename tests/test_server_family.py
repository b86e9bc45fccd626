"""The family's games at the game server: Hearts with its passing, Schafkopf with its auction and a hidden
partner, against a real `schachett serve` process.

Expected facts come from the rule files (variants/family/): Hearts passes 3 cards and the holder of c2 leads
the first trick (hearts:§2, §3); a Schafkopf Rufer calls an Ace whose holder is the declarer's partner, known
to himself alone until the Ace is played (schafkopf:§2). What each seat is shown is checked against the
engine's own observation, rebuilt from the database rows (tests/serving.py).
"""

from __future__ import annotations

import json

import httpx
import pytest

from schachett_rules.engine.replay import GameRecord, replay
from schachett_rules.kernel.deal import names_of
from tests.serving import engine_state
from tests.test_server_api import act, assert_view_is_the_observation, new_table, view


def test_hearts_at_a_table_passes_three_cards_then_the_holder_of_c2_leads(game_server):
    server = game_server
    made = new_table(server, "hearts", ["person", "bot:heuristic", "bot:random", "bot:heuristic"])
    key, table, seat = made["seats"][0]["key"], made["table"], made["seats"][0]["seat"]
    v = view(server, table, key)
    assert v["phase"] == "passing" and v["decision"] == "give" and v["turn"]["yours"]
    assert len(v["hand"]) == 13 and sorted(v["choices"]) == sorted(v["hand"])
    assert v["family"]["to_pass"] == 3
    given = []
    for i in range(3):
        card = v["choices"][0]
        r = act(server, table, key, {"decide": card})
        assert r.status_code == 200, r.text
        given.append(card)
        v = r.json()
        assert_view_is_the_observation(server, table, v, seat)
        if i < 2:
            assert v["decision"] == "give" and v["family"]["passed"] == given
    # every seat has passed: the game is at play, the person holds 13 cards again, 3 of them received
    assert v["phase"] == "play"
    assert len(v["hand"]) == 13 and not set(given) & set(v["hand"])
    received = [c for _, c in v["family"]["received"]]
    assert len(received) == 3 and set(received) <= set(v["hand"])
    # the first game passes to the left (hearts:§2: left, right, across, none): the cards came from the right
    assert {s for s, _ in v["family"]["received"]} == {(seat - 1) % 4}
    state, t = engine_state(server.db, table)
    holder = next(s for s in range(4) if "c2" in names_of(t, state.start_hands[s]))
    assert v["leader"] == holder
    # another seat's view of the passing shows its own cards only (the others' passes are hidden)
    spectator = view(server, table)
    assert spectator["family"]["passed"] == [] and spectator["family"]["received"] == []
    assert_view_is_the_observation(server, table, spectator, None)
    # a decision before play is no longer asked, and a decision's word must be a text
    assert act(server, table, key, {"decide": v["hand"][0]}).status_code == 409
    assert act(server, table, key, {"decide": 7}).status_code == 400
    while not v["over"]:
        assert v["decision"] == "card"
        r = act(server, table, key, {"card": v["legal"][0]})
        assert r.status_code == 200, r.text
        v = r.json()
    record = httpx.get(f"{server.url}/api/tables/{table}/record").json()
    report = replay(GameRecord.model_validate(record))
    assert len(report.tricks) == 13
    assert sum(report.result.card_points) == 26        # 13 hearts of 1 and the sQ of 13 (hearts:§4)
    assert list(report.result.game_points) == v["result"]["game_points"]


def test_a_bid_that_is_not_open_is_refused_and_changes_nothing(game_server):
    server = game_server
    made = new_table(server, "schafkopf", ["person"] * 4)
    keys = {s["seat"]: s["key"] for s in made["seats"]}
    table = made["table"]
    first = next(s for s, k in keys.items() if view(server, table, k)["turn"]["yours"])
    v = view(server, table, keys[first])
    r = act(server, table, keys[first], {"decide": "grand"})
    assert r.status_code == 422 and "not open" in r.json()["error"]
    other = keys[(first + 1) % 4]
    assert act(server, table, other, {"decide": "pass"}).status_code == 409      # not his turn
    assert view(server, table, keys[first])["version"] == v["version"]


def _rufer_table(server):
    """A Schafkopf table of four people where the first bidder can bid a Rufer; everyone else passes."""
    for _ in range(30):
        made = new_table(server, "schafkopf", ["person"] * 4)
        keys = {s["seat"]: s["key"] for s in made["seats"]}
        table = made["table"]
        first = next(s for s, k in keys.items() if view(server, table, k)["turn"]["yours"])
        if "rufer" in view(server, table, keys[first])["choices"]:
            return table, keys, first
    raise AssertionError("in 30 deals no first bidder could call an Ace")


@pytest.mark.slow
def test_schafkopf_auction_and_call_keep_the_partner_hidden_until_the_ace_is_played(game_server):
    server = game_server
    table, keys, declarer = _rufer_table(server)
    assert act(server, table, keys[declarer], {"decide": "rufer"}).status_code == 200
    for k in range(1, 4):
        seat = (declarer + k) % 4
        v = view(server, table, keys[seat])
        assert v["phase"] == "auction" and v["turn"]["yours"]
        assert [b["bid"] for b in v["family"]["bids"]][0] == "rufer"
        assert act(server, table, keys[seat], {"decide": "pass"}).status_code == 200
    v = view(server, table, keys[declarer])
    assert v["phase"] == "call" and v["decision"] == "call"
    ace = v["choices"][0]
    assert ace.endswith("A") and ace not in v["hand"]          # an Ace he does not hold (schafkopf:§2)
    r = act(server, table, keys[declarer], {"decide": ace})
    assert r.status_code == 200, r.text
    state, t = engine_state(server.db, table)
    partner = next(s for s in range(4) if ace in names_of(t, state.hands[s]))
    assert partner != declarer
    while True:
        state, t = engine_state(server.db, table)
        ace_played = any(c == ace for tr in state.tricks for _, c in tr.cards) or any(
            t.deck.card_name(c) == ace for _, c in state.trick)
        for seat in range(4):
            w = view(server, table, keys[seat])
            assert_view_is_the_observation(server, table, w, seat)
            assert w["family"]["contract"] == "rufer" and w["family"]["called"] == ace
            if seat == partner or ace_played:
                mates = {declarer} if seat == partner else None
                if seat == partner:
                    assert set(w["family"]["partners"]) == mates
            else:
                # nobody but the partner knows him: not in the seat's partners, parties or points by party
                assert w["family"]["partners"] is None
                assert w["parties"] is None and all(s["party"] is None for s in w["seats"])
                assert w["score"]["parties"] is None and w["score"]["points"] is None
        spectator = view(server, table)
        if not ace_played:
            assert spectator["parties"] is None and spectator["family"]["partners"] is None
        if ace_played:
            for seat in range(4):
                w = view(server, table, keys[seat])
                side = {declarer, partner}
                assert set(w["family"]["partners"]) == (side - {seat} if seat in side else set(range(4)) - side - {seat})
                assert w["parties"] is not None
            break
        mover = next(s for s in range(4) if view(server, table, keys[s])["turn"]["yours"])
        w = view(server, table, keys[mover])
        assert act(server, table, keys[mover], {"card": w["legal"][0]}).status_code == 200
    # play it out; the record replays with its auction and call
    while True:
        movers = [s for s in range(4) if view(server, table, keys[s])["turn"] and view(server, table, keys[s])["turn"]["yours"]]
        w = view(server, table, keys[declarer])
        if w["over"]:
            break
        m = view(server, table, keys[movers[0]])
        assert act(server, table, keys[movers[0]], {"card": m["legal"][0]}).status_code == 200
    record = GameRecord.model_validate(httpx.get(f"{server.url}/api/tables/{table}/record").json())
    report = replay(record)
    assert report.result.contract == "rufer" and report.result.called == ace
    assert report.result.declarer == declarer and report.result.partner == partner
    assert sum(report.result.card_points) == 120      # the 32 cards' points (schafkopf:§5)


def test_a_discard_is_shown_to_the_seat_that_laid_it_away_and_to_nobody_else():
    from schachett_rules.server.views import seat_view
    from tests.serving import hidden_cards
    from tests.test_family import decide, euchre_game
    game = euchre_game("up h")
    decide(game, "c9")                                # the dealer lays the Nine of clubs away
    assert seat_view(game, 0)["family"]["discarded"] == ["c9"]
    for seat in (1, 2, 3, None):                      # another seat, a spectator
        v = seat_view(game, seat)
        assert v["family"]["discarded"] == []
        assert "c9" in hidden_cards(game, game.t, seat) and "c9" not in json.dumps(v)


def test_wendish_s7_a_tableau_shows_every_pile_and_no_face_down_card_to_any_seat():
    # Officers' Schafkopf (wendish:§7): sixteen piles, a face-up card on a face-down one; the view names each
    # pile's top, and the card under it only once it has turned up, to the players and to spectators alike
    from schachett_rules.kernel.compiler import tables_for
    from schachett_rules.kernel.state import State
    from schachett_rules.kernel.streams import GameStream
    from schachett_rules.server.views import seat_view
    t = tables_for("officers-schafkopf")
    game = State.deal(t, 1, GameStream(5, 0))
    covered = names_of(t, game.covered)
    for seat in (0, 1, None):
        piles = seat_view(game, seat)["family"]["tableau"]
        assert len(piles) == 16 and {p["under"] for p in piles} == {None}
        assert not set(covered) & set(json.dumps(seat_view(game, seat)).replace('"', " ").replace(",", " ").split())
    top = seat_view(game, 0)["legal"][0]
    game.play(top)
    under = [p for p in seat_view(game, None)["family"]["tableau"] if p["card"] == top]
    assert len(under) == 1 and under[0]["under"] in covered     # the card that turned up, now seen by all


def test_schafkopf_s8_a_hochzeit_shows_the_cards_exchanged_to_the_two_who_exchanged_them_alone():
    # West offers his one trump, the h7; East takes it and gives back the s9 (tests/test_hochzeit.py's deal). The
    # offer and who took it are the table's; the two cards are West's and East's to see, in no other view
    from schachett_rules.kernel.compiler import tables_for
    from schachett_rules.kernel.state import State
    from schachett_rules.server.views import seat_view
    from tests.test_family import bid_alone, decide
    from tests.test_hochzeit import HOCHZEIT
    game = State.from_record(tables_for("schafkopf"), 0, HOCHZEIT)
    bid_alone(game, 1, "hochzeit")
    v = seat_view(game, 2)
    assert v["decision"] == "answer" and v["choices"] == ["take", "pass"] and v["turn"]["yours"]
    assert v["family"]["offered"] is None and v["family"]["cites"]["offer"] == "schafkopf:§8"
    assert seat_view(game, 1)["family"]["offered"] == "h7"
    decide(game, "pass")
    decide(game, "take")
    v = seat_view(game, 3)
    assert v["decision"] == "give" and v["choices"] == ["s9"] and v["family"]["to_give"] == 1
    decide(game, "s9")
    for seat in (0, 1, 2, 3, None):
        v = seat_view(game, seat)
        assert v["family"]["answers"] == [{"seat": 2, "take": False}, {"seat": 3, "take": True}]
        seen = seat in (1, 3)
        assert v["family"]["offered"] == ("h7" if seen else None)
        assert v["family"]["given_back"] == (["s9"] if seen else [])
    # the parties are known to all once East has taken the card
    assert seat_view(game, 0)["family"]["partners"] == [2] and seat_view(game, 2)["parties"] is not None

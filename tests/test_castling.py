"""Castling (§5, lost; §5 (3p)): every reading of the lacuna, through the engine and through records.

The printed four-player game lost its §5; ``original`` plays no castling and
lists the readings as the lacuna ``castling`` (none, as-three-player,
before-play, rescue, both), with the parameter lacunae ``castle-officer``
(any-officer, rook) and ``castle-limit`` (once-per-party, once-per-game,
once-per-player). The three-player game prints its own rule (§5 (3p)).

The deals are written out card by card, so every trick below is forced by
the follow rules of §3 and can be checked by hand.
"""

from __future__ import annotations

import json

import pytest

from schachett_rules.kernel.compiler import compile_ruleset, tables_for
from schachett_rules.kernel.state import State
from schachett_rules.errors import IllegalAction
from schachett_rules.rules.loader import load
from schachett_rules.engine.replay import parse_record, record_of, replay

# Dealer 3: the wK lies with seat 3, the sK with seat 0 (§4 kings-face-up). Seat 3's only officer is
# the wK; seat 1 (opposite seat 3) holds wD and two wS; seat 2 holds no officer at all.
RESCUE_DEAL = [
    "sK sT sT sD sL sL sS sS wT wT wL wL s8".split(),
    "wD wS wS w1 w2 w3 w4 w5 w6 w7 w8 wI wII".split(),
    "s1 s2 s3 s4 s5 s6 s7 wIII wIV wV wVI wVII wVIII".split(),
    "wK wIX wX sI sII sIII sIV sV sVI sVII sVIII sIX sX".split(),
]
# Trick 1 of RESCUE_DEAL: sT led; seat 1 must give an officer (wS), seat 2 a black pawn (s1),
# seat 3 its only officer, the wK. The sT holds: seat 0 checkmates the dealer's wK (§7).
CHECKMATE_IN_TRICK_1 = ["sT", "wS", "s1", "wK"]
# Or trick 1 without Kings (s8 holds), then the same checkmate in trick 2.
QUIET_TRICK_1 = ["s8", "w1", "s1", "sI"]
CHECKMATE_IN_TRICK_2 = ["sT", "wS", "s2", "wK"]

# Dealer 3 again, every seat with officers: sK with seat 0, wK with seat 3.
OFFICERS_DEAL = [
    "sK sD sT w1 w2 w3 w4 w5 w6 w7 w8 wI wII".split(),
    "wD wT wT wL wL s1 s2 s3 s4 s5 s6 s7 s8".split(),
    "sT sL sL sS sS wIII wIV wV wVI wVII wVIII wIX wX".split(),
    "wK wS wS sI sII sIII sIV sV sVI sVII sVIII sIX sX".split(),
]


def game_of(options: dict[str, str], hands, dealer: int = 3, ruleset: str = "original") -> State:
    t = tables_for(ruleset, tuple(sorted(options.items())))
    return State.from_record(t, dealer, hands)


def holds(game: State, seat: int, name: str) -> int:
    """How many copies of a card the seat holds now."""
    return (game.hands[seat] & game.t.deck.face_cards[game.t.face(name)]).bit_count()


def play_all(game: State, cards) -> None:
    for c in cards:
        game.play(c)


def play_quietly(game: State, tricks: int) -> None:
    """Play whole tricks with the first legal card that is not a King (a King only when forced)."""
    target = len(game.tricks) + tricks
    while len(game.tricks) < target:
        legal = list(game.legal())
        game.play(next((c for c in legal if not c.endswith("K")), legal[0]))


def finish(game: State) -> None:
    """Play the game out with the first legal card each time (no more castles)."""
    while not game.over:
        game.play(next(iter(game.legal())))


def king_events(game: State, king: str):
    return [e for e in game.result().events if e.king == king]


def played_by(game: State, card: str) -> list[tuple[int, int]]:
    """(trick, seat) of every play of a card."""
    return [(tr.number, s) for tr in game.tricks for s, c in tr.cards if c == card]


# --- castling none ------------------------------------------------------------------------------

def test_s5_castling_none_offers_nothing_and_refuses_a_castle_naming_castling():
    game = game_of({}, OFFICERS_DEAL)            # original chooses castling none
    assert game.t.castling is None
    assert game.castle_options() == []
    assert not game.can_castle(3, "wD", "wK")
    with pytest.raises(IllegalAction, match="castling") as err:
        game.castle(3, "wD", "wK")
    assert "castling clause says none, §5" in err.value.message
    assert holds(game, 3, "wK") == 1 and holds(game, 1, "wD") == 1   # nothing moved


# --- before play ---------------------------------------------------------------------------------

def test_s5_as_three_player_castle_before_play_is_for_the_player_left_of_the_dealer():
    game = game_of({"castling": "as-three-player"}, OFFICERS_DEAL)
    options = game.castle_options()
    assert [(o.seat, o.with_seat, o.kind) for o in options] == [(0, 2, "before")]
    assert sorted({game.t.deck.card_name(c) for c in options[0].officers}) == ["sL", "sS", "sT"]
    # The dealer has the wK, but his permit starts after trick 1.
    with pytest.raises(IllegalAction, match=r"does not let seat 3 castle before play \(§5 \(3p\)\)"):
        game.castle(3, "wD", "wK")


def test_s5_castle_before_play_exchanges_the_king_and_its_new_holder_plays_it():
    game = game_of({"castling": "as-three-player"}, OFFICERS_DEAL)
    rec = game.castle(0, "sT", "sK")
    assert (rec.kind, rec.seat, rec.by, rec.king, rec.officer, rec.with_seat, rec.trick) == \
        ("before", 0, 0, "sK", "sT", 2, 0)
    assert rec.cite == "§5 (3p)"
    # The hands changed: seat 0 gave the sK and got a second sT; seat 2 gave an sT and got the sK.
    assert holds(game, 0, "sK") == 0 and holds(game, 0, "sT") == 2
    assert holds(game, 2, "sK") == 1 and holds(game, 2, "sT") == 0
    assert [game.hands[s].bit_count() for s in range(4)] == [13] * 4
    # Seat 0, left of the dealer, still leads (§10.1).
    assert game.to_move == 0 and game.trick_number == 1
    finish(game)
    assert [s for _, s in played_by(game, "sK")] == [2]
    [event] = king_events(game, "sK")
    assert event.owner == 2


def test_s5_before_play_reading_lets_each_king_holder_castle_with_his_partner():
    game = game_of({"castling": "before-play"}, OFFICERS_DEAL)
    assert sorted((o.seat, o.with_seat) for o in game.castle_options()) == [(0, 2), (3, 1)]
    game.play("sK")   # seat 0 leads
    assert game.castle_options() == []
    with pytest.raises(IllegalAction, match=r"not in the middle of a trick \(§5 \(3p\)\)"):
        game.castle(3, "wD", "wK")
    play_all(game, ["wD", "sL", "wS"])
    assert len(game.tricks) == 1 and game.castle_options() == []   # no castle between tricks either


# --- between tricks --------------------------------------------------------------------------------

def test_s5_as_three_player_castle_between_tricks_only_for_the_dealers_party():
    game = game_of({"castling": "as-three-player"}, OFFICERS_DEAL)
    play_quietly(game, 1)
    assert holds(game, 3, "wK") and holds(game, 0, "sK")
    options = game.castle_options()
    assert [(o.seat, o.with_seat, o.kind) for o in options] == [(3, 1, "between")]
    with pytest.raises(IllegalAction, match=r"does not let seat 0 castle after trick 1 \(§5 \(3p\)\)"):
        game.castle(0, "sT", "sK")
    rec = game.castle(3, "wT", "wK")
    assert (rec.kind, rec.trick) == ("between", 1)
    assert holds(game, 1, "wK") == 1 and holds(game, 3, "wT") == 1


def test_s5_castle_between_tricks_opens_only_from_the_trick_the_permit_names(rules):
    path = rules('ruleset late "Castling from trick 3 on" extends original\n'
                 'drop lacuna castling\n'
                 'castling [§5 conjecture] {\n    dealer after trick 3\n}\n', "late")
    game = State.from_record(compile_ruleset(load(str(path))), 3, OFFICERS_DEAL)
    assert game.castle_options() == []
    for done in (1, 2):
        play_quietly(game, 1)
        assert holds(game, 3, "wK")
        assert game.castle_options() == []
        with pytest.raises(IllegalAction, match=rf"does not let seat 3 castle after trick {done} \(§5\)"):
            game.castle(3, "wL", "wK")
    play_quietly(game, 1)
    assert holds(game, 3, "wK")
    [option] = game.castle_options()
    assert (option.seat, option.kind) == (3, "between")
    officer = game.t.deck.card_name(option.officers[0])
    assert game.castle(3, officer, "wK").trick == 3


# --- rescue ------------------------------------------------------------------------------------------

def test_s5_as_three_player_rescue_lifts_the_checkmated_king_out_of_trick_1():
    game = game_of({"castling": "as-three-player"}, RESCUE_DEAL)
    play_all(game, CHECKMATE_IN_TRICK_1)
    # The trick waits: seat 0 would checkmate the wK, and the dealer may rescue it.
    assert game.pending is not None and game.tricks == []
    [option] = game.castle_options()
    assert (option.seat, option.with_seat, option.kind, option.position) == (3, 1, "rescue", 3)
    assert game.t.deck.card_name(option.king) == "wK"
    assert sorted({game.t.deck.card_name(c) for c in option.officers}) == ["wD", "wS"]

    rec = game.castle(3, "wD", "wK")
    assert (rec.kind, rec.trick, rec.seat, rec.with_seat) == ("rescue", 1, 3, 1)
    assert game.pending is None
    [trick] = game.tricks
    # The officer took the King's place, the trick was taken anew: the wD takes the sT.
    assert trick.cards == ((0, "sT"), (1, "wS"), (2, "s1"), (3, "wD"))
    assert (trick.winner, trick.winning_card) == (3, "wD")
    assert trick.points == 11 + 9 + 1 + 12
    assert trick.events == ()
    assert trick.rescues == (rec,)
    # The King is now in the hand opposite; seat 3 keeps its 12 other cards.
    assert holds(game, 1, "wK") == 1 and holds(game, 3, "wK") == 0 and holds(game, 1, "wD") == 0
    assert [game.hands[s].bit_count() for s in range(4)] == [12] * 4
    assert game.to_move == 3
    finish(game)
    [(number, seat)] = played_by(game, "wK")
    assert number > 1 and seat == 1
    [event] = king_events(game, "wK")
    assert event.owner == 1 and event.trick == number
    assert len(game.result().events) == 2


def test_s5_rescue_with_a_lower_officer_keeps_the_winner_but_saves_the_king():
    game = game_of({"castling": "as-three-player"}, RESCUE_DEAL)
    play_all(game, CHECKMATE_IN_TRICK_1)
    game.castle(3, "wS", "wK")
    [trick] = game.tricks
    assert trick.cards[3] == (3, "wS") and trick.winner == 0
    assert trick.events == ()
    assert holds(game, 1, "wK") == 1 and holds(game, 1, "wS") == 0


def test_s5_a_rescue_not_taken_leaves_the_checkmate_to_score():
    game = game_of({"castling": "as-three-player"}, RESCUE_DEAL)
    play_all(game, CHECKMATE_IN_TRICK_1)
    assert game.pending is not None
    assert game.to_move == 0                    # the seat that takes the trick leads next
    game.play("sD")                             # the trick is gathered first
    [event] = game.tricks[0].events
    assert (event.event, event.king, event.owner, event.taker, event.points) == \
        ("checkmate", "wK", 3, 0, 100 + 6 * 13)
    assert game.tricks[0].rescues == ()
    with pytest.raises(IllegalAction, match=r"§5 \(3p\)"):
        game.castle(3, "wD", "wK")              # too late: the trick is in


def test_s5_as_three_player_rescue_is_only_in_trick_1_and_the_rescue_reading_in_any_trick():
    game = game_of({"castling": "as-three-player"}, RESCUE_DEAL)
    play_all(game, QUIET_TRICK_1 + CHECKMATE_IN_TRICK_2)
    assert game.pending is None
    [event] = game.tricks[1].events
    assert (event.event, event.king, event.trick) == ("checkmate", "wK", 2)

    game = game_of({"castling": "rescue"}, RESCUE_DEAL)
    play_all(game, QUIET_TRICK_1 + CHECKMATE_IN_TRICK_2)
    assert game.pending is not None
    assert [(o.seat, o.kind) for o in game.castle_options()] == [(3, "rescue")]
    rec = game.castle(3, "wD", "wK")
    assert rec.trick == 2 and game.tricks[1].winner == 3 and game.tricks[1].events == ()


def test_s5_one_castle_a_moment_a_rescue_closes_the_trick():
    # castle-moment one-castle: the first castle ends the moment, so rescuing seat 0's sK gathers the trick
    # and the selfmated wK of seat 3 stays where it fell (§8).
    game = game_of({"castling": "both"}, OFFICERS_DEAL)
    play_all(game, ["sK", "wD", "sL", "wK"])
    assert game.t.castling.per_moment == "one"
    game.castle(0, "sT", "sK")
    assert game.pending is None
    [trick] = game.tricks
    assert trick.cards == ((0, "sT"), (1, "wD"), (2, "sL"), (3, "wK"))
    assert [(e.event, e.king) for e in trick.events] == [("selfmate", "wK")]


def test_s5_one_castle_a_moment_a_later_seat_castling_lets_the_earlier_chances_go():
    # Before play seats 0 and 3 may both castle (before-play: every King holder); seat 3 castling first
    # means seat 0 let its chance go, and the moment is over.
    game = game_of({"castling": "before-play"}, OFFICERS_DEAL)
    assert [o.seat for o in game.castle_options()] == [0, 3]
    game.castle(3, "wD", "wK")
    assert game.castle_options() == [] and game.phase_name == "play"
    with pytest.raises(IllegalAction, match=r"the moment to castle before play is over: seat 3 castled at it"):
        game.castle(0, "sT", "sK")


def test_s5_after_one_rescue_the_trick_waits_for_the_other_kings_rescue():
    game = game_of({"castling": "both", "castle-moment": "each-seat"}, OFFICERS_DEAL)
    # Seat 1's wD takes the trick: it checkmates seat 0's sK and selfmates its partner's wK.
    play_all(game, ["sK", "wD", "sL", "wK"])
    assert sorted((o.seat, o.with_seat) for o in game.castle_options()) == [(0, 2), (3, 1)]
    for seat in (1, 2):                        # the taker and a seat without a King have nothing to rescue
        with pytest.raises(IllegalAction, match=rf"seat {seat} has no King taken in trick 1 to rescue \(§5 \(3p\)\)"):
            game.castle(seat, "sT")
    game.castle(0, "sT", "sK")
    assert game.pending is not None and game.tricks == []
    assert [(o.seat, o.kind) for o in game.castle_options()] == [(3, "rescue")]
    game.castle(3, "wT", "wK")
    [trick] = game.tricks
    assert trick.cards == ((0, "sT"), (1, "wD"), (2, "sL"), (3, "wT"))
    assert trick.winner == 1 and trick.events == ()
    assert [(c.seat, c.king) for c in trick.rescues] == [(0, "sK"), (3, "wK")]
    assert holds(game, 2, "sK") == 1 and holds(game, 1, "wK") == 1


def test_s5_rescue_reading_offers_no_castle_before_play():
    game = game_of({"castling": "rescue"}, OFFICERS_DEAL)
    assert game.castle_options() == []
    with pytest.raises(IllegalAction, match=r"does not let seat 3 castle before play"):
        game.castle(3, "wD", "wK")


def test_s5_a_rescue_and_the_rest_of_the_game_replay_from_a_record():
    game = game_of({"castling": "as-three-player"}, RESCUE_DEAL)
    play_all(game, CHECKMATE_IN_TRICK_1)
    game.castle(3, "wD", "wK")
    finish(game)
    record = record_of(game, "original", {"castling": "as-three-player"})
    data = json.loads(record.model_dump_json())
    # seat 3's own wK, lifted from the trick, for the wD of the hand opposite, seat 1's
    assert data["actions"][:5] == CHECKMATE_IN_TRICK_1 + [{"castle": {"seat": 3, "officer": "wD", "king": "wK",
                                                                      "king_from": 3, "officer_from": 1}}]
    report = replay(parse_record(json.dumps(data)))
    assert [c.kind for c in report.castles] == ["rescue"]
    assert report.tricks[0].winner == 3 and report.tricks[0].events == ()
    assert report.result == game.result()


def test_s5_a_record_castles_before_play():
    hands = OFFICERS_DEAL
    data = {"ruleset": "original", "options": {"castling": "before-play"}, "dealer": 3, "hands": hands,
            "actions": [{"castle": {"seat": 3, "officer": "wT", "king": "wK"}}]}
    game = game_of({"castling": "before-play"}, hands)
    game.castle(3, "wT", "wK")
    finish(game)
    data["actions"] += [c for tr in game.tricks for _, c in tr.cards]
    report = replay(parse_record(json.dumps(data)))
    [castle] = report.castles
    assert (castle.kind, castle.seat, castle.with_seat, castle.king, castle.officer) == ("before", 3, 1, "wK", "wT")
    assert [e.owner for e in report.result.events if e.king == "wK"] == [1]
    assert report.result == game.result()


def test_s5_an_illegal_castle_in_a_record_names_the_action_and_the_clause():
    data = {"ruleset": "original", "options": {"castling": "as-three-player"}, "dealer": 3, "hands": OFFICERS_DEAL,
            "actions": [{"castle": {"seat": 3, "officer": "wT", "king": "wK"}}]}
    with pytest.raises(IllegalAction, match=r"action 1.*seat 3.*before play \(§5 \(3p\)\)"):
        replay(parse_record(json.dumps(data)))


# --- parameters: which officer, how often ----------------------------------------------------------

def test_s5_rook_reading_refuses_a_dame():
    game = game_of({"castling": "before-play", "castle-officer": "rook"}, OFFICERS_DEAL)
    [option] = [o for o in game.castle_options() if o.seat == 3]
    assert {game.t.deck.card_name(c) for c in option.officers} == {"wT"}
    assert not game.can_castle(3, "wD", "wK")
    with pytest.raises(IllegalAction, match=r"wD cannot be taken for the King: seat 1 offers wT .*§5 \(3p\)"):
        game.castle(3, "wD", "wK")
    assert holds(game, 3, "wK") == 1
    assert game.castle(3, "wT", "wK").officer == "wT"


def test_s5_any_officer_reading_takes_a_dame_but_never_a_king():
    game = game_of({"castling": "before-play", "castle-officer": "any-officer"}, OFFICERS_DEAL)
    [option] = [o for o in game.castle_options() if o.seat == 0]
    assert {game.t.deck.card_name(c) for c in option.officers} == {"sT", "sL", "sS"}
    assert game.can_castle(3, "wD", "wK")
    game.castle(3, "wD", "wK")
    # Seat 1 now holds the wK, and a King is never an officer to be taken.
    assert all(game.t.deck.card_name(c) != "wK" for o in game.castle_options() for c in o.officers)


@pytest.mark.parametrize("limit, seat2_again, seat3_after", [
    ("once-per-party", False, True),
    ("once-per-player", True, True),
    ("once-per-game", False, False),
])
def test_s5_castle_limit(limit, seat2_again, seat3_after):
    # Every seat may castle once at a moment (castle-moment each-seat), asked from seat 0 round the table, so
    # only the limit stops a second castle before play.
    game = game_of({"castling": "both", "castle-limit": limit, "castle-moment": "each-seat"}, OFFICERS_DEAL)
    game.castle(0, "sT", "sK")
    assert holds(game, 2, "sK") == 1
    # The partner now holds the sK and is asked after seat 0: may the same party castle again, from his side?
    assert game.can_castle(2, "sD", "sK") is seat2_again
    assert game.can_castle(3, "wD", "wK") is seat3_after
    if not seat2_again:
        words = {"once-per-party": "once per party", "once-per-game": "once per game"}[limit]
        with pytest.raises(IllegalAction, match=rf"limited to {words}.*§5 \(3p\)"):
            game.castle(2, "sD", "sK")
    else:
        game.castle(2, "sD", "sK")
        assert holds(game, 0, "sK") == 1 and holds(game, 2, "sD") == 1


def test_s5_a_seat_without_a_king_cannot_castle():
    game = game_of({"castling": "both"}, OFFICERS_DEAL)
    for seat in (1, 2):
        assert not any(o.seat == seat for o in game.castle_options())
        with pytest.raises(IllegalAction, match=rf"seat {seat} holds no King \(§5 \(3p\)\)"):
            game.castle(seat, "wS")


def test_s5_bad_castles_name_what_is_wrong():
    game = game_of({"castling": "both"}, OFFICERS_DEAL)
    with pytest.raises(IllegalAction, match=r"seat 3 cannot castle with sK now \(§5 \(3p\)\)"):
        game.castle(3, "wD", "sK")
    with pytest.raises(IllegalAction, match="does not exist"):
        game.castle(7, "wD")
    with pytest.raises(IllegalAction, match="wQ"):
        game.castle(3, "wQ", "wK")
    with pytest.raises(IllegalAction, match=r"w1 cannot be taken for the King"):
        game.castle(0, "w1", "sK")
    assert holds(game, 3, "wK") == 1 and holds(game, 0, "sK") == 1


# --- the three-player game (§5 (3p)) ----------------------------------------------------------------

# Dealer 0, the Kaiser's first game: the wK with the Kaiser (seat 0), the sK with his left neighbour
# (seat 1), who leads. The Kaiser's only officer is the wK; the dummy (seat 2) holds the white officers.
KAISER_DEAL = [
    "wK w1 w2 w3 w4 w5 w6 w7 w8 wI wII wIII wIV".split(),
    "sK sD sT sT sL sL sS sS s1 s2 s3 s4 s5".split(),
    "wD wT wT wL wL wS wS wV wVI wVII wVIII wIX wX".split(),
    "s6 s7 s8 sI sII sIII sIV sV sVI sVII sVIII sIX sX".split(),
]
# Dealer 2: the wK with the dummy (seat 2), the sK with seat 3, who leads; the Kaiser holds the officers.
DUMMY_DEAL = [
    "wD wT wT wL wL wS wS wV wVI wVII wVIII wIX wX".split(),
    "w1 w2 w3 w4 w5 w6 w7 w8 wI wII wIII wIV s8".split(),
    "wK s6 s7 sI sII sIII sIV sV sVI sVII sVIII sIX sX".split(),
    "sK sD sT sT sL sL sS sS s1 s2 s3 s4 s5".split(),
]


def test_s5_3p_the_kaiser_rescues_his_own_king_in_trick_1_with_the_dummys_officer():
    game = game_of({}, KAISER_DEAL, dealer=0, ruleset="three-player")
    play_all(game, ["sD", "wS", "s6", "wK"])      # seat 1's sD takes: the Kaiser's wK is checkmated
    assert game.pending is not None
    [option] = game.castle_options()
    assert (option.seat, option.with_seat, option.kind) == (0, 2, "rescue")
    rec = game.castle(0, "wT", "wK")
    assert (rec.seat, rec.by, rec.with_seat, rec.cite) == (0, 0, 2, "§5 (3p)")
    [trick] = game.tricks
    assert trick.cards[3] == (0, "wT") and trick.winner == 1 and trick.events == ()
    assert holds(game, 2, "wK") == 1 and holds(game, 0, "wK") == 0


def test_s5_3p_the_kaiser_rescues_the_dummys_king_in_trick_1_through_a_record():
    game = game_of({}, DUMMY_DEAL, dealer=2, ruleset="three-player")
    play_all(game, ["sD", "wS", "s8"])
    game.play("wK", by=0)                          # the Kaiser plays the dummy's wK; seat 3's sD takes it
    assert game.pending is not None
    rec = game.castle(2, "wT", "wK")
    assert (rec.seat, rec.by, rec.with_seat) == (2, 0, 0)
    assert game.tricks[0].cards[3] == (2, "wT") and game.tricks[0].events == ()
    assert holds(game, 0, "wK") == 1
    finish(game)

    data = json.loads(record_of(game, "three-player").model_dump_json())
    data["actions"][3] = {"play": {"card": "wK", "by": 0}}
    # the dummy's wK out of the trick, the wT from the Kaiser's hand (castle with: seat 0)
    assert data["actions"][4] == {"castle": {"seat": 2, "officer": "wT", "king": "wK", "king_from": 2,
                                             "officer_from": 0}}
    report = replay(parse_record(json.dumps(data)))
    assert [(c.kind, c.seat, c.by) for c in report.castles] == [("rescue", 2, 0)]
    assert report.result == game.result()


def test_s5_3p_no_rescue_after_trick_1():
    game = game_of({}, KAISER_DEAL, dealer=0, ruleset="three-player")
    # Trick 1 without Kings: seat 1 leads s1, the dummy's wD takes it.
    play_all(game, ["s1", "wD", "s7", "w1"])
    assert game.tricks[0].winner == 2 and game.tricks[0].events == ()
    # Trick 2: the dummy leads wS; the Kaiser must give his only officer, the wK; seat 1's sD takes it.
    play_all(game, ["wS", "s6", "wK", "sD"])
    assert game.pending is None
    assert game.castle_options() == []
    assert [(e.event, e.king, e.owner, e.taker, e.trick) for e in game.tricks[1].events] == \
        [("checkmate", "wK", 0, 1, 2)]


def test_s5_3p_the_left_player_castles_before_play_and_the_kaiser_may_not():
    t = tables_for("three-player")
    hands = [list(h) for h in KAISER_DEAL]
    hands[1][hands[1].index("sT")], hands[3][hands[3].index("s7")] = "s7", "sT"   # seat 3 gets an officer
    game = State.from_record(t, 0, hands)
    assert [(o.seat, o.with_seat, o.kind) for o in game.castle_options()] == [(1, 3, "before")]
    with pytest.raises(IllegalAction, match=r"does not let seat 0 castle before play \(§5 \(3p\)\)"):
        game.castle(0, "wT", "wK")
    rec = game.castle(1, "sT", "sK")
    assert (rec.kind, rec.seat, rec.by, rec.with_seat) == ("before", 1, 1, 3)
    assert holds(game, 3, "sK") == 1
    assert game.to_move == 1                     # the left player leads even after castling (§10 (3p))


def test_s5_3p_the_left_player_may_not_castle_after_trick_1_nor_rescue():
    t = tables_for("three-player")
    hands = [list(h) for h in KAISER_DEAL]
    hands[1][hands[1].index("sT")], hands[3][hands[3].index("s7")] = "s7", "sT"
    game = State.from_record(t, 0, hands)
    play_all(game, ["s1", "wD", "s6", "w1"])    # the dummy's wD takes; no King is played
    assert holds(game, 1, "sK") and holds(game, 0, "wK")
    options = game.castle_options()
    assert [(o.seat, o.kind) for o in options] == [(0, "between")]
    with pytest.raises(IllegalAction, match=r"does not let seat 1 castle after trick 1 \(§5 \(3p\)\)"):
        game.castle(1, "sT", "sK")

    # Trick 1 in which both Kings fall: seat 1 leads the sK, the dummy's wD takes it (checkmate) and
    # the Kaiser's own wK (selfmate). Only the Kaiser's King may be rescued.
    game = game_of({}, KAISER_DEAL, dealer=0, ruleset="three-player")
    play_all(game, ["sK", "wD", "s6", "wK"])
    assert game.pending is not None
    assert [(o.seat, o.kind) for o in game.castle_options()] == [(0, "rescue")]
    with pytest.raises(IllegalAction, match=r"seat 1.*§5 \(3p\)"):
        game.castle(1, "sT", "sK")
    game.castle(0, "wT", "wK")
    [trick] = game.tricks
    assert trick.winner == 2
    assert [(e.event, e.king, e.owner, e.taker) for e in trick.events] == [("checkmate", "sK", 1, 2)]


def test_5_3p_a_rescue_asked_after_trick_1_names_the_trick_1_limit():
    # §5 (3p): "if with this 1st trick the King ... is checkmated or selfmated, then the Kaiser can already
    # extend the castling to the 1st trick itself": a King taken in a later trick is lost, and the refusal
    # says so rather than only that the seat holds no King.
    import random as _random
    from schachett_rules.kernel.state import State as _Game
    from schachett_rules.errors import IllegalAction as _Illegal
    from schachett_rules.kernel.compiler import tables_for as _tables_for
    t = _tables_for("three-player")
    seen = 0
    for seed in range(300):
        rng = _random.Random(seed)
        game = _Game.deal(t, 0, rng)
        while not game.over and seen < 3:
            game.play(next(iter(game.legal())) if rng.random() < 0.5 else list(game.legal())[-1])
            if game.pending is not None:
                game.gather()
            if game.trick or not game.tricks or game.tricks[-1].number < 2:
                continue
            last = game.tricks[-1]
            for seat, card in last.cards:
                # seat 0 (the Kaiser) and seat 2 (his dummy) may rescue in trick 1 (the castling clause)
                if card.endswith("K") and seat in (0, 2) and seat != last.winner and not game.hands[seat] & t.royal_cards:
                    with pytest.raises(_Illegal) as err:
                        game.castle(seat, "wT")
                    assert f"was taken in trick {last.number}" in err.value.reason
                    assert "allows this seat a rescue only in trick 1" in err.value.reason
                    seen += 1
        if seen >= 3:
            break
    assert seen >= 3

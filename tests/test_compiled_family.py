"""The family's rules that decide during play, worked by hand on the compiled state.

The kernel's :class:`~schachett_rules.kernel.state.State` is walked through these games in test_family; here a
hand-made deal is loaded into the compiled state (:class:`~schachett_rules.playouts.walk.CompiledState`) and every
decision after the deal is taken there alone: the call and its restrictions on the called Ace (schafkopf:§3), the
partner found by the first trick he takes (wendish:§3), the tableau whose cards turn up as the cards on them are
played (wendish:§7). The cards expected to be playable, the parties and the points are worked out from the rule
text (manual/family/), not read back from the kernel.
"""

from __future__ import annotations

import random

from schachett_rules.kernel.actions import AUCTION, PLAY, Bid, Call, Play
from schachett_rules.kernel.compiler import tables_for
from schachett_rules.kernel.state import State
from schachett_rules.kernel.streams import GameStream
from schachett_rules.playouts.walk import CompiledState
from tests.test_family import RUFER
from tests.test_state import _compare


def _card(t, name: str) -> int:
    mask = t.deck.face_cards[t.face(name)]
    return (mask & -mask).bit_length() - 1


def _mask(t, *names: str) -> int:
    return sum(1 << _card(t, n) for n in names)


def _bid_alone(walk: CompiledState, t, seat: int, contract: str) -> None:
    """``seat`` bids ``contract`` when his turn comes; every other seat passes."""
    k = t.flow.contract_index(contract)
    while walk.phase == walk.c.AUCTION:
        bidder = walk.decider()
        walk.apply(Bid(bidder, k, -1) if bidder == seat else Bid(bidder))
        if bidder == seat:
            k = -1


def _play(walk: CompiledState, t, *cards: str) -> None:
    """Play the cards in turn, each by the seat whose turn it is; each must be one the compiled state allows."""
    for name in cards:
        card = _card(t, name)
        assert walk.legal_cards() >> card & 1, name
        walk.apply(Play(walk.decider(), card))


# --- Bavarian Schafkopf: the called Ace (schafkopf:§3) ----------------------------------------------------------

def _rufer_called() -> tuple[CompiledState, object]:
    """West (seat 1) plays a Rufer and calls the Ace of acorns, which East (seat 3) holds (test_family's deal)."""
    t = tables_for("schafkopf")
    walk = CompiledState(State.from_record(t, 0, RUFER))
    _bid_alone(walk, t, 1, "rufer")
    assert walk.phase == walk.c.CALL and walk.decider() == 1
    walk.apply(Call(1, _card(t, "eA")))
    assert walk.phase == walk.c.PLAY
    return walk, t


def test_schafkopf_s2_the_called_aces_holder_plays_with_the_declarer_on_the_compiled_state():
    walk, _t = _rufer_called()
    # §2: the holder of the called Ace (East) is the declarer's (West's) partner
    assert tuple(walk.arrays.party_of.tolist()) == (1, 0, 1, 0)
    assert walk.arrays.regs[walk.c.PARTNER] == 3


def test_schafkopf_s3_the_called_ace_must_be_played_when_its_suit_is_led_on_the_compiled_state():
    walk, t = _rufer_called()
    # West leads the acorn 10, North plays the acorn 9: East holds eA, eK and e8 and must play the Ace
    _play(walk, t, "e10", "e9")
    assert walk.decider() == 3 and walk.legal_cards() == _mask(t, "eA")


def test_schafkopf_s3_the_holder_may_neither_throw_the_ace_away_nor_run_from_it_on_the_compiled_state():
    walk, t = _rufer_called()
    _play(walk, t, "gK", "g7")
    # East has no leaf: any card but the called Ace, which stays for the last trick
    assert walk.legal_cards() == _mask(t, "eK", "e8", "hA", "h10", "hK", "h9", "h8")
    _play(walk, t, "hA", "s7")
    # the heart Ace is a trump in the Rufer and takes the trick: East leads, and while he holds the Ace he may
    # not lead another acorn
    assert walk.decider() == 3
    assert walk.legal_cards() == _mask(t, "eA", "h10", "hK", "h9", "h8")
    # 4 (gK) + 0 (g7) + 11 (hA) + 0 (s7) for the declarer's party
    assert walk.points() == [15, 0]


def test_schafkopf_s3_without_a_call_no_restriction_binds_on_the_compiled_state():
    # In a Wenz nobody is called: the holder of the acorn Ace plays his acorns as he likes
    t = tables_for("schafkopf")
    walk = CompiledState(State.from_record(t, 0, RUFER))
    _bid_alone(walk, t, 1, "wenz")
    _play(walk, t, "e10", "e9")
    assert walk.legal_cards() == _mask(t, "eA", "eK", "e8")


# --- Wendish Schafkopf: the Hochzeit with the first trick (wendish:§3) ------------------------------------------

HOCHZEIT = [
    ["cA", "c10", "cK", "c9", "c8", "c7", "hA", "h10"],
    ["cQ", "sQ", "hQ", "dQ", "cJ", "sJ", "hJ", "h7"],       # both Old Ones, seven trumps and a plain heart
    ["sA", "s10", "sK", "s9", "s8", "s7", "hK", "h9"],
    ["dJ", "dA", "d10", "dK", "d9", "d8", "d7", "h8"],
]


def test_wendish_s3_the_first_other_player_to_take_a_trick_is_the_partner_on_the_compiled_state():
    t = tables_for("wendish-schafkopf")
    walk = CompiledState(State.from_record(t, 0, HOCHZEIT))
    _bid_alone(walk, t, 1, "hochzeit-trick")
    assert walk.phase == walk.c.PLAY and walk.decider() == 1
    # the declarer takes the first trick himself (the Queen of clubs, 3 points): no partner yet, he is alone
    _play(walk, t, "cQ", "s7", "d7", "c7")
    assert walk.arrays.regs[walk.c.PARTNER] == -1
    assert tuple(walk.arrays.party_of.tolist()) == (1, 0, 1, 1) and walk.points() == [3, 0]
    # his plain heart: everyone follows, and South's Ace takes the trick: South is the partner, and the trick
    # (0 + 4 + 0 + 11 = 15 points) counts for the declarer's side
    _play(walk, t, "h7", "hK", "h8", "hA")
    assert walk.arrays.regs[walk.c.PARTNER] == 0
    assert tuple(walk.arrays.party_of.tolist()) == (0, 0, 1, 1) and walk.points() == [18, 0]
    assert walk.decider() == 0
    # taking the trick back takes the partner back with it
    walk.undo()
    assert walk.arrays.regs[walk.c.PARTNER] == -1 and tuple(walk.arrays.party_of.tolist()) == (1, 0, 1, 1)


def _walk_bidding(t, contract: str, g: int) -> tuple[State, CompiledState, int]:
    """Game ``g`` walked on the kernel's state and the compiled state side by side, every position compared:
    the first seat that may bid ``contract`` bids it and every other seat passes, then each decision is a
    random one. Returns both states and how many cards a restriction or obligation narrowed."""
    rng = random.Random(g)
    state = State.deal(t, g % t.n_seats, GameStream(g, 0))
    walk = CompiledState(state)
    k, narrowed = t.flow.contract_index(contract), 0
    while not state.over:
        _compare(state, walk)
        actions = state.legal_actions()
        wanted = [a for a in actions if type(a) is Bid and a.contract == k]
        if state.phase == AUCTION:
            action = wanted[0] if wanted else Bid(state.decider())
        else:
            action = actions[rng.randrange(len(actions))]
            narrowed += state.phase == PLAY and state.legal().rule not in (None, len(state.t.restrictions))
        state.apply(action)
        walk.apply(action)
    _compare(state, walk)
    return state, walk, narrowed


def test_schafkopf_s3_rufer_games_walk_alike_on_both_states():
    # random Rufer games: the called Ace's rules narrow the cards on both states alike, trick after trick
    t = tables_for("schafkopf")
    rufer, narrowed = 0, 0
    for g in range(40):
        state, walk, n = _walk_bidding(t, "rufer", g)
        rufer += state.called >= 0
        narrowed += n
        assert state.t.party_of == tuple(walk.arrays.party_of.tolist())
        assert list(state.result().totals) == walk.points()
    assert rufer > 10 and narrowed > 10


def test_wendish_s3_hochzeit_games_with_the_first_trick_walk_alike_on_both_states():
    # deals where a seat holds both Old Ones, played as a Hochzeit with the first trick: the partner is found
    # (or not, where the declarer takes every trick) on both states alike
    t = tables_for("wendish-schafkopf")
    found = 0
    for g in range(200):
        state, walk, _n = _walk_bidding(t, "hochzeit-trick", g)
        if state.contract != t.flow.contract_index("hochzeit-trick"):
            continue
        found += state.partner >= 0
        assert walk.arrays.regs[walk.c.PARTNER] == state.partner
        assert state.t.party_of == tuple(walk.arrays.party_of.tolist())
        assert list(state.result().totals) == walk.points()
    assert found > 10


# --- Officers' Schafkopf: the tableau (wendish:§7) ---------------------------------------------------------------

# the first eight cards of each hand lie face down, each under the card eight places on
OFFICERS = [
    ["cA", "c10", "cK", "c9", "c8", "c7", "hA", "h10", "sA", "s10", "sK", "s9", "s8", "s7", "hK", "h9"],
    ["cQ", "sQ", "hQ", "dQ", "cJ", "sJ", "hJ", "h7", "dJ", "dA", "d10", "dK", "d9", "d8", "d7", "h8"],
]


def test_wendish_s7_only_face_up_cards_are_played_and_each_turns_up_the_card_under_it_on_the_compiled_state():
    t = tables_for("officers-schafkopf")
    walk = CompiledState(State.from_record(t, 0, OFFICERS))
    assert walk.phase == walk.c.PLAY and walk.decider() == 1
    # North leads from his eight face-up cards
    assert walk.legal_cards() == _mask(t, *OFFICERS[1][8:])
    _play(walk, t, "h8")
    # South must follow hearts with a face-up heart: the Ace and ten lie face down and do not count
    assert walk.legal_cards() == _mask(t, "hK", "h9")
    _play(walk, t, "h9")
    # the nine takes the eight; the h7 under North's h8 and the h10 under South's h9 are face up now
    assert walk.decider() == 0
    assert walk.legal_cards() == _mask(t, "sA", "s10", "sK", "s9", "s8", "s7", "hK", "h10")
    _play(walk, t, "hK")
    # North's only face-up heart is the seven he turned up; his Queen and Jack of hearts are trumps, face down
    assert walk.legal_cards() == _mask(t, "h7")
    _play(walk, t, "h7")
    # the King of hearts took it (4 points) and turned the Ace of hearts up
    assert walk.points() == [4, 0] and walk.decider() == 0
    assert walk.legal_cards() >> _card(t, "hA") & 1


def test_wendish_s7_a_random_tableau_game_turns_its_cards_up_as_the_state_does():
    # every card played in a random game of the compiled state was face up when it was played: of each hand's
    # first eight cards dealt (face down), none goes before the card dealt eight places after it
    from schachett_rules.playouts.single import random_game
    t = tables_for("officers-schafkopf")
    for g in range(20):
        state = State.deal(t, g % 2, GameStream(g, 0))
        under = dict(state.under)
        out = random_game(t, g % 2, GameStream(g, 0))
        order = [card for trick in out.tricks() for _seat, card in trick]
        assert len(under) == 16 and sorted(order) == list(range(32))
        assert all(order.index(top) < order.index(down) for top, down in under.items())

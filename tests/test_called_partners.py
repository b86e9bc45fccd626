"""Schachett for six and eight with two decks, the parties made by a called card (variants/*-called).

With two decks every card is there at least twice, and calling a card calls every copy: the declarer's
partners are the holders of the copies but himself. The expected parties are read off the dealt hands.
"""

from __future__ import annotations

import random

import pytest

from schachett_rules.kernel.compiler import tables_for
from schachett_rules.kernel.state import State
from schachett_rules.kernel.verify import action_word, decision_action
from schachett_rules.players.bots import HeuristicBot, RandomBot, play_game


def decide(game: State, word: str) -> None:
    game.apply(decision_action(game, word))


def options(game: State) -> set[str]:
    return {action_word(game.base, a) for a in game.legal_actions()}


def held(game: State, seat: int) -> list[str]:
    return [game.base.deck.card_name(c) for c in range(game.base.n_cards) if game.hands[seat] >> c & 1]


def holders(game: State, name: str) -> set[int]:
    return {s for s in range(game.base.n_seats) if name in held(game, s)}


def taken(name: str, seed: int) -> State:
    """A fresh deal; the dealer's left neighbour (seat 1, dealer 0) takes the game."""
    game = State.deal(tables_for(name), 0, random.Random(seed))
    assert game.phase_name == "auction" and game.before_play_seat() == 1
    decide(game, "called")
    assert game.phase_name == "call" and game.declarer == 1
    return game


def play_out(game: State, until) -> None:
    """Play the lowest legal card (by the card's number) at every turn until ``until(game)`` holds."""
    while not game.over and not until(game):
        game.apply(game.verify_play(sorted(game.legal(), key=game.base.deck.card_of)[0]))


@pytest.mark.parametrize("seed", range(6))
def test_s1_six_a_king_or_dame_of_which_he_holds_no_copy_is_called(seed):
    game = taken("six-players-called", seed)
    mine = set(held(game, 1))
    assert options(game) == {"wK", "sK", "wD", "sD"} - mine


@pytest.mark.parametrize("seed", range(6))
def test_s1_six_the_holders_of_both_copies_are_the_partners_known_when_both_have_fallen(seed):
    game = taken("six-players-called", seed)
    card = sorted(options(game))[0]
    partners = holders(game, card)           # read off the deal: the seats holding a copy
    decide(game, card)
    assert 1 not in partners and 1 <= len(partners) <= 2
    party = {s for s in range(6) if game.t.party_of[s] == game.t.party_of[1]}
    assert party == {1} | partners
    outsider = next(s for s in range(6) if s not in party)
    assert game.observation(outsider).partners is None and game.observation(1).partners is None
    for p in partners:
        # a holder of both copies knows at once; a holder of one does not know the other's holder
        assert (game.observation(p).partners is None) == (len(partners) == 2)
    copies = [c for c in range(game.base.n_cards) if game.base.deck.card_name(c) == card]

    def fallen(count):
        return lambda g: sum(1 for c in copies if g.played >> c & 1) >= count
    play_out(game, fallen(1))
    if not game.over and len(partners) == 2:
        assert game.observation(outsider).partners is None       # one copy seen: the other holder is unknown
    play_out(game, fallen(2))
    assert set(game.observation(outsider).partners) == set(range(6)) - party - {outsider}
    assert set(game.observation(1).partners) == partners


@pytest.mark.parametrize("seed", range(6))
def test_s1_eight_a_rook_bishop_or_knight_he_holds_calls_the_holders_of_its_other_copies(seed):
    game = taken("eight-players-called", seed)
    mine = held(game, 1)
    assert options(game) == {n for n in mine if n[1:] in ("T", "L", "S")}
    card = max(options(game), key=lambda n: -mine.count(n))
    others = holders(game, card) - {1}
    decide(game, card)
    party = {s for s in range(8) if game.t.party_of[s] == game.t.party_of[1]}
    assert party == {1} | others
    # four copies of each Rook, Bishop and Knight in two decks: he holds one or more, the rest lie elsewhere
    assert len(others) <= 4 - mine.count(card)


@pytest.mark.parametrize("name", ["six-players-called", "eight-players-called"])
@pytest.mark.parametrize("bot", [RandomBot, HeuristicBot])
def test_random_and_heuristic_games_settle_to_zero_and_never_show_a_hidden_partner(name, bot):
    t = tables_for(name)
    for i in range(4):
        game = State.deal(t, i % t.n_seats, random.Random(i), game=i)
        bots = [bot(t)] * t.n_seats
        rng = random.Random(100 + i)
        while not game.over:
            seat = game.before_play_seat()
            seat = seat if seat >= 0 else game.seat_to_play()
            view = game.observation(seat)
            if game.phase_name == "play" and view.partners is not None and game.called >= 0:
                copies = t.deck.face_cards[t.deck.card_face[game.called]]
                assert copies & (game.hands[seat] | game.played) == copies   # known only once every copy is seen
            if view.decision == "card":
                game.apply(game.verify_play(bots[seat].play(view, rng)))
            else:
                decide(game, bots[seat].decide(view, rng))
        assert sum(game.result().net) == pytest.approx(0, abs=1e-9)


def test_whole_games_of_both_forms_are_played_by_a_table_of_bots():
    for name in ("six-players-called", "eight-players-called"):
        t = tables_for(name)
        game = play_game(t, 0, [HeuristicBot(t)] * t.n_seats, random.Random(3))
        assert game.over and game.result().called is not None

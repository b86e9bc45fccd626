"""§1 (the called forms): where a called card's copies may lie, as the Kings taken in the tricks tell a seat that
does not know its partners; the sampler places them first, so that a deal agrees with the fates seen at once."""

from __future__ import annotations

import random

from schachett_rules.kernel.before_play import called_holders, game_if_called_by
from schachett_rules.kernel.compiler import tables_for
from schachett_rules.players import rebuild
from schachett_rules.players.montecarlo import Sampler, positions
from tests.test_family_players import position


def holders_of(state) -> tuple[int, ...]:
    """The seats but the declarer's that held a copy of the called card at the first card."""
    copies = state.base.deck.face_cards[state.base.deck.card_face[state.called]]
    return tuple(s for s in range(state.base.n_seats) if s != state.declarer and state.start_hands[s] & copies)


def test_section_1_the_tables_a_deal_would_have_if_other_seats_held_the_copies():
    game = position("eight-players-called", 785, 8)
    d = game.declarer
    # as the game made them: the declarer and the holders of the copies against the rest
    assert game_if_called_by(game, called_holders(game)).party_of == game.t.party_of
    # two other seats, 1 and 5 (neither the declarer here): party 0 is the declarer, seat 1 and seat 5
    assert d not in (1, 5)
    imagined = game_if_called_by(game, (1, 5)).party_of
    assert [s for s in range(8) if imagined[s] == 0] == sorted({d, 1, 5})
    # nobody else holding one: the declarer alone against seven
    assert [s for s in range(8) if game_if_called_by(game, ()).party_of[s] == 0] == [d]


def count_rebuilds(monkeypatch) -> dict:
    calls = {"n": 0}
    original = rebuild.replay

    def counting(*args, **kwargs):
        calls["n"] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(rebuild, "replay", counting)
    return calls


def test_section_1_after_the_kings_showed_the_parties_every_deal_drawn_agrees(monkeypatch):
    # Schachett for eight, seed 785, eight cards in: the first trick's Kings told every seat who plays with whom,
    # though no seat has seen every copy of the called card. Drawn without regard to the Kings, one deal in 25 to
    # 100 agreed (the rebuilt game refused the rest); placed first, the copies lie where the fates say.
    game = position("eight-players-called", 785, 8)
    t = game.base
    truth = holders_of(game)
    calls = count_rebuilds(monkeypatch)
    for seat in range(t.n_seats):
        obs = game.observation(seat)
        if obs.partners is not None:
            continue
        calls["n"] = 0
        samples = list(positions(t, obs, random.Random(seat), 20))
        # one rebuild a deal, and a few to learn what the seat's view says (the voids, the contract's game)
        assert calls["n"] <= 20 + 3
        assert {holders_of(s) for s in samples} == {truth}


def test_section_1_the_copies_are_placed_as_often_as_the_deals_drawn_blind_agree():
    # Schachett for six, seed 2, twenty cards in, seat 3: the Kings taken leave ten ways for the copies, one
    # hand holding both or two hands one each. Drawn blind and kept where the rebuilt game agrees, as often as
    # the deals of the other cards each way leaves; placed first, the same shares.
    game = position("six-players-called", 2, 20)
    t = game.base
    obs = game.observation(3)
    assert obs.partners is None

    def one_hand_share(placed: bool) -> float:
        sampler = Sampler(t, obs)
        assert sampler._placements is not None and len(sampler._placements) == 10
        if not placed:
            sampler._placements = None
        rng = random.Random(11)
        draws = [rebuild.rebuilt(t, sampler, obs, rng) for _ in range(600)]
        return sum(len(holders_of(s)) == 1 for s in draws) / len(draws)

    blind, placed = one_hand_share(False), one_hand_share(True)
    # two copies in one of four hands of about equal room: about one time in four (ten ways counted alike
    # would make it four in ten)
    assert 0.17 < blind < 0.31
    assert abs(blind - placed) < 0.06

"""What an automaton's plays tell the sampler: its rule (the solitaire's "cheapest card that takes, else the
lowest", Hearts' "the lowest card") leaves it no choice, so a card it would have played instead of the one it
played was not in its hand. The deals the strong players sample must agree with that, as they agree with the
colours a hand failed to follow."""

from __future__ import annotations

import random

from hypothesis import given, settings, strategies as st

from schachett_rules.kernel.automaton import automaton_card
from schachett_rules.kernel.compiler import compile_ruleset, tables_for
from schachett_rules.kernel.state import State
from schachett_rules.kernel.streams import GameStream
from schachett_rules.players.montecarlo import Sampler, automaton_bars, positions
from schachett_rules.rules.loader import load
from tests.test_automaton_passing import AUTOMATA


def _game(t, seed: int, tricks: int) -> State:
    """A game of ``t`` played at random by the person's seats (the automaton by its rule) for some tricks."""
    game = State.deal(t, seed % t.n_seats, GameStream(seed, 0))
    rng = random.Random(seed)
    while not game.over and game.done < tricks:
        game.apply(game.rule_action() or rng.choice(game.legal_actions()))
    return game


def _agrees(t, obs, hands: list[int]) -> bool:
    """Whether the automaton's every card seen played is its rule's card from the hand it held then (the hand
    now and what it played since), worked out trick by trick from the observation alone."""
    d = t.deck
    seats, policy = t.automaton
    tricks = [[(s, d.card_of(n)) for s, n in tr.cards] for tr in obs.tricks] + \
        ([[(s, d.card_of(n)) for s, n in obs.trick]] if obs.trick else [])
    played = 0
    for index, trick in enumerate(tricks):
        for i, (seat, card) in enumerate(trick):
            if seat in seats:
                later = sum(1 << c for tr in tricks[index:] for s, c in tr if s == seat)
                chosen = automaton_card(t, hands[seat] | later, trick[:i], index, policy, played)
                if d.card_face[chosen] != d.card_face[card]:
                    return False
        for _, card in trick:
            played |= 1 << card
    return True


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), tricks=st.integers(1, 11))
def test_s3_the_solitaire_automaton_never_held_a_card_its_rule_would_have_played(seed, tricks):
    # soundness, against the real deal: a card barred from the automaton's hand is never in it
    t = tables_for("solitaire")
    game = _game(t, seed, tricks)
    obs = game.observation(0)
    bars = automaton_bars(t, obs, Sampler(t, obs).unseen)
    assert all(bars[s] & game.hands[s] == 0 for s in (1, 3)) and bars[0] == bars[2] == 0
    # and every deal sampled for the person agrees with the automaton's plays as its rule makes them
    for sample in positions(t, obs, random.Random(seed), 4):
        assert _agrees(t, obs, sample.hands)


def test_s3_the_automaton_plays_narrow_what_the_sampler_deals():
    # over a few games, the bars tell something (a game in which they are empty would prove nothing) and a
    # sampler that ignored them would deal hands the rule contradicts
    t = tables_for("solitaire")
    told = contradicted = 0
    for seed in range(8):
        game = _game(t, seed, 6)
        obs = game.observation(0)
        sampler = Sampler(t, obs)
        bars = automaton_bars(t, obs, sampler.unseen)
        told += sum(b.bit_count() for b in bars)
        for s in (1, 3):
            sampler.excluded[s] &= ~bars[s]          # the sampler as it was without them
        sampler._freedom = None
        contradicted += sum(not _agrees(t, obs, sampler.sample(random.Random(k))) for k in range(5))
    assert told > 0 and contradicted > 0


def test_hearts_an_automaton_playing_its_lowest_card_narrows_the_family_sampler(rules):
    # in the family's games the sampler rebuilds each deal through the state; the automaton's rule is asked of
    # the rebuilt game: a heart lower than the one an automaton threw was not in its hand
    t = compile_ruleset(load(str(rules(AUTOMATA, "hearts-auto"))))
    checked = 0
    for seed in range(6):
        game = _game(t, seed, 5)
        obs = game.observation(0)
        for sample in positions(t, obs, random.Random(seed), 3):
            assert _agrees(t, obs, sample.hands)
            checked += 1
    assert checked == 18

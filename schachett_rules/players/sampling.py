"""The sampling player: it deals the hidden cards many ways and solves each deal with open hands.

As the strongest bridge programs do, it samples deals that agree with everything its seat has seen (the
Monte-Carlo player's :func:`~.montecarlo.positions`), and for each deal asks the exact solver
(:mod:`schachett_rules.search.exact`) what every legal card is worth to its party with best play by all four
hands; it plays the card with the best mean. While many tricks remain a whole deal is too large to solve in
an online player's time, so the solver then plays every line to the end of the current trick (``horizon``:
of that many tricks) with best play by all, and values each position there by ``rollouts`` play-outs to
the end in which every hand plays the cheapest card that takes the trick, else its lowest (``playout``
"greedy", the automaton's rule; "random" plays them out at random); from ``exact_from`` tricks before the
end it solves to the last card. Its strength is the number of deals it samples for each decision. A chance to
castle it weighs the same way: each castle on offer and letting the chance go, valued over the sampled deals
(within its look ahead the solver castles for every hand).

>>> import random
>>> from schachett_rules.kernel.compiler import tables_for
>>> from schachett_rules.players.bots import play_game, RandomBot
>>> t = tables_for("original")
>>> game = play_game(t, 0, [SamplingBot(t, samples=2), RandomBot(t)] * 2, random.Random(2))
>>> game.over
True
"""

from __future__ import annotations

import random

from ..kernel.actions import Pass, Play
from ..kernel.observation import Observation
from ..kernel.tables import Tables
from .montecarlo import Deliberating, card_of, positions, refuse_uncompiled

# the positions one solve may visit before the player settles for a shorter look ahead
BUDGET = 60_000
DEALS = 80              # deals a decision at the default strength
DEALS_MANY_HANDS = 24   # the same with six hands or more
# a castle is valued where its moment closes, by play-outs from there: looking a trick ahead, the search would
# weigh every other hand's castles at the same moment too (0.6 s for a castle before play, at 80 deals)
CASTLE_HORIZON = 0


def default_deals(t: Tables) -> int:
    """The deals a decision samples unless a strength is given: 80, and 24 where six or more hands play, whose
    look ahead over a trick of six or eight cards costs about 7 ms a deal (so a decision stays within 200 ms).

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> default_deals(tables_for("original")), default_deals(tables_for("eight-players-called"))
    (80, 24)
    """
    return DEALS if t.n_active < 6 else DEALS_MANY_HANDS


class SamplingBot(Deliberating):
    """Plays the card with the best mean open-hand value over deals sampled from its observation."""

    name = "dd"

    def __init__(self, t: Tables, samples: int | None = None, horizon: int = 1, exact_from: int = 4,
                 rollouts: int = 1, playout: str = "greedy"):
        from ..search.exact import Solver     # numba is loaded by the first strong player, not by every import
        refuse_uncompiled(t, "the sampling player")
        self.t = t
        samples = default_deals(t) if samples is None else samples
        self.samples, self.horizon, self.exact_from, self.rollouts = samples, horizon, exact_from, rollouts
        self.playout = playout
        self.solver = Solver(t, table_bits=18)

    def choose(self, obs: Observation, choices: list[str], rng: random.Random) -> str:
        """The card with the best mean value over the sampled deals."""
        t, me = self.t, obs.to_move
        scores = self._means(obs, rng, me, lambda position: [
            (name, Play(me, card_of(t, position.hands[me], name))) for name in choices])
        return max(choices, key=lambda name: scores[name])

    def castle(self, obs: Observation, options: list, rng: random.Random):
        """The castle, or none, with the best mean value over the sampled deals, valued as a card is (to the end of
        the trick with best play by all, then play-outs; late in the game, exactly). On equal values it lets the
        chance go."""
        name = self.t.deck.card_name
        castler = options[0][0]

        def answers(position):
            out = {}             # one action a key: two copies of an officer on offer are one answer
            for a in position.legal_actions():
                out.setdefault(None if type(a) is Pass else (a.seat, name(a.officer), name(a.king)), a)
            return list(out.items())
        scores = self._means(obs, rng, castler, answers, CASTLE_HORIZON)
        return max(scores, key=lambda key: (scores[key], key is None))

    def _means(self, obs: Observation, rng: random.Random, seat: int, answers, horizon: int | None = None) -> dict:
        """The summed value for ``seat``'s party of each answer over the sampled deals: ``answers(position)`` gives
        (key, kernel action) pairs, the same keys in every deal; ``horizon``: tricks looked ahead before the
        play-outs (default the player's own)."""
        t = self.t
        left = t.n_tricks - obs.trick_number + 1
        horizon = None if left <= self.exact_from else self.horizon if horizon is None else horizon
        scores: dict = {}
        for position in positions(t, obs, rng, self.samples):
            mine = position.t.party_of[seat]         # a called partner's party is the sampled deal's
            keys, actions = zip(*answers(position))
            seed = int(rng.random() * 2**53)
            values = self.solver.move_values(position, side=mine, budget=BUDGET, horizon=horizon, actions=list(actions),
                                             rollouts=self.rollouts, seed=seed, playout=self.playout)
            if any(v is None for _, v in values):
                values = self.solver.move_values(position, side=mine, horizon=1, actions=list(actions),
                                                 rollouts=self.rollouts, seed=seed, playout=self.playout)
            for key, (_, v) in zip(keys, values):
                scores[key] = scores.get(key, 0) + v
        return scores

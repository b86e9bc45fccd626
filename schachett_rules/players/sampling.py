"""The sampling player: it deals the hidden cards many ways and solves each deal with open hands.

As the strongest bridge programs do, it samples deals that agree with everything its seat has seen (the
Monte-Carlo player's :func:`~.montecarlo.positions`), and for each deal asks the exact solver
(:mod:`schachett_rules.search.exact`) what every legal card is worth to its party with best play by all four
hands; it plays the card with the best mean. While many tricks remain a whole deal is too large to solve in
an online player's time, so the solver then plays every line to the end of the current trick (``horizon``:
of that many tricks) with best play by all, and values each position there by ``rollouts`` play-outs to
the end in which every hand plays the cheapest card that takes the trick, else its lowest (``playout``
"greedy", the automaton's rule; "random" plays them out at random: :func:`default_playouts` says which
serves where); from ``exact_from`` tricks before the
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
from .montecarlo import Deliberating, card_of, positions, refuse_unplayable

# the positions one solve may visit before the player settles for a shorter look ahead
BUDGET = 60_000
DEALS = 80              # deals a decision at the default strength
DEALS_MANY_HANDS = 24   # the same with six hands or more
DEALS_TWO_PLAYERS = 40  # the same where two people play, whose positions beyond the look ahead are valued
RANDOM_PLAYOUTS = 3     # by this many random play-outs each, not one greedy one (see default_playouts)
# a castle is valued where its moment closes, by play-outs from there: looking a trick ahead, the search would
# weigh every other hand's castles at the same moment too (0.6 s for a castle before play, at 80 deals)
CASTLE_HORIZON = 0


def default_deals(t: Tables) -> int:
    """The deals a decision samples unless a strength is given: 80; 24 where six or more hands play, whose
    look ahead over a trick of six or eight cards costs about 7 ms a deal (so a decision stays within 200 ms);
    40 where two people play, whose deals are valued by three play-outs each (:func:`default_playouts`).

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> [default_deals(tables_for(name)) for name in ("original", "eight-players-called", "two-player")]
    [80, 24, 40]
    """
    if t.n_players == 2:
        return DEALS_TWO_PLAYERS
    return DEALS if t.n_active < 6 else DEALS_MANY_HANDS


def default_playouts(t: Tables) -> tuple[str, int]:
    """How the positions beyond the look ahead are valued unless told: by one greedy play-out (every hand takes
    as cheaply as it can), and where two people play by three random ones.

    Where two people play, each sees most of the deal (in the two-player game three hands of four from the
    first trick on; in two-handed Schafkopf half of the other's cards lie face up), so the deals sampled differ
    little, and a greedy play-out, judging each of them alike, misjudges them all the same way; random
    play-outs spread their errors. Against mc in the two-player game, 400 games on the same deals: 40 deals
    with three random play-outs won 56.6% [51.7, 61.4] of decided games where 80 with one greedy one won less
    than half, and in two-handed Schafkopf 61.6% where it won 52.0% (200 games; see the README). Where four
    hands are hidden the two are as strong (on reconstruction, 200 games: 54% and 53%), and the greedy one is
    quicker.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> default_playouts(tables_for("original")), default_playouts(tables_for("two-player"))
    (('greedy', 1), ('random', 3))
    """
    return ("random", RANDOM_PLAYOUTS) if t.n_players == 2 else ("greedy", 1)


class SamplingBot(Deliberating):
    """Plays the card with the best mean open-hand value over deals sampled from its observation."""

    name = "dd"

    def __init__(self, t: Tables, samples: int | None = None, horizon: int = 1, exact_from: int = 4,
                 rollouts: int | None = None, playout: str | None = None):
        from ..search.exact import Solver     # numba is loaded by the first strong player, not by every import
        refuse_unplayable(t, "the sampling player")
        self.t = t
        samples = default_deals(t) if samples is None else samples
        if playout is None:
            playout, usual = default_playouts(t)
            rollouts = usual if rollouts is None else rollouts
        rollouts = 1 if rollouts is None else rollouts
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

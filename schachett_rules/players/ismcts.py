"""The information-set Monte-Carlo tree search player (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012).

One tree is grown over the actions of every seat as the deciding seat knows the game: each iteration deals the
cards it cannot see anew (the Monte-Carlo player's :func:`~.montecarlo.positions`), walks the tree through that
deal's kernel state, choosing among the actions legal in this deal by UCB1 (each child counted as available
only in the deals where it was legal), adds one new action, plays the rest of the game out at random (the
compiled play-out), and credits every action on the way with the result for the party that chose it. The
card played is the root's most visited. Copies of a card are one action. Its strength is the number of
iterations a decision (:func:`default_iterations`).

A deal of the family's games is rebuilt as a whole game through the kernel's state (:mod:`.rebuild`), which
costs about as much as an iteration's walk and play-out together. Each deal sampled there serves ``REUSE``
iterations one after the other, each walk taken back (the state's undo) so that the next starts from the
same position; a decision of 500 iterations still sees 125 deals.

The result an iteration credits is mostly the win (1, a draw 1/2, a loss 0) and partly the point
difference, squashed into the same range: the ladder counts decided games, and the difference gives the
search a slope to climb where the win is not yet in question.

>>> import random
>>> from schachett_rules.kernel.compiler import tables_for
>>> from schachett_rules.players.bots import play_game, RandomBot
>>> t = tables_for("original")
>>> game = play_game(t, 0, [TreeSearchBot(t, iterations=30), RandomBot(t)] * 2, random.Random(2))
>>> game.over
True
"""

from __future__ import annotations

import math
import random

from ..kernel.actions import Castle, Pass, Play
from ..kernel.observation import Observation
from ..kernel.tables import Tables
from .montecarlo import Deliberating, positions, refuse_unplayable
from .worth import played_out

# iterations a decision by default: within 200 ms a decision in every ruleset, and as strong against mc as a
# thousand (53.3% [47.7, 58.9] of 300 decided games on original, seed 11, against 54.7% [49.0, 60.2])
ITERATIONS = 500
# the same where two people play (each with a dummy in the two-player game): a seat sees most of the deal, and
# more iterations pay there (against mc: 59.8% [56.5, 62.9] of 895 decided games at 500, 61.5% [58.4, 64.4] of
# 999 at 750), at 149 ms a decision median and 186 ms at the 90th percentile
ITERATIONS_TWO_PLAYERS = 750
REUSE = 4              # iterations a deal serves, where a deal is rebuilt as a whole game
WIN_SHARE = 0.7        # of an iteration's credit, the part for the win; the rest for the point difference
SCALE = 150.0          # a point difference of this size is worth about three quarters of the difference's part


class _Node:
    __slots__ = ("children", "visits", "credit", "available", "party")

    def __init__(self, party: int):
        self.children: dict = {}
        self.visits = 0
        self.credit = 0.0
        self.available = 0
        self.party = party               # the party whose choice led here


def default_iterations(t: Tables) -> int:
    """The iterations a decision runs unless a strength is given: 500, and 750 where two people play.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> default_iterations(tables_for("original")), default_iterations(tables_for("two-player"))
    (500, 750)
    """
    return ITERATIONS_TWO_PLAYERS if t.n_players == 2 else ITERATIONS


def credit(diff) -> float:
    """What a finished play-out is worth to a party whose points (its worth, :mod:`.worth`) exceed all the
    others' by ``diff``, from 0 to 1 (see the module's note).

    >>> credit(40) > 0.85 > 0.15 > credit(-40)
    True
    """
    win = 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
    return WIN_SHARE * win + (1 - WIN_SHARE) * 0.5 * (1 + math.tanh(diff / SCALE))


class TreeSearchBot(Deliberating):
    """Plays the most visited card of an information-set tree grown over sampled deals."""

    name = "ismcts"

    def __init__(self, t: Tables, iterations: int | None = None, exploration: float = 0.7):
        refuse_unplayable(t, "the tree search player")
        self.t = t
        self.iterations = default_iterations(t) if iterations is None else iterations
        self.exploration = exploration
        deck = t.deck
        self._face = deck.card_face

    def _key(self, action):
        """An action as the tree knows it: copies of a card are one (a card played, a King or an officer castled)."""
        if type(action) is Play:
            return action.seat, self._face[action.card]
        if type(action) is Castle:
            return action.seat, self._face[action.king], self._face[action.officer]
        return action

    def choose(self, obs: Observation, choices: list[str], rng: random.Random) -> str:
        """The most visited of the legal cards after the iterations."""
        t = self.t
        root = self._grow(obs, rng)
        me = obs.to_move
        visits = {name: root.children[(me, t.face(name))].visits if (me, t.face(name)) in root.children else 0
                  for name in choices}
        return max(choices, key=lambda name: visits[name])

    def castle(self, obs: Observation, options: list, rng: random.Random):
        """The most visited answer to a chance to castle (a castle on offer, or letting it go), from a tree grown
        over deals sampled at that moment, as for a card; on equal visits it lets the chance go."""
        t = self.t
        seat = options[0][0]
        root = self._grow(obs, rng)
        answers = {Pass(seat): None}
        for s, king, officers in options:
            for officer in officers:     # two copies of an officer on offer are one answer, as in the tree
                answers.setdefault((s, t.face(king), t.face(officer)), (s, officer, king))
        visits = {key: root.children[key].visits if key in root.children else 0 for key in answers}
        return answers[max(answers, key=lambda key: (visits[key], type(key) is Pass))]

    def _grow(self, obs: Observation, rng: random.Random) -> _Node:
        """The tree of the iterations over deals sampled from what ``obs`` shows."""
        root = _Node(-1)
        reuse = REUSE if self.t.flow is not None else 1
        left = self.iterations
        for position in positions(self.t, obs, rng, -(-left // reuse)):
            for _ in range(min(reuse, left)):
                self._iterate(root, position, rng)
            left -= reuse
        return root

    def _iterate(self, root: _Node, state, rng: random.Random) -> None:
        """One walk down the tree through ``state``'s deal, a play-out and its credit; the state is left as it
        was found."""
        node, path = root, []
        pushed = 0
        while not state.over:
            rule = state.rule_action()
            if rule is not None:
                state.push(rule)
                pushed += 1
                continue
            actions = state.legal_actions()
            party = state.t.party_of[state.decider()]
            keys = [self._key(a) for a in actions]
            fresh = [i for i, k in enumerate(keys) if k not in node.children]
            if fresh:
                i = fresh[int(rng.random() * len(fresh))]
                child = node.children[keys[i]] = _Node(party)
                state.push(actions[i])
                pushed += 1
                path.append(child)
                break
            best, best_score = 0, -1.0
            for i, k in enumerate(keys):
                child = node.children[k]
                child.available += 1
                score = child.credit / child.visits + self.exploration * math.sqrt(math.log(child.available)
                                                                                   / child.visits)
                if score > best_score:
                    best, best_score = i, score
            node = node.children[keys[best]]
            state.push(actions[best])
            pushed += 1
            path.append(node)
        worth = played_out(state, rng)
        for n in path:
            n.visits += 1
            n.credit += credit(worth[n.party])
        for _ in range(pushed):
            state.undo()

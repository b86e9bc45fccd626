"""Players: random, a heuristic player driven by the compiled tables, and the game loop that seats them.

A bot sees an :class:`~schachett_rules.kernel.observation.Observation` and the
compiled tables (the rules), never the game itself; it answers with a card to
play, or, when a chance to castle is its decision, with a castle or ``None``.
No rule of Schachett is written here: who takes a trick, what it is worth and
what a King's fate scores all come from the tables, so the same bots play every
variant. The game itself is walked by the state (:meth:`State.advance
<schachett_rules.kernel.state.State.advance>`); :func:`chooser` only turns a
bot's answer into the state's action.

>>> from schachett_rules.kernel.compiler import tables_for
>>> from schachett_rules.kernel.streams import GameStream
>>> t = tables_for("original")
>>> game = play_game(t, 0, [HeuristicBot(t), RandomBot(t)] * 2, GameStream(3, 0))
>>> game.over, len(game.tricks)
(True, 13)
"""

from __future__ import annotations

import random
from typing import Protocol

from ..kernel.actions import Pass
from ..kernel.castling import chance_taken, officer_at
from ..kernel.core import kth, points_of
from ..kernel.flow import game_tables
from ..kernel.observation import Observation
from ..kernel.scoring import KingCount, king_events
from ..kernel.state import State
from ..kernel.tables import Tables
from ..kernel.trick import card_points, holders_of_faces, holds_against, takers
from ..kernel.verify import castle_action, decision_action, play_action


class Bot(Protocol):
    """What a player must answer."""

    name: str

    def play(self, obs: Observation, rng: random.Random) -> str:
        """The card to play (one of ``obs.legal``)."""

    def castle(self, obs: Observation, options: list, rng: random.Random):
        """A castle to make now, as ``(seat, officer, king)`` names, or None."""

    def decide(self, obs: Observation, rng: random.Random) -> str:
        """A decision before play (a card to pass, a bid, a card to call or discard): one of ``obs.options``."""


class RandomBot:
    """The random player (:mod:`schachett_rules.kernel.chance`) seen from its seat's observation alone.

    A card is the k-th legal card for k = floor(u × count), a castle is each
    King's chance taken below one half with the officer the next number picks,
    so a table of random bots plays the play-outs' games from the same numbers.
    """

    name = "random"

    def __init__(self, t: Tables):
        self.t = t

    def play(self, obs: Observation, rng: random.Random) -> str:
        """A legal card, uniformly (copies of a card count separately, as in the play-outs)."""
        return obs.legal[kth(len(obs.legal), rng.random())]

    def castle(self, obs: Observation, options: list, rng: random.Random):
        """A castle with probability one half for each King on offer, the officer at random."""
        for seat, king, officers in options:
            if chance_taken(rng.random()):
                return seat, officers[officer_at(rng.random(), len(officers))], king
        return None

    def decide(self, obs: Observation, rng: random.Random) -> str:
        """A decision before play, uniformly among those open (as the random player takes the k-th)."""
        return obs.options[kth(len(obs.options), rng.random())]


class Known:
    """What a seat knows of the cards: how many of each face it has not seen."""

    def __init__(self, t: Tables, obs: Observation):
        left: dict[str, int] = {}
        for c in range(t.n_cards):
            name = t.deck.card_name(c)
            left[name] = left.get(name, 0) + 1
        # Cards in the hands it sees, and in the tricks it remembers, are accounted for; the rest are
        # "unseen", which errs on the side of caution when the seat may not remember every trick.
        for hand in obs.hands.values():
            for name in hand:
                left[name] -= 1
        for name in [c for tr in obs.tricks for _, c in tr.cards] + [c for _, c in obs.trick]:
            left[name] -= 1
        self.unseen = {t.face(name): n for name, n in left.items() if n > 0}
        self.total_unseen = sum(self.unseen.values())


def believed_tables(t: Tables, obs: Observation) -> Tables:
    """The tables of the game as the seat of ``obs`` may know them: the contract's, with its own party made of
    itself and the partners it knows, and every other seat taken for an opponent; the seats sitting out.

    For a ruleset of fixed parties and no contract, these are the ruleset's own tables.
    """
    flow = t.flow
    if flow is None:
        return t
    base = t
    if obs.contract is not None:
        c = flow.contracts[flow.contract_index(obs.contract)]
        base = c.tables(t.deck.colours.index(obs.trump) if obs.trump is not None else 0)
    mine = {obs.seat, *(obs.partners or ())}
    party_of = tuple(0 if s in mine else 1 for s in range(t.n_seats))
    sitting = sum(1 << s for s in obs.sitting)
    return game_tables(flow, base, party_of, sitting)


def points_are_bad(t: Tables) -> bool:
    """Whether a party wants few points (a session won by the fewest game points: Hearts)."""
    return t.game_points is not None and t.game_points.lowest_wins and t.game_points.each is not None


def _high_cards(t: Tables, hand: list[str], alone: bool) -> tuple[int, float]:
    """How many of the strongest cards (the top ranks, together at least three tenths of the deck) the hand
    holds, and how many it wants to take a game: a fifth more than its share with a partner, three fifths alone.

    >>> from schachett_rules.kernel.compiler import tables_for
    >>> _high_cards(tables_for("original"), ["wD", "sD", "wT", "sT", "wL", "s1", "s2", "w3", "wI", "sII"], False)
    (5, 3.692308)
    """
    top = sorted(range(t.n_cards), key=lambda card: -t.strength_order[card])[:(3 * t.n_cards + 9) // 10]
    high = set(top)
    share = len(high) * len(hand) / t.n_cards
    return sum(1 for name in hand if t.deck.card_of(name) in high), round(share * (1.6 if alone else 1.2), 6)


class HeuristicBot:
    """A sensible player: it weighs each legal card by what the trick is likely to bring its party.

    For each card it works out, from the capture relation, who would hold the
    trick after it; it estimates from the unseen cards how likely the players
    still to come can take it; and it values the trick by its card points and
    by the King events it would cause (from the event tables). It prefers the
    cheapest card that gets the result, keeps its strong cards otherwise, and
    rescues its party's King whenever castling allows.
    """

    name = "heuristic"

    def __init__(self, t: Tables):
        self.t = t

    # --- values from the tables -------------------------------------------------------------------
    def _event_value(self, trick_index: int, kings: list[tuple[int, int]], winner: int, me: int,
                     count: KingCount) -> float:
        """Points for my party minus the others' from the Kings in a trick won by ``winner``.

        The kernel scores the events, with the Kings fallen so far in ``count``
        (which it leaves as it was), so the reading of the King order is the one in force.
        """
        mine = self.t.party_of[me]
        value = 0.0
        for _ev, _face, _owner, _first, pts, parties in king_events(self.t, trick_index, kings, winner,
                                                                     KingCount.copy_of(count)):
            value += pts if mine in parties else -pts
        return value

    def _beaten_chance(self, known: Known, face: int, trick_index: int, followers: int) -> float:
        """The chance that one of ``followers`` unknown hands holds a card taking ``face``."""
        if followers <= 0 or known.total_unseen == 0:
            return 0.0
        t = self.t
        taking = takers(t, trick_index, face)
        stronger = sum(n for f, n in known.unseen.items() if taking >> f & 1)
        per_hand = max(1, known.total_unseen // max(1, t.n_seats - 1))
        miss = 1.0 - stronger / known.total_unseen
        return 1.0 - miss ** (per_hand * followers)

    def play(self, obs: Observation, rng: random.Random) -> str:
        """The legal card with the best expected value for the party."""
        ruleset = self.t
        self.t = believed_tables(ruleset, obs)
        try:
            return self._play(obs)
        finally:
            self.t = ruleset

    def decide(self, obs: Observation, rng: random.Random) -> str:
        """Before play: pass on, give back or discard the card least wanted (the strongest where points are bad,
        else the weakest), call the card of which it holds fewest copies, the strongest of those, take a card
        offered with half the hand in trumps, and bid the contract whose trumps the hand holds enough of (half the
        hand, or of the trumps, with a partner; more alone) by the widest margin; else pass."""
        t = self.t
        options = list(obs.options)
        if obs.decision in ("give", "discard"):
            strength = t.strength_order
            def place(name: str) -> int:
                return strength[t.deck.card_of(name)]
            bad = points_are_bad(t) and obs.decision == "give"
            return max(options, key=place) if bad else min(options, key=place)
        if obs.decision == "call":
            # the card of which the hand holds fewest copies brings the most partners (two decks), and the
            # strongest brings the strongest partner (in Schachett a Dame keeps the caller from calling the
            # second King into his own party)
            mine = obs.hands.get(obs.seat, ())
            return max(options, key=lambda name: (-sum(1 for held in mine if held == name),
                                                  t.strength_order[t.deck.card_of(name)]))
        hand = [name for names in (obs.hands.get(obs.seat, ()),) for name in names]
        if obs.decision == "answer":
            # a card offered: take it, and play with its declarer, with half the hand in trumps (the card taken
            # makes one more), as a bid with a partner wants
            c = t.flow.contracts[t.flow.contract_index(obs.contract)]
            tt = c.tables(t.deck.colours.index(obs.trump) if obs.trump is not None else 0)
            count = sum(1 for card in hand if tt.face_group[t.face(card)] == "trump") + 1
            return "take" if "take" in options and count >= 0.5 * len(hand) else "pass"
        best, best_margin = "pass", None
        for word in options:
            if word == "pass":
                continue
            name, *colour = word.split()
            c = t.flow.contracts[t.flow.contract_index(name)]
            tt = c.tables(t.deck.colours.index(colour[0]) if colour else 0)
            trumps = [f for f in range(t.n_faces) if tt.face_group[f] == "trump"]
            count = sum(1 for card in hand if tt.face_group[t.face(card)] == "trump")
            total = sum(t.deck.face_cards[f].bit_count() for f in trumps)
            # a hand played alone wants more of the trumps than one with a partner; a contract of few trumps
            # (the Wenz's four Unters) wants most of them rather than most of the hand
            alone = c.partner == "none" or c.sit_out
            need = min((0.75 if alone else 0.5) * len(hand), (0.75 if alone else 0.5) * total)
            if not trumps:
                # a game without trumps (Schachett's called partner) is won by high cards: the hand wants more
                # than its share of the strongest ranks
                count, need = _high_cards(tt, hand, alone)
            if c.offer is not None:
                # a hand the rules let offer a card is one too weak to play on its own (one trump): it leans on
                # the player who will take the card, and offers it where no other game is worth bidding
                count, need = 1, 1
            margin = count - need
            if count and (best_margin is None or margin > best_margin):
                best, best_margin = word, margin
        if best != "pass" and (best_margin >= 0 or "pass" not in options):
            return best
        return "pass" if "pass" in options else options[0]

    def _play(self, obs: Observation) -> str:
        t, d = self.t, self.t.deck
        me = obs.to_move
        trick_index = obs.trick_number - 1
        points = card_points(t, trick_index)
        known = Known(t, obs)
        count = fallen_kings(obs)
        trick = [(s, t.face(c)) for s, c in obs.trick]
        still_to_play, seat = [], me
        for _ in range(t.n_active - len(trick) - 1):
            seat = t.next_seat(seat)
            still_to_play.append(seat)
        opponents_after = [s for s in still_to_play if s in t.opponents(me)]
        partners_after = [s for s in still_to_play if s in t.partners(me)]
        best, best_value = None, None
        for name in dict.fromkeys(obs.legal):
            face = t.face(name)
            cards = trick + [(me, face)]
            wseat, wface = holders_of_faces(t, trick_index, cards)[-1]
            trick_points = points_of(points, [f for _, f in cards], len(cards))
            kings = [(s, f) for s, f in cards if d.face_royal[f]]
            if t.party_of[wseat] == t.party_of[me]:
                # we hold it now; an opponent still to play may take it
                p_ours = 1.0 - self._beaten_chance(known, wface, trick_index, len(opponents_after))
                win_seat, lose_seat = wseat, (opponents_after[0] if opponents_after else wseat)
            else:
                # they hold it; a partner still to play may take it back
                p_ours = 0.8 * self._beaten_chance(known, wface, trick_index, len(partners_after))
                win_seat, lose_seat = (partners_after[0] if partners_after else wseat), wseat
            if points_are_bad(t):
                trick_points = -trick_points
            win_value = trick_points + self._event_value(trick_index, kings, win_seat, me, count)
            lose_value = -trick_points + self._event_value(trick_index, kings, lose_seat, me, count)
            value = p_ours * win_value + (1 - p_ours) * lose_value
            # keep strong and valuable cards for later: of cards doing the same, the cheapest goes
            value -= 0.02 * t.rank[face] + 0.05 * points[face]
            if best_value is None or value > best_value:
                best, best_value = name, value
        return best

    def castle(self, obs: Observation, options: list, rng: random.Random):
        """Rescue a King whenever the rules allow, with the officer that best takes the trick; else no castle.

        The best officer takes, or at least is not taken by, every other card of the trick; of those, the highest.
        """
        t = self.t
        for seat, king, officers in options:
            if obs.trick and len(obs.trick) == t.n_seats:
                index = obs.trick_number - 1
                others = [t.face(c) for s, c in obs.trick if s != seat]

                def strength(officer: str) -> tuple:
                    f = t.face(officer)
                    return (all(holds_against(t, index, f, o) or not holds_against(t, index, o, f) for o in others),
                            t.rank[f])
                return seat, max(officers, key=strength), king
        return None


def fallen_kings(obs: Observation) -> KingCount:
    """The Kings that have met their fate in the tricks a seat has seen, counted as the kernel counts them."""
    count = KingCount()
    for tr in obs.tricks:
        for e in tr.events:
            count.total += 1
            count.per_event[e.event] = count.per_event.get(e.event, 0) + 1
    return count


def castle_choices(obs: Observation) -> list:
    """The castles an observation offers its seat now, as (seat, King, officers) names, one entry per King."""
    return [(o.seat, o.king, list(o.officers)) for o in obs.castle_offers]


def chooser(bots, rng: random.Random):
    """The decisions of a table of bots, for :meth:`State.advance <schachett_rules.kernel.state.State.advance>`.

    ``bots`` maps a player's seat to his bot (a list, or a dict with None for a
    seat a person plays: the walk then stops there).
    """
    def choose(seat: int, state: State):
        bot = bots[seat] if seat >= 0 else None
        if bot is None:
            return None
        obs = state.observation(seat)
        if obs.decision == "card":
            return play_action(state, bot.play(obs, rng), by=seat)
        if obs.options:
            return decision_action(state, bot.decide(obs, rng))
        answer = bot.castle(obs, castle_choices(obs), rng)
        if answer is None:
            return Pass(obs.castle_offers[0].seat)
        castler, officer, king = answer
        return castle_action(state, castler, officer, king)
    return choose


def play_game(t: Tables, dealer: int, bots: list, rng: random.Random, game_number: int = 0) -> State:
    """Deal and play one game, each seat's player choosing from its own observation.

    ``bots`` has a bot for every seat (a dummy's entry is not asked: its
    player's bot plays for it).
    """
    game = State.deal(t, dealer, rng, game=game_number)
    game.advance(chooser(bots, rng))
    return game

"""The determinised Monte-Carlo player.

To choose a card it deals the cards it cannot see in many ways that agree with
everything it has seen (its own hand, the hands laid open, where the face-up
Kings lie, the cards played, and the suits a player has shown he lacks by not
following), and for each such deal plays every legal card and the rest of the
game at random. It plays the card with the best average result for its party.
The same deals serve every card, so the comparison is fair. In the family's games the deals also agree with
what was passed, turned up, bid, laid away, called and barred by the restrictions (:mod:`.family_deals`: the
hidden cards go to the hidden hands, the cards laid away and the stock), and each is rebuilt into a whole
game through the kernel's state (:mod:`.rebuild`); a play-out is worth what the ruleset decides by (:mod:`.worth`). The
decisions before play (passes, bids, calls, discards) are the heuristic player's.

>>> import random
>>> from schachett_rules.kernel.compiler import tables_for
>>> from schachett_rules.players.bots import play_game, RandomBot
>>> t = tables_for("original")
>>> game = play_game(t, 0, [MonteCarloBot(t, samples=4), RandomBot(t)] * 2, random.Random(2))
>>> game.over
True
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from ..errors import SchachettError
from ..kernel.actions import Play
from ..kernel.automaton import automaton_card
from ..kernel.castling import RESCUE, castled_mask, officer_cards
from ..kernel.follow import void_after
from ..kernel.observation import Observation, castle_moment
from ..kernel.state import State
from ..kernel.tables import Tables
from .bots import HeuristicBot, fallen_kings
from .family_deals import call_holdings, known_cards, offer_holdings, place_sizes, places, play_tables, plays_of
from .called_copies import copy_placements, pick
from .rebuild import NoAgreeingDeal, rebuilt, replay, rule_voids
from .worth import played_out


class Sampler:
    """Deals consistent with one observation: fixed cards, the sizes of the places, and cards each place cannot
    hold. The places are the seats' hands and, in the family's games, the cards laid away in an exchange,
    those left in the stock and a tableau's covered cards (:func:`~.family_deals.places`)."""

    def __init__(self, t: Tables, obs: Observation):
        self.t, self.seat = t, obs.seat
        d = t.deck
        n = t.n_seats
        family = t.flow is not None
        count = places(t) if family else n
        self.known: list[int] = [0] * count
        self.excluded = [0] * count
        taken = 0

        def claim(where: tuple[int, ...], name: str) -> None:
            # a card known to lie in one of a few places: in the one, or barred from all others
            nonlocal taken
            free = d.face_cards[t.face(name)] & ~taken
            card = free & -free
            taken |= card
            if len(where) == 1:
                self.known[where[0]] |= card
                return
            hidden_cards.append(card)
            for p in range(count):
                if p not in where:
                    self.excluded[p] |= card

        hidden_cards: list[int] = []
        self.visible = set(obs.hands)
        for seat, hand in obs.hands.items():
            for name in hand:
                claim((seat,), name)
        for seat, name in obs.kings:
            if seat not in self.visible:
                claim((seat,), name)
        givers = set()
        for offer in obs.castle_offers:
            # a castle on offer shows the officers the giving hand holds, and the hand the King lies in
            if offer.officer_from not in self.visible and offer.officer_from not in givers:
                givers.add(offer.officer_from)
                for name in offer.officers:
                    claim((offer.officer_from,), name)
                # every officer the rules let it give is on offer: it holds no other
                self.excluded[offer.officer_from] |= officer_cards(t) & ~self.known[offer.officer_from]
            if (offer.kind != "rescue" and offer.king_from not in self.visible
                    and (offer.king_from, offer.king) not in obs.kings):
                claim((offer.king_from,), offer.king)
        offered_known, offer_musts, offer_bars = offer_holdings(t, obs) if family else ([], [], {})
        for where, name in known_cards(t, obs) + offered_known:   # the family's: cards passed on, turned up, laid
            claim(where, name)                                   # away, offered and given back
        for _, name in plays_of(obs):
            free = d.face_cards[t.face(name)] & ~taken
            taken |= free & -free
        for card in hidden_cards:
            taken &= ~card                           # still to be dealt, to one of its places
        self.played_mask = 0
        # the cards of the current trick, as physical cards, for the play-outs
        self.trick: list[tuple[int, int]] = []
        cursor = 0
        for seat, name in obs.trick:
            free = d.face_cards[t.face(name)] & ~cursor
            card = (free & -free).bit_length() - 1
            cursor |= 1 << card
            self.trick.append((seat, card))
        self.unseen = [c for c in range(t.n_cards) if not taken >> c & 1]
        # a moment of castling the seat is asked at (None while a card is due), and the tricks gathered: a full
        # trick waiting for a rescue is not yet gathered
        self.moment = castle_moment(obs)
        self.done = obs.trick_number - 1 - (self.moment is not None and self.moment[0] == RESCUE)
        if family:
            self.size = place_sizes(t, obs)
        else:
            in_trick = {s for s, _ in obs.trick}
            self.size = [t.hand_size - self.done - (1 if s in in_trick else 0) for s in range(n)]
        if t.memory == "every":
            self._check_room(obs)
        elif not family:
            self._forgotten_place(obs)
        # A player who did not follow the first tier he could have served holds none of its cards now.
        self._freedom = None
        self._open: list[list[int]] = []
        self._plain = False
        self._placements = None
        rules = play_tables(t, obs)          # a contract's follow tiers (its trumps), where one is played
        for cards in [tr.cards for tr in obs.tricks] + ([obs.trick] if obs.trick else []):
            trick = [(seat, d.card_of(name)) for seat, name in cards]
            for seat, card in trick[1:]:
                self.excluded[seat] |= void_after(rules, trick, card)
        if not family and t.automaton is not None and t.memory == "every":
            for seat, barred in enumerate(automaton_bars(t, obs, self.unseen)):
                self.excluded[seat] |= barred
        # what the card called says of the declarer's hand: cards he could not have held, sets he held one of
        self.musts, bars = call_holdings(t, obs) if family else ([], {})
        self.musts += offer_musts
        for place, barred in list(bars.items()) + list(offer_bars.items()):
            self.excluded[place] |= barred
        if family:
            # what the restrictions on play say of a hand, asked of the kernel in a game rebuilt for one deal
            rng = random.Random(0)
            deals = (self.sample(rng) for _ in range(100))
            for seat, barred in enumerate(rule_voids(t, obs, self.unseen, deals)):
                self.excluded[seat] |= barred
            self._freedom = None
            self._placements = self._place_copies(obs)

    def _place_copies(self, obs: Observation):
        """Where the called card's copies may lie, as the Kings taken told (:mod:`.called_copies`), or None."""
        t = self.t

        def game():
            # the contract, trumps, declarer and card called, as any deal that reaches play gives them
            rng = random.Random(0)
            for _ in range(20):
                state = replay(t, obs, self.sample(rng), rng, strict=False)
                if state is not None:
                    return state
            return None

        return copy_placements(t, obs, game, self.unseen, self.known, self.excluded, self._room(), self.musts)

    def _room(self) -> dict[int, int]:
        """By place the seat cannot see, in place order: how many cards it holds beyond those the seat knows lie
        there."""
        return {p: self.size[p] - self.known[p].bit_count() for p in range(len(self.known)) if p not in self.visible}

    def _forgotten_place(self, obs: Observation) -> None:
        """Make room for the cards played in the tricks the seat no longer keeps in mind (``memory: nothing but
        review``): it cannot tell them from the cards still held, so they lie in one more place, as likely to be
        any card it cannot see as a hand is. Its deals fill that place too; no hand of the game holds its cards."""
        room = sum(self._room().values())
        self.known.append(0)
        self.excluded.append(0)
        self.size.append(len(self.unseen) - room)
        self._check_room(obs)

    def _check_room(self, obs: Observation) -> None:
        """Refuse a view no deal can agree with: the places the seat cannot see must have room for exactly the
        cards it cannot see, and none may hold fewer cards than the seat knows lie there."""
        left = list(self._room().values())
        if sum(left) == len(self.unseen) and min(left, default=0) >= 0:
            return
        overfull = " (and it knows of more cards in one of them than lie there)" if min(left, default=0) < 0 else ""
        raise SchachettError(f"{self.t.name}: no deal agrees with seat {obs.seat}'s view of the game: it cannot "
                             f"see {len(self.unseen)} cards, but the places it cannot see (the other hands, the "
                             f"cards laid away, the stock, the covered cards of a tableau) have room for "
                             f"{sum(x for x in left if x > 0)}{overfull}; such a view does not come from a game "
                             f"of these rules")

    def sample(self, rng: random.Random, tries: int = 50, draws: int = 200) -> list[int]:
        """One deal of the unseen cards to the places not seen (the cards of every place, as card masks).

        Where the declarer must have held one card of a set (:func:`~.family_deals.call_holdings`), deals are
        drawn until one has it there (an exact condition, and a deal costs far less than the game rebuilt
        from it); after ``draws`` the last is given, for the rebuilt game to refuse."""
        for _ in range(draws):
            placed = pick(self._placements, rng) if self._placements else {}
            hands = self._draw(rng, tries, placed)
            if all(any(hands[p] & mask for p in where) for where, mask in self.musts):
                break
        return hands

    def _draw(self, rng: random.Random, tries: int, placed: dict[int, int] | None = None) -> list[int]:
        """One deal of the unseen cards to the places not seen, each card where nothing the seat saw bars it;
        ``placed``: cards already laid in places (a mask by place), the called card's copies."""
        t = self.t
        placed = placed or {}
        need = {p: left - placed.get(p, 0).bit_count() for p, left in self._room().items()}
        hidden = list(need)
        fixed = 0
        for mask in placed.values():
            fixed |= mask
        if self._freedom is None:
            # how many hidden places may hold each card (the same for every deal of this observation)
            self._freedom = {c: sum(1 for s in hidden if not self.excluded[s] >> c & 1) for c in self.unseen}
            self._open = [[s for s in hidden if not self.excluded[s] >> c & 1] for c in range(t.n_cards)]
            self._plain = (all(len(self._open[c]) == len(hidden) for c in self.unseen)
                           and sum(need.values()) + fixed.bit_count() == len(self.unseen))
        freedom, allowed = self._freedom, self._open
        if self._plain:
            # nothing known of any hidden hand: dealing card by card, each to a place by the room left in it,
            # is a shuffle cut into the places' sizes, at a fraction of the cost
            cards = [c for c in self.unseen if not fixed >> c & 1]
            rng.shuffle(cards)
            hands = self._start(placed)
            at = 0
            for p in hidden:
                for c in cards[at:at + need[p]]:
                    hands[p] |= 1 << c
                at += need[p]
            return hands
        room = [0] * len(self.known)
        for attempt in range(tries):
            hands = self._start(placed)
            for p in hidden:
                room[p] = need[p]
            cards = [c for c in self.unseen if not fixed >> c & 1]
            rng.shuffle(cards)
            # the most constrained cards first: those few seats may hold
            cards.sort(key=freedom.__getitem__)
            ok = True
            last = attempt == tries - 1
            for c in cards:
                # a place by the room left in it: a card free to lie in a hand of five or among one card laid
                # away lies in the hand five times as often
                places = hidden if last else allowed[c]
                total = 0
                for p in places:
                    total += room[p]
                if not total:
                    ok = False
                    break
                pick = rng.random() * total
                for p in places:
                    if room[p]:
                        pick -= room[p]
                        if pick < 0:
                            break
                hands[p] |= 1 << c
                room[p] -= 1
            if ok:
                return hands
        # the places have room for the cards (_check_room), and the last try ignores voids: never reached
        raise SchachettError(  # pragma: no cover
            f"{t.name}: no deal of the cards it cannot see agrees with seat {self.seat}'s view of the game in "
            f"{tries} tries")

    def _start(self, placed: dict[int, int]) -> list[int]:
        """The places' cards before the draw: those the seat knows lie there, and those ``placed``."""
        hands = list(self.known)
        for p, mask in placed.items():
            hands[p] |= mask
        return hands


def positions(t: Tables, obs: Observation, rng: random.Random, samples: int):
    """``samples`` states at the observed position, each with its own deal of the cards the seat cannot see
    (agreeing with all it has seen), the points, Kings fallen and castles as the observation shows them (a seat
    that keeps in mind only the tricks it may review counts those tricks' points and Kings, and deals the cards
    it cannot see between the hands and the tricks it has forgotten: :meth:`Sampler._forgotten_place`).

    A family game is rebuilt from its deal through the kernel's state (:func:`~.rebuild.rebuilt`), so
    its trumps, parties and the restrictions' memory are the kernel's own.
    """
    sampler = Sampler(t, obs)
    if t.flow is not None:
        for _ in range(samples):
            yield rebuilt(t, sampler, obs, rng)
        return
    points = [0] * len(t.parties)
    cards = [0] * len(t.parties)
    tricks = [0] * len(t.parties)
    for tr in obs.tricks:
        tricks[t.party_of[tr.winner]] += 1
        points[t.party_of[tr.winner]] += tr.points
        cards[t.party_of[tr.winner]] += tr.points
        for e in tr.events:
            for p in e.scoring_parties:
                points[p] += e.points
    count = fallen_kings(obs)
    castled = castled_mask(c.seat for c in obs.castles)
    moment, ask = sampler.moment or (-1, 0)
    # asked to castle: the trick's leader, or the next one's
    leader = obs.leader if moment >= 0 else sampler.trick[0][0] if sampler.trick else obs.to_move
    for _ in range(samples):
        yield State.at_position(t, obs.dealer, sampler.sample(rng)[:t.n_seats], leader, sampler.trick, sampler.done,
                                count, castled, points, cards, moment, ask, tricks)


def automaton_bars(t: Tables, obs: Observation, unseen: list[int]) -> list[int]:
    """By seat, the unseen cards an automaton's hidden hand cannot hold, because with that card beside the one
    it played its rule would have played the other (a lower card, a cheaper one that takes).

    The rule prefers one legal card to another whatever else the hand holds, so a card it would have chosen
    over the card played, from a hand of the two, was not in the hand then; and a card held then and not
    played since is held still. The kernel's own choice is asked (:func:`~..kernel.automaton.automaton_card`).

    >>> import random
    >>> from schachett_rules.kernel.compiler import tables_for
    >>> from schachett_rules.kernel.deal import names_of
    >>> from schachett_rules.kernel.streams import GameStream
    >>> t = tables_for("solitaire")                          # the automaton plays seats 1 and 3
    >>> game, rng = State.deal(t, 0, GameStream(3, 0)), random.Random(1)
    >>> while game.done < 2:
    ...     _ = game.apply(game.rule_action() or rng.choice(game.legal_actions()))
    >>> obs = game.observation(0)
    >>> obs.tricks[0].cards[0], obs.tricks[1].cards           # seat 1 led wIV, then played s1 after sVI
    ((1, 'wIV'), ((3, 'sI'), (0, 'sVI'), (1, 's1'), (2, 'sVIII')))
    >>> # what its rule would have played instead of one of them, so it did not hold it
    >>> names_of(t, automaton_bars(t, obs, Sampler(t, obs).unseen)[1])
    ('wIII', 'sII', 'sIII', 'sIV', 'sV', 'sVII', 'sIX')
    """
    d = t.deck
    seats, policy = t.automaton
    out = [0] * t.n_seats
    played = 0
    for index, cards in enumerate([tr.cards for tr in obs.tricks] + ([obs.trick] if obs.trick else [])):
        trick = [(seat, d.card_of(name)) for seat, name in cards]
        for i, (seat, card) in enumerate(trick):
            if seat not in seats or seat in obs.hands:
                continue
            for x in unseen:
                if not out[seat] >> x & 1:
                    chosen = automaton_card(t, 1 << card | 1 << x, trick[:i], index, policy, played)
                    if d.card_face[chosen] != d.card_face[card]:
                        out[seat] |= 1 << x
        for _, card in trick:
            played |= 1 << card
    return out


def card_of(t: Tables, hand: int, name: str) -> int:
    """The card (one of its copies) of face ``name`` in ``hand``."""
    free = hand & t.deck.face_cards[t.face(name)]
    return (free & -free).bit_length() - 1


def refuse_unplayable(t: Tables, player: str) -> None:
    """Refuse a ruleset the thinking players cannot play: one the compiled game state cannot play
    (:func:`~schachett_rules.playouts.plan.not_compiled`), which they play their games out through, and a game
    with a flow before play (a trump turned, cards passed, bidding, a call) whose players keep in mind only the
    tricks they may review (they rebuild such a game from every card played: :func:`~.rebuild.replay`).

    >>> import dataclasses
    >>> from schachett_rules.kernel.compiler import tables_for
    >>> from schachett_rules.kernel.core import R_LEAD, W_HOLDING
    >>> refuse_unplayable(tables_for("schafkopf"), "mc")
    >>> t = tables_for("officers-schafkopf")          # a tableau, and no heart led while the Ace is held:
    >>> hearts = sum(t.deck.face_cards[f] for f in range(t.n_faces) if t.deck.face_names[f][0] == "h")
    >>> ace = t.deck.face_cards[t.face("hA")]
    >>> refuse_unplayable(dataclasses.replace(t, restrictions=((R_LEAD, W_HOLDING, hearts, 0, ace),)), "mc")
    Traceback (most recent call last):
    ...
    schachett_rules.errors.SchachettError: mc cannot yet play officers-schafkopf: the compiled game state ...
    >>> refuse_unplayable(dataclasses.replace(tables_for("schafkopf"), memory="review"), "mc")
    Traceback (most recent call last):
    ...
    schachett_rules.errors.SchachettError: mc cannot yet play schafkopf: its memory clause keeps in mind only ...
    """
    from ..playouts.plan import not_compiled
    if t.flow is not None and t.memory != "every":
        raise SchachettError(f"{player} cannot yet play {t.name}: its memory clause keeps in mind only the tricks "
                             f"a player may review, and a game with a flow before play (a trump turned, cards "
                             f"passed, bidding, a call) is rebuilt from every card played; choose the heuristic or "
                             f"the random player")
    why = not_compiled(t)
    if why is not None:
        raise SchachettError(f"{player} cannot yet play {t.name}: the compiled game state its play-outs run "
                             f"through does not yet play all of it ({why}); choose the heuristic or the random "
                             f"player")


class Deliberating(ABC):
    """What the thinking players share: a card that is the only legal one is played at once, and a chance to
    castle is taken as the heuristic player takes it (a King is rescued when the rules allow) by a player that
    does not search it (the Monte-Carlo player)."""

    t: Tables

    def play(self, obs: Observation, rng: random.Random) -> str:
        """The card to play: the only legal one, or the one :meth:`choose` finds best. Where no deal the sampler
        draws leads to the game the seat saw before play (a rare run of bids whose conditions on a hand the
        deals meet by chance alone: a Hochzeit, one trump in the hand, outbid by a Solo), the heuristic
        player's card, so that a game at a table goes on."""
        choices = list(dict.fromkeys(obs.legal))
        if len(choices) == 1:
            return choices[0]
        try:
            return self.choose(obs, choices, rng)
        except NoAgreeingDeal:
            return HeuristicBot(self.t).play(obs, rng)

    @abstractmethod
    def choose(self, obs: Observation, choices: list[str], rng: random.Random) -> str:
        """The best of two or more legal cards (one name per face): each thinking player's own way of searching."""

    def castle(self, obs: Observation, options: list, rng: random.Random):
        """Castling as the heuristic player does it: rescue a King when possible."""
        return HeuristicBot(self.t).castle(obs, options, rng)

    def decide(self, obs: Observation, rng: random.Random) -> str:
        """Decisions before play (cards passed, bids, calls, discards) as the heuristic player makes them."""
        return HeuristicBot(self.t).decide(obs, rng)


SAMPLES = 24     # deals a decision at the default strength


class MonteCarloBot(Deliberating):
    """Chooses by sampling deals that agree with what it has seen and playing each card out at random."""

    name = "mc"

    def __init__(self, t: Tables, samples: int = SAMPLES):
        refuse_unplayable(t, "the Monte-Carlo player")
        self.t = t
        self.samples = samples

    def choose(self, obs: Observation, choices: list[str], rng: random.Random) -> str:
        """The card with the best mean result over the sampled deals (castling played on in every play-out)."""
        t = self.t
        me = obs.to_move
        scores = {name: 0.0 for name in choices}
        for position in positions(t, obs, rng, self.samples):
            hands = position.hands
            mine = position.t.party_of[me]         # a called partner's party is the sampled deal's
            for name in choices:
                position.push(Play(me, card_of(t, hands[me], name)))
                scores[name] += played_out(position, rng)[mine]
                position.undo()
        return max(choices, key=lambda name: scores[name])

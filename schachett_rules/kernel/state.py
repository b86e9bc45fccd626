"""One game in progress, and the only place that says whose decision it is and what follows.

A :class:`State` is a game at one moment: the hands, the trick on the table, the
tricks taken, the Kings fallen, the castles made, and the *phase*: the deal
(chance decides), a moment of castling (a seat may castle or let its chance go),
play (a seat plays a card), or the end. Every driver walks a game through it:
the recorded game and its replay, every bot, the terminal, the searches and the
server. Each asks :meth:`State.decider` whose decision it is and
:meth:`State.legal_actions` what may be done, and hands one action to
:meth:`State.apply`, which verifies it, applies it and returns its frozen
record (:mod:`.records`); :meth:`State.undo` takes it back, :meth:`State.clone`
copies the state for a search, :meth:`State.key` names the position for a
transposition table, :meth:`State.observation` is what one seat may see.

The rules themselves are the kernel's: who takes a trick (:mod:`.trick`), a
King's fate and its points (:mod:`.scoring`), the follow tiers, which castles are
open and in which order the seats are asked (:mod:`.castling`), the automaton's
card (:mod:`.automaton`). The compiled play-outs
(:mod:`schachett_rules.playouts.compiled`) walk the same phases from the same
tables, and a test walks both side by side.

>>> from schachett_rules.kernel.compiler import tables_for
>>> from schachett_rules.kernel.streams import GameStream
>>> state = State.deal(tables_for("original"), dealer=3, rng=GameStream(1, 0))
>>> state.decider(), state.phase_name, len(state.legal_actions())     # seat 0 leads, any of its 13 cards
(0, 'play', 13)
>>> record = state.play("sK")                                          # the face-up sK of dealer + 1
>>> record.card, record.trick, state.decider()
('sK', 1, 1)
>>> state.undo()
>>> state.decider(), len(state.trick)
(0, 0)
"""

from __future__ import annotations

from typing import Callable, Iterator, NamedTuple, Sequence

from ..errors import IllegalAction, UnknownCard
from . import before_play
from . import castling as castle_rules
from . import gamelog
from .actions import (AUCTION, BEFORE, BEFORE_PLAY, BETWEEN, CALL, CASTLE, CHANCE, DEAL, EXCHANGE, OFFER, OVER, PASSING,
                      PHASES, PLAY, RESCUE, RETURN, TERMINAL, Answer, Bid, Call, Castle, Deal, Discard, Give, Pass,
                      Penalty, Play)
from .automaton import automaton_card, automaton_give, passes_of, policy_of
from .chance import random_action
from .deal import deal_full, hands_of_record, names_of
from .records import CastleRecord, GameResult, PassRecord, PenaltyRecord, PlayRecord, TrickRecord, money
from .scoring import KingCount, king_events, outcome, penalty_payees, penalty_settlement
from .tables import Tables
from .verify import castle_action, penalty_action, play_action, verify_action
from .observation import observe
from .trick import holder, kings_in, legal as legal_cards, narrowed, trick_points

class TrickOutcome(NamedTuple):
    """A full trick as it stands: who holds it and with which face, its points, its Kings' fates."""

    winner: int
    face: int
    points: int
    fates: tuple


class LegalPlays:
    """The cards the seat to play may play next: a cheap view over one bitmask (names, with copies once)."""

    def __init__(self, state: "State", seat: int, mask: int, tier: int | None, rule: int | None = None):
        self.state, self.seat, self.mask, self.tier = state, seat, mask, tier
        self.rule = rule      # the restriction that narrowed the choice last (trick.narrowed), if any

    def __contains__(self, card) -> bool:
        t = self.state.t
        face = t.face(card) if isinstance(card, str) else t.deck.card_face[card]
        return bool(self.mask & t.deck.face_cards[face])

    def __iter__(self) -> Iterator[str]:
        return iter(dict.fromkeys(names_of(self.state.t, self.mask)))

    def __len__(self) -> int:
        return sum(1 for _ in self)

    @property
    def forced_by(self) -> str | None:
        """The follow rule (or restriction) that narrowed the choice, in words with its citation, or None."""
        s = self.state
        if self.rule is not None and self.rule != len(s.t.restrictions):
            return gamelog.restriction_words(s.t, self.rule)
        if self.tier is None or self.mask == s.hands[self.seat]:
            return None
        t = s.t
        led = t.deck.card_face[s.trick[0][1]]
        return f"must follow {t.deck.face_names[led]} with {t.follow_words[led][self.tier]} ({t.follow_cite[led]})"


class State:
    """One game in progress: hands, the trick on the table, the tricks taken, Kings fallen, castles, the phase.

    Build one with :meth:`deal` (a fresh deal), :meth:`from_record` (a recorded
    deal, checked against the deal clause), :meth:`unknown_deal` (cards played
    without a deal fixed in advance, for a search that builds the deal as it
    plays), or ``State(t, dealer)`` and a :class:`Deal` action.
    """

    def __init__(self, tables: Tables, dealer: int, game: int = 0):
        t = self.t = self.base = tables      # t: the tables in force (the game's, once its contract is fixed)
        self.dealer = dealer
        self.game = game                     # the game's number in its session (the passing clause asks it)
        self.hands = [0] * t.n_seats
        self.leader = t.first_leader(dealer)
        self.trick: list[tuple[int, int]] = []
        self.done = 0                       # tricks gathered
        self.phase = DEAL
        self.moment = -1                    # the castling moment, while phase is CASTLE
        self.ask = 0                        # the first seat (or trick place, in a rescue) not yet asked
        self.castled = 0                    # bitmask of the seats that have castled
        self.count = KingCount()
        self.points = [0] * len(t.parties)  # cards and King events, by party
        self.card_points = [0] * len(t.parties)
        self.debts: list[tuple[int, int, int]] = []   # (payer, payee, points), penalty by penalty
        self.forfeited: frozenset[int] = frozenset()
        self.shown = 0                      # cards taken back into a hand, shown to every player until played
        self.known_deal = True
        self.pool = 0                       # unknown deal: the cards not yet played
        self._tricks: list[tuple] = []      # (leader, cards, winner, face, points, fates, castles)
        self.first_trick = 0                # the trick (from 0) the log begins at: at_position knows none before
        self.tricks_before: tuple[int, ...] = ()   # the tricks each party took before that (at_position)
        self._castles: list[tuple] = []     # (trick, moment, seat, king, officer, with, king_from, officer_from)
        self._history: list[tuple] = []     # what happened, in order, as ints (records are built from it)
        self._records: list = []
        self._undo: list[tuple] = []
        self._main = 0                      # the history entry of the last action applied
        # before the first card (kernel.before_play): the stock, the turned card, passing, bidding, the call
        self.stock, self.turned = 0, -1
        self.passed = [0] * t.n_seats       # the cards each seat passed on
        self.passes_done = 0
        self.bids: list[tuple[int, int, int]] = []    # (seat, contract, colour), a pass as contract -1
        self.round, self.bid_turn, self.best = 0, 0, None
        self.contract, self.trump, self.declarer, self.called, self.partner = -1, -1, -1, -1, -1
        self.discarded = [0] * t.n_seats
        self.exchanger, self.to_discard = -1, 0
        # a card offered (the offer clause): the card, the seats asked so far, its taker, the cards he has still
        # to give back (those he gave are in the log: before_play.given_back)
        self.offered, self.offer_turn, self.taker, self.to_give = -1, 0, -1, 0
        self.thrown_in = False
        self.played = 0                     # the cards played so far (a restriction may ask)
        self.covered = 0                    # a tableau: the cards still face down, seen by nobody
        self.under: dict[int, int] = {}     # a tableau: the card each face-up card covers
        self.start_hands: tuple[int, ...] = ()

    # --- making a game ---------------------------------------------------------------------------
    @classmethod
    def deal(cls, tables: Tables, dealer: int, rng, game: int = 0) -> "State":
        """A new game (number ``game`` of its session) with a fresh deal from ``rng`` (:func:`~.deal.deal_full`)."""
        state = cls(tables, dealer, game)
        hands, stock, turned, piles = deal_full(tables, dealer, rng)
        state.push(Deal(tuple(hands), stock, turned, piles))
        return state

    @classmethod
    def from_record(cls, tables: Tables, dealer: int, hands: list[list[str]], game: int = 0,
                    stock: list[str] | None = None, turned: str | None = None) -> "State":
        """A game with a recorded deal (card names by seat, and the stock and turned card where the deal leaves
        them), checked against the deal clause."""
        state = cls(tables, dealer, game)
        masks, stock_mask, turned_card, piles = hands_of_record(tables, dealer, hands, stock, turned)
        state.push(Deal(tuple(masks), stock_mask, turned_card, piles))
        return state

    @classmethod
    def unknown_deal(cls, tables: Tables, dealer: int) -> "State":
        """A game whose hands are not known: any card not yet played may be played, the follow rules unasked.

        A search that builds a deal while it plays (the §12 study) walks the
        tricks, Kings and points through this state and checks the follow
        rules itself; the game it finds is then replayed with its deal.
        Castling needs the hands, so a ruleset that castles cannot be played so.
        """
        t = tables
        if t.castling is not None and t.castling.permits:
            raise IllegalAction(f"ruleset {t.name} castles, and castling needs the hands: a game without a deal "
                                f"cannot be played")
        state = cls(tables, dealer)
        state.known_deal, state.pool = False, t.full_mask
        for card, seat in t.dealt_to(dealer):
            state.hands[seat] |= 1 << card    # the cards dealt face up are known; the rest may lie anywhere
        state._history.append(("deal", ()))
        state.phase = PLAY
        return state

    @classmethod
    def at_position(cls, tables: Tables, dealer: int, hands: Sequence[int], leader: int, trick: Sequence[tuple[int, int]],
                    done: int, count: KingCount, castled: int, points: Sequence[int],
                    card_points: Sequence[int], moment: int = -1, ask: int = 0,
                    tricks: Sequence[int] = ()) -> "State":
        """A game at a position whose past is known only by what it left: the hands, the trick on the table, the
        tricks done, the Kings fallen (``count``), the seats that castled, the points so far and the tricks each
        party took (``tricks``, counted into the result's, where a game's score asks them); a card is due, or
        with ``moment`` a moment of castling is open, ``ask`` the first seat (in a rescue, the first place in the
        trick) not yet asked (:func:`~.observation.castle_moment` reads both from what a seat sees).

        A player that samples the hands it cannot see (the Monte-Carlo player) plays on from such a state; its
        log begins at this position.
        """
        state = cls(tables, dealer)
        state.hands, state.leader, state.trick, state.done = list(hands), leader, list(trick), done
        state.count, state.castled = KingCount.copy_of(count), castled
        state.first_trick = done
        state.points, state.card_points = list(points), list(card_points)
        state.tricks_before = tuple(tricks)
        state.phase = PLAY
        if moment >= 0:
            state.phase, state.moment, state.ask = CASTLE, moment, ask
        state._history.append(("deal", tuple(hands)))
        return state

    # --- whose decision, and which actions ---------------------------------------------------------
    @property
    def phase_name(self) -> str:
        """The phase in words: deal, castle, play or over."""
        return PHASES[self.phase]

    @property
    def over(self) -> bool:
        """Whether the game is over: every trick gathered, no chance to castle left open."""
        return self.phase == OVER

    def decider(self) -> int:
        """The seat of the player who decides now (a dummy's player for a dummy), CHANCE at the deal, TERMINAL at the end."""
        phase = self.phase
        if phase == PLAY:
            return self.t.controller(self.seat_to_play())
        if phase == CASTLE:
            return self.t.controller(self._castler())
        if phase == DEAL:
            return CHANCE
        if phase == OVER:
            return TERMINAL
        return self.t.controller(self.before_play_seat())

    def before_play_seat(self) -> int:
        """The seat deciding before play: the one passing cards, bidding, calling or discarding (-1 otherwise)."""
        phase = self.phase
        if phase == PASSING:
            return before_play.passer(self)
        if phase == AUCTION:
            return before_play.bidder(self)
        if phase == CALL:
            return self.declarer
        if phase == EXCHANGE:
            return self.exchanger
        if phase == OFFER:
            return before_play.answerer(self)
        if phase == RETURN:
            return self.taker
        return -1

    def playable(self, seat: int) -> int:
        """The cards of ``seat``'s hand it may play from: all of them, but in a tableau only those face up."""
        return self.hands[seat] & ~self.covered

    def seat_to_play(self) -> int:
        """The hand whose card is due next (during a castling moment: the hand that will lead once it closes)."""
        if self.phase == CASTLE and self.moment == RESCUE:
            return self.outcome().winner
        return self.t.seat_at(self.leader, len(self.trick))

    @property
    def to_move(self) -> int:
        """The hand whose card is due next (:meth:`seat_to_play`)."""
        return self.seat_to_play()

    @property
    def trick_number(self) -> int:
        """The current trick, counted from 1 (while a full trick waits for a rescue: the next one)."""
        return self.done + 1 + (self.phase == CASTLE and self.moment == RESCUE)

    def legal(self) -> LegalPlays:
        """The cards the seat to play may play next, as names (a card played during a moment of castling closes it)."""
        seat = self.seat_to_play()
        if self.phase not in (PLAY, CASTLE) or (self.phase == CASTLE and self.moment == RESCUE
                                                and self.done == self.t.n_tricks - 1):
            return LegalPlays(self, seat, 0, None)
        if not self.known_deal:
            return LegalPlays(self, seat, self._possible(seat), None)
        if self.phase == CASTLE and self.moment == RESCUE:
            # it will lead the next trick
            return LegalPlays(self, seat, legal_cards(self.t, self.playable(seat), (), self.played, self.done + 1)[0],
                              None)
        if self.t.restrictions or self.t.obligations:
            mask, tier, why = narrowed(self.t, self.playable(seat), self.trick, self.played, self.done)
            return LegalPlays(self, seat, mask, tier, why)
        return LegalPlays(self, seat, *legal_cards(self.t, self.playable(seat), self.trick))

    def legal_actions(self) -> list:
        """Every action the decider may take now, in the order the random player considers them.

        Play: one :class:`Play` per card (copies apart, in deck order). A
        moment of castling: one :class:`Castle` per King and officer on offer
        to the seat being asked, then its :class:`Pass`. The deal and the end: none. Where a rule makes the
        decision (a seat of the ``automaton`` clause), only the action it makes (:meth:`rule_action`).
        """
        rule = self.rule_action()
        return [rule] if rule is not None else self.open_actions()

    def open_actions(self) -> list:
        """The actions the rules of the phase leave open to the decider, before a rule chooses among them (an
        automaton's seat may take only :meth:`rule_action`'s)."""
        if self.phase == PLAY:
            seat = self.seat_to_play()
            mask = self.legal().mask
            return [Play(seat, c) for c in range(self.t.n_cards) if mask >> c & 1]
        if self.phase == CASTLE:
            offers = self.castle_offers()
            return [Castle(o.seat, o.king, c) for o in offers for c in o.officers] + [Pass(self._castler())]
        if self.phase == PASSING:
            return before_play.give_actions(self)
        if self.phase == AUCTION:
            return before_play.bid_actions(self)
        if self.phase == CALL:
            return before_play.call_actions(self)
        if self.phase == EXCHANGE:
            return before_play.discard_actions(self)
        if self.phase == OFFER:
            return before_play.answer_actions(self)
        if self.phase == RETURN:
            return before_play.give_back_actions(self)
        return []

    def rule_action(self):
        """The action a rule of the ruleset makes for the decider (an automaton's card, a card it passes, its pass
        at a turn to bid, a card it lays away or calls), or None."""
        if self.base.automaton is None and self.t.automaton is None:
            return None                  # no seat is played by a rule: asked at every action, so answered first
        if self.phase == PASSING and self.known_deal:
            seat = before_play.passer(self)
            rule = passes_of(self.t, self.t.controller(seat))
            return Give(seat, automaton_give(self.t, self.hands[seat], rule)) if rule else None
        if self.phase == AUCTION and self.base.automaton_bids is not None:
            seat = before_play.bidder(self)
            if not policy_of(self.base, self.base.controller(seat)):
                return None
            # where it must bid, the first bid open (the bids come in the round's order, the pass last)
            return self.open_actions()[0] if before_play.must_bid(self) else Bid(seat, -1, -1)
        if self.phase == OFFER and self.base.automaton_bids is not None:
            # a seat that takes no part in the bidding lets a card offered lie too
            seat = before_play.answerer(self)
            return Answer(seat, False) if policy_of(self.base, self.base.controller(seat)) else None
        if self.phase == CALL and self.base.automaton_calls is not None:
            seat = self.declarer
            if not policy_of(self.base, self.base.controller(seat)):
                return None
            # among the cards it may call, by the order of strength of the contract about to be played
            ranked = self.base.flow.contracts[self.contract].tables(self.trump)
            callable_ = sum(1 << a.card for a in self.open_actions())
            return Call(seat, automaton_give(ranked, callable_, self.base.automaton_calls))
        if self.phase == EXCHANGE and self.base.automaton_lays is not None and self.known_deal:
            seat = self.before_play_seat()
            if not policy_of(self.base, self.base.controller(seat)):
                return None
            # by the order of strength of the contract about to be played (its play tables are not yet in force)
            ranked = self.base.flow.contracts[self.contract].tables(self.trump) if self.contract >= 0 else self.base
            return Discard(seat, automaton_give(ranked, self.hands[seat], self.base.automaton_lays))
        if self.phase != PLAY or not self.known_deal:
            return None
        t, seat = self.t, self.seat_to_play()
        rule = policy_of(t, t.controller(seat))
        if rule is None:
            return None
        return Play(seat, automaton_card(t, self.playable(seat), self.trick, self.done, rule, self.played))

    # --- castling: the moments and who is asked ---------------------------------------------------
    def _moment_options(self) -> list:
        """The castles open at this moment to seats not yet asked, in the order they are asked."""
        t = self.t
        winner = self.outcome().winner if self.moment == RESCUE else -1
        out = castle_rules.options(t, self.moment, self.hands, self.trick, self.done, winner, self.castled,
                                   self.dealer)
        order = (lambda o: o.position) if self.moment == RESCUE else (lambda o: o.seat)
        return [o for o in out if order(o) >= self.ask]

    def castle_offers(self) -> list:
        """The castles open to the seat being asked now (:class:`~.castling.Option`, one per King)."""
        if self.phase != CASTLE:
            return []
        options = self._moment_options()
        seat = options[0].seat
        return [o for o in options if o.seat == seat]

    def castle_options(self) -> list:
        """Every castle still open at this moment, to any seat not yet asked."""
        return self._moment_options() if self.phase == CASTLE else []

    def _castler(self) -> int:
        return self._moment_options()[0].seat

    def _enter(self, moment: int) -> None:
        """Open a moment of castling, or go past it at once when no castle is open."""
        if self.t.castling is None or not self.known_deal:
            self._close(moment)
            return
        self.phase, self.moment, self.ask = CASTLE, moment, 0
        if not self._moment_options():
            self._close(moment)

    def _close(self, moment: int) -> None:
        """Close a moment: play goes on (after a rescue moment, the trick is gathered first)."""
        self.phase, self.moment, self.ask = PLAY, -1, 0
        if moment == RESCUE:
            self._gather()

    def _next_asked(self, option) -> None:
        """After ``option``'s seat answered: ask the next seat, or close the moment."""
        moment = self.moment
        self.ask = (option.position if moment == RESCUE else option.seat) + 1
        if not self._moment_options():
            self._close(moment)

    def outcome(self) -> TrickOutcome:
        """Who holds the trick on the table, its points and the fates its Kings would meet (nothing is counted)."""
        t, index = self.t, self.done
        seat, face = holder(t, index, self.trick)
        kings = kings_in(t, self.trick)
        fates = king_events(t, index, kings, seat, KingCount.copy_of(self.count)) if kings else []
        return TrickOutcome(seat, face, trick_points(t, index, self.trick), tuple(fates))

    # --- applying actions ---------------------------------------------------------------------------
    def push(self, action) -> None:
        """Apply an action the caller knows to be legal, without checking it and without building its record.

        A search pushes and undoes; :meth:`apply` is the checked form.
        """
        self._undo.append(self._snapshot())
        kind = type(action)
        if kind is Play:
            self._play(action.seat, action.card)
        elif kind is Castle:
            self._castle(action)
        elif kind is Pass:
            self._pass(action.seat)
        elif kind is Deal:
            self._deal(action)
        elif kind is Penalty:
            self._penalty(action)
        elif kind is Give and self.phase == RETURN:
            self._before_play(("give", action.seat, action.card, self.declarer))
            before_play.give_back(self, action.seat, action.card)
        elif kind is Give:
            self._before_play(("give", action.seat, action.card))
            before_play.give(self, action.seat, action.card)
        elif kind is Answer:
            self._before_play(("answer", action.seat, action.take, self.offered))
            before_play.answer(self, action.seat, action.take)
        elif kind is Bid:
            self._before_play(("bid", action.seat, action.contract, action.colour))
            before_play.bid(self, action.seat, action.contract, action.colour)
        elif kind is Call:
            self._before_play(("call", action.seat, action.card))
            before_play.call(self, action.seat, action.card)
        elif kind is Discard:
            self._before_play(("discard", action.seat, action.card))
            before_play.discard(self, action.seat, action.card)
        else:
            self._undo.pop()
            raise TypeError(f"not an action: {action!r}")

    def apply(self, action):
        """Verify an action, apply it and return its frozen record (:class:`IllegalAction` naming the clause if it breaks one)."""
        self.push(self.verify(action))
        return self._record_at(self._main)

    def verify(self, action):
        """The action as it will be applied, if the rules allow it now; otherwise :class:`IllegalAction`."""
        return verify_action(self, action)

    def can(self, action) -> bool:
        """Whether the rules allow this action now."""
        try:
            self.verify(action)
        except IllegalAction:
            return False
        return True

    def undo(self) -> None:
        """Take back the last action applied (with whatever it set going: a trick gathered, moments passed)."""
        if not self._undo:
            raise IllegalAction("there is nothing to take back: no action has been applied")
        (hands, self.leader, trick, self.done, self.phase, self.moment, self.ask, self.castled, total, each,
         points, cards, n_tricks, n_castles, n_history, n_debts, self.forfeited, self.shown, self.pool, self.t,
         self.played, self.partner, self.covered, before) = self._undo.pop()
        if before is not None:
            (self.stock, self.turned, passed, self.passes_done, n_bids, self.round, self.bid_turn, self.best,
             self.contract, self.trump, self.declarer, self.called, discarded, self.exchanger, self.to_discard,
             self.thrown_in, self.start_hands, self.offered, self.offer_turn, self.taker, self.to_give) = before
            self.passed, self.discarded = list(passed), list(discarded)
            del self.bids[n_bids:]
        self.hands, self.trick = list(hands), list(trick)
        self.count.total, self.count.per_event = total, dict(each)
        self.points, self.card_points = list(points), list(cards)
        del self._tricks[n_tricks:], self._castles[n_castles:], self._history[n_history:], self.debts[n_debts:]
        del self._records[n_history:]

    def _snapshot(self) -> tuple:
        # what the phases before play change is kept only while they last: play never touches it
        before = None
        if self.phase == DEAL or self.phase in BEFORE_PLAY:
            before = (self.stock, self.turned, tuple(self.passed), self.passes_done, len(self.bids), self.round,
                      self.bid_turn, self.best, self.contract, self.trump, self.declarer, self.called,
                      tuple(self.discarded), self.exchanger, self.to_discard, self.thrown_in, self.start_hands,
                      self.offered, self.offer_turn, self.taker, self.to_give)
        return (tuple(self.hands), self.leader, tuple(self.trick), self.done, self.phase, self.moment, self.ask,
                self.castled, self.count.total, tuple(self.count.per_event.items()), tuple(self.points),
                tuple(self.card_points), len(self._tricks), len(self._castles), len(self._history), len(self.debts),
                self.forfeited, self.shown, self.pool, self.t, self.played, self.partner, self.covered, before)

    def clone(self) -> "State":
        """An independent copy of this state (its history shared up to now, its future its own)."""
        new = State.__new__(State)
        new.__dict__.update(self.__dict__)
        new.hands, new.trick = list(self.hands), list(self.trick)
        new.count = KingCount.copy_of(self.count)
        new.points, new.card_points, new.debts = list(self.points), list(self.card_points), list(self.debts)
        new.passed, new.discarded, new.bids = list(self.passed), list(self.discarded), list(self.bids)
        new._tricks, new._castles, new._history = list(self._tricks), list(self._castles), list(self._history)
        new._records, new._undo = list(self._records), list(self._undo)
        return new

    def key(self) -> tuple:
        """The position as a hashable key: cards left by seat, the trick, who leads, Kings fallen, castles, phase.

        Two states with the same key play on alike (the points already won are not in it).
        """
        key = (self.phase, self.moment, self.ask, tuple(self.hands), tuple(self.trick), self.leader, self.done,
               self.castled, self.count.total, tuple(sorted(self.count.per_event.items())), self.shown, self.pool)
        if self.base.flow is None:
            return key
        # the game's own parties, sitting out and call, the restrictions' memory, and where the bidding stands
        return key + (id(self.t), self.played, self.passes_done, tuple(self.passed), tuple(self.bids),
                      tuple(self.discarded), self.stock, self.covered, self.offer_turn, self.taker)

    def lapse(self) -> None:
        """Let every open chance to castle go until a card is due or the game is over (a record ending in silence)."""
        while self.phase == CASTLE:
            self.push(Pass(self._castler()))

    def gather(self) -> None:
        """Take in a full trick left open for a rescue: every chance of rescuing a King in it lapses."""
        if not (self.phase == CASTLE and self.moment == RESCUE):
            raise IllegalAction("there is no full trick on the table to gather", trick=self.trick_number)
        while self.phase == CASTLE and self.moment == RESCUE:
            self.push(Pass(self._castler()))

    @property
    def pending(self) -> TrickOutcome | None:
        """The full trick waiting for a rescue, as it stands, or None."""
        return self.outcome() if self.phase == CASTLE and self.moment == RESCUE else None

    # --- what each action does ---------------------------------------------------------------------------
    def _deal(self, action: Deal) -> None:
        self.hands = list(action.hands)
        self.stock, self.turned = action.stock, action.turned
        self.under = {top: down for top, down in action.piles}
        self.covered = sum(1 << down for _top, down in action.piles)
        self._main = len(self._history)
        self._history.append(("deal", tuple(action.hands), action.stock, action.turned))
        before_play.after_deal(self)

    def _enter_play(self) -> None:
        """Play begins: the moment of castling before the first card, if any, then the first lead."""
        self.phase = PLAY
        self._enter(BEFORE)

    def _before_play(self, entry: tuple) -> None:
        """Log an action of the phases before play (a card passed, a bid, a call, a discard)."""
        self._main = len(self._history)
        self._history.append(entry)

    def _play(self, seat: int, card: int) -> None:
        t = self.t
        while self.phase == CASTLE:           # a card played while a chance is open: every chance left lapses
            self._pass(self._castler(), implied=True)
        bit = 1 << card
        rule = None
        if self.known_deal:
            hand = self.playable(seat)
            tier = legal_cards(t, hand, self.trick)[1] if self.trick else None
            forced = tier is not None and hand & t.follow[t.deck.card_face[self.trick[0][1]]][tier] != hand
            if t.restrictions or t.obligations:
                why = narrowed(t, hand, self.trick, self.played, self.done)[2]
                rule = why if why != len(t.restrictions) else None
        else:
            tier, forced = None, False
            self.pool &= ~bit
        self._main = len(self._history)
        self._history.append(("play", self.done + 1, seat, card, not self.trick, tier if forced else None, rule))
        self.hands[seat] &= ~bit
        self.shown &= ~bit
        self.played |= bit
        if self.covered and card in self.under:
            self.covered &= ~(1 << self.under[card])     # the card it covered is turned face up
        self.trick.append((seat, card))
        if len(self.trick) == t.n_active:
            if t.castling is not None and kings_in(t, self.trick):
                self._enter(RESCUE)
            else:
                self._gather()

    def _gather(self) -> None:
        t, index = self.t, self.done
        if self.base.flow is not None and self.declarer >= 0 and self.partner < 0:
            # the first other player to take a trick may become the declarer's partner with this very trick
            before_play.found_partner(self, holder(t, index, self.trick)[0])
            t = self.t
        seat, face = holder(t, index, self.trick)
        kings = kings_in(t, self.trick)
        fates = tuple(king_events(t, index, kings, seat, self.count)) if kings else ()
        points = trick_points(t, index, self.trick)
        party = t.party_of[seat]
        self.points[party] += points
        self.card_points[party] += points
        for _ev, _face, _owner, _first, pts, parties in fates:
            for p in parties:
                self.points[p] += pts
        rescues = tuple(i for i, c in enumerate(self._castles) if c[1] == RESCUE and c[0] == index + 1)
        self._tricks.append((self.leader, tuple(self.trick), seat, face, points, fates, rescues))
        self._history.append(("trick", len(self._tricks) - 1))
        self.trick, self.leader, self.done = [], seat, index + 1
        if self.done == t.n_tricks:
            self.phase = OVER
        else:
            self._enter(BETWEEN)

    def _castle(self, action: Castle) -> None:
        option = next(o for o in self._moment_options() if o.seat == action.seat and o.king == action.king)
        t, card, king = self.t, action.officer, action.king
        giver, king_seat = option.giver, option.king_seat   # the King's and the officer's hands change places
        self.hands[giver] = (self.hands[giver] & ~(1 << card)) | 1 << king
        moment = self.moment
        if moment == RESCUE:
            self.trick[option.position] = (option.seat, card)
        else:
            self.hands[king_seat] = (self.hands[king_seat] & ~(1 << king)) | 1 << card
        self.castled |= 1 << option.seat
        trick = self.done + (1 if moment == RESCUE else 0)
        self._castles.append((trick, moment, option.seat, king, card, option.with_seat, king_seat, giver))
        self._main = len(self._history)
        self._history.append(("castle", len(self._castles) - 1))
        if t.castling.per_moment == "one":
            self._close(moment)
        else:
            self._next_asked(option)

    def _pass(self, seat: int, implied: bool = False) -> None:
        options = self._moment_options()
        option = next(o for o in options if o.seat == seat)
        self._main = len(self._history)
        self._history.append(("pass", self.done + (1 if self.moment == RESCUE else 0), self.moment, seat, implied))
        self._next_asked(option)

    def _penalty(self, action: Penalty) -> None:
        t = self.t
        p = t.penalties[action.name]
        to: tuple[int, ...] = ()
        if p.pays:
            payer, to = penalty_payees(t, action.seat, p.to)
            self.debts.extend((payer, s, p.pays) for s in to)
        if p.forfeit:
            self.forfeited = self.forfeited | {t.party_of[action.seat]}
        if action.card >= 0:
            self.shown |= 1 << action.card
        self._main = len(self._history)
        self._history.append(("penalty", self.trick_number, action.seat, action.name, to, action.card))

    def _possible(self, seat: int) -> int:
        """Unknown deal: the cards ``seat`` may still play (not played, not known to lie in another hand)."""
        others = 0
        for s, h in enumerate(self.hands):
            if s != seat:
                others |= h
        return self.pool & ~others

    # --- the log --------------------------------------------------------------------------------------
    def _record_at(self, i: int):
        while len(self._records) <= i:
            self._records.append(None)
        rec = self._records[i]
        if rec is None:
            rec = self._records[i] = gamelog.record(self, self._history[i])
        return rec

    @property
    def log(self) -> list:
        """Every record of the game so far, in order: the deal, cards, castles, passes, tricks, penalties."""
        return [self._record_at(i) for i in range(len(self._history))]

    def records_of(self, kind: str) -> list:
        """The records of one kind of entry (``"bid"``, ``"give"``, ``"play"`` ...), in order: the log's, without
        making the records of every other entry (a view asks for the bids in every game a search rebuilds)."""
        return [self._record_at(i) for i, entry in enumerate(self._history) if entry[0] == kind]

    @property
    def tricks(self) -> list[TrickRecord]:
        """The finished tricks' records."""
        return self.records_of("trick")

    def trick_record(self, i: int) -> TrickRecord:
        """The record of the ``i``-th finished trick of the log (from 0), without making the others'.

        A record is made once and kept with the log's others (an observation asks for the kept tricks at every
        decision); the log's entry of a trick stands near its end, so it is sought from there.
        """
        history = self._history
        for h in range(len(history) - 1, -1, -1):
            if history[h][0] == "trick" and history[h][1] == i:
                return self._record_at(h)
        raise IndexError(f"trick {i} of the log is not finished: {len(self._tricks)} are")

    @property
    def castles(self) -> list[CastleRecord]:
        """The castles made so far."""
        return self.records_of("castle")

    @property
    def trick_log(self) -> list[tuple]:
        """The finished tricks as ints: (leader, ((seat, card), ...), winner, face, points, fates, rescues)."""
        return list(self._tricks)

    def history(self) -> list[tuple]:
        """What happened, in order, as ints: ("deal", hands), ("play", trick, seat, card, ...), ("castle", i), ..."""
        return list(self._history)

    # --- name-based conveniences for people and records ---------------------------------------------
    def play(self, card: str | int, seat: int | None = None, by: int | None = None) -> PlayRecord:
        """Play a card (a name such as ``"w7"``, or a card number) for the seat to play; ``by``: who plays it."""
        return self.apply(play_action(self, card, seat, by))

    def verify_play(self, card: str | int, seat: int | None = None, by: int | None = None) -> Play:
        """The :class:`Play` a card name (or number) would be now; :class:`IllegalAction` naming the clause if none."""
        return play_action(self, card, seat, by)

    def can_play(self, card: str | int, seat: int | None = None, by: int | None = None) -> bool:
        """Whether this card may be played now."""
        try:
            play_action(self, card, seat, by)
        except IllegalAction:
            return False
        return True

    def verify_castle(self, seat: int, officer: str, king: str | None = None) -> Castle:
        """The :class:`Castle` asked for by names, if the rules allow it now; :class:`IllegalAction` naming why if not."""
        return castle_action(self, seat, officer, king)

    def can_castle(self, seat: int, officer: str, king: str | None = None) -> bool:
        """Whether this castle is allowed now."""
        try:
            castle_action(self, seat, officer, king)
        except IllegalAction:
            return False
        return True

    def castle(self, seat: int, officer: str, king: str | None = None) -> CastleRecord:
        """``seat`` castles now, for ``officer`` (a name); ``king`` where the seat may castle more than one King."""
        return self.apply(castle_action(self, seat, officer, king))

    def pass_castle(self, seat: int | None = None) -> PassRecord:
        """The seat being asked (or ``seat``) lets its chance to castle go."""
        return self.apply(Pass(self._castler() if seat is None and self.phase == CASTLE else seat))

    def penalty(self, seat: int, name: str, card: str | None = None) -> PenaltyRecord:
        """Apply a penalty clause to a seat: points paid to others, the party's score forfeited, a card taken back."""
        return self.apply(penalty_action(self, seat, name, card))

    def automaton_choice(self, policy: str) -> str:
        """The card an automaton seat playing by ``policy`` plays now (the ``automaton`` clause)."""
        seat = self.seat_to_play()
        return self.t.deck.card_name(automaton_card(self.t, self.hands[seat], self.trick, self.done, policy))

    def observation(self, seat: int):
        """What the player on ``seat`` may see now (:func:`~.observation.observe`)."""
        return observe(self, seat)

    def advance(self, choose: Callable[[int, "State"], object | None]) -> int:
        """Walk the game on: the rules' own actions are applied, and ``choose(seat, state)`` answers for every other
        decision, until it answers None (a person must decide) or the game is over. Returns the decider then.

        This is the one loop of a game: bots, play-outs, the terminal and the server all go through it.
        """
        while True:
            seat = self.decider()
            if seat == TERMINAL:
                return seat
            action = self.rule_action() if seat != CHANCE else None
            if action is None:
                action = choose(seat, self)
                if action is None:
                    return seat
            self.apply(action)

    def play_randomly(self, rng) -> None:
        """Finish the game with the random player in every seat (:mod:`.chance`), the automaton by its rule."""
        self.advance(lambda seat, state: random_action(state, rng))

    # --- the score -------------------------------------------------------------------------------------
    @property
    def penalty_money(self):
        """The money per seat of the penalties so far (:func:`~.scoring.penalty_settlement`)."""
        return penalty_settlement(self.t, self.debts)

    @property
    def penalty_points(self) -> list[int]:
        """The penalty points each seat has received (+) or paid (-) so far."""
        out = [0] * self.t.n_seats
        for payer, payee, points in self.debts:
            out[payee] += points
            out[payer] -= points
        return out

    def result(self) -> GameResult:
        """The score of the finished game: points by party, money by seat."""
        if not self.over:
            why = ("a chance to castle is still open" if self.phase == CASTLE else
                   f"trick {self.trick_number} of {self.t.n_tricks} is being played")
            raise IllegalAction(f"the game is not over: {why}")
        t = self.t
        n_parties = len(t.parties)
        if self.thrown_in:
            # thrown in when every player passed, or when nobody took the card the declarer of a contract offered
            bid = self.base.flow.contracts[self.contract].name if self.contract >= 0 else None
            zero = tuple(0 for _ in range(t.n_seats))
            return GameResult(card_points=(0,) * n_parties, event_points=(0,) * n_parties, totals=(0,) * n_parties,
                              winner=None, unit=t.settlement.unit if t.settlement else "", settlement=zero,
                              penalties=zero, net=zero, events=(), thrown_in=True, contract=bid,
                              parties=tuple(t.parties), tricks=(0,) * n_parties,
                              game_points=(0,) * n_parties if t.game_points is not None else ())
        events = tuple(e for tr in self.tricks for e in tr.events)
        card_points = list(self.card_points)
        points = list(self.points)
        for seat, cards in enumerate(self.discarded):
            # the cards laid away count to the party of the player who laid them away (as the skat does)
            if cards:
                worth = sum(t.points[t.deck.card_face[c]] for c in range(t.n_cards) if cards >> c & 1)
                card_points[t.party_of[seat]] += worth
                points[t.party_of[seat]] += worth
        event_points = [p - c for p, c in zip(points, card_points)]
        totals = tuple(0 if p in self.forfeited else points[p] for p in range(n_parties))
        tricks = list(self.tricks_before) or [0] * n_parties
        for tr in self._tricks:
            tricks[t.party_of[tr[2]]] += 1
        winner, money_by_seat, gp = outcome(t, totals, tricks, self.start_hands or self.hands)
        penalty_money = self.penalty_money
        net = tuple(m + pm for m, pm in zip(money_by_seat, penalty_money))
        name = t.deck.card_name
        contract = self.base.flow.contracts[self.contract] if self.contract >= 0 else None
        return GameResult(card_points=tuple(card_points), event_points=tuple(event_points), totals=totals,
                          forfeited=tuple(sorted(self.forfeited)), winner=winner,
                          unit=t.settlement.unit if t.settlement else "",
                          settlement=tuple(money(m) for m in money_by_seat),
                          penalties=tuple(money(m) for m in penalty_money),
                          net=tuple(money(m) for m in net), events=events, tricks=tuple(tricks),
                          parties=tuple(t.parties), contract=contract.name if contract else None,
                          trump=t.deck.colours[self.trump] if self.trump >= 0 else None,
                          declarer=self.declarer if self.declarer >= 0 else None,
                          called=name(self.called) if self.called >= 0 else None,
                          partner=self.partner if self.partner >= 0 else None,
                          game_points=tuple(money(x) for x in gp))

    def __repr__(self) -> str:
        return f"<State {self.t.name}: {self.phase_name}, trick {self.trick_number}, decider {self.decider()}>"


__all__ = ["State", "Deal", "Play", "Castle", "Pass", "Penalty", "CHANCE", "TERMINAL", "LegalPlays",
           "TrickOutcome", "UnknownCard"]

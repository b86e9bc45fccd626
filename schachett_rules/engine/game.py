"""The engine: one game, action by action, from the compiled tables alone.

Each action is verified, then applied, and returns a frozen record; the
records are the game log. ``verify_*`` raises :class:`IllegalAction` naming the
trick, the seat, the card and the clause; ``can_*`` answers yes or no;
the plain verb does it.

>>> import random
>>> from schachett_rules.kernel.compiler import tables_for
>>> game = Game.deal(tables_for("original"), dealer=3, rng=random.Random(1))
>>> game.to_move, game.trick_number
(0, 1)
>>> while not game.over:
...     _ = game.play(next(iter(game.legal())))
>>> len(game.tricks), sum(game.result().card_points) >= 216
(13, True)
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Iterator

from ..kernel.automaton import automaton_card, policy_of
from ..kernel.deal import deal_cards, pick, seat_of
from ..kernel.tables import Tables
from ..kernel.trick import holders, is_last, legal as legal_plays, resolve
from ..errors import IllegalAction, RecordError, UnknownCard
from .castling import CastleOption, apply_castle, castle_options, random_castle, rescues_possible, verify_castle
from .records import (CastleRecord, DealRecord, GameResult, KingEventRecord, PenaltyRecord, PlayRecord,
                      TrickRecord, money)
from ..kernel.scoring import KingCount, king_events, penalty_payees, penalty_settlement, settle


def names_of(t: Tables, mask: int) -> tuple[str, ...]:
    """Card names of a bitmask, in deck order."""
    return tuple(t.deck.card_name(c) for c in range(t.n_cards) if mask >> c & 1)


def hands_from_names(t: Tables, dealer: int, hands: list[list[str]]) -> list[int]:
    """Turn a recorded deal into hand bitmasks, checking it against the deal clause."""
    if not isinstance(dealer, int) or not 0 <= dealer < t.n_seats:
        raise RecordError(f"dealer {dealer!r} is not a seat of this table (seats 0 to {t.n_seats - 1})")
    if len(hands) != t.n_seats:
        raise RecordError(f"the record deals {len(hands)} hands, but ruleset {t.name} seats {t.n_seats}")
    masks, taken = [], 0
    for seat, hand in enumerate(hands):
        if len(hand) != t.hand_size:
            raise RecordError(f"seat {seat} is dealt {len(hand)} cards, but the deal clause gives {t.hand_size}")
        mask = 0
        for name in hand:
            try:
                face = t.face(name)
            except UnknownCard as err:
                raise RecordError(f"seat {seat}'s hand: {err.message}") from None
            free = t.deck.face_cards[face] & ~taken
            if not free:
                copies = t.deck.face_cards[face].bit_count()
                raise RecordError(f"seat {seat}'s hand: {name} is dealt more often than the deck has it "
                                  f"({copies} {'copy' if copies == 1 else 'copies'})")
            card = (free & -free).bit_length() - 1
            mask |= 1 << card
            taken |= 1 << card
        masks.append(mask)
    for face, base, offset in t.gives:
        seat = seat_of(t, base, offset, dealer)
        if not masks[seat] & t.deck.face_cards[face]:
            where = f"dealer + {offset}" if base == "dealer" and offset else ("the dealer" if base == "dealer" else f"seat {offset}")
            raise RecordError(f"the deal clause gives {t.deck.face_names[face]} face up to {where} (seat {seat}), "
                              f"but the record deals it elsewhere")
    return masks


class LegalPlays:
    """The cards the seat to move may play: a cheap view over one bitmask."""

    def __init__(self, game: "Game", seat: int, mask: int, tier: int | None):
        self.game, self.seat, self.mask, self.tier = game, seat, mask, tier

    def __contains__(self, card) -> bool:
        t = self.game.t
        face = t.face(card) if isinstance(card, str) else t.deck.card_face[card]
        return bool(self.mask & t.deck.face_cards[face])

    def __iter__(self) -> Iterator[str]:
        seen, t = set(), self.game.t
        for c in range(t.n_cards):
            if self.mask >> c & 1:
                name = t.deck.card_name(c)
                if name not in seen:
                    seen.add(name)
                    yield name

    def __len__(self) -> int:
        return sum(1 for _ in self)

    @property
    def forced_by(self) -> str | None:
        """The follow rule that narrowed the choice, in words with its citation, or None."""
        g = self.game
        if self.tier is None or self.mask == g.hands[self.seat]:
            return None
        led = g.t.deck.card_face[g.trick[0][1]]
        words = g.t.follow_words[led][self.tier]
        return f"must follow {g.t.deck.face_names[led]} with {words} ({g.t.follow_cite[led]})"


class Game:
    """One game in progress: hands, the trick on the table, finished tricks, the log."""

    def __init__(self, tables: Tables, dealer: int, hands: list[int]):
        self.t = tables
        self.dealer = dealer
        self.hands = list(hands)
        self.leader = seat_of(tables, *tables.first_lead, dealer)
        self.trick: list[tuple[int, int]] = []
        self.tricks: list[TrickRecord] = []
        self.won = [0] * tables.n_seats          # card points by winning seat
        self.count = KingCount()
        self.castles: list[CastleRecord] = []
        self.pending: tuple | None = None        # a full trick not yet gathered, while a rescue may come
        self.penalty_points = [0] * tables.n_seats
        self.debts: list[tuple[int, int, int]] = []   # (payer, payee, points), penalty by penalty
        self.forfeited: set[int] = set()
        self.log: list = [DealRecord(dealer=dealer, hands=tuple(names_of(tables, h) for h in hands),
                                     face_up=tuple((seat_of(tables, b, o, dealer), tables.deck.face_names[f])
                                                   for f, b, o in tables.gives))]

    @classmethod
    def deal(cls, tables: Tables, dealer: int, rng: random.Random) -> "Game":
        """A new game with a fresh deal."""
        return cls(tables, dealer, deal_cards(tables, dealer, rng))

    @classmethod
    def from_record(cls, tables: Tables, dealer: int, hands: list[list[str]]) -> "Game":
        """A game with a recorded deal, checked against the deal clause."""
        return cls(tables, dealer, hands_from_names(tables, dealer, hands))

    # --- state -------------------------------------------------------------------
    @property
    def over(self) -> bool:
        """Whether every trick has been played (a last trick awaiting a rescue counts as played)."""
        return len(self.tricks) + (self.pending is not None) == self.t.n_tricks

    @property
    def to_move(self) -> int:
        """The seat whose card is due (while a trick awaits a rescue: the seat that will lead next)."""
        if self.pending is not None:
            return self.pending[0]
        return (self.leader + len(self.trick)) % self.t.n_seats

    @property
    def trick_number(self) -> int:
        """The current trick, counted from 1."""
        return len(self.tricks) + 1 + (self.pending is not None)

    def legal(self) -> LegalPlays:
        """The legal cards for the seat to move."""
        seat = self.to_move
        hand = self.hands[seat]
        if self.pending is not None:
            return LegalPlays(self, seat, hand, None)
        return LegalPlays(self, seat, *legal_plays(self.t, hand, self.trick))

    # --- playing a card ------------------------------------------------------------
    def verify_play(self, card: str | int, seat: int | None = None, by: int | None = None) -> int:
        """The physical card a play would use; :class:`IllegalAction` if the play breaks a rule.

        ``seat`` is the hand the card comes from; ``by`` the seat of the player who plays it
        (the same, except for a dummy, whose cards another seat plays).
        """
        t = self.t
        if self.over:
            raise IllegalAction("the game is over; there is no card left to play", trick=t.n_tricks,
                                card=card if isinstance(card, str) else None)
        mover = self.to_move
        name = card if isinstance(card, str) else t.deck.card_name(card)
        if seat is not None and seat != mover:
            who = (f"seat {self.leader} leads the first trick ({t.lead_cites[0]})" if not self.tricks else
                   f"seat {self.leader} won trick {len(self.tricks)} and leads ({t.lead_cites[1]})")
            raise IllegalAction(f"it is seat {mover}'s turn, not seat {seat}'s: {who} and play goes to the left",
                                trick=self.trick_number, seat=seat, card=name, clause=who)
        if by is not None and by != t.controller(mover):
            own, moving = t.dummy_of(by), t.dummy_of(mover)
            if own is not None:
                why = f"seat {by} is a dummy: its cards are played by seat {own.by} ({own.cite})"
            elif moving is not None:
                why = f"the dummy's cards are played by seat {moving.by}, not seat {by} ({moving.cite})"
            else:
                why = f"it is seat {mover}'s turn, not seat {by}'s"
            raise IllegalAction(why, trick=self.trick_number, seat=by, card=name, clause=why)
        try:
            face = t.face(name)
        except UnknownCard as err:
            raise IllegalAction(err.message, trick=self.trick_number, seat=mover, card=str(name)) from None
        held = self.hands[mover] & t.deck.face_cards[face]
        if not held:
            raise IllegalAction(f"seat {mover} does not hold {name}; the hand is "
                                f"{', '.join(names_of(t, self.hands[mover]))}", trick=self.trick_number,
                                seat=mover, card=name)
        legal = self.legal()
        if not legal.mask & held:
            clause = legal.forced_by or "the follow rules"
            raise IllegalAction(f"{clause}; the legal cards are {', '.join(legal)}", trick=self.trick_number,
                                seat=mover, card=name, clause=clause)
        if not isinstance(card, str) and self.hands[mover] >> card & 1:
            return card
        return ((legal.mask & held) & -(legal.mask & held)).bit_length() - 1

    def can_play(self, card: str | int) -> bool:
        """Whether the seat to move may play this card now."""
        try:
            self.verify_play(card)
        except IllegalAction:
            return False
        return True

    def play(self, card: str | int, seat: int | None = None, by: int | None = None) -> PlayRecord:
        """Play a card for the seat to move; a full trick is gathered, or waits for a rescue."""
        physical = self.verify_play(card, seat, by)
        if self.pending is not None:
            self.gather()
        mover = self.to_move
        legal = self.legal()
        record = PlayRecord(trick=self.trick_number, seat=mover, card=self.t.deck.card_name(physical),
                            lead=not self.trick, forced_by=legal.forced_by)
        self.hands[mover] &= ~(1 << physical)
        self.trick.append((mover, physical))
        self.log.append(record)
        if len(self.trick) == self.t.n_seats:
            self._complete()
        return record

    def _resolve(self, count: KingCount):
        """Who takes the trick on the table, why, its points and King events (``count`` is advanced)."""
        t = self.t
        index = len(self.tricks)
        last = is_last(t, index)
        faces = [t.deck.card_face[c] for _, c in self.trick]
        held = holders(t, index, self.trick)
        why = [t.explain(face, held[i][1], last) for i, face in enumerate(faces[1:])]
        out = resolve(t, index, self.trick, count)
        return out.winner, out.face, why, out.points, out.fates

    def _complete(self) -> None:
        provisional = self._resolve(KingCount.copy_of(self.count))
        self.pending = provisional
        if not rescues_possible(self, provisional):
            self.gather()

    def gather(self) -> TrickRecord:
        """Take in the full trick on the table (when it was left open for a possible rescue)."""
        if self.pending is None:
            raise IllegalAction("there is no full trick on the table to gather", trick=self.trick_number)
        t, d = self.t, self.t.deck
        index = len(self.tricks)
        wseat, wface, why, total, events = self._resolve(self.count)
        self.won[wseat] += total
        records = tuple(
            KingEventRecord(event=ev.name, king=d.face_names[face], owner=owner, taker=wseat, trick=index + 1,
                            order="first" if first else "later", points=pts, scoring_parties=parties, cite=ev.cite)
            for ev, face, owner, first, pts, parties in events)
        rec = TrickRecord(number=index + 1, leader=self.leader, cards=tuple((s, d.card_name(c)) for s, c in self.trick),
                          winner=wseat, winning_card=d.face_names[wface], why=tuple(why), points=total,
                          last=index == t.n_tricks - 1, events=records,
                          rescues=tuple(c for c in self.castles if c.kind == "rescue" and c.trick == index + 1))
        self.tricks.append(rec)
        self.log.append(rec)
        self.trick = []
        self.pending = None
        self.leader = wseat
        return rec

    # --- castling -------------------------------------------------------------------
    def castle_options(self) -> list[CastleOption]:
        """Every castle allowed at this moment: seat, King, officers it may be exchanged for."""
        return castle_options(self)

    def verify_castle(self, seat: int, officer: str, king: str | None = None) -> CastleOption:
        """The castle described, if allowed now; :class:`IllegalAction` naming the clause if not."""
        return verify_castle(self, seat, officer, king)

    def can_castle(self, seat: int, officer: str, king: str | None = None) -> bool:
        """Whether this castle is allowed now."""
        try:
            self.verify_castle(seat, officer, king)
        except IllegalAction:
            return False
        return True

    def castle(self, seat: int, officer: str, king: str | None = None) -> CastleRecord:
        """Exchange the King of ``seat`` for an officer of the hand its castle reaches (a rescue if the trick is open)."""
        return apply_castle(self, self.verify_castle(seat, officer, king), officer)

    def play_randomly(self, rng: random.Random) -> None:
        """Finish the game with every seat choosing uniformly among its legal cards.

        Draws one ``rng.random()`` per card, as the fast play-outs do, so both
        paths play the same game from the same stream. Where castling is
        allowed, each chance is taken with probability one half, at most one
        castle at each moment: before play, as a rescue of a full trick, and
        between tricks (also after a trick that waited for a rescue).
        """
        castling = self.t.castling is not None
        while True:
            if castling:
                random_castle(self, rng)  # at most one castle at each moment of the game
            if self.pending is not None:
                self.gather()
                continue  # the trick is in: the moment between tricks comes before the next card
            if self.over:
                return
            rule = policy_of(self.t, self.t.controller(self.to_move))
            self.play(self.automaton_choice(rule) if rule else pick(self.legal().mask, rng.random()))

    def automaton_choice(self, policy: str) -> str:
        """The card an automaton seat playing by ``policy`` plays now (the ``automaton`` clause)."""
        seat = self.to_move
        return self.t.deck.card_name(automaton_card(self.t, self.hands[seat], self.trick, len(self.tricks), policy))

    # --- penalties -------------------------------------------------------------------
    def verify_penalty(self, seat: int, name: str) -> None:
        """Check that a penalty exists in the ruleset and names a seat of the table."""
        if name not in self.t.penalties:
            raise IllegalAction(f"ruleset {self.t.name} has no penalty {name!r}; its penalties are "
                                f"{', '.join(self.t.penalties) or 'none'}", trick=self.trick_number, seat=seat)
        if not isinstance(seat, int) or not 0 <= seat < self.t.n_seats:
            raise IllegalAction(f"penalty {name}: seat {seat!r} does not exist", trick=self.trick_number)

    def penalty(self, seat: int, name: str) -> PenaltyRecord:
        """Apply a penalty clause to a seat: points paid to others, or the party's score forfeited."""
        self.verify_penalty(seat, name)
        p = self.t.penalties[name]
        to: tuple[int, ...] = ()
        if p.pays:
            payer, to = penalty_payees(self.t, seat, p.to)
            for s in to:
                self.penalty_points[s] += p.pays
                self.penalty_points[payer] -= p.pays
                self.debts.append((payer, s, p.pays))
        if p.forfeit:
            self.forfeited.add(self.t.party_of[seat])
        rec = PenaltyRecord(trick=self.trick_number, seat=seat, name=name, points=p.pays or 0, to=to,
                            forfeit=p.forfeit, cite=", ".join(p.basis.cites))
        self.log.append(rec)
        return rec

    @property
    def penalty_money(self) -> tuple[Fraction, ...]:
        """The money per seat of the penalties so far (:func:`~schachett_rules.kernel.scoring.penalty_settlement`)."""
        return penalty_settlement(self.t, self.debts)

    # --- the score -----------------------------------------------------------------------
    def result(self) -> GameResult:
        """The score of the finished game: points by party, money by seat."""
        if self.pending is not None and self.over:
            self.gather()
        if not self.over:
            raise IllegalAction(f"the game is not over: trick {self.trick_number} of {self.t.n_tricks} is being played")
        t = self.t
        n_parties = len(t.parties)
        card_points = [0] * n_parties
        for seat, pts in enumerate(self.won):
            card_points[t.party_of[seat]] += pts
        event_points = [0] * n_parties
        events = [e for tr in self.tricks for e in tr.events]
        for e in events:
            for p in e.scoring_parties:
                event_points[p] += e.points
        totals = tuple(0 if p in self.forfeited else card_points[p] + event_points[p] for p in range(n_parties))
        winner, money_by_seat = settle(t, totals)
        penalty_money = self.penalty_money
        net = tuple(m + pm for m, pm in zip(money_by_seat, penalty_money))
        return GameResult(card_points=tuple(card_points), event_points=tuple(event_points), totals=totals,
                          forfeited=tuple(sorted(self.forfeited)), winner=winner, unit=t.settlement.unit,
                          settlement=tuple(money(m) for m in money_by_seat),
                          penalties=tuple(money(m) for m in penalty_money),
                          net=tuple(money(m) for m in net), events=tuple(events))


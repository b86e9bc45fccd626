"""Compiling a resolved ruleset into plain tables.

The engine plays from a :class:`Tables` alone: card and face numbers, follow
masks per led face, the capture relation as a bitmask per face (one for
ordinary tricks, one for the last trick after promotion), card points, King
event points by trick, parties and the deal. No rule of Schachett is written
in engine code; it is all here, computed from the clauses.

>>> t = compile_ruleset(load("original"))
>>> t.n_cards, t.n_seats, t.n_tricks
(52, 4, 13)
>>> from schachett_rules.kernel.trick import holds_against
>>> holds_against(t, 0, t.face("sL"), t.face("wS")), holds_against(t, 0, t.face("wL"), t.face("sL"))
(True, False)
"""

from __future__ import annotations

import dataclasses
import functools

from ..language import ir
from ..language.cards import Deck, SelectorError, describe_selector
from . import castling as castle_rules
from .castling import castle_permits
from .automaton import strength_places
from .core import RELATIONS
from . import compile_flow as compile_flow_parts
from .tables import CastleTable, DummyTable, EventTable, Tables
from ..rules.check import GAME_NAMES, RuleCheckErrors, check, raise_for
from ..errors import RuleCheckError, SchachettError, UnknownCard
from ..language.expr import ExprError, evaluate, render
from ..language.printer import reach
from ..rules.loader import Effective, Resolved, load


def _label(eff: Effective) -> str:
    return f"{eff.key} [{', '.join(eff.clause.basis.cites)}]"


def _fail(eff: Effective, message: str) -> RuleCheckError:
    at = eff.clause.at
    return RuleCheckError(message, eff.origin.file, at.line if at else 0, at.column if at else 0, _label(eff))


# Points are counted in 64-bit integers by the batch play-outs and summed, squared, over thousands of
# games by the statistics; these bounds keep every such sum exact (far beyond any card game's scores).
POINTS_LIMIT = 100_000          # the points of one card or one King's fate
MONEY_LIMIT = 10**9             # what one game's settlement pays one player


def _whole(expr: ir.Expr, env: dict, what: str, eff: Effective) -> int:
    try:
        value = evaluate(expr, env)
    except ExprError as err:  # e.g. a division by zero: name the clause, not just the arithmetic
        raise _fail(eff, f"{what}: {err.message}") from None
    if value.denominator != 1:
        raise _fail(eff, f"{what} comes to {value}, not a whole number; wrap it in round_half_up( ) or floor( )")
    if abs(value) > POINTS_LIMIT:
        raise _fail(eff, f"{what} comes to {value}; points must lie between -{POINTS_LIMIT:,} and {POINTS_LIMIT:,}")
    return int(value)


def _a(noun: str) -> str:
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"


class _Compiler:
    def __init__(self, resolved: Resolved, trump: int | None = None, known_deck: tuple | None = None):
        self.r = resolved
        self.trump = trump                 # the trump colour of the contract compiled, where it names one
        self.known_deck = known_deck       # (deck clause, its Deck) already built from that very clause
        self.errors: list[RuleCheckError] = []
        self.classes: dict[str, int] = {}

    def eff(self, key: str) -> Effective:
        e = self.r.effective(key)
        assert e is not None, key
        return e

    def guard(self, eff: Effective, fn, *args):
        try:
            return fn(*args)
        except (SelectorError, UnknownCard) as err:
            self.errors.append(_fail(eff, err.message))
        except RuleCheckError as err:
            self.errors.append(err)
        return None

    def prepare(self, classes: bool = True) -> None:
        """The deck, the table and the classes of cards: what every other piece is compiled against (the classes
        only where asked: a ruleset of contracts may speak of trumps its own clauses cannot name)."""
        deck_eff = self.eff("deck")
        if self.known_deck is not None and self.known_deck[0] is deck_eff.clause:
            deck = self.known_deck[1]
        else:
            try:
                deck = Deck.from_clause(deck_eff.clause)
            except SelectorError as err:
                raise _fail(deck_eff, err.message) from None
        self.deck = deck
        seats = self.eff("seats").clause.count
        if seats < 1:
            raise _fail(self.eff("seats"), "a game needs at least one seat")
        if seats > len(deck.card_face):
            # Checked before the parties are laid out seat by seat.
            raise _fail(self.eff("seats"), f"{seats} seats cannot each be dealt a card from a deck of "
                                           f"{len(deck.card_face)} cards")
        self.n_seats = seats
        if classes:
            self.classes, self.face_group = self.guard(deck_eff, self.card_classes) or ({}, tuple(deck.face_kind))
        else:
            self.classes, self.face_group = {}, tuple(deck.face_kind)

    def run(self) -> Tables:
        self.prepare()
        deck, seats, deck_eff = self.deck, self.n_seats, self.eff("deck")
        rank = self.guard(self.eff("ranking"), self.ranking)
        parties = self.guard(self.r.effective("parties") or self.eff("partner"), self.parties)
        self.party_of = (tuple(next(i for i, p in enumerate(parties) if s in p) for s in range(seats))
                         if parties else None)
        deal = self.guard(self.eff("deal"), self.deal)
        self.n_tricks_hint = deal[1] if deal else 0
        first_lead = self.guard(self.eff("lead first"), self.lead)
        promoted_as = self.guard(self.r.effective("promotion") or deck_eff, self.promotion)
        capture = self.guard(self.eff("capture"), self.capture, rank, promoted_as) if rank and promoted_as else None
        follow = self.follow()
        points = self.guard(self.eff("points"), self.points, promoted_as) if promoted_as else None
        events = self.events(deal)
        settlement = self.r.clause("settlement")
        family_values = compile_flow_parts.values(self)
        if settlement is not None:
            self.probe_settlement(dict(family_values))
        family = compile_flow_parts.restrictions(self)
        lead_card = compile_flow_parts.first_lead_card(self)
        runner_cards = compile_flow_parts.runners(self, rank)
        rule, _holders = compile_flow_parts.parties_rule(self)
        stake = self.stake()
        penalty_rounding = self.penalty_rounding()
        castling = self.castling()
        castling_clause = self.r.clause("castling")
        dummy = self.dummy()
        dealer = self.dealer()
        self.session_players()
        if stake == "player" and self.party_of is not None:
            strays = [d for d in dummy if self.party_of[d.seat] != self.party_of[d.by]]
            if strays:
                self.errors.append(_fail(self.r.effective("stake"), f"stake per player settles a dummy's seat with "
                                         f"the player who plays it, but seat {strays[0].by} plays seat "
                                         f"{strays[0].seat}, a seat of the other party"))
        if parties and len(parties) != 2 and settlement is not None:
            self.errors.append(_fail(self.eff("settlement"), "settlement per player needs exactly two parties"))
        raise_for(self.errors)
        gives, hand_size = deal
        beats, beats_last, capture_words, tie_words = capture
        seat_names, party_names = self.names(parties)
        never = self.automaton_castling(castling, dummy)
        raise_for(self.errors)
        order = self.r.clause("king order")
        given, taken = [], 0
        for face, base, offset in gives:
            free = deck.face_cards[face] & ~taken
            card = (free & -free).bit_length() - 1
            taken |= 1 << card
            given.append((card, base, offset))
        # Everything the queries would otherwise work out on first use is worked out here, once: the tables are
        # shared by threads and never change after this.
        event_of = tuple(next((i for i, e in enumerate(events) if e.when == rel), -1) for rel in RELATIONS)
        officers = (sum(deck.face_cards[f] for f in range(len(deck.face_names)) if castling.officer_faces >> f & 1)
                    if castling else 0)
        return Tables(
            event_of=event_of, strength_order=strength_places(rank, points[0], deck.card_face), castle_officers=officers,
            castle_permits=castle_permits(castling, seats), never_castle=never, seat_names=seat_names,
            party_names=party_names,
            given_cards=tuple(given), rest_cards=tuple(c for c in range(len(deck.card_face)) if not taken >> c & 1),
            name=self.r.name, deck=deck, n_cards=len(deck.card_face), n_faces=len(deck.face_names),
            n_seats=seats, hand_size=hand_size, n_tricks=hand_size, full_mask=(1 << len(deck.card_face)) - 1,
            royal_cards=deck.cards(sum(1 << f for f, r in enumerate(deck.face_royal) if r)),
            follow=follow[0], follow_words=follow[1], follow_cite=follow[2], beats=beats, beats_last=beats_last,
            rank=rank, promoted_as=promoted_as, points=points[0], points_last=points[1],
            party_of=self.party_of,
            parties=parties, gives=gives, first_lead=first_lead, events=events,
            count_each_event=bool(order and order.count == "each"),
            same_trick_all_first=bool(order and order.same_trick == "all-first"),
            settlement=settlement, stake=stake, penalty_rounding=penalty_rounding, penalties={p.name: p for p in self.r.of_kind(ir.Penalty)},
            capture_words=capture_words, tie_words=tie_words, options=self.r.options,
            capture_victims=self.capture_extra[0], capture_dir=self.capture_extra[1], face_group=self.face_group,
            capture_rule_words=self.capture_extra[2],
            castling=castling, dummies=dummy, first_dealer=dealer[0], deal_step=dealer[1], dealer_cite=dealer[2],
            automaton=((self.r.clause("automaton").seats, self.r.clause("automaton").policy)
                       if self.r.clause("automaton") else None),
            automaton_passes=self.r.clause("automaton").passes if self.r.clause("automaton") else None,
            automaton_bids=self.r.clause("automaton").bids if self.r.clause("automaton") else None,
            automaton_lays=self.r.clause("automaton").lays_away if self.r.clause("automaton") else None,
            automaton_calls=self.r.clause("automaton").calls if self.r.clause("automaton") else None,
            no_castling_cite=(", ".join(castling_clause.basis.cites)
                              if castling_clause is not None and castling_clause.mode == "none" else ""),
            review=self.r.clause("review").tricks if self.r.clause("review") else 0,
            memory=self.r.clause("memory").keeps if self.r.clause("memory") else "every",
            rank_cite=", ".join(self.eff("ranking").clause.basis.cites),
            lead_cites=tuple(", ".join(self.eff(k).clause.basis.cites) for k in ("lead first", "lead next")),
            first_lead_card=lead_card, values=family_values, runners=runner_cards,
            game_points=self.r.clause("game points"), trump=-1 if self.trump is None else self.trump,
            party_names_fixed=self.r.clause("party names") is not None and rule != "fixed", **family)

    def castling(self) -> CastleTable | None:
        eff = self.r.effective("castling")
        if eff is None or eff.clause.mode == "none":
            return None
        off, lim = self.r.effective("castle officer"), self.r.effective("castle limit")
        wth = self.r.effective("castle with")
        wanted = {"castle with": "whose hand a castle reaches", "castle officer": "which officers may be taken for "
                  "the King", "castle limit": "how often"}
        missing = [f"`{k}` ({why})" for k, why in wanted.items() if self.r.effective(k) is None]
        if missing:
            self.errors.append(_fail(eff, "castling is allowed, so the ruleset must also say " + ", ".join(missing)))
            return None
        with_seat = self.guard(wth, self.castle_with)
        rescue = self.castle_rescue(eff)
        if with_seat is None or rescue is None:
            return None
        permits = []
        for p in eff.clause.permits:
            seats = tuple(self.seat(eff, ref) for ref in p.who)
            if p.when != "before" and p.trick is not None and not 1 <= p.trick <= self.n_tricks_hint:
                self.errors.append(_fail(eff, f"trick {p.trick} does not exist (a game has {self.n_tricks_hint} tricks)"))
            permits.append((seats, p.king_holder, p.when, p.trick))
        try:
            faces = self.deck.select(off.clause.officer, None, "castle", self.trump, self.classes)
        except SelectorError as err:
            self.errors.append(_fail(off, err.message))
            return None
        king = self.r.clause("castle king")
        moment = self.r.clause("castle moment")
        if moment is None and permits:
            self.errors.append(_fail(eff, "castling is allowed, so the ruleset must also say how many castles one "
                                          "moment allows, for example `castle moment [§5 (3p) conjecture]: one "
                                          "castle` (the first castle ends the moment) or `castle moment: one per "
                                          "seat`"))
            return None
        return CastleTable(permits=tuple(permits), officer_faces=faces, limit=lim.clause.limit,
                           cite=", ".join(eff.clause.basis.cites), with_seat=with_seat,
                           rescue_fates=rescue,
                           other_king_before_play=king is not None and king.takes == "other-before-play",
                           per_moment=moment.castles if moment is not None else "one")

    def names(self, parties) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The seats' and the parties' names (the seat names and party names clauses), checked against the table."""
        n = self.n_seats
        seats = tuple(f"seat {s}" for s in range(n))
        eff = self.r.effective("seat names")
        if eff is not None:
            if len(eff.clause.names) != n:
                self.errors.append(_fail(eff, f"{len(eff.clause.names)} seat names for a table of {n} seats: name "
                                              f"every seat once, seat 0 first"))
            elif len(set(eff.clause.names)) != n:
                self.errors.append(_fail(eff, "two seats have the same name"))
            else:
                seats = eff.clause.names
        parties = parties or ()
        named = tuple(" and ".join(seats[s] for s in p) if len(p) < 3 else
                      ", ".join(seats[s] for s in p[:-1]) + " and " + seats[p[-1]] for p in parties)
        eff = self.r.effective("party names")
        if eff is not None:
            if len(eff.clause.names) != len(parties):
                self.errors.append(_fail(eff, f"{len(eff.clause.names)} party names for {len(parties)} parties: "
                                              f"name every party once, in the order of the parties clause"))
            else:
                named = eff.clause.names
        return seats, named

    def automaton_castling(self, castling: CastleTable | None, dummies) -> int:
        """The seats whose player never castles; an error where castling could reach an automaton that says nothing."""
        eff = self.r.effective("automaton")
        if eff is None:
            return 0
        c = eff.clause
        if c.passes is not None and self.r.effective("passing") is None:
            self.errors.append(_fail(eff, f"the rule says which cards the automaton passes ({c.passes}), but this "
                                          f"ruleset passes no cards before play; leave that phrase out"))
        if c.bids is not None and self.r.effective("auction") is None:
            self.errors.append(_fail(eff, "the rule says how the automaton bids, but this ruleset has no auction; "
                                          "leave that phrase out"))
        seats = {s for s in range(self.n_seats) if s in c.seats or any(d.seat == s and d.by in c.seats
                                                                      for d in dummies)}
        if c.castles == "never":
            return sum(1 << s for s in seats)
        if castling is None or not castling.permits:
            return 0
        permits = castle_permits(castling, self.n_seats)
        reached = sorted(s for s in seats for d in range(self.n_seats) for moment in (0, 1, 2)
                         for done in range(self.n_tricks_hint)
                         if castle_rules.permitted(*permits, self.n_seats, d, s, moment, done))
        if reached:
            self.errors.append(_fail(eff, f"seat {reached[0]} is played by this rule, which says which card it plays "
                                          f"but not whether it castles, and the castling clause lets it castle; end "
                                          f"the clause with `, and never castle`"))
        return 0

    def castle_with(self) -> tuple[int, ...]:
        """Seat by seat, the seat whose hand its castle reaches, held to the clause's partner claim."""
        eff = self.eff("castle with")
        c, n = eff.clause, self.n_seats
        if c.opposite:
            if n % 2:
                raise _fail(eff, f"a table of {n} has no seat opposite; name the hand by its place instead, for "
                                 f"example `castle with: partner 2 places left`")
            step = n // 2
        else:
            step = c.places % n
        if step == 0:
            raise _fail(eff, f"`castle with: {reach(c)}` leads at a table of {n} back to the castling seat itself; "
                             f"a castle exchanges with another hand")
        with_seat = tuple((s + step) % n for s in range(n))
        if c.partner and self.party_of is not None:
            for s, w in enumerate(with_seat):
                if self.party_of[s] != self.party_of[w]:
                    parties = " | ".join(" ".join(map(str, p)) for p in self.r.clause("parties").parties) \
                        if not self.r.clause("parties").opposite else "opposite"
                    raise _fail(eff, f"`castle with: partner {reach(c)}` claims a partner's hand, but from seat {s} "
                                     f"it reaches seat {w}, an opponent (parties: {parties}); name a place where a "
                                     f"partner sits, or drop the word partner")
        return with_seat

    def castle_rescue(self, castling: Effective) -> tuple[str, ...] | None:
        """The fates (as in the King events' `when`) that a rescue may undo; () when nothing is rescued."""
        res = self.r.effective("castle rescue")
        rescues = any(p.when == "rescue" for p in castling.clause.permits)
        if res is None:
            if rescues:
                self.errors.append(_fail(castling, "castling has a rescue permit, so the ruleset must say which fates "
                                                   "of a King a rescue may undo, for example `castle rescue [§5 (3p) "
                                                   "printed]: checkmate, selfmate`"))
                return None
            return ()
        events = {e.name: e.when for e in self.r.of_kind(ir.KingEvent)}
        unknown = [name for name in res.clause.events if name not in events]
        if unknown:
            self.errors.append(_fail(res, f"castle rescue names {unknown[0]!r}, which is not a King event of this "
                                          f"ruleset (its King events: {', '.join(events) or 'none'})"))
            return None
        return tuple(sorted({events[name] for name in res.clause.events}))

    def stake(self) -> str:
        """Who settles a game's amount: every seat, or every player once (the stake clause, which must be there)."""
        c = self.r.clause("stake")
        if c is None and self.r.clause("settlement") is None:
            return "seat"                  # a game played for game points settles no money
        if c is None:
            self.errors.append(_fail(self.eff("settlement"), "the ruleset must say who settles the amount: `stake "
                                                             "[§12 inferred]: per seat` (every seat receives or pays "
                                                             "it) or `stake: per player`"))
            return "seat"
        return c.per

    def penalty_rounding(self) -> str:
        """How penalty points become money (settle penalties), which a ruleset with paid penalties must say."""
        c = self.r.clause("settle penalties")
        if c is not None:
            return c.rounding
        paid = [e for e in self.r.clauses if isinstance(e.clause, ir.Penalty) and e.clause.pays]
        if paid:
            self.errors.append(_fail(paid[0], "this penalty pays points, so the ruleset must say how penalty points "
                                              "become money: `settle penalties: each penalty rounded` or `settle "
                                              "penalties: summed per game`"))
        return "each"

    def dealer(self) -> tuple[int, int, str]:
        """Who deals a session's first game, the step of the deal (+1 left, -1 right), and the clause's citation."""
        eff = self.r.effective("dealer")
        if eff is None:
            self.errors.append(_fail(self.eff("deal"), "the ruleset must say who deals: for example `dealer [§4 "
                                                       "conjecture]: seat 0 deals first, passes left`"))
            return 0, 1, ""
        c = eff.clause
        if c.first is None:
            self.errors.append(_fail(eff, "the dealer clause must say who deals the first game: `seat N deals "
                                          "first, passes left`"))
        first = c.first if c.first is not None else 0
        if not 0 <= first < self.n_seats:
            self.errors.append(_fail(eff, f"seat {first} does not exist (seats 0 to {self.n_seats - 1})"))
        return first, 1 if c.passes == "left" else -1, ", ".join(c.basis.cites)

    def session_players(self) -> None:
        """A session that names its players names one per seat (per seat of the reign under a Kaiser schedule):
        a ruleset that changes the seats and inherits another's session would otherwise name the wrong table."""
        eff = self.r.effective("session")
        if eff is None or not eff.clause.players:
            return
        c = eff.clause
        want = len(c.reign.seats) if c.reign is not None else self.n_seats
        if len(c.players) != want:
            self.errors.append(_fail(eff, f"the session names {len(c.players)} players ({', '.join(c.players)}) but "
                                          f"the game is played by {want}; give this ruleset its own session "
                                          f"(`override session`) or name {want} players"))

    def dummy(self) -> tuple[DummyTable, ...]:
        out = []
        for eff in self.r.clauses:
            if not isinstance(eff.clause, ir.Dummy):
                continue
            c = eff.clause
            bad = [s for s in (c.seat, c.by) if not 0 <= s < self.n_seats]
            if bad:
                self.errors.append(_fail(eff, f"seat {bad[0]} does not exist (seats 0 to {self.n_seats - 1})"))
                continue
            if c.seat == c.by:
                self.errors.append(_fail(eff, "a dummy's cards must be played by another seat"))
                continue
            if not 0 <= c.exposed_after < self.n_tricks_hint:
                self.errors.append(_fail(eff, f"exposed after trick {c.exposed_after}: a game has tricks 1 to "
                                              f"{self.n_tricks_hint}, so a dummy is laid open after one of tricks "
                                              f"1 to {self.n_tricks_hint - 1} (or after trick 0: before the first "
                                              f"card); after the last there is nothing left to see"))
                continue
            out.append(DummyTable(seat=c.seat, by=c.by, exposed_after=c.exposed_after,
                                  one_hand_at_a_time=c.one_hand_at_a_time, cite=", ".join(c.basis.cites)))
        seats = [d.seat for d in out]
        if any(d.by in seats for d in out):
            self.errors.append(RuleCheckError("a dummy's cards must be played by a seat that is not itself a dummy",
                                              self.r.file, 1, 1, "dummy"))
        return tuple(out)

    def probe_settlement(self, values: dict) -> None:
        # The amount is only computed when a game is scored; try it now on the extremes a game can
        # produce (a party may score nothing) so that a formula that fails is reported with its clause.
        eff = self.eff("settlement")
        # the most a party can score: every card at the bound, every King's fate at the bound
        most = POINTS_LIMIT * (len(self.deck.card_face) + 2 * len(self.deck.card_face))
        for winner, loser in ((1, 0), (2, 1), (500, 0), (500, 499), (5000, 17), (most, 0), (most, -most)):
            try:
                facts = {**{name: 0 for name in GAME_NAMES}, **values}
                value = evaluate(eff.clause.amount, {**facts, "winner": winner, "loser": loser})
            except SchachettError as err:
                self.errors.append(_fail(eff, f"{err.message} (with winner = {winner}, loser = {loser}: a game can "
                                              f"end so)"))
                return
            if abs(value) > MONEY_LIMIT and abs(winner) <= 5000:
                self.errors.append(_fail(eff, f"the amount comes to {value} for a game won {winner} to {loser}; one "
                                              f"game may pay each player at most {MONEY_LIMIT:,}"))
                return

    # --- pieces -----------------------------------------------------------------
    def ranking(self) -> tuple[int, ...]:
        """Face -> rank key, higher is stronger: each face ranks as the first group that names it."""
        eff = self.eff("ranking")
        groups = eff.clause.groups
        d = self.deck
        rank: list[int | None] = [None] * len(d.face_names)
        seen: set[str] = set()
        for gi, group in enumerate(groups):
            for item in group:
                if isinstance(item, str):
                    if item not in d.symbols:
                        raise _fail(eff, f"the ranking names {item!r}, which is not a face of the deck "
                                    f"(faces: {', '.join(d.symbols)})")
                    if item in seen:
                        raise _fail(eff, f"the ranking names {item} twice")
                    seen.add(item)
                    faces = d.faces_of_symbol(item)
                else:
                    faces = d.select(item, None, "ranking", self.trump, self.classes)
                for f in range(len(rank)):
                    if faces >> f & 1 and rank[f] is None:
                        rank[f] = len(groups) - gi
        missing = [f for f in range(len(rank)) if rank[f] is None]
        if missing:
            symbols = sorted({d.face_symbol[f] for f in missing}, key=d.symbols.index)
            whole = all(all(rank[g] is None for g in range(len(rank)) if d.face_symbol[g] == sym) for sym in symbols)
            named = symbols if whole else [d.face_names[f] for f in missing]
            raise _fail(eff, f"the ranking leaves out {', '.join(named)}; every face must have a rank")
        return tuple(rank)

    def card_classes(self) -> tuple[dict[str, int], tuple[str, ...]]:
        """The classes of cards (face bitmasks, in the order declared) and each face's group: its first class, else
        its kind. A face's group names the follow and capture rules it is led, followed and taken by."""
        classes: dict[str, int] = {}
        for eff in self.r.clauses:
            if isinstance(eff.clause, ir.CardClass):
                c = eff.clause
                if c.name in self.deck.kinds:
                    raise _fail(eff, f"class {c.name}: {c.name!r} is a kind of the deck already; give the class "
                                     f"another name")
                try:
                    classes[c.name] = self.deck.select(c.cards, None, "class", self.trump, classes)
                except SelectorError as err:
                    raise _fail(eff, err.message) from None
        d = self.deck
        group = tuple(next((name for name, m in classes.items() if m >> f & 1), d.face_kind[f])
                      for f in range(len(d.face_names)))
        return classes, group

    def parties(self) -> tuple[tuple[int, ...], ...]:
        n = self.n_seats
        rule, _holders = compile_flow_parts.parties_rule(self)
        if rule == "each":
            return tuple((s,) for s in range(n))
        if rule != "fixed":
            # made in each game (the holders of some cards, the declarer and his partner); until then the
            # first seat stands for the one party and the rest for the other
            return ((0,), tuple(range(1, n))) if n > 1 else ((0,),)
        eff = self.eff("parties")
        c = eff.clause
        if c.opposite:
            if n % 2:
                raise _fail(eff, f"partners cannot sit opposite at a table of {n}")
            return tuple(tuple(range(i, n, n // 2)) for i in range(n // 2)) if n > 2 else ((0,), (1,))
        flat = [s for p in c.parties for s in p]
        if sorted(flat) != list(range(n)):
            raise _fail(eff, f"the parties must share out the seats 0 to {n - 1}, each exactly once; they name {flat}")
        return tuple(tuple(p) for p in c.parties)

    def seat(self, eff: Effective, ref: ir.SeatRef) -> tuple[str, int]:
        if ref.base == "seat" and not 0 <= ref.offset < self.n_seats:
            raise _fail(eff, f"seat {ref.offset} does not exist at a table of {self.n_seats} (seats 0 to {self.n_seats - 1})")
        return (ref.base, ref.offset % self.n_seats if ref.base == "dealer" else ref.offset)

    def deal(self):
        eff = self.eff("deal")
        c = eff.clause
        if c.hand_size * self.n_seats + c.stock != len(self.deck.card_face):
            stock = f" and a stock of {c.stock}" if c.stock else ""
            raise _fail(eff, f"{self.n_seats} hands of {c.hand_size}{stock} make {c.hand_size * self.n_seats + c.stock}"
                        f" cards, but the deck has {len(self.deck.card_face)}")
        if c.turn == "stock" and not c.stock:
            raise _fail(eff, "the top card of the stock is turned up, but the deal leaves no stock")
        if c.covered > c.hand_size // 2:
            raise _fail(eff, f"a tableau covers {c.covered} cards of a hand of {c.hand_size}: each covered card lies "
                             f"under a face-up one, so at most half the hand is covered")
        gives, per_seat, used = [], {}, {}
        for g in c.gives:
            face = self.deck.face(g.card)
            where = self.seat(eff, g.to)
            used[face] = used.get(face, 0) + 1
            if used[face] > bin(self.deck.face_cards[face]).count("1"):
                raise _fail(eff, f"{g.card} is given face up more often than the deck has copies")
            per_seat[where] = per_seat.get(where, 0) + 1
            if per_seat[where] > c.hand_size:
                raise _fail(eff, f"more cards are given face up to one seat than a hand holds")
            gives.append((face, where[0], where[1]))
        return tuple(gives), c.hand_size

    def lead(self):
        eff = self.eff("lead first")
        if eff.clause.holder:
            nxt = self.eff("lead next")
            if not nxt.clause.winner:
                self.errors.append(_fail(nxt, "only `lead next: winner` is supported for the later tricks"))
            return ("seat", 0)             # the holder of the card, found when the cards are dealt
        if eff.clause.winner:
            raise _fail(eff, "the first trick has no winner before it; name a seat, such as `dealer + 1`")
        nxt = self.eff("lead next")
        if not nxt.clause.winner:
            self.errors.append(_fail(nxt, "only `lead next: winner` is supported for the later tricks"))
        return self.seat(eff, eff.clause.by)

    def promotion(self) -> tuple[int, ...]:
        out = list(range(len(self.deck.face_names)))
        eff = self.r.effective("promotion")
        if eff is None:
            return tuple(out)
        for p in eff.clause.promotes:
            for sym in (p.face, p.as_face):
                if sym not in self.deck.symbols:
                    raise _fail(eff, f"promotion names {sym!r}, which is not a face of the deck")
            for f in range(len(out)):
                if self.deck.face_symbol[f] == p.face:
                    out[f] = self.deck.face(self.deck.colours[self.deck.face_colour[f]] + p.as_face)
        return tuple(out)

    def capture(self, rank, promoted_as):
        eff = self.eff("capture")
        d = self.deck
        groups = set(d.kinds) | set(self.classes)
        rules: dict[str, list] = {}           # group -> [(direction, victims by colour, words, cite)]
        cite = ", ".join(eff.clause.basis.cites)
        for rule in eff.clause.rules:
            if rule.taker not in groups:
                named = ", ".join(d.kinds) + (f"; classes: {', '.join(self.classes)}" if self.classes else "")
                raise _fail(eff, f"{rule.taker!r} is not a kind or class of this deck (kinds: {named})")
            if any(r[0] == rule.direction for r in rules.get(rule.taker, [])):
                raise _fail(eff, f"the capture rule for {rule.taker} taking {rule.direction} cards is given twice")
            victims = [d.select(rule.victims, ref, "capture", self.trump, self.classes) for ref in range(len(d.colours))]
            taker = describe_selector(ir.Selector(terms=(ir.Term(base=ir.Atom(what="kind", name=rule.taker)),)), d)
            if rule.taker in self.classes:
                taker = _a(rule.taker)
            victims_words = describe_selector(rule.victims, d).removeprefix("a ").removeprefix("an ")
            # an explanation cites the rule's own sections where the rule is graded on its own
            rule_cite = ", ".join(rule.basis.cites) if rule.basis is not None and rule.basis.cites else cite
            how = "whatever its rank" if rule.direction == "any" else rule.direction
            if victims_words.startswith("any card"):
                words = f"{taker} takes any {rule.direction} card" if rule.direction != "any" else f"{taker} takes any card"
            elif rule.direction == "any":
                words = f"{taker} takes {_a(victims_words)}, {how}"
            else:
                words = f"{taker} takes only a {rule.direction} {victims_words}"
            rules.setdefault(rule.taker, []).append((rule.direction, victims, words, rule_cite))
        ties: dict[str, tuple[str, str]] = {}
        t_eff = self.r.effective("ties")
        if t_eff is not None:
            tcite = ", ".join(t_eff.clause.basis.cites)
            for tr in t_eff.clause.rules:
                if tr.kind != "any" and tr.kind not in groups:
                    raise _fail(t_eff, f"{tr.kind!r} is not a kind of this deck (kinds: {', '.join(d.kinds)})")
                for k in (sorted(groups) if tr.kind == "any" else [tr.kind]):
                    ties[k] = (tr.rule, tcite)
        group = self.face_group
        n = len(d.face_names)
        # A face takes a holder where one of its group's rules names the holder as a victim and the rule's
        # direction allows the holder's rank (or the ranks tie and the tie goes to the later card).
        of_rank: dict[int, int] = {}     # rank -> the faces of that rank
        for g in range(n):
            of_rank[rank[g]] = of_rank.get(rank[g], 0) | 1 << g
        below: dict[int, int] = {}       # rank -> the faces ranked below it
        every = 0
        for r in sorted(of_rank):
            below[r] = every
            every |= of_rank[r]
        beats = []
        for f in range(n):
            later = ties.get(group[f], ("first",))[0] == "later"
            lower, equal = below[rank[f]], of_rank[rank[f]]
            taken = 0
            for direction, victims, _words, _cite in rules.get(group[f], ()):
                if direction == "any":
                    allowed = every
                else:
                    allowed = lower if direction == "lower" else every & ~lower & ~equal
                    if later:
                        allowed |= equal
                taken |= victims[d.face_colour[f]] & allowed
            beats.append(taken)
        beats = tuple(beats)
        # In the last trick every face counts as the face it is promoted to.
        promoted_from = [0] * n          # face -> the faces promoted to it
        for g in range(n):
            promoted_from[promoted_as[g]] |= 1 << g
        beats_last = []
        for f in range(n):
            taken, mask = 0, beats[promoted_as[f]]
            while mask:
                h = (mask & -mask).bit_length() - 1
                taken |= promoted_from[h]
                mask &= mask - 1
            beats_last.append(taken)
        beats_last = tuple(beats_last)
        words = {k: ("; ".join(r[2] for r in rs), rs[0][3]) for k, rs in rules.items()}
        self.capture_extra = ({k: tuple(tuple(v) for _dr, v, _w, _c in rs) for k, rs in rules.items()},
                              {k: tuple(r[0] for r in rs) for k, rs in rules.items()},
                              {k: tuple((r[2], r[3]) for r in rs) for k, rs in rules.items()})
        return beats, beats_last, words, ties

    def follow(self):
        d = self.deck
        by_kind = {e.clause.led: e for e in self.r.clauses if isinstance(e.clause, ir.Follow)}
        masks, wordings, cites = [], [], []
        for kind in by_kind:
            if kind not in d.kinds and kind not in self.classes:
                named = ", ".join(d.kinds) + (f"; classes: {', '.join(self.classes)}" if self.classes else "")
                self.errors.append(_fail(by_kind[kind], f"follow {kind}: {kind!r} is not a kind or class of this "
                                                         f"deck (kinds: {named})"))
        for group in dict.fromkeys(self.face_group):
            if group not in by_kind:
                what = f"a card of the {group}" if group in self.classes else f"a {group}"
                self.errors.append(RuleCheckError(f"no `follow {group}` clause says what may be played when {what} "
                                                  f"is led", self.r.file, 1, 1, f"follow {group}"))
        full = (1 << len(d.card_face)) - 1
        # What may be played depends on the led face's group and colour only, so it is worked out once for each.
        led: dict[tuple[str, int], tuple] = {}
        for f in range(len(d.face_names)):
            eff = by_kind.get(self.face_group[f])
            if eff is None:
                masks.append((full,))
                wordings.append(("any card",))
                cites.append("")
                continue
            colour = d.face_colour[f]
            if (self.face_group[f], colour) not in led:
                try:
                    tiers = tuple(d.cards(d.select(sel, colour, "follow", self.trump, self.classes))
                                  for sel in eff.clause.tiers)
                except SelectorError as err:
                    if not any(e.message.endswith(err.message) for e in self.errors):
                        self.errors.append(_fail(eff, err.message))
                    tiers = None
                words = (None if tiers is None else
                         tuple(describe_selector(s, d, colour) for s in eff.clause.tiers))
                led[self.face_group[f], colour] = tiers, words
            tiers, words = led[self.face_group[f], colour]
            if tiers is None:
                masks.append((full,))
                wordings.append(("any card",))
                cites.append("")
                continue
            union = 0
            for m in tiers:
                union |= m
            if union != full:
                lost = {d.card_name(c) for c in range(len(d.card_face)) if not union >> c & 1}
                err = _fail(eff, f"when {d.face_names[f]} is led, a hand holding only {', '.join(sorted(lost))} "
                                 f"would have no legal card; end the tiers with `any`")
                if not any(e.message == err.message for e in self.errors):
                    self.errors.append(err)
            masks.append(tiers)
            wordings.append(words)
            cites.append(", ".join(eff.clause.basis.cites))
        return tuple(masks), tuple(wordings), tuple(cites)

    def points(self, promoted_as):
        eff = self.eff("points")
        d = self.deck
        n = len(d.face_names)
        pts: list[int | None] = [None] * n
        for entry in eff.clause.entries:
            faces = d.select(entry.cards, None, "points", self.trump, self.classes)
            shown = render(entry.points)
            by_value: dict = {}          # an entry's points depend on the face's value alone
            for f in range(n):
                if faces >> f & 1:
                    if pts[f] is not None:
                        raise _fail(eff, f"{d.face_names[f]} gets points from two entries")
                    value = d.face_value[f]
                    if value not in by_value:
                        by_value[value] = _whole(entry.points, {"value": value},
                                                 f"the points of {d.face_names[f]} ({shown})", eff)
                    pts[f] = by_value[value]
        missing = [d.face_names[f] for f in range(n) if pts[f] is None]
        if missing:
            raise _fail(eff, f"no points are given for {', '.join(missing)}; every card needs an entry (0 is fine)")
        last = list(pts)
        p_eff = self.r.effective("points promoted")
        if p_eff is not None:
            for entry in p_eff.clause.entries:
                faces = d.select(entry.cards, None, "points", self.trump, self.classes)
                for f in range(n):
                    if faces >> f & 1:
                        if promoted_as[f] == f:
                            raise _fail(p_eff, f"{d.face_names[f]} is not promoted in the last trick, so it has no "
                                               f"promoted points")
                        last[f] = _whole(entry.points, {"value": d.face_value[f]},
                                         f"the promoted points of {d.face_names[f]}", p_eff)
        return tuple(pts), tuple(last)

    def events(self, deal) -> tuple[EventTable, ...]:
        out = []
        rem = self.r.clause("remaining")
        if deal is None:
            return ()
        hand = deal[1]
        if self.r.of_kind(ir.KingEvent) and not any(self.deck.face_royal):
            self.errors.append(RuleCheckError("King events are scored, but no face of the deck is marked royal",
                                              self.r.file, 1, 1, "deck"))
        for e in self.r.clauses:
            if not isinstance(e.clause, ir.KingEvent):
                continue
            c = e.clause
            first, later = [], []
            try:
                for t in range(hand):
                    remaining = hand - t if rem is None or rem.scope == "each" else (hand - t) * self.n_seats
                    env = {"remaining": remaining, "trick": t + 1}
                    first.append(_whole(c.first, env, f"{c.name} (first King)", e))
                    later.append(_whole(c.later, env, f"{c.name} (later King)", e))
            except RuleCheckError as err:
                self.errors.append(err)
                continue
            out.append(EventTable(name=c.name, when=c.when, scores=c.scores, first=tuple(first),
                                  later=tuple(later), cite=", ".join(c.basis.cites)))
        return tuple(out)


def compile_ruleset(resolved: Resolved) -> Tables:
    """Check a resolved ruleset and compile it; raises the project's errors if it is unsound.

    A ruleset of contracts compiles each contract's play (once per trump colour where it is played for each
    colour) into its flow; its own tables are those of its first contract, with the flow.
    """
    raise_for(check(resolved))
    if not resolved.contracts:
        comp = _Compiler(resolved)
        t = comp.run()
        flow = compile_flow_parts.compile_flow(resolved, comp, None)
        raise_for(comp.errors)
        return dataclasses.replace(t, flow=flow) if flow is not None else t
    base = _Compiler(resolved)
    base.prepare(classes=False)

    def contract(name: str, colour: int | None) -> Tables | None:
        try:
            # a contract that keeps the ruleset's deck plays the deck already built
            t = _Compiler(resolved.for_contract(name), trump=colour,
                          known_deck=(base.eff("deck").clause, base.deck)).run()
        except RuleCheckErrors as err:
            base.errors.extend(e for e in err.errors if e.message not in {x.message for x in base.errors})
            return None
        except RuleCheckError as err:
            if err.message not in {x.message for x in base.errors}:
                base.errors.append(err)
            return None
        return dataclasses.replace(t, name=resolved.name, contract=name)

    flow = compile_flow_parts.compile_flow(resolved, base, contract)
    raise_for(base.errors)
    return dataclasses.replace(flow.contracts[0].variants[0], flow=flow, contract="")


@functools.lru_cache(maxsize=32)
def tables_for(ref: str, options: tuple[tuple[str, str], ...] = ()) -> Tables:
    """Load, check and compile a ruleset by name or path (cached)."""
    return compile_ruleset(load(ref, dict(options)))


__all__ = ["Tables", "EventTable", "compile_ruleset", "tables_for", "RuleCheckErrors"]

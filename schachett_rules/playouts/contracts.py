"""The flow before play as arrays: the auction's rounds and offers, each contract's call, exchange and parties,
and the play tables of every contract and trump colour, for the compiled phases before play (:mod:`.before`).

The kernel's :class:`~schachett_rules.kernel.flow.Flow` is the one source; this module only lays it out as
numbers. The play tables of a game are chosen by a *variant* number: 0 is the ruleset's own tables, and
contract ``k`` played for colour ``c`` is ``first[k] + c`` (``first[k]`` alone for a contract of one).
"""

from __future__ import annotations

import numpy as np

from ..kernel import core
from ..kernel.flow import PARTNER_RULES
from ..kernel.tables import Tables

# the columns of a contract's row
(K_FIRST, K_EACH, K_PARTNER, K_SIT_OUT, K_EX_WHO, K_EX_TAKES, K_EX_DISCARDS, K_NOT_HELD, K_COLOUR_HELD,
 K_HELD,
 # the bidder holds exactly this many of the required cards (-1: all or one of them); a card offered (0: none, 1:
 # face down, 2: face up), the first seat asked (from the dealer or absolute, and its offset), how many cards its
 # taker gives back, and what follows when nobody takes it (REFUSED)
 K_EXACTLY, K_OFFER, K_ASK_DEALER, K_ASK_OFF, K_BACK, K_REFUSED,
 N_K) = range(17)
# an offer's columns, and a round's
O_CONTRACT, O_COLOUR, O_RANK = range(3)
R_START, R_END, R_HIGHEST = range(3)
COLOUR_MODES = ("any", "turned", "not-turned")
ALL_PASS = ("redeal", "play", "dealer")
REFUSED = ("redeal", "alone")
EX_NONE, EX_DEALER, EX_DECLARER = -1, 0, 1
TAKES_TURNED, TAKES_STOCK = 0, 1
TURN_NONE, TURN_DEALER, TURN_STOCK = 0, 1, 2

# what a contract's tables must share with the ruleset's, for the compiled state takes them from the ruleset
SAME = ("first_lead", "first_lead_card", "restrictions", "obligations", "royal_cards", "n_faces", "automaton",
        "events", "castling", "n_tricks", "hand_size", "party_of")


def variants_of(t: Tables) -> list[Tables]:
    """Every play table a game of ``t`` may be played from, by variant number (0: the ruleset's own)."""
    flow = t.flow
    return [t] + ([v for c in flow.contracts for v in c.variants] if flow is not None else [])


def variant_number(t: Tables, contract: int, colour: int) -> int:
    """The variant of play tables a game of ``contract`` (-1: none) played for ``colour`` is played from."""
    if contract < 0 or t.flow is None:
        return 0
    first = 1 + sum(len(c.variants) for c in t.flow.contracts[:contract])
    return first + (colour if t.flow.contracts[contract].each_colour else 0)


def refused(t: Tables) -> str | None:
    """What of a ruleset's flow before play the compiled phases do not play, in words; None when they play it."""
    flow = t.flow
    if flow is None:
        return None
    if flow.covered and any(when & core.W_HOLDING for v in variants_of(t)
                            for rows in (v.restrictions, *v.restrictions_by_called.values()) for _a, when, *_ in rows):
        return "it plays no tableau beside a restriction that asks what a hand holds"
    if any(c.partner == "first-trick" and c.sit_out for c in flow.contracts):
        return "it plays no partner found by a trick who then sits the game out"
    for v in variants_of(t)[1:]:
        for k in SAME:
            if getattr(v, k) != getattr(t, k):
                return f"it plays no contract whose own tables change the ruleset's {k.replace('_', ' ')}"
    return None


def n_parties(t: Tables) -> int:
    """The most parties a game of ``t`` may have: the fixed ones, each player alone, or the declarer's and the rest."""
    flow = t.flow
    most = len(t.parties)
    if flow is None:
        return most
    for rule in [flow.partner] + [c.partner for c in flow.contracts]:
        most = max(most, t.n_seats if rule == "each" else 2 if rule != "fixed" else len(t.parties))
    return most


def flow_arrays(t: Tables, split, play_tables, depth: int) -> tuple[dict, tuple]:
    """The scalars (by name) and the arrays of the flow before play: (variant beats, points, follow, contracts,
    offers, rounds, required cards, whether all are required, call masks, each card's colour mates for a call,
    the holders' cards, the ruleset's fixed parties, each card's copies, the cards offered by variant, the cards
    its taker may give back by variant)."""
    flow, words, n_cards = t.flow, (t.n_cards + 63) // 64, t.n_cards
    variants = variants_of(t)
    tables = [play_tables(v) for v in variants]
    beats = np.array([b for b, _p, _f in tables])
    points = np.array([p for _b, p, _f in tables])
    follow = np.array([f for _b, _p, f in tables])
    contracts = np.zeros((max(len(flow.contracts) if flow else 0, 1), N_K), dtype=np.int64)
    n_var = len(variants)
    required = np.zeros((n_var, words), dtype=np.uint64)
    every = np.ones(n_var, dtype=np.int64)
    calls = np.zeros((n_var, words), dtype=np.uint64)
    offered = np.zeros((n_var, words), dtype=np.uint64)
    back = np.zeros((n_var, words), dtype=np.uint64)
    mates = np.zeros((n_var, n_cards, words), dtype=np.uint64)
    offers = np.zeros((1, 3), dtype=np.int64)
    rounds = np.zeros((1, 3), dtype=np.int64)
    holders = np.zeros(words, dtype=np.uint64)
    sc = dict(variants=n_var, rounds=0, all_pass=0, play_contract=-1, play_colour=0, auction=0, bid_dealer=1,
              bid_off=1, partner=PARTNER_RULES.index("fixed"), own_exchange=EX_NONE, own_takes=0, own_discards=0,
              turn=TURN_NONE, stock=0, sit_out=0, discards=0, answers=0)
    if flow is not None:
        first = 1
        for k, c in enumerate(flow.contracts):
            row = contracts[k]
            row[K_FIRST], row[K_EACH] = first, c.each_colour
            row[K_PARTNER], row[K_SIT_OUT] = PARTNER_RULES.index(c.partner), c.sit_out
            row[K_EX_WHO], row[K_EX_TAKES], row[K_EX_DISCARDS] = _exchange(c.exchange)
            row[K_NOT_HELD], row[K_COLOUR_HELD], row[K_HELD] = c.call_not_held, c.call_colour_held, c.call_held
            row[K_EXACTLY] = c.requires_exactly
            o = c.offer
            if o is not None:
                row[K_OFFER] = 2 if o.face_up else 1
                row[K_ASK_DEALER], row[K_ASK_OFF] = o.first[0] == "dealer", o.first[1]
                row[K_BACK], row[K_REFUSED] = o.back_count, REFUSED.index(o.refused)
                # each seat but the declarer answers once, and a taker gives back his cards
                sc["answers"] = max(sc["answers"], t.n_seats - 1 + o.back_count)
            for i, v in enumerate(c.variants):
                mask, all_of = c.requires[i]
                required[first + i], every[first + i] = split(mask), all_of
                calls[first + i] = split(c.call[i])
                if o is not None:
                    offered[first + i], back[first + i] = split(o.offered(i)), split(o.given_back(i))
                groups = {g: j for j, g in enumerate(dict.fromkeys(v.face_group))}
                group = [groups[g] for g in v.face_group]
                d = v.deck
                for card in range(n_cards):
                    if c.call[i] >> card & 1:
                        mates[first + i, card] = split(core.colour_mates(d.card_face, d.face_colour, group, n_cards,
                                                                         card))
            sc["discards"] = max(sc["discards"], c.exchange[2] if c.exchange else 0)
            sc["sit_out"] |= c.sit_out
            first += len(c.variants)
        flat = []
        rows = []
        for rd in flow.rounds:
            start = len(flat)
            flat += [(o.contract, COLOUR_MODES.index(o.colour), o.rank) for o in rd.offers]
            rows.append((start, len(flat), rd.mode == "highest"))
        if flat:
            offers, rounds = np.array(flat, dtype=np.int64), np.array(rows, dtype=np.int64)
        o = flow.all_pass_offer
        sc.update(rounds=len(flow.rounds), all_pass=ALL_PASS.index(flow.all_pass), auction=flow.has_auction,
                  play_contract=o.contract if o is not None else -1,
                  play_colour=COLOUR_MODES.index(o.colour) if o is not None else 0,
                  bid_dealer=flow.first_bidder[0] == "dealer", bid_off=flow.first_bidder[1],
                  partner=PARTNER_RULES.index(flow.partner), turn=("", "dealer", "stock").index(flow.turn),
                  stock=flow.stock)
        sc["own_exchange"], sc["own_takes"], sc["own_discards"] = _exchange(flow.exchange)
        sc["discards"] = max(sc["discards"], sc["own_discards"])
        holders = split(flow.holders)
    fixed = np.array(t.party_of, dtype=np.int64)
    # a card and its copies (two decks): calling one calls them all
    d = t.deck
    copies = np.array([split(d.face_cards[d.card_face[card]]) for card in range(n_cards)], dtype=np.uint64)
    return sc, (beats, points, follow, contracts, offers, rounds, required, every, calls, mates, holders, fixed,
                copies, offered, back)


def _exchange(rule) -> tuple[int, int, int]:
    """An exchange rule (who, takes, discards) as numbers; (EX_NONE, 0, 0) without one."""
    if rule is None:
        return EX_NONE, 0, 0
    who, takes, discards = rule
    return (EX_DEALER if who == "dealer" else EX_DECLARER), (TAKES_TURNED if takes == "turned" else TAKES_STOCK), \
        discards

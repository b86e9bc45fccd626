"""What a page, the API and the WebSocket send about a game: one seat's observation as JSON, or the public view.

A seat's view is built from :meth:`State.observation(seat) <schachett_rules.kernel.state.State.observation>`
and from nothing else that depends on the cards: its hands, the face-up Kings, an exposed dummy,
the trick, the tricks it keeps, its legal cards and castles. A spectator's view is what *every*
seat sees (:func:`public_observation`): a hand that every seat's observation shows alike, and the
fields on which all of them agree. So a hidden hand, or a hidden partner of a future ruleset,
never reaches a response: the kernel decides what a seat sees, and this module only spells it.

>>> from schachett_rules.kernel.compiler import tables_for
>>> from schachett_rules.kernel.state import State
>>> from schachett_rules.kernel.streams import GameStream
>>> state = State.deal(tables_for("three-player"), dealer=0, rng=GameStream(1, 0))
>>> view = seat_view(state, 1)
>>> view["seat"], len(view["hand"]), view["turn"]["seat"], view["dummy"]    # the dummy lies closed in trick 1
(1, 13, 1, None)
>>> spectator = seat_view(state, None)
>>> spectator["hand"], [h["seat"] for h in spectator["hands"]], spectator["kings"]
(None, [], [[0, 'wK'], [1, 'sK']])
"""

from __future__ import annotations

from ..kernel.actions import TERMINAL
from ..kernel.deal import sort_cards
from ..kernel.observation import Observation
from ..kernel.state import State

_SHARED = ("trick_number", "to_move", "leader", "dealer", "kings", "trick", "tricks", "castles", "shown", "phase",
           "turned", "bids", "contract", "trump", "declarer", "called", "sitting", "offered", "answers", "given_back")
_OWN = {"options": (), "passed": (), "received": (), "discarded": (), "partners": None}     # one seat's alone: never public


def public_observation(state: State) -> Observation:
    """What every player sees: the hands all their observations show alike, and the fields they agree on.

    A field that two seats see differently is left empty, so nothing one seat alone may see is public.
    """
    t = state.t
    seen = [state.observation(s) for s in range(t.n_seats) if t.controller(s) == s]
    first = seen[0]
    hands = {s: cards for s, cards in first.hands.items() if all(o.hands.get(s) == cards for o in seen)}
    update: dict = {"seat": -1, "plays_for": (), "hands": hands, "legal": (), "forced_by": None,
                    "decision": "none", "castle_offers": (), **_OWN}
    for name in _SHARED:
        value = getattr(first, name)
        if any(getattr(o, name) != value for o in seen):
            update[name] = None if value is None else type(value)() if not isinstance(value, int) else -1
    return first.model_copy(update=update)


def _trick_json(record) -> dict:
    return record.model_dump(exclude={"action"}, mode="json")


def parties_known(state: State, seat: int | None) -> bool:
    """Whether the seat (None: every seat) knows who plays with whom: fixed parties, or a game's parties once its
    partners are known (a hidden partner is known only to himself until his card is played)."""
    if state.base.flow is None:
        return True
    seats = [s for s in range(state.t.n_seats) if state.t.controller(s) == s] if seat is None else [seat]
    return state.phase_name in ("play", "castle", "over") and all(
        state.observation(s).partners is not None for s in seats)


def score_of(state: State, obs: Observation, known: bool = True) -> dict:
    """The points so far by party, summed from the tricks the observation keeps (None when it keeps not all, or
    when the seat does not know the parties yet: the points of a party would tell who is in it)."""
    t = state.t
    if not known:
        taken = [0] * t.n_seats
        for tr in obs.tricks:
            taken[tr.winner] += 1
        return {"parties": None, "tricks": None, "points": None, "by_seat": taken}
    parties = list(t.party_names) or [f"party {p}" for p in range(len(t.parties))]
    complete = len(obs.tricks) == state.done
    taken = [0] * len(t.parties)
    points = [0] * len(t.parties)
    for tr in obs.tricks:
        taken[t.party_of[tr.winner]] += 1
        points[t.party_of[tr.winner]] += tr.points
        for e in tr.events:
            for p in e.scoring_parties:
                points[p] += e.points
    return {"parties": parties, "tricks": taken if complete else None, "points": points if complete else None}


def seat_view(state: State, seat: int | None) -> dict:
    """The view of the player on ``seat`` (None: a spectator's) as JSON-ready data."""
    t = state.t
    obs = public_observation(state) if seat is None else state.observation(seat)
    deck_sort = lambda cards: sort_cards(t, list(cards))  # noqa: E731 - one line, used thrice
    hands = [{"seat": s, "name": t.seat_name(s), "cards": deck_sort(cards)} for s, cards in sorted(obs.hands.items())]
    dummies = [h for h in hands if t.dummy_of(h["seat"]) is not None]
    decider = state.decider()
    # before play the seat deciding is the one to act, not the leader of the first trick
    acting = obs.to_move if state.phase_name in ("play", "castle") else state.before_play_seat()
    turn = None if decider == TERMINAL else {
        "seat": acting, "name": t.seat_name(acting), "decider": decider,
        "decider_name": t.seat_name(decider), "yours": seat is not None and decider == seat,
        "phase": state.phase_name}
    last = obs.tricks[-1] if obs.tricks and obs.tricks[-1].number == state.done else None
    known = parties_known(state, seat)
    events = [e.model_dump(mode="json") for tr in obs.tricks for e in tr.events]
    return {
        "seat": seat, "plays_for": list(obs.plays_for), "dealer": obs.dealer, "leader": obs.leader,
        "trick_number": obs.trick_number, "n_tricks": t.n_tricks, "turn": turn, "decision": obs.decision,
        "hand": deck_sort(obs.hands[seat]) if seat is not None and seat in obs.hands else None,
        "hands": hands, "dummy": dummies or None,
        "legal": list(dict.fromkeys(obs.legal)), "forced_by": obs.forced_by,
        "castle_offers": [o.model_dump(mode="json") for o in obs.castle_offers],
        "kings": [list(k) for k in obs.kings], "shown": [list(s) for s in obs.shown],
        "trick": [list(c) for c in obs.trick], "last_trick": _trick_json(last) if last else None,
        "castles": [c.model_dump(exclude={"action"}, mode="json") for c in obs.castles],
        "events": events, "score": score_of(state, obs, known), "over": state.over,
        "parties": [t.party_of[s] for s in range(t.n_seats)] if known else None,
        **family_view(state, obs),
    }


def family_view(state: State, obs: Observation) -> dict:
    """The decisions before play and what the table said and showed, as this seat (or every seat) may know it:
    the phase, the options open to it, the turned card, the bids, the contract and trump, the card called, the
    partners it knows, the seats sitting out, the cards it passed and received and those it laid away, the card
    turned down, and a tableau's piles."""
    flow = state.base.flow
    if flow is None:
        return {"phase": obs.phase, "choices": [], "family": None}
    t = state.base
    titles = {c.name: c.title or c.name for c in flow.contracts}
    colours = dict(zip(t.deck.colours, t.deck.colour_names))
    return {"phase": obs.phase, "choices": list(obs.options), "family": {
        "turned": obs.turned,
        "bids": [{"seat": b.seat, "bid": "pass" if b.contract is None else b.contract + (f" {b.colour}" if b.colour
                                                                                             else ""),
                  "title": "pass" if b.contract is None else titles[b.contract]
                  + (f" in {colours[b.colour]}" if b.colour else "")} for b in obs.bids],
        "contract": obs.contract, "contract_title": titles.get(obs.contract) if obs.contract else None,
        "trump": obs.trump, "trump_name": colours.get(obs.trump) if obs.trump else None,
        "declarer": obs.declarer, "called": obs.called,
        "partners": list(obs.partners) if obs.partners is not None else None,
        "sitting": list(obs.sitting), "passed": list(obs.passed), "received": [list(r) for r in obs.received],
        "discarded": list(obs.discarded), "turned_down": obs.turned_down,
        # a card offered: the card where this seat may know it, each seat's answer, the cards given back for it
        "offered": obs.offered, "answers": [{"seat": s, "take": took} for s, took in obs.answers],
        "given_back": list(obs.given_back), "to_give": state.to_give,
        # a tableau's piles, open to all: the card on top, and the card under it once it has turned up
        "tableau": [{"seat": seat, "card": top, "under": down} for seat, top, down in obs.tableau],
        "to_pass": flow.passing[0] if flow.passing else 0, "to_discard": state.to_discard,
        "cites": {"passing": flow.passing_cite, "auction": flow.auction_cite,
                  "offer": flow.contracts[state.contract].offer.cite
                  if state.contract >= 0 and flow.contracts[state.contract].offer is not None else ""},
    }}

"""What a seat may see: whose hands lie open to it, which cards are face up, which finished tricks it keeps.

The rules that shape a view are clauses: ``dummy`` (when a dummy is laid open, and how its player sees
his two hands before that), the deal's face-up cards, ``review`` and ``memory``. The engine's
observations (and so every bot and the terminal) ask these queries.

>>> from schachett_rules.kernel.compiler import tables_for
>>> t = tables_for("three-player")
>>> sorted(visible_seats(t, 0, tricks_done=0, leader=1, played=set()))   # the Kaiser: only the dummy's hand, which plays first
[2]
>>> sorted(visible_seats(t, 0, tricks_done=0, leader=1, played={1, 2}))  # once the dummy has played: his own too
[0, 2]
>>> sorted(visible_seats(t, 1, tricks_done=1, leader=1, played=set()))   # after trick 1 the dummy lies open to all
[1, 2]
"""

from __future__ import annotations

from .tables import Tables


def _first_of(t: Tables, leader: int, a: int, b: int) -> int:
    """Of two seats, the one that plays first in a trick led by ``leader``."""
    n = t.n_seats
    return min((a, b), key=lambda s: (s - leader) % n)


def visible_seats(t: Tables, seat: int, tricks_done: int, leader: int, played: set[int]) -> set[int]:
    """The seats whose hands the player on ``seat`` may look at now.

    ``tricks_done`` finished tricks, the current trick led by ``leader``, ``played`` the seats that
    have played to it.
    """
    out = {seat}
    for d in t.dummies:
        if tricks_done >= d.exposed_after:
            out.add(d.seat)
            continue
        if seat != d.by:
            continue
        out.add(d.seat)
        if d.one_hand_at_a_time:
            first = _first_of(t, leader, d.by, d.seat)
            if first not in played:
                # until the hand that plays first in this trick has played, he looks only at it
                out.discard(d.seat if first == d.by else d.by)
    return out


def kept_tricks(t: Tables, tricks_done: int) -> range:
    """The finished tricks (by index from 0) a player still has before him (``review`` and ``memory``)."""
    if t.memory == "every":
        return range(tricks_done)
    return range(max(0, tricks_done - t.review), tricks_done) if t.review else range(0)


def is_face_up(t: Tables, card: int, castled_faces: set[int]) -> bool:
    """Whether a royal card lies face up: dealt face up, or a King whose castle showed it (wherever it went)."""
    return any(card == c for c, _, _ in t.given_cards) or t.deck.card_face[card] in castled_faces


def known_partners(state, seat: int) -> tuple[int, ...] | None:
    """The partners the player on ``seat`` knows he has now, or None while he cannot know them.

    Fixed parties, a player alone and a partner found by a trick are known to all. A called card's holder is
    known to himself, and to everyone once the card is played (with two decks, once every copy has been seen);
    a declarer left nothing to call plays alone, in everyone's sight. The holders of a ``parties: holders of``
    clause are known once every one of those cards has been seen, in one's own hand or played.
    """
    from .actions import PLAY, CASTLE, OVER
    from .before_play import called_copies, partner_rule      # the flow's rules live there; visibility reads them
    t = state.t
    flow = state.base.flow
    if state.phase not in (PLAY, CASTLE, OVER):
        # before the game's parties are made: known only where no contract can change them
        if flow is None or (flow.partner == "fixed" and all(c.partner == "fixed" for c in flow.contracts)):
            return t.partners(seat)
        return None
    rule = partner_rule(state)
    if rule in ("fixed", "each", "none", "taker"):
        # a card offered is taken (or left) in everyone's sight: its taker is known to all
        return t.partners(seat)
    if rule == "first-trick":
        return t.partners(seat) if state.partner >= 0 else None
    if rule == "called":
        if state.called < 0:
            # no card was called (none was open to him): everyone saw the declarer go on alone
            return t.partners(seat)
        # the called card and its copies (two decks) tell the parties once a seat has seen them all: in its own
        # hand, laid away by itself, or played
        copies = called_copies(state)
        if copies & (state.hands[seat] | state.discarded[seat] | state.played) == copies:
            return t.partners(seat)
        return None
    if state.declarer >= 0 and state.exchanger == state.declarer:
        return t.partners(seat)        # the one holder took up the stock in everyone's sight (Dreiwendsch's soloist)
    cards = flow.holders
    seen = state.hands[seat] | state.played
    return t.partners(seat) if cards & seen == cards else None

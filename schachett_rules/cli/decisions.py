"""The decisions before the first card, as the person at the terminal sees and answers them.

Passing cards on, bidding, calling a card, laying cards away: the state says
whose decision it is and which actions are open (its observation's ``decision``
and ``options``, the words of :func:`~schachett_rules.kernel.verify.action_word`),
and :func:`~schachett_rules.kernel.verify.decision_action` turns the word the
person types into the action, or refuses it naming the clause. This module only
puts the table into words: what is being decided, what the table has said and
shown so far (only what the person's seat may see), and the options numbered.

>>> from schachett_rules.kernel.compiler import tables_for
>>> from schachett_rules.kernel.state import State
>>> from schachett_rules.kernel.streams import GameStream
>>> game = State.deal(tables_for("hearts"), dealer=3, rng=GameStream(5, 0))
>>> text, words = render_decision(game, {0}, lambda s: game.t.seat_name(s))
>>> print(text.splitlines()[0])
Passing (hearts:§2): pass 3 cards on to West, one at a time; none passed yet.
>>> len(words)
13
"""

from __future__ import annotations

from typing import Callable

from ..errors import IllegalAction
from ..kernel.actions import AUCTION, CALL, EXCHANGE, OFFER, PASSING, RETURN
from ..kernel.before_play import exchange_rule, pass_target
from ..kernel.deal import sort_cards
from ..kernel.observation import Observation, observe
from ..kernel.records import BidRecord
from ..kernel.state import State
from ..kernel.tables import Tables
from ..kernel.verify import decision_action
from .hands import render_hand

PHASE_TITLES = {PASSING: "Passing", AUCTION: "Auction", CALL: "Call", EXCHANGE: "Exchange", OFFER: "Offer",
                RETURN: "Giving back"}
HELP = """Before the first card the table decides: cards passed on, bids, a card called, cards laid away, a card
offered (take it or pass) and the cards its taker gives back.
Type an option by its word (a card such as h3, a bid such as pass, rufer, solo h, up s, take) or by its number.
Where several cards are passed, laid away or given back, several may be typed on one line: "h3 hQ sA" or "1 5 9".
  hand      show the decision and your hand again
  rules     every rule of this ruleset ("rules §2" for one section)
  quit      leave the game (the game so far is saved)
  ?, help   this text"""


def contract_title(t: Tables, name: str) -> str:
    """A contract as the ruleset titles it: ``Rufer (the called Ace)``, or its name where it has no title."""
    c = t.flow.contracts[t.flow.contract_index(name)]
    return c.title or c.name


def colour_name(t: Tables, code: str) -> str:
    """A colour by its name (``hearts``), from its code (``h``)."""
    return t.deck.colour_names[t.deck.colours.index(code)]


def bid_words(t: Tables, b: BidRecord) -> str:
    """A bid as said at the table: ``pass``, ``Rufer``, ``Solo in hearts``."""
    if b.contract is None:
        return "pass"
    return contract_title(t, b.contract) + (f" in {colour_name(t, b.colour)}" if b.colour else "")


def status_lines(t: Tables, obs: Observation, label: Callable[[int], str], received: bool = True) -> list[str]:
    """What the table has said and shown, as the observation's seat may know it: the turned card, the bids, the
    contract and trump, the called card, the partners once known, the seats sitting out, the cards received
    (with ``received``)."""
    lines = []
    if obs.turned and obs.phase != "play":
        lines.append(f"Turned up: {obs.turned}")
    if obs.bids and obs.contract is None:
        lines.append("Bids so far: " + ", ".join(f"{label(b.seat)} {bid_words(t, b)}" for b in obs.bids))
    if obs.contract is not None:
        trump = f"; trumps {colour_name(t, obs.trump)}" if obs.trump else ""
        by = f" by {label(obs.declarer)}" if obs.declarer is not None else ""
        lines.append(f"Contract: {contract_title(t, obs.contract)}{by}{trump}")
    elif obs.trump and obs.phase == "play":
        lines.append(f"Trumps: {colour_name(t, obs.trump)}")
    if obs.called:
        copies = t.deck.face_cards[t.deck.card_face[t.deck.card_of(obs.called)]].bit_count()
        who = "its holder plays" if copies == 1 else "the holders of its copies play"
        lines.append(f"Called card: {obs.called} ({who} with the declarer"
                     + ("" if obs.partners is not None else
                        "; who holds it is not known yet" if copies == 1 else
                        "; who holds them is not known until every copy is seen") + ")")
    if obs.partners:
        mates = "you play with " + " and ".join(label(s) for s in obs.partners)
        if obs.contract is not None:
            lines[-1 if not obs.called else -2] += f"; {mates}"
        else:
            lines.append(mates[0].upper() + mates[1:])
    if obs.answers:
        card = f" ({obs.offered})" if obs.offered else ""
        said = "; ".join(f"{label(s)} {'takes it' if took else 'passes'}" for s, took in obs.answers)
        lines.append(f"The card offered{card}: {said}")
    if obs.given_back:
        lines.append("Given back for it: " + " ".join(obs.given_back))
    if obs.sitting:
        lines.append("Sitting out this game: " + ", ".join(label(s) for s in obs.sitting))
    if obs.received and received:
        by_seat: dict[int, list[str]] = {}
        for s, c in obs.received:
            by_seat.setdefault(s, []).append(c)
        lines.append("You received " + "; ".join(f"{' '.join(cs)} from {label(s)}" for s, cs in by_seat.items()))
    return lines


def decision_heading(game: State, obs: Observation, label: Callable[[int], str]) -> str:
    """The line that says what is being decided now, with the clause that asks it."""
    t, seat = game.base, obs.seat
    flow = t.flow
    if game.phase == PASSING:
        count = flow.passing[0]
        done = ", ".join(obs.passed) if obs.passed else "none passed yet"
        return (f"Passing ({flow.passing_cite}): pass {count} cards on to {label(pass_target(game, seat))}, one at a "
                f"time; {done if not obs.passed else f'passed so far: {done}'}.")
    if game.phase == AUCTION:
        return f"Auction ({flow.auction_cite}): your bid."
    contract = flow.contracts[game.contract] if game.contract >= 0 else None
    if game.phase == CALL:
        return (f"Call ({contract.call_cite}): you declared {contract.title or contract.name}; name the card whose "
                f"holder plays with you.")
    if game.phase == OFFER:
        shown = f", the {obs.offered}" if obs.offered else " face down"
        back = contract.offer.back_count
        return (f"Offer ({contract.offer.cite}): {label(game.declarer)} declared {contract.title or contract.name} "
                f"and offers a card{shown}: take it, give {back} card{'' if back == 1 else 's'} back for it and play "
                f"with {label(game.declarer)}; or pass.")
    if game.phase == RETURN:
        return (f"Giving back ({contract.offer.cite}): you took {obs.offered}; give {label(game.declarer)} "
                f"{game.to_give} card{'' if game.to_give == 1 else 's'} back, face down.")
    cite = contract.exchange_cite if contract is not None else flow.exchange_cite
    took = ("the turned card" + (f" {t.deck.card_name(game.turned)}" if game.turned >= 0 else "")
            if exchange_rule(game)[1] == "turned" else "the stock")
    return (f"Exchange ({cite}): you took up {took}; lay away {game.to_discard} "
            f"card{'' if game.to_discard == 1 else 's'} face down.")


def render_decision(game: State, mine: set[int], label: Callable[[int], str]) -> tuple[str, list[str]]:
    """The decision before play of the person's seat: the table so far, the hand, the options numbered 1…

    Returns the text and the options' words in their numbered order (the state's order)."""
    t = game.base
    seat = game.decider()
    obs = observe(game, seat)
    words = list(obs.options)
    lines = [decision_heading(game, obs, label)] + status_lines(t, obs, label)
    hand = obs.hands.get(seat, ())
    if game.phase in (PASSING, EXCHANGE, RETURN):
        text, words = render_hand(t, f"Your hand, {t.seat_title(seat)}", hand, words)
        lines.append(text)
        lines.append("Type the numbered card (or several, on one line) to " +
                     {PASSING: "pass it on.", EXCHANGE: "lay it away.", RETURN: "give it back."}[game.phase])
    else:
        lines.append(render_hand(t, f"Your hand, {t.seat_title(seat)}", hand)[0])
        if game.phase == CALL:
            words = sort_cards(t, words)        # the cards that may be called, in the hand's order
        shown = [contract_bid(t, w) for w in words] if game.phase == AUCTION else words
        lines.append("Your options: " + "  ".join(f"{i}:{w}" for i, w in enumerate(shown, 1)))
        lines.append("Type an option by its number or its word" + (" (e.g. pass)." if game.phase == AUCTION else "."))
    return "\n".join(lines), words


def contract_bid(t: Tables, word: str) -> str:
    """A bid's word with its contract's title where it has one: ``rufer (Rufer, the called Ace)``."""
    name = word.split()[0]
    if name == "pass":
        return word
    title = contract_title(t, name)
    parts = word.split()
    colour = f" in {colour_name(t, parts[1])}" if len(parts) > 1 and parts[1] in t.deck.colours else ""
    return word if title == name and not colour else f"{word} ({title}{colour})"


def choose(game: State, text: str, words: list[str]):
    """The action the person names by number or word (:func:`~schachett_rules.kernel.verify.decision_action`);
    :class:`IllegalAction` in words if it is not open now."""
    if text.isdigit():
        if not 1 <= int(text) <= len(words):
            raise IllegalAction(f"there is no option {text}: the options are numbered 1 to {len(words)}")
        return decision_action(game, words[int(text) - 1])
    same = [w for w in dict.fromkeys(words) if w.lower() == " ".join(text.split()).lower()]
    return decision_action(game, same[0] if len(same) == 1 else text)


def told(t: Tables, rec, mine: set[int], label: Callable[[int], str]) -> str | None:
    """A decision before play just taken, as the person may know it: the bids and calls aloud, his own cards
    passed and laid away by name, the others' only by count (None: nothing to say)."""
    if rec.action == "bid":
        return f"  {label(rec.seat)}: {bid_words(t, rec)}"
    if rec.action == "call":
        return f"  {label(rec.seat)} calls {rec.card}"
    if rec.action == "answer":
        return f"  {label(rec.seat)} " + ("takes the card offered" if rec.take else "passes")
    if rec.action == "give" and rec.back:
        # face down: the two who exchange see the card, the others only that one was given back
        return f"  {label(rec.seat)} gives back {rec.card}" if rec.seat in mine or rec.to in mine else \
            f"  {label(rec.seat)} gives a card back"
    if rec.action == "give":
        return f"  {label(rec.seat)} passes {rec.card} to {label(rec.to)}" if rec.seat in mine else None
    if rec.action == "discard":
        return f"  {label(rec.seat)} lays away {rec.card}" if rec.seat in mine else \
            f"  {label(rec.seat)} lays a card away"
    return None

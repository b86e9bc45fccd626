"""Whether an action may be taken now, and if not, why: errors naming the trick, the seat, the card and the clause.

:meth:`.state.State.verify` asks :func:`verify_action`; the name-based forms a
person or a record uses (:func:`play_action`, :func:`castle_action`,
:func:`penalty_action`) turn names into actions and check them the same way.
Nothing here decides the game: the legal cards, the castles open and who is
asked are the state's answers (:mod:`.state`, :mod:`.castling`, :mod:`.trick`);
this module only puts a refusal into words.
"""

from __future__ import annotations

from ..errors import IllegalAction, UnknownCard
from . import castling as rules
from .actions import (AUCTION, BEFORE_PLAY, CALL, CASTLE, DEAL, EXCHANGE, OFFER, PASSING, PHASES, PLAY, RETURN, Answer,
                      Bid, Call, Castle, Deal, Discard, Give,
                      Pass, Penalty, Play)
from .automaton import action_words
from .deal import names_of


def _whose_lead(state) -> str:
    t = state.t
    if not state.done:
        return f"seat {state.leader} leads the first trick ({t.lead_cites[0]})"
    return f"seat {state.leader} won trick {state.done} and leads ({t.lead_cites[1]})"


def verify_action(state, action):
    """The action as it will be applied, if the rules allow it now; :class:`IllegalAction` naming why if not."""
    kind = type(action)
    if kind in (Play, Give, Bid, Call, Discard, Answer):
        _verify_by_rule(state, action)
    if kind is Play:
        return _verify_play(state, action)
    if kind is Castle:
        return _verify_castle(state, action)
    if kind is Pass:
        return _verify_pass(state, action)
    if kind is Penalty:
        return _verify_penalty(state, action)
    if kind is Deal:
        if state.phase != DEAL:
            raise IllegalAction("the cards have been dealt already", trick=state.trick_number)
        return action
    if kind in (Give, Bid, Call, Discard, Answer):
        return _verify_before_play(state, action)
    raise IllegalAction(f"{action!r} is not an action of a game (a card, a castle, a pass, a penalty, a card passed "
                        f"on or given back, a bid, a call, a discard or an answer to a card offered)")


def _verify_by_rule(state, action) -> None:
    """Where a rule makes the decider's choice (the ``automaton`` clause), that seat's action must be the rule's:
    the rule leaves it no choice, whoever asks for the action (a driver, a record, a request)."""
    rule = state.rule_action()
    if rule is None or (type(action) is type(rule) and action == rule) or action.seat != rule.seat:
        return                            # not the automaton's turn, or another seat's action (refused below)
    if type(action) is Play:
        _verify_play(state, action)       # a card the rules of play forbid anyway is refused in their words
    card = action.card if type(action) not in (Bid, Answer) else -1
    raise IllegalAction(f"seat {rule.seat} is played by the automaton clause's rule, which "
                        f"{action_words(state, rule)} here, not {action_words(state, action, False)}",
                        trick=state.trick_number if state.phase == PLAY else None, seat=rule.seat,
                        card=state.t.deck.card_name(card) if isinstance(card, int) and 0 <= card < state.t.n_cards
                        else None, clause="automaton")


_PHASE_OF = {Give: (PASSING, RETURN), Bid: (AUCTION,), Call: (CALL,), Discard: (EXCHANGE,), Answer: (OFFER,)}
_DOING = {PASSING: "pass a card on", AUCTION: "bid", CALL: "call a card", EXCHANGE: "discard",
          OFFER: "take or let lie the card offered", RETURN: "give a card back"}


def _verify_before_play(state, action):
    """A card passed on, a bid, a call or a discard, checked: the phase, the seat, the card, the clause."""
    t = state.base
    flow = t.flow
    wants = _PHASE_OF[type(action)]
    if state.phase not in wants:
        now = PHASES[state.phase]
        raise IllegalAction(f"nobody may {_DOING[wants[0]]} now: the game is at its {now}", seat=action.seat)
    want = state.phase
    if action in state.open_actions():
        return action
    seat = state.before_play_seat()
    if action.seat != seat:
        raise IllegalAction(f"it is seat {seat}'s turn to {_DOING[want]}, not seat {action.seat}'s", seat=action.seat)
    if isinstance(action, Answer):
        offer = flow.contracts[state.contract].offer
        raise IllegalAction(f"seat {action.seat} may not take the card offered: it could not give back "
                            f"{offer.back_count} card{'s' if offer.back_count != 1 else ''} of those the offer clause "
                            f"names ({offer.cite}); it may only let it lie", seat=action.seat, clause=offer.cite)
    if isinstance(action, (Give, Call, Discard)):
        card = action.card
        if not (isinstance(card, int) and 0 <= card < t.n_cards):
            raise IllegalAction(f"{card!r} is not a card of this deck", seat=action.seat)
        name = t.deck.card_name(card)
        if want == RETURN and state.hands[action.seat] >> card & 1:
            offer = flow.contracts[state.contract].offer
            open_cards = ", ".join(names_of(t, sum(1 << a.card for a in state.open_actions())))
            raise IllegalAction(f"seat {action.seat} may not give back {name}: the offer clause names the cards "
                                f"the taker gives back ({offer.cite}); he may give back {open_cards}",
                                seat=action.seat, card=name, clause=offer.cite)
        if isinstance(action, Call):
            c = flow.contracts[state.contract]
            copies = t.deck.face_cards[t.deck.card_face[card]]
            held = (state.hands[action.seat] | state.discarded[action.seat]) & copies
            why = ("he may not call a card he holds or laid away" if held and c.call_not_held else
                   "he must hold a copy of the card he calls" if not held and c.call_held else
                   "he must hold a card of its colour and class" if c.call_colour_held else
                   "it is not a card the call clause names")
            open_cards = ", ".join(names_of(t, sum(1 << a.card for a in state.open_actions())))
            raise IllegalAction(f"seat {action.seat} may not call {name}: {why} ({c.call_cite}); he may call "
                                f"{open_cards}", seat=action.seat, card=name, clause=c.call_cite)
        raise IllegalAction(f"seat {action.seat} does not hold {name}; the hand is "
                            f"{', '.join(names_of(t, state.hands[action.seat]))}", seat=action.seat, card=name)
    # a bid that is not open
    open_bids = [b for b in state.open_actions()]
    words = ", ".join("pass" if b.contract < 0 else flow.contracts[b.contract].name
                      + (f" in {t.deck.colour_names[b.colour]}" if b.colour >= 0 else "") for b in open_bids)
    if action.contract < 0:
        raise IllegalAction(f"seat {action.seat} may not pass: the dealer must bid when all the others have passed "
                            f"({flow.auction_cite}); he may bid {words}", seat=action.seat, clause=flow.auction_cite)
    if not 0 <= action.contract < len(flow.contracts):
        raise IllegalAction(f"contract {action.contract!r} is not a contract of this ruleset", seat=action.seat)
    c = flow.contracts[action.contract]
    raise IllegalAction(f"seat {action.seat} may not bid {c.name}"
                        + (f" in {t.deck.colour_names[action.colour]}" if 0 <= action.colour < len(t.deck.colours)
                           else "")
                        + f" now: this round does not offer it so, it does not outbid the best bid, or the hand does "
                          f"not hold what it asks ({c.requires_cite or flow.auction_cite}); the bids open are {words}",
                        seat=action.seat, clause=c.requires_cite or flow.auction_cite)


def _verify_play(state, action):
    t = state.t
    name = t.deck.card_name(action.card) if isinstance(action.card, int) and 0 <= action.card < t.n_cards else None
    if state.over:
        raise IllegalAction("the game is over; there is no card left to play", trick=t.n_tricks, card=name)
    if state.phase == DEAL:
        raise IllegalAction("the cards have not been dealt yet", card=name)
    if state.phase in _DOING:
        seat = state.before_play_seat()
        raise IllegalAction(f"no card is played yet: it is seat {seat}'s turn to {_DOING[state.phase]}",
                            seat=action.seat, card=name)
    mover = state.seat_to_play()
    if action.seat != mover:
        who = _whose_lead(state)
        raise IllegalAction(f"it is seat {mover}'s turn, not seat {action.seat}'s: {who} and play goes to the left",
                            trick=state.trick_number, seat=action.seat, card=name, clause=who)
    if name is None:
        raise IllegalAction(f"{action.card!r} is not a card of this deck", trick=state.trick_number, seat=mover)
    legal = state.legal()
    if not legal.mask:
        raise IllegalAction("no card is due now: the last trick waits for a rescue", trick=state.trick_number,
                            seat=mover, card=name)
    if not legal.mask >> action.card & 1:
        if state.known_deal and not state.hands[mover] >> action.card & 1:
            raise IllegalAction(f"seat {mover} does not hold {name}; the hand is "
                                f"{', '.join(names_of(t, state.hands[mover]))}", trick=state.trick_number,
                                seat=mover, card=name)
        clause = legal.forced_by or "the follow rules"
        raise IllegalAction(f"{clause}; the legal cards are {', '.join(legal)}", trick=state.trick_number,
                            seat=mover, card=name, clause=clause)
    return action


def play_action(state, card: str | int, seat: int | None = None, by: int | None = None):
    """The :class:`~.state.Play` of ``card`` (a name or a card number) for the seat to play, checked.

    ``seat`` is the hand the card comes from, ``by`` the seat of the player who plays it (the same but for a
    dummy, whose cards another seat plays); either may be left out.
    """
    t = state.t
    mover = state.seat_to_play()
    name = card if isinstance(card, str) else (t.deck.card_name(card) if 0 <= card < t.n_cards else str(card))
    if state.over:
        raise IllegalAction("the game is over; there is no card left to play", trick=t.n_tricks, card=name)
    if seat is not None and seat != mover:
        who = _whose_lead(state)
        raise IllegalAction(f"it is seat {mover}'s turn, not seat {seat}'s: {who} and play goes to the left",
                            trick=state.trick_number, seat=seat, card=name, clause=who)
    if by is not None and by != t.controller(mover):
        own, moving = t.dummy_of(by), t.dummy_of(mover)
        if own is not None:
            why = f"seat {by} is a dummy: its cards are played by seat {own.by} ({own.cite})"
        elif moving is not None:
            why = f"the dummy's cards are played by seat {moving.by}, not seat {by} ({moving.cite})"
        else:
            why = f"it is seat {mover}'s turn, not seat {by}'s"
        raise IllegalAction(why, trick=state.trick_number, seat=by, card=name, clause=why)
    try:
        face = t.face(name)
    except UnknownCard as err:
        raise IllegalAction(err.message, trick=state.trick_number, seat=mover, card=str(name)) from None
    copies = t.deck.face_cards[face]
    legal = state.legal()
    if not isinstance(card, str) and 0 <= card < t.n_cards and legal.mask >> card & 1:
        return _verify_play(state, Play(mover, card))
    usable = legal.mask & copies
    physical = (usable & -usable).bit_length() - 1 if usable else (copies & -copies).bit_length() - 1
    if not usable and state.known_deal and state.hands[mover] & copies:
        physical = ((state.hands[mover] & copies) & -(state.hands[mover] & copies)).bit_length() - 1
    return _verify_play(state, Play(mover, physical))


def _moment(state) -> str | None:
    if state.phase == CASTLE:
        return rules.MOMENTS[state.moment]
    if state.trick or state.over:
        return None
    return "before" if not state.done else "between"


def _too_late_to_rescue(state, seat: int) -> str:
    """Why a King just taken can no longer be rescued, when the castling clause limits rescues to some tricks."""
    t = state.t
    if not state.done:
        return ""
    last = state.trick_log[-1]
    number = state.done
    taken = [t.deck.card_name(c) for s, c in last[1] if s == seat and t.royal_cards >> c & 1 and last[2] != s]
    rescue_tricks = [n for n in range(1, t.n_tricks + 1)
                     if rules.seat_permitted(t, seat, rules.RESCUE, n - 1, state.dealer)]
    if not taken or not rescue_tricks or number in rescue_tricks:
        return ""
    only = " or ".join(f"trick {n}" for n in rescue_tricks) if len(rescue_tricks) < 4 else "some tricks"
    return (f": its {taken[0]} was taken in trick {number}, and the castling clause allows this seat a "
            f"rescue only in {only}")


def _no_castle_why(state, seat: int) -> str:
    """Why ``seat`` has no castle open now, in words."""
    t = state.t
    moment = _moment(state)
    if moment is None:
        return ("castling happens before the first card, between tricks, or on a full trick as a rescue, not in the "
                "middle of a trick")
    code = rules.MOMENTS.index(moment)
    if t.never_castle >> seat & 1:
        return f"seat {seat} is played by the automaton clause's rule, which never castles"
    if state.phase == CASTLE and any(o.seat == seat for o in rules.options(
            t, state.moment, state.hands, state.trick, state.done,
            state.outcome().winner if state.moment == rules.RESCUE else -1, state.castled, state.dealer)):
        return f"seat {seat} has let its chance to castle at this moment go"
    if moment != "rescue" and not state.hands[seat] & t.royal_cards and not (t.castling.other_king_before_play
                                                                              and moment == "before"):
        return f"seat {seat} holds no King" + _too_late_to_rescue(state, seat)
    if not rules.seat_permitted(t, seat, code, state.done, state.dealer):
        when = {"before": "before play", "between": f"after trick {state.done}", "rescue": "as a rescue now"}[moment]
        return f"the castling clause does not let seat {seat} castle {when}"
    if moment == "rescue":
        winner = state.outcome().winner
        if not any(s == seat and t.royal_cards >> c & 1 for s, c in state.trick
                   if rules.may_rescue(rules.rescue_fates_mask(t), t.party_of, s, winner)):
            return f"seat {seat} has no King taken in trick {state.done + 1} to rescue"
    if not rules.within_limit(rules.limit_code(t), t.party_of, seat, state.castled):
        return f"castling is limited to once per {t.castling.limit}, and that castle has been made"
    if moment != "rescue" and not state.hands[seat] & t.royal_cards:
        return f"seat {seat} holds no King, and the hand it castles with holds none it may take"
    if state.phase != CASTLE and any(o.seat == seat for o in rules.options(
            t, code, state.hands, state.trick, state.done, -1, state.castled, state.dealer)):
        made = [c for c in state.castles if c.trick == state.done and c.kind == moment]
        why = (f"seat {made[-1].seat} castled at it, and one castle closes a moment (castle moment)" if made else
               "every seat that might have castled let its chance go")
        when = "before play" if moment == "before" else f"after trick {state.done}"
        return f"the moment to castle {when} is over: {why}"
    return f"the hand of seat {t.castling.partner_for(seat)} has no officer that may be taken for the King"


def _castle_refusal(state, seat: int, card: str | None) -> IllegalAction:
    t = state.t
    if t.castling is None:
        why = (f"its castling clause says none, {t.no_castling_cite}" if t.no_castling_cite else
               "it has no castling clause")
        return IllegalAction(f"castling is not allowed here: ruleset {t.name} has no castling ({why})",
                             trick=state.trick_number, seat=seat, card=card, clause=t.no_castling_cite or "castling")
    cite = t.castling.cite
    return IllegalAction(f"{_no_castle_why(state, seat)} ({cite})", trick=state.trick_number, seat=seat, card=card,
                         clause=cite)


def castle_action(state, seat: int, officer: str, king: str | None = None):
    """The :class:`~.state.Castle` ``seat`` asks for (the officer and King by name), checked."""
    t = state.t
    trick = state.trick_number
    if not isinstance(seat, int) or not 0 <= seat < t.n_seats:
        raise IllegalAction(f"castle: seat {seat!r} does not exist", trick=trick)
    options = [o for o in state.castle_options() if o.seat == seat]
    if not options:
        raise _castle_refusal(state, seat, officer)
    cite = t.castling.cite
    if king is not None:
        try:
            kface = t.face(king)
        except UnknownCard as err:
            raise IllegalAction(err.message, trick=trick, seat=seat, card=king) from None
        options = [o for o in options if t.deck.card_face[o.king] == kface]
        if not options:
            raise IllegalAction(f"seat {seat} cannot castle with {king} now ({cite})", trick=trick, seat=seat,
                                card=king)
    elif len({t.deck.card_face[o.king] for o in options}) > 1:
        names = ", ".join(sorted({t.deck.card_name(o.king) for o in options}))
        raise IllegalAction(f"seat {seat} may castle with {names}; say which King", trick=trick, seat=seat)
    option = options[0]
    try:
        oface = t.face(officer)
    except UnknownCard as err:
        raise IllegalAction(err.message, trick=trick, seat=seat, card=officer) from None
    card = next((c for c in option.officers if t.deck.card_face[c] == oface), None)
    if card is None:
        offered = ", ".join(sorted({t.deck.card_name(c) for c in option.officers}))
        raise IllegalAction(f"{officer} cannot be taken for the King: seat {option.giver} offers {offered} "
                            f"(castle officer, {cite})", trick=trick, seat=seat, card=officer, clause=cite)
    return Castle(seat, option.king, card)


def _verify_castle(state, action):
    t = state.t
    name = t.deck.card_name
    options = [o for o in state.castle_options() if o.seat == action.seat]
    if not options:
        raise _castle_refusal(state, action.seat, name(action.officer) if 0 <= action.officer < t.n_cards else None)
    option = next((o for o in options if o.king == action.king), None)
    if option is None:
        raise IllegalAction(f"seat {action.seat} cannot castle with card {action.king} now ({t.castling.cite})",
                            trick=state.trick_number, seat=action.seat)
    if action.officer not in option.officers:
        offered = ", ".join(sorted({name(c) for c in option.officers}))
        raise IllegalAction(f"that officer cannot be taken for the King: seat {option.giver} offers {offered} "
                            f"(castle officer, {t.castling.cite})", trick=state.trick_number, seat=action.seat,
                            clause=t.castling.cite)
    return action


def _verify_pass(state, action):
    if state.phase != CASTLE:
        raise IllegalAction("no chance to castle is open now, so there is nothing to let go",
                            trick=state.trick_number, seat=action.seat)
    if not any(o.seat == action.seat for o in state.castle_options()):
        raise _castle_refusal(state, action.seat, None)
    return action


def penalty_action(state, seat: int, name: str, card: str | None = None):
    """The :class:`~.state.Penalty` of the clause ``name`` on ``seat`` (with the card taken back, by name), checked."""
    t = state.t
    number = -1
    if card is not None:
        try:
            face = t.face(card)
        except UnknownCard as err:
            raise IllegalAction(err.message, trick=state.trick_number, seat=seat, card=card) from None
        held = state.hands[seat] & t.deck.face_cards[face] if isinstance(seat, int) and 0 <= seat < t.n_seats else 0
        number = (held & -held).bit_length() - 1 if held else t.deck.face_cards[face].bit_length() - 1
    return _verify_penalty(state, Penalty(seat, name, number))


def _verify_penalty(state, action):
    t = state.t
    seat, name = action.seat, action.name
    if name not in t.penalties:
        raise IllegalAction(f"ruleset {t.name} has no penalty {name!r}; its penalties are "
                            f"{', '.join(t.penalties) or 'none'}", trick=state.trick_number, seat=seat)
    if not isinstance(seat, int) or not 0 <= seat < t.n_seats:
        raise IllegalAction(f"penalty {name}: seat {seat!r} does not exist", trick=state.trick_number)
    p = t.penalties[name]
    cite = ", ".join(p.basis.cites)
    if p.take_back and action.card < 0:
        raise IllegalAction(f"penalty {name} says the card is taken back ({cite}): name the card seat {seat} played "
                            f"wrongly, as {{\"penalty\": {{\"seat\": {seat}, \"name\": \"{name}\", \"card\": CARD}}}}",
                            trick=state.trick_number, seat=seat, clause=cite)
    if not p.take_back and action.card >= 0:
        raise IllegalAction(f"penalty {name} takes no card back ({cite}); leave the card out",
                            trick=state.trick_number, seat=seat, clause=cite)
    if action.card >= 0 and not state.hands[seat] >> action.card & 1:
        raise IllegalAction(f"penalty {name}: seat {seat} does not hold {t.deck.card_name(action.card)}, so it "
                            f"cannot take it back into its hand ({cite})", trick=state.trick_number, seat=seat,
                            card=t.deck.card_name(action.card), clause=cite)
    return action


def action_word(t, action) -> str:
    """A decision before play as a player names it: the card passed, called, discarded or given back (``h3``), the
    bid: ``pass``, a contract (``rufer``), a contract and its trump colour (``solo h``), or the answer to a card
    offered: ``take`` or ``pass``."""
    if type(action) is Answer:
        return "take" if action.take else "pass"
    if type(action) is Bid:
        if action.contract < 0:
            return "pass"
        name = t.flow.contracts[action.contract].name
        return f"{name} {t.deck.colours[action.colour]}" if action.colour >= 0 else name
    return t.deck.card_name(action.card)


def decision_action(state, word: str):
    """The action before play a player names (:func:`action_word`), if it is open now; else an
    :class:`IllegalAction` naming what is open and the clause."""
    t = state.base
    actions = state.open_actions()          # the automaton's rule is checked with the action (verify_action)
    if state.phase not in BEFORE_PLAY:
        raise IllegalAction(f"{word!r}: there is no decision before play now; the game is at its "
                            f"{PHASES[state.phase]}")
    words = [action_word(t, a) for a in actions]
    text = " ".join(str(word).split())
    if text in words:
        return verify_action(state, actions[words.index(text)])
    if state.phase == AUCTION:
        parts = text.split()
        contracts = [c.name for c in t.flow.contracts]
        if parts and parts[0] != "pass" and parts[0] not in contracts:
            raise IllegalAction(f"{parts[0]!r} is not a contract of this ruleset (contracts: {', '.join(contracts)}); "
                                f"bid one of {', '.join(dict.fromkeys(words))}", seat=state.before_play_seat(),
                                clause=t.flow.auction_cite)
        if parts and parts[0] in contracts:
            k = contracts.index(parts[0])
            colour = t.deck.colours.index(parts[1]) if len(parts) > 1 and parts[1] in t.deck.colours else -1
            return verify_action(state, Bid(state.before_play_seat(), k, colour))
        return verify_action(state, Bid(state.before_play_seat(), -1, -1))
    if state.phase == OFFER:
        offer = t.flow.contracts[state.contract].offer
        if text == "take":
            return verify_action(state, Answer(state.before_play_seat(), True))
        raise IllegalAction(f"{word!r}: seat {state.before_play_seat()} is asked whether it takes the card offered "
                            f"({offer.cite}); answer {' or '.join(words)}", seat=state.before_play_seat(),
                            clause=offer.cite)
    try:
        card = t.deck.card_of(text)
    except UnknownCard as err:
        raise IllegalAction(err.message, seat=state.before_play_seat()) from None
    kind = {PASSING: Give, CALL: Call, EXCHANGE: Discard, RETURN: Give}[state.phase]
    held = [a.card for a in actions if t.deck.card_name(a.card) == text]
    return verify_action(state, kind(state.before_play_seat(), held[0] if held else card))

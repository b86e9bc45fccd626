"""Play a game at the terminal: a person against bots, through plain stdin and stdout.

The person plays one seat (and the seats it plays for: a dummy), or, in a
solitaire, every seat that no automaton plays. The other seats are bots that
see only their observation, or automaton seats that follow their rule. The
``render_*`` functions return plain text and know nothing of the terminal; the
:class:`Table` loop reads a line at a time from ``read`` and prints with
``write``, so it works the same from a keyboard, a pipe or a test.
"""

from __future__ import annotations

from typing import Callable

from ..errors import IllegalAction, SchachettError, UnknownCard
from ..kernel.actions import CASTLE, PLAY, TERMINAL, Pass
from ..kernel.automaton import policy_of
from ..kernel.deal import sort_cards
from ..kernel.observation import observe
from ..kernel.records import CastleRecord, GameResult, TrickRecord
from ..kernel.state import State
from ..kernel.tables import Tables
from ..kernel.trick import holder as kernel_holder, is_last
from ..kernel.verify import castle_action, play_action
from ..players.bots import chooser
from ..kernel.actions import AUCTION, CALL, EXCHANGE, OFFER, PASSING, RETURN
from .decisions import HELP as DECISION_HELP, choose as choose_option, colour_name, contract_title, render_decision, status_lines, told
from .hands import render_hand

HELP = """Type a card to play it: its colour and face, as the deck names them (wD, sT, w7, sIV in
Schachett; h3, sQ in Hearts), or its number in your hand (only the cards you may play are numbered).
  hand      show the table and your hand again
  last      the previous trick, if the rules let you look back at it
  rules     every rule of this ruleset, section by section ("rules §3" for one section, "rules castling" for
            the sections that speak of castling)
  quit      leave the game (the game so far is saved, and replays up to where you left)
  ?, help   this text
When castling is offered: "castle OFFICER" or "c OFFICER" ("castle SEAT OFFICER" when several
seats may castle), or "no" or an empty line to let the chance go."""


DOING = {PASSING: "passes", AUCTION: "bids", CALL: "calls", EXCHANGE: "lays away", OFFER: "answers",
         RETURN: "gives back"}


class Abandoned(SchachettError):
    """The person left the game, or the input ended, before the game was over."""


def seat_label(t: Tables, seat: int, mine: set[int], known: frozenset[int] | None = None) -> str:
    """A seat as the person reads it, by the ruleset's name for it: ``South (you)``, ``North (your partner)``,
    ``North (your dummy)``, ``West (automaton)``.

    ``known``: the partners the person knows he has (:func:`known_to`), where a game's parties are made at the
    table and may be hidden; None where the tables' parties are the ones everybody knows."""
    name = t.seat_name(seat)
    dummy = t.dummy_of(seat)
    if dummy is not None:
        return f"{name} ({'your dummy' if dummy.by in mine else f'dummy of {t.seat_name(dummy.by)}'})"
    if seat in mine:
        return f"{name} (you)"
    if policy_of(t, seat):
        return f"{name} (automaton)"
    if seat in known if known is not None else any(t.party_of[seat] == t.party_of[s] for s in mine):
        return f"{name} (your partner)"
    return name


def known_to(game: State, mine: set[int]) -> frozenset[int] | None:
    """The partners the person knows he has now (none while they are hidden), in a game whose parties are made
    at the table (the observation's ``partners``); None in a game of fixed parties."""
    if game.base.flow is None:
        return None
    return frozenset(observe(game, min(mine)).partners or ())


def render_trick(game: State, mine: set[int], known: frozenset[int] | None = None) -> str:
    """The trick on the table: who led, who played what, who holds it."""
    t = game.t

    def label(s: int) -> str:
        return seat_label(t, s, mine, known)
    index = len(game.tricks)
    head = f"Trick {index + 1} of {t.n_tricks}" + (" (the last trick)" if is_last(t, index) else "")
    cards = [(s, t.deck.card_name(c)) for s, c in game.trick]
    if not cards:
        return f"{head}: {label(game.leader)} leads."
    seat, face = kernel_holder(t, index, game.trick)
    card = t.deck.face_names[face]
    played = ", ".join(f"{label(s)} {c}" for s, c in cards)
    return f"{head}: {played} -- {label(seat)} holds it with {card}"


def render_view(game: State, mine: set[int], numbered: bool = True) -> tuple[str, list[str]]:
    """What the person sees: the trick, the face-up cards, the hands; the text and the legal cards numbered 1…"""
    t, mover = game.t, game.to_move
    player = t.controller(mover) if t.controller(mover) in mine else min(mine)
    obs = observe(game, player)
    hands = {}
    for p in sorted(mine):  # a solitaire's person sees every hand he plays
        hands.update(observe(game, p).hands)
    known = known_to(game, mine)

    def label(s: int) -> str:
        return seat_label(t, s, mine, known)
    lines = status_lines(game.base, obs, label, received=False) if game.base.flow else []
    lines.append(render_trick(game, mine, known))
    if obs.kings:
        lines.append("Face up: " + ", ".join(f"{c} with {label(s)}" for s, c in obs.kings))
    for s, names in sorted(hands.items()):
        if t.controller(s) not in mine:
            lines.append(f"Open on the table, {label(s)}: " + " ".join(sort_cards(t, names)))
    cards: list[str] = []
    for s, names in sorted(hands.items()):
        if t.controller(s) in mine and names:
            legal = obs.legal if numbered and s == mover else None
            whose = "Your dummy's hand" if t.dummy_of(s) else "Your hand"
            text, cards_here = render_hand(t, f"{whose}, {t.seat_title(s)}", names, legal, len(cards) + 1)
            cards += cards_here
            lines.append(text)
    # a tableau: which cards still lie on a face-down card (playing one turns that card up), every seat's alike
    for s in sorted(hands):
        on = [top for seat, top, down in obs.tableau if seat == s and down is None and top in hands[s]]
        if on:
            lines.append(f"On a face-down card, {label(s)}: " + " ".join(sort_cards(t, on)))
    if numbered and cards:
        note = f"; {obs.forced_by}" if obs.forced_by else ""
        lines.append(f"You may play the numbered cards{note}.")
    return "\n".join(lines), cards


def render_castle_options(t: Tables, options, mine: set[int]) -> str:
    """The castles the person may make now, one line per King."""
    lines = [f"Castling is allowed now ({t.castling.cite}):"]
    for o in options:
        officers = ", ".join(dict.fromkeys(t.deck.card_name(c) for c in o.officers))
        king, who = t.deck.card_name(o.king), seat_label(t, o.seat, mine)
        if o.kind == "rescue":
            lines.append(f"  rescue: {king} of {who} was just taken; the officer takes its place in the trick")
        other = seat_label(t, o.with_seat, mine)
        if o.kind == "rescue":
            lines.append(f"    it goes to {other}'s hand, and one of {other}'s {officers} takes its place")
        elif o.giver == o.seat:   # castle king: the King comes from the hand castled with
            lines.append(f"  castle: {who} takes {king} from {other}'s hand for one of his own {officers}")
        else:
            lines.append(f"  castle: {who} gives {king} to {other} for one of {other}'s {officers}")
    lines.append('Type "castle OFFICER" or "c OFFICER" to castle, "no" or an empty line to pass.')
    return "\n".join(lines)


def render_castle(t: Tables, c: CastleRecord, mine: set[int]) -> str:
    """A castle just made: who castled, and which card went to whom."""
    return f"  ♜ {c.told(lambda s: seat_label(t, s, mine))} ({c.cite})"


def render_trick_result(t: Tables, tr: TrickRecord, mine: set[int], known: frozenset[int] | None = None) -> str:
    """A finished trick: who took it with what, why, its points and King events."""

    def label(s: int) -> str:
        return seat_label(t, s, mine, known)
    worth = f", {tr.points} card point{'' if tr.points == 1 else 's'}" if t.counts_card_points else ""
    lines = [f"=> {label(tr.winner)} takes trick {tr.number} with {tr.winning_card}{worth}"]
    lines += [f"     {why}" for why in tr.why]
    for e in tr.events:
        ours = {t.party_of[s] for s in mine}
        to = " and ".join("your party" if p in ours else "their party" for p in e.scoring_parties)
        lines.append(f"  ♚ {e.event}: {label(e.owner)}'s {e.king}, taken by "
                     f"{label(e.taker)} -- {e.order} King, {e.points} points to {to} ({e.cite})")
    return "\n".join(lines)


def render_end(t: Tables, r: GameResult, mine: set[int], base: Tables | None = None) -> str:
    """The score: the contract and how it went, King events, card points, tricks, game points, winner, settlement.

    ``t`` is the game's own tables (its parties, once the contract and the partner are known: at the end
    everything is public), ``base`` the ruleset's (its contracts). A party is named by its seats."""
    base = base or t
    ours = {t.party_of[s] for s in mine}
    seats = r.parties or t.parties

    def party(p: int) -> str:
        if base.flow is None:       # the Schachett games: two parties, fixed by the deal
            return "your party" if p in ours else "their party"
        names = [("you" if s in mine else t.seat_name(s)) for s in seats[p]] if p < len(seats) else [f"party {p}"]
        return " and ".join(names) if len(names) < 3 else ", ".join(names[:-1]) + " and " + names[-1]
    parties = [party(i) for i in range(len(r.totals))]
    lines = ["Game over."]
    if r.thrown_in:
        why = "Nobody took the card offered" if r.contract is not None else "Every player passed"
        return "\n".join(lines + [f"{why}: the cards are thrown in, and nobody scores."])
    if r.contract is not None and base.flow is not None:
        trump = f" in {colour_name(t, r.trump)}" if r.trump else ""
        by = f" by {seat_label(t, r.declarer, mine, frozenset())}" if r.declarer is not None else ""
        lines.append(f"Contract: {contract_title(base, r.contract)}{trump}{by}"
                     + (f", calling {r.called}" if r.called else "")
                     + (f"; partner {seat_label(t, r.partner, mine, frozenset())}" if r.partner is not None else ""))
    if t.counts_kings or r.events:
        lines.append("King events:" if r.events else "King events: none")
        lines += [f"  trick {e.trick}: {e.event} of {t.seat_name(e.owner)}'s {e.king} by {t.seat_name(e.taker)}, "
                  f"{e.order} King, {e.points} points ({e.cite})" for e in r.events]
    if t.counts_card_points or any(r.card_points):     # Euchre and Whist count tricks, not card points
        lines.append("Card points: " + ", ".join(f"{p} {v}" for p, v in zip(parties, r.card_points)))
    if t.counts_kings or r.events:
        lines.append("King points: " + ", ".join(f"{p} {v}" for p, v in zip(parties, r.event_points)))
        lines.append("Totals:      " + ", ".join(f"{p} {v}" for p, v in zip(parties, r.totals)))
    if r.tricks and base.flow is not None:
        lines.append("Tricks:      " + ", ".join(f"{p} {v}" for p, v in zip(parties, r.tricks)))
    if r.game_points:
        lines.append("Game points: " + ", ".join(f"{p} {v:g}" for p, v in zip(parties, r.game_points)))
    if r.contract is not None and r.declarer is not None and r.winner is not None:
        made = r.winner == t.party_of[r.declarer]
        lines.append(f"The declarer's party {'makes' if made else 'loses'} the contract.")
    verdict = "no single winner (equal points at the top)" if r.winner is None else (
        f"{parties[r.winner]} win{'s' if len(seats[r.winner]) == 1 and r.winner not in ours else ''} -- "
        + ("you win" if r.winner in ours else "you lose"))
    lines.append(f"Winner: {verdict}")
    if r.unit or any(r.net):
        money = [f"{seat_label(t, s, mine, frozenset())} {v:+g}" if v else f"{seat_label(t, s, mine, frozenset())} 0"
                 for s, v in enumerate(r.net)]
        lines.append(f"Settlement ({r.unit}): " + ", ".join(money))
    return "\n".join(lines)

def find_card(t: Tables, text: str) -> str | None:
    """A card name as typed (exactly, or else without regard to case if that is unambiguous)."""
    try:
        return t.deck.face_names[t.face(text)]
    except UnknownCard:
        found = [n for n in t.deck.face_names if n.lower() == text.lower()]
        return found[0] if len(found) == 1 else None


class Table:
    """The input and output of one game: the person's decisions asked for, everything else printed as it happens.

    The game is walked by the state (:meth:`State.advance
    <schachett_rules.kernel.state.State.advance>`): bots and the automaton's
    rule decide for their seats, and the walk stops where the person decides.
    """

    def __init__(self, game: State, mine: set[int], bots: dict, rng, read: Callable[[], str | None],
                 write: Callable[..., None], echo: bool = False, rules: str = ""):
        self.game, self.t, self.mine, self.bots, self.rng = game, game.t, set(mine), bots, rng
        self.rules = rules
        self.read, self.write, self.echo, self.view = read, write, echo, ""
        self.seen = len(game.history())
        self.told: dict[str, bool] = {}     # what the table has already been told: the contract, partners, cards
        self.pending: list[str] = []        # the rest of a line naming several cards to pass on or lay away
        # the partners the person knew at the last report: what happened since is told as he saw it then
        self.known = known_to(game, self.mine)
        self.choose = chooser({s: (None if s in self.mine else b) for s, b in bots.items()} |
                              {s: None for s in self.mine}, rng)

    def label(self, seat: int) -> str:
        return seat_label(self.t, seat, self.mine, self.known)

    def run(self) -> GameResult:
        """Play the game to its end and return its result (:class:`Abandoned` if the person stops)."""
        game = self.game
        while True:
            decider = game.advance(self.choose)
            self.report()
            if decider == TERMINAL:
                return game.result()
            game.apply(self.ask_castle() if game.phase == CASTLE else self.ask_card() if game.phase == PLAY
                       else self.ask_decision())
            self.report()

    def report(self) -> None:
        """Print what happened since the last report: decisions before play (as the person may know them), cards
        played, castles, tricks taken; the contract once it stands, the cards received, the partners once known."""
        t, log, game = self.game.base, self.game.log, self.game
        gives: dict[tuple[int, int], int] = {}      # the others' cards passed on, counted, not named

        def passed_on() -> None:
            for (seat, to), n in gives.items():
                self.write(f"  {self.label(seat)} passes {n} card{'' if n == 1 else 's'} on to {self.label(to)}")
            gives.clear()
        for rec in log[self.seen:]:
            if rec.action != "give":
                passed_on()
            if rec.action == "play":
                self.write(f"  {self.label(rec.seat)} plays {rec.card}")
            elif rec.action == "castle":
                self.write(render_castle(self.t, rec, self.mine))
            elif rec.action == "trick":
                self.write(render_trick_result(self.t, rec, self.mine, self.known))
            elif rec.action == "give" and not rec.back and rec.seat not in self.mine:
                gives[rec.seat, rec.to] = gives.get((rec.seat, rec.to), 0) + 1
            elif told(t, rec, self.mine, self.label):
                self.write(told(t, rec, self.mine, self.label))
        passed_on()
        self.seen = len(log)
        self.known = known_to(game, self.mine)
        if t.flow is not None:
            obs = observe(game, min(self.mine))
            if obs.received and not self.told.get("received"):
                self.write(status_lines(t, obs, self.label)[-1])
            if obs.partners and obs.called and not self.told.get("partners"):
                # the called card has been played (or the person holds it): the parties are known now
                mates = " and ".join(self.label(s) for s in obs.partners)
                if any(obs.called in names for names in obs.hands.values()):
                    self.write(f"  You hold the called {obs.called}: you play with {mates}; the others learn it "
                               f"when the {obs.called} is played")
                else:
                    self.write(f"  The called {obs.called}'s holder is known: you play with {mates}")
            self.told.update(received=bool(obs.received), partners=bool(obs.partners))

    def line(self, prompt: str) -> str:
        self.write(prompt, end="")
        text = self.read()
        if text is None or text == "":
            self.write("")
            raise Abandoned(f"the input ended {self.where()}: the game is abandoned")
        if self.echo:
            self.write(text.rstrip("\n"))
        return text.strip()

    def where(self) -> str:
        """Where the game stands, in words: ``in trick 3``, ``in the auction``."""
        phase = self.game.phase
        if phase in DOING:
            return f"in the {self.game.phase_name} before the first trick"
        return f"in trick {len(self.game.tricks) + 1}"

    def examples(self) -> str:
        """Two card names of this deck, as examples for the person (w7, sIV; h3, sQ)."""
        return examples(self.t)

    def common(self, text: str) -> bool:
        """Handle help, hand, last and quit; True if the line was one of them."""
        word = text.lower()
        if word in ("?", "help"):
            # the castling paragraph only where the ruleset castles; the family's games have no castling
            self.write(HELP if self.t.castling is not None else HELP.split("\nWhen castling")[0])
        elif word == "hand":
            self.write(self.view)
        elif word == "last":
            tricks = self.game.tricks
            if self.t.review < 1:
                self.write(f"Ruleset {self.t.name} lets no one look at a finished trick (its review clause).")
            elif not tricks:
                self.write("No trick has been finished yet.")
            else:
                tr = tricks[-1]
                self.write(f"Trick {tr.number}: " + ", ".join(f"{self.label(s)} {c}" for s, c in tr.cards))
                self.write(render_trick_result(self.t, tr, self.mine))
        elif word == "rules" or word.startswith("rules "):
            self.write(rules_section(self.rules, text[5:].strip()) if self.rules else
                       "The rules are not at hand here; `schachett show RULESET` prints them.")
        elif word in ("quit", "exit"):
            raise Abandoned(f"you left the game {self.where()}")
        else:
            return False
        return True

    def ask_card(self):
        """The person's card, asked for until it is one the rules allow now (a :class:`Play`)."""
        game, mover = self.game, self.game.to_move
        self.view, cards = render_view(game, self.mine)
        self.write("\n" + self.view)
        while True:
            text = self.line(f"{self.label(mover)} plays> ")
            if not text:
                self.write(f"  (type a card such as {self.examples()}, or its number in the hand; ? for help)")
                continue
            if self.common(text):
                continue
            if text.isdigit():
                if not 1 <= int(text) <= len(cards):
                    self.write(f"  there is no card {text} on the list: the cards you may play are numbered 1 to "
                               f"{len(cards)}")
                    continue
                card = cards[int(text) - 1]
            else:
                card = find_card(self.t, text)
                if card is None:
                    self.write(f"  {text!r} is neither a card of this deck nor a command (cards: {self.examples()}…; "
                               f"? for help)")
                    continue
            try:
                return play_action(game, card, by=self.t.controller(mover))
            except IllegalAction as err:
                self.write(f"  not allowed: {err.reason}")

    def ask_castle(self):
        """The person's answer to a chance to castle: a :class:`Castle`, or a :class:`Pass` to let it go."""
        game, t = self.game, self.t
        options = game.castle_offers()
        seat = options[0].seat
        self.view = render_view(game, self.mine, numbered=False)[0] + "\n" + render_castle_options(t, options, self.mine)
        self.write("\n" + self.view)
        while True:
            text = self.line("castle> ")
            if text.lower() in ("", "no", "n", "pass"):
                return Pass(seat)
            if self.common(text):
                continue
            words = text.split()
            args = words[1:]
            if args and args[0].isdigit() and len(args) > 1:
                args.pop(0)    # "castle SEAT OFFICER", as the castles of one seat are offered at a time
            if words[0].lower() not in ("castle", "c") or len(args) not in (1, 2):
                self.write('  type "castle OFFICER" (or "c OFFICER"), or "no" or an empty line to pass')
                continue
            officer, king = find_card(t, args[0]) or args[0], (find_card(t, args[-1]) if len(args) == 2 else None)
            try:
                return castle_action(game, seat, officer, king)
            except IllegalAction as err:
                self.write(f"  not allowed: {err.reason}")


    def ask_decision(self):
        """The person's decision before play (a card passed on, a bid, a call, a card laid away, an answer to a card
        offered, a card given back), asked for until it is one the state offers now."""
        game = self.game
        self.view, words = render_decision(game, self.mine, self.label)
        if not self.pending:
            self.write("\n" + self.view)
        while True:
            if self.pending:
                text = self.pending.pop(0)
            else:
                text = self.line(f"{self.label(game.decider())} {DOING[game.phase]}> ")
                if not text:
                    self.write("  (type an option by its number or its word; ? for help)")
                    continue
                if text.lower() in ("?", "help"):
                    self.write(DECISION_HELP)
                    continue
                if self.common(text):
                    continue
                if game.phase in (PASSING, EXCHANGE, RETURN) and len(text.split()) > 1:
                    text, *self.pending = text.split()
            try:
                return choose_option(game, text, words)
            except IllegalAction as err:
                self.pending = []
                self.write(f"  not allowed: {err.reason}")


def rules_section(rules: str, topic: str) -> str:
    """The rules in prose (``schachett show``'s text), whole or the sections ``topic`` names.

    ``topic`` is a section (§3, §3.2, §5 (3p)) or a word of a section's heading or text ("castling").

    >>> text = "Title\\n\\n§2 Ranking\\n  cards rank\\n\\n§3.1 Leading an officer\\n  follow"
    >>> print(rules_section(text, "§3"))
    §3.1 Leading an officer
      follow
    """
    if not topic:
        return rules
    blocks = rules.split("\n\n")
    wanted = topic.lower()
    if wanted.startswith("§"):
        found = [b for b in blocks if b.lower().startswith(wanted)
                 and (len(b) == len(wanted) or not b[len(wanted)].isdigit())]
    else:
        found = [b for b in blocks[1:] if wanted in b.lower()]
    return "\n\n".join(found) if found else f"No section of these rules is {topic!r}; try rules §3 or rules castling."


def players_of(t: Tables, seat: int) -> set[int]:
    """The seats whose cards the person plays besides their dummies: one, or in a solitaire every free seat."""
    if t.automaton is None:
        return {seat}
    return {s for s in range(t.n_seats) if t.controller(s) == s and not policy_of(t, s)}


def render_start(t: Tables, title: str, seed: int, dealer: int, mine: set[int], bot_names: dict[int, str]) -> str:
    """The opening lines: the ruleset, the seed, the seats and who plays them."""
    hands = [s for s in range(t.n_seats) if t.controller(s) in mine]
    ours = {t.party_of[s] for s in hands}
    party = "; ".join(t.party_label(p, dealer) for p in sorted(ours))

    def player(s: int) -> str:
        return f"{t.seat_title(s)} {'(automaton: ' + policy_of(t, s) + ')' if policy_of(t, s) else bot_names[s]}"
    bots = [s for s in range(t.n_seats) if t.controller(s) == s and s not in mine]
    partners = [player(s) for s in bots if t.party_of[s] in ours]
    against = [player(s) for s in bots if t.party_of[s] not in ours]
    flow = t.flow
    made_at_table = ("called", "first-trick", "holders", "none")    # partner rules a contract or a card settles
    if flow is not None and (flow.partner in made_at_table or any(c.partner in made_at_table for c in flow.contracts)):
        # the parties are made at the table (a contract, a called card): nobody is with or against you yet
        return (f"{title} (ruleset {t.name}), seed {seed}; {t.seat_title(dealer)} deals.\nYou play "
                f"{', '.join(t.seat_title(s) for s in hands)}; at the table: {', '.join(player(s) for s in bots)}. "
                f"Who plays with whom is settled before play.\n"
                f"Before play, type an option by its word or number; then a card ({examples(t)}) or its number "
                f"in your hand; ? for help.")
    alone = all(len(t.parties[p]) == 1 for p in ours)      # Hearts: a party of one is no party to name
    return (f"{title} (ruleset {t.name}), seed {seed}; {t.seat_title(dealer)} deals.\nYou play "
            f"{', '.join(t.seat_title(s) for s in hands)}" + (", each player for himself." if alone else f", in {party}.")
            + (f" With you: {', '.join(partners)}." if partners else "")
            + (f" Against you: {', '.join(against)}." if against else "") + "\n"
            f"Type a card ({examples(t)}) or its number in your hand"
            + ("; before play, an option by its word or number" if t.flow is not None else "") + "; ? for help.")


def examples(t: Tables) -> str:
    """Two card names of the deck, one of its first colour and one of its last: ``w7 or sIV``, ``c7 or hA``."""
    names = t.deck.face_names
    return f"{names[len(names) // 3]} or {names[-1]}"


MARKS = [(r"(?<!\S)\d+:\S+", "bold green"), (r"\((?:you|your dummy|your partner)\)", "cyan"), (r"♚.*", "bold magenta"),
         (r"♜.*", "bold yellow"), (r"not allowed:.*", "red"), (r"=> .*", "bold"), (r"Trick \d+ of \d+", "bold underline")]


def terminal_writer(color: bool) -> Callable[..., None]:
    """Print plain text, coloured with rich when ``color`` (stdout is a terminal)."""
    import click
    if not color:
        return lambda text, end="\n": click.echo(text, nl=end == "\n")
    from rich.console import Console
    from rich.text import Text
    console = Console(highlight=False, soft_wrap=True)

    def write(text: str, end: str = "\n") -> None:
        painted = Text(text)
        for pattern, style in MARKS:
            painted.highlight_regex(pattern, style)
        console.print(painted, end=end)
    return write

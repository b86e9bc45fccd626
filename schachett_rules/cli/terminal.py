"""Play a game at the terminal: a person against bots, through plain stdin and stdout.

The person plays one seat (and the seats it plays for: a dummy), or, in a
solitaire, every seat that no automaton plays. The other seats are bots that
see only their observation, or automaton seats that follow their rule. The
``render_*`` functions return plain text and know nothing of the terminal; the
:class:`Table` loop reads a line at a time from ``read`` and prints with
``write``, so it works the same from a keyboard, a pipe or a test.

>>> from schachett_rules.kernel.compiler import tables_for
>>> sort_cards(tables_for("original"), ["w7", "sIV", "wK", "wD", "s8"])
['wD', 'wK', 'w7', 's8', 'sIV']
"""

from __future__ import annotations

from typing import Callable

from ..errors import IllegalAction, SchachettError, UnknownCard
from ..kernel.actions import AUCTION, CALL, CASTLE, EXCHANGE, PASSING, TERMINAL, Pass, describe
from ..kernel.automaton import policy_of
from ..kernel.observation import observe
from ..kernel.records import CastleRecord, GameResult, TrickRecord
from ..kernel.state import State
from ..kernel.tables import Tables
from ..kernel.trick import holder as kernel_holder, is_last
from ..kernel.verify import castle_action, play_action
from ..players.bots import chooser

HELP = """Type a card to play it: its colour and face, as the manual writes them (wD, sT, w7, sIV),
or its number in your hand (only the cards you may play are numbered).
  hand      show the table and your hand again
  last      the previous trick, if the rules let you look back at it
  rules     every rule of this ruleset, section by section ("rules §3" for one section, "rules castling" for
            the sections that speak of castling)
  quit      leave the game (the game so far is saved, and replays up to where you left)
  ?, help   this text
When castling is offered: "castle OFFICER" or "c OFFICER" ("castle SEAT OFFICER" when several
seats may castle), or "no" or an empty line to let the chance go."""


class Abandoned(SchachettError):
    """The person left the game, or the input ended, before the game was over."""


def seat_label(t: Tables, seat: int, mine: set[int], partners: bool = True) -> str:
    """A seat as the person reads it, by the ruleset's name for it: ``South (you)``, ``North (your partner)``,
    ``North (your dummy)``, ``West (automaton)``."""
    name = t.seat_name(seat)
    dummy = t.dummy_of(seat)
    if dummy is not None:
        return f"{name} ({'your dummy' if dummy.by in mine else f'dummy of {t.seat_name(dummy.by)}'})"
    if seat in mine:
        return f"{name} (you)"
    if policy_of(t, seat):
        return f"{name} (automaton)"
    if partners and any(t.party_of[seat] == t.party_of[s] for s in mine):
        return f"{name} (your partner)"
    return name


def partners_known(game: State) -> bool:
    """Whether the person may be told who plays with him: not while the parties hang on a contract still to be
    bid, a called card not yet played, or cards whose holders play together (the Old Ones)."""
    flow = game.base.flow
    if flow is None:
        return True
    public = ("fixed", "each", "none")
    if game.contract < 0:
        return flow.partner in ("fixed", "each") and all(c.partner in public for c in flow.contracts)
    rule = flow.contracts[game.contract].partner if flow.contracts else flow.partner
    if rule == "called":
        return game.called >= 0 and bool(game.played >> game.called & 1)
    return rule in public


def sort_cards(t: Tables, names) -> list[str]:
    """Cards by kind (in the deck's order of kinds), then colour, then rank from high to low."""
    d = t.deck
    def key(name: str):
        f = t.face(name)
        return d.kinds.index(d.face_kind[f]), d.face_colour[f], -t.rank[f], f
    return sorted(names, key=key)


def render_trick(game: State, mine: set[int]) -> str:
    """The trick on the table: who led, who played what, who holds it."""
    t, known = game.t, partners_known(game)
    index = len(game.tricks)
    head = f"Trick {index + 1} of {t.n_tricks}" + (" (the last trick)" if is_last(t, index) else "")
    cards = [(s, t.deck.card_name(c)) for s, c in game.trick]
    if not cards:
        return f"{head}: {seat_label(t, game.leader, mine, known)} leads."
    seat, face = kernel_holder(t, index, game.trick)
    card = t.deck.face_names[face]
    played = ", ".join(f"{seat_label(t, s, mine, known)} {c}" for s, c in cards)
    return f"{head}: {played} -- {seat_label(t, seat, mine, known)} holds it with {card}"


def render_hand(t: Tables, title: str, names, legal=None, start: int = 1) -> tuple[str, list[str]]:
    """A hand by kind; the legal cards numbered from ``start``. Returns the text and the numbered cards."""
    d, numbered = t.deck, []
    lines = [f"{title} ({len(names)} card{'' if len(names) == 1 else 's'}):"]
    left = list(legal or ())
    for ki, kind in enumerate(d.kinds):
        row = []
        for name in sort_cards(t, [n for n in names if d.face_kind[t.face(n)] == kind]):
            if name in left:
                left.remove(name)
                numbered.append(name)
                row.append(f"{start + len(numbered) - 1}:{name}")
            else:
                row.append(name)
        if row:
            lines.append(f"  {d.kind_titles[ki]:<10} " + " ".join(row))
    return "\n".join(lines), numbered


def render_view(game: State, mine: set[int], numbered: bool = True) -> tuple[str, list[str]]:
    """What the person sees: the trick, the face-up cards, the hands; the text and the legal cards numbered 1…"""
    t, mover = game.t, game.to_move
    player = t.controller(mover) if t.controller(mover) in mine else min(mine)
    obs = observe(game, player)
    hands = {}
    for p in sorted(mine):  # a solitaire's person sees every hand he plays
        hands.update(observe(game, p).hands)
    lines = [render_trick(game, mine)]
    if obs.kings:
        lines.append("Face up: " + ", ".join(f"{c} with {seat_label(t, s, mine)}" for s, c in obs.kings))
    for s, names in sorted(hands.items()):
        if t.controller(s) not in mine:
            lines.append(f"Open on the table, {seat_label(t, s, mine)}: " + " ".join(sort_cards(t, names)))
    cards: list[str] = []
    for s, names in sorted(hands.items()):
        if t.controller(s) in mine and names:
            legal = obs.legal if numbered and s == mover else None
            whose = "Your dummy's hand" if t.dummy_of(s) else "Your hand"
            text, cards_here = render_hand(t, f"{whose}, {t.seat_title(s)}", names, legal, len(cards) + 1)
            cards += cards_here
            lines.append(text)
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


def render_trick_result(t: Tables, tr: TrickRecord, mine: set[int], partners: bool = True) -> str:
    """A finished trick: who took it with what, why, its points and King events."""
    lines = [f"=> {seat_label(t, tr.winner, mine, partners)} takes trick {tr.number} with {tr.winning_card}, "
             f"{tr.points} card point{'' if tr.points == 1 else 's'}"]
    lines += [f"     {why}" for why in tr.why]
    for e in tr.events:
        ours = {t.party_of[s] for s in mine}
        to = " and ".join("your party" if p in ours else "their party" for p in e.scoring_parties)
        lines.append(f"  ♚ {e.event}: {seat_label(t, e.owner, mine)}'s {e.king}, taken by "
                     f"{seat_label(t, e.taker, mine)} -- {e.order} King, {e.points} points to {to} ({e.cite})")
    return "\n".join(lines)


def render_end(t: Tables, r: GameResult, mine: set[int]) -> str:
    """The score: King events, card points, totals, winner and settlement."""
    ours = {t.party_of[s] for s in mine}
    parties = ["your party" if i in ours else "their party" for i in range(len(r.totals))]
    if all(len(p) == 1 for p in t.parties) and len(t.parties) == len(r.totals):   # every player for himself
        parties = [seat_label(t, p[0], mine) for p in t.parties]
    lines = ["Game over."]
    if t.events:       # a ruleset without King events (the family's games) scores the card points alone
        lines.append("King events:" if r.events else "King events: none")
        lines += [f"  trick {e.trick}: {e.event} of {t.seat_name(e.owner)}'s {e.king} by {t.seat_name(e.taker)}, "
                  f"{e.order} King, {e.points} points ({e.cite})" for e in r.events]
    lines.append("Card points: " + ", ".join(f"{p} {v}" for p, v in zip(parties, r.card_points)))
    if t.events:
        lines.append("King points: " + ", ".join(f"{p} {v}" for p, v in zip(parties, r.event_points)))
        lines.append("Totals:      " + ", ".join(f"{p} {v}" for p, v in zip(parties, r.totals)))
    if r.tricks:
        lines.append("Tricks:      " + ", ".join(f"{p} {v}" for p, v in zip(parties, r.tricks)))
    if r.game_points:
        # scored toward a target over a session (schachett session plays it): no winner of the deal alone
        lines.append("Game points: " + ", ".join(f"{p} {v:g}" for p, v in zip(parties, r.game_points)))
        return "\n".join(lines)
    verdict = "nobody wins (equal points)" if r.winner is None else (
        f"{parties[r.winner]} wins -- " + ("you win" if r.winner in ours else "you lose"))
    lines.append(f"Winner: {verdict}")
    money = [f"{seat_label(t, s, mine)} {v:+g}" if v else f"{seat_label(t, s, mine)} 0" for s, v in enumerate(r.net)]
    lines.append(f"Settlement ({r.unit}): " + ", ".join(money))
    return "\n".join(lines)


def find_card(t: Tables, text: str) -> str | None:
    """A card name as typed (exactly, or else without regard to case if that is unambiguous)."""
    try:
        return t.deck.face_names[t.face(text)]
    except UnknownCard:
        found = [n for n in t.deck.face_names if n.lower() == text.lower()]
        return found[0] if len(found) == 1 else None


# What the person is asked before play, by phase.
BEFORE_PLAY = {PASSING: "passes a card", AUCTION: "bids or passes", CALL: "calls a card", EXCHANGE: "lays a card away"}


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
        self.announced = False
        self.choose = chooser({s: (None if s in self.mine else b) for s, b in bots.items()} |
                              {s: None for s in self.mine}, rng)

    @property
    def t(self) -> Tables:
        """The tables in force: the game's own once its contract is fixed (its trumps, its parties)."""
        return self.game.t

    @t.setter
    def t(self, _tables) -> None:
        pass

    def label(self, seat: int) -> str:
        return seat_label(self.t, seat, self.mine, partners=self.partners_known())

    def partners_known(self) -> bool:
        return partners_known(self.game)

    def run(self) -> GameResult:
        """Play the game to its end and return its result (:class:`Abandoned` if the person stops)."""
        game = self.game
        while True:
            decider = game.advance(self.choose)
            self.report()
            if decider == TERMINAL:
                return game.result()
            if game.phase in BEFORE_PLAY:
                action = self.ask_before_play()
            else:
                action = self.ask_castle() if game.phase == CASTLE else self.ask_card()
            game.apply(action)
            self.report()

    def report(self) -> None:
        """Print what happened since the last report: cards played, castles, tricks taken."""
        t, log = self.t, self.game.log
        for rec in log[self.seen:]:
            if rec.action == "play":
                self.announce()
                self.write(f"  {self.label(rec.seat)} plays {rec.card}")
            elif rec.action == "castle":
                self.write(render_castle(t, rec, self.mine))
            elif rec.action == "trick":
                self.write(render_trick_result(t, rec, self.mine, self.partners_known()))
            elif rec.action == "bid":
                deck = self.game.t.deck
                colour = deck.colour_names[deck.colours.index(rec.colour)] if rec.colour in deck.colours else rec.colour
                what = f"bids {rec.title or rec.contract}" + (f" in {colour}" if rec.colour else "")
                self.write(f"  {self.label(rec.seat)} {what if rec.contract else 'passes'}")
            elif rec.action == "call":
                self.write(f"  {self.label(rec.seat)} calls {rec.card}")
            elif rec.action in ("give", "discard"):
                # a card passed or laid away is seen only by the hands it leaves and reaches
                seen = rec.seat in self.mine or (rec.action == "give" and rec.to in self.mine)
                verb = f"passes {{}} to {self.label(rec.to)}" if rec.action == "give" else "lays {} away"
                self.write(f"  {self.label(rec.seat)} " + verb.format(rec.card if seen else "a card"))
        self.announce()
        self.seen = len(log)

    def announce(self) -> None:
        """Say once which contract is played, and by whom, when the bidding is over."""
        game = self.game
        if self.announced or game.contract < 0 or game.declarer < 0 or game.base.flow is None:
            return
        self.announced = True
        c = game.base.flow.contracts[game.contract]
        trump = f" in {game.t.deck.colour_names[game.trump]}" if game.trump >= 0 and c.each_colour else ""
        self.write(f"  {self.label(game.declarer)} declares {c.title or c.name}{trump}")

    def line(self, prompt: str) -> str:
        self.write(prompt, end="")
        text = self.read()
        if text is None or text == "":
            self.write("")
            raise Abandoned(f"the input ended in trick {len(self.game.tricks) + 1}: the game is abandoned")
        if self.echo:
            self.write(text.rstrip("\n"))
        return text.strip()

    def common(self, text: str) -> bool:
        """Handle help, hand, last and quit; True if the line was one of them."""
        word = text.lower()
        if word in ("?", "help"):
            self.write(HELP)
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
            raise Abandoned(f"you left the game in trick {len(self.game.tricks) + 1}")
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
                self.write("  (type a card such as w7 or sIV, or its number in the hand; ? for help)")
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
                    self.write(f"  {text!r} is neither a card of this deck nor a command (cards: wD, sT, w7, sIV…; "
                               f"? for help)")
                    continue
            try:
                return play_action(game, card, by=self.t.controller(mover))
            except IllegalAction as err:
                self.write(f"  not allowed: {err.reason}")

    def ask_before_play(self):
        """The person's decision before play (a card to pass, a bid, a card to call, a card to lay away): one of the
        actions the state offers, by its number or, for a card, by its name."""
        game = self.game
        seat = game.before_play_seat()
        options = game.legal_actions()
        words = [describe(game.t, a).split(" ", 2)[2] for a in options]   # "seat 0 bids Rufer" -> "bids Rufer"
        obs = observe(game, game.t.controller(seat))
        hand = obs.hands.get(seat, ())
        lines = [f"Before play: {self.label(seat)} {BEFORE_PLAY[game.phase]}."]
        if obs.turned:
            lines.append(f"Turned up: {obs.turned}")
        lines.append(render_hand(game.t, f"Your hand, {game.t.seat_title(seat)}", hand)[0])
        lines += [f"  {i}. {w}" for i, w in enumerate(words, start=1)]
        self.view = "\n".join(lines)
        self.write("\n" + self.view)
        while True:
            text = self.line(f"{self.label(seat)} chooses> ")
            if self.common(text):
                continue
            if text.isdigit() and 1 <= int(text) <= len(options):
                return options[int(text) - 1]
            card = find_card(game.t, text)
            match = [a for a, w in zip(options, words) if card is not None and w.split()[-1] == card]
            if len(match) == 1:
                return match[0]
            self.write(f"  type the number of one of the {len(options)} choices (1 to {len(options)}), or a card "
                       "the choices name; ? for help")

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
    return (f"{title} (ruleset {t.name}), seed {seed}; {t.seat_title(dealer)} deals.\nYou play "
            f"{', '.join(t.seat_title(s) for s in hands)}, in {party}."
            + (f" With you: {', '.join(partners)}." if partners else "")
            + (f" Against you: {', '.join(against)}." if against else "") + "\n"
            "Type a card (w7, sIV) or its number in your hand; ? for help.")


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

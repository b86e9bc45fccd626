"""Game records: the JSON contract between the engine and everything else.

A record names the ruleset and its options, the dealer, every hand, and the
actions in order (a card name, or ``{"penalty": {...}}`` / ``{"castle": {...}}``).
:func:`replay` checks the deal against the ruleset, plays every action and
scores the game; the first illegal action stops it with an error naming the
action, the trick, the seat, the card and the clause.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from ..kernel.compiler import Tables, compile_ruleset
from ..kernel.deal import names_of
from ..kernel.records import (AnswerRecord, BidRecord, CallRecord, CastleRecord, DiscardRecord, GameResult, GiveRecord,
                              PenaltyRecord, TrickRecord)
from ..kernel.before_play import pass_direction
from ..kernel.verify import decision_action
from ..kernel.state import State
from ..errors import IllegalAction, RecordError
from ..rules.loader import Resolved, load
from ..paths import RulesetName


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class PenaltyAction(_Strict):
    """A penalty clause applied to a seat; ``card`` the card taken back, where the clause says so."""

    seat: StrictInt
    name: str
    card: str | None = None


class PenaltyStep(_Strict):
    """The action ``{"penalty": {"seat": 1, "name": "looking-back"}}``."""

    penalty: PenaltyAction


class CastleAction(_Strict):
    """Castling: a seat exchanges its King for an officer of the hand the castling clause names (`castle with`).

    ``king_from`` and ``officer_from`` name the seats whose hands gave the King and the officer (in a rescue,
    whose card in the trick gave the King): the record says both hands, so that a castle in which a player
    without a King takes his partner's reads right; left out, the deal and the rules say them."""

    seat: StrictInt
    officer: str
    king: str | None = None
    king_from: StrictInt | None = None
    officer_from: StrictInt | None = None


class CastleStep(_Strict):
    """The action ``{"castle": {"seat": 0, "officer": "wT"}}``."""

    castle: CastleAction


class PassAction(_Strict):
    """A seat lets its chance to castle go."""

    seat: StrictInt


class PassStep(_Strict):
    """The action ``{"pass": {"seat": 1}}``; a record may leave passes out: the next card or castle says them."""

    pass_: PassAction = Field(alias="pass")

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)


class PlayAction(_Strict):
    """A card played by a named seat (``by`` plays a dummy's cards for it)."""

    card: str
    by: StrictInt


class PlayStep(_Strict):
    """The action ``{"play": {"card": "w5", "by": 0}}``: a card and the seat of the player who plays it."""

    play: PlayAction


class GiveStep(_Strict):
    """The action ``{"give": "h3"}``: the seat passing cards passes one on (the passing clause)."""

    give: str


class BidStep(_Strict):
    """The action ``{"bid": "solo h"}``: the seat to bid bids a contract (and its trump colour), or ``"pass"``."""

    bid: str


class CallStep(_Strict):
    """The action ``{"call": "eA"}``: the declarer calls a card; its holder is his partner."""

    call: str


class DiscardStep(_Strict):
    """The action ``{"discard": "h9"}``: the seat that took up cards lays one away."""

    discard: str


class AnswerStep(_Strict):
    """The action ``{"answer": "take"}`` (or ``"pass"``): the seat asked takes the card the declarer offers, or lets
    it lie (the offer clause)."""

    answer: str


# each step's key, and the phases in which it may come (a card is given on in passing, or back to the declarer
# by the taker of the card he offered)
DECISION_STEPS = {GiveStep: ("give", ("passing", "return")), BidStep: ("bid", ("auction",)),
                  CallStep: ("call", ("call",)), DiscardStep: ("discard", ("exchange",)),
                  AnswerStep: ("answer", ("offer",))}


class GameRecord(_Strict):
    """A whole game as JSON: ruleset, options, dealer, hands and actions.

    ``stopped`` says why a record ends before the game does (a player left the table): it replays up to there.
    ``game`` is the game's number in its session (where cards are passed, it says the direction, which
    ``passing`` may name instead: the first game of the cycle that passes that way); ``stock``
    the cards left over and ``turned`` the card turned up, where the deal clause leaves or turns them. In a
    tableau each hand lists its covered cards first, then the cards covering them in the same order.
    """

    ruleset: RulesetName
    options: dict[str, str] = {}
    dealer: StrictInt
    game: StrictInt = 0
    passing: Literal["left", "right", "across", "none"] | None = None
    hands: list[list[str]]
    stock: list[str] = []
    turned: str | None = None
    actions: list[Union[str, PlayStep, PenaltyStep, CastleStep, PassStep, GiveStep, BidStep, CallStep, DiscardStep,
                        AnswerStep]]
    stopped: str | None = None


class ReplayReport(_Strict):
    """Everything a replay found: the tricks, King events, points and money."""

    ruleset: str
    title: str
    options: dict[str, str]
    dealer: int
    face_up: list[tuple[int, str]]
    tricks: list[TrickRecord]
    penalties: list[PenaltyRecord]
    castles: list[CastleRecord] = []
    before_play: list[Union[GiveRecord, BidRecord, CallRecord, DiscardRecord, AnswerRecord]] = []
    result: GameResult | None            # None: the record stopped before the game was over
    stopped: str | None = None
    # Words for a reader (the text report); the JSON keeps the numbers. Seat by seat, its name (the seat names
    # clause); party by party, its name and its name with seats and face-up cards (Tables.party_label).
    seat_labels: list[str] = []
    party_names: list[str] = []
    party_labels: list[str] = []
    # what the ruleset counts: King events (Schachett's, not Euchre's), card points (not Whist's)
    king_events: bool = True
    card_points: bool = True

    def as_json(self) -> dict[str, Any]:
        """The report as the JSON that ``schachett replay --json`` prints."""
        r = self.result
        out = {
            "ruleset": self.ruleset, "options": self.options, "dealer": self.dealer,
            "face_up": [list(x) for x in self.face_up],
            "tricks": [t.model_dump(exclude={"action"}) for t in self.tricks],
            "events": [e.model_dump() for tr in self.tricks for e in tr.events],
            "penalties": [p.model_dump(exclude={"action"}) for p in self.penalties],
            "castles": [c.model_dump(exclude={"action"}) for c in self.castles],
            "over": r is not None,
        }
        if self.before_play:
            out["before_play"] = [x.model_dump() for x in self.before_play]
        if r is None:
            return out | {"stopped": self.stopped}
        return out | {
            "card_points": list(r.card_points), "event_points": list(r.event_points),
            "totals": list(r.totals), "winner": r.winner,
            "settlement": {"unit": r.unit, "by_seat": list(r.settlement), "penalties": list(r.penalties),
                           "net": list(r.net)},
        } | ({"contract": r.contract, "trump": r.trump, "declarer": r.declarer, "called": r.called,
              "partner": r.partner, "parties": [list(p) for p in r.parties], "tricks_taken": list(r.tricks),
              "game_points": list(r.game_points), "thrown_in": r.thrown_in} if r.parties else {})


ACTION_FORMS = ('a card name such as "w7", {"play": {"card": "w7", "by": SEAT}}, '
                '{"penalty": {"seat": SEAT, "name": NAME, "card": CARD}}, '
                '{"castle": {"seat": SEAT, "officer": CARD, "king": CARD}}, {"pass": {"seat": SEAT}}, '
                '{"give": CARD}, {"bid": CONTRACT or "pass"}, {"call": CARD}, {"discard": CARD} or '
                '{"answer": "take" or "pass"}')


def _describe_validation(err: ValidationError, file: str) -> RecordError:
    errors = err.errors()
    first = errors[0]
    loc = [str(x) for x in first["loc"]]
    if len(loc) >= 2 and loc[0] == "actions":
        # An action matches none of the forms: pydantic reports one error per form; say it once, in words.
        index = int(loc[1])
        return RecordError(f"{file}: action {index + 1} is not an action of a record; an action is "
                           f"{ACTION_FORMS}")
    where = ".".join(x for x in loc if not x.startswith(("str", "PenaltyStep", "CastleStep", "PlayStep", "PassStep",
                                                         "GiveStep", "BidStep", "CallStep", "DiscardStep",
                                                         "AnswerStep")))
    return RecordError(f"{file}: the record's field {where or '(top level)'} is wrong: {first['msg']}. A record is "
                       f'{{"ruleset": NAME, "options": {{}}, "dealer": SEAT, "hands": [[CARDS]…], "actions": [ACTION…]}}, '
                       f"an action being {ACTION_FORMS}")


def read_record(path: str | Path) -> GameRecord:
    """Read and validate a record file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"{p}: no such record file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise RecordError(f"{p}: cannot be read as UTF-8 text ({err})") from None
    return parse_record(text, str(p))


def parse_record(text: str, file: str = "<record>") -> GameRecord:
    """Parse a record from JSON text."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"{file}:{err.lineno}:{err.colno}: not valid JSON: {err.msg}") from None
    except RecursionError:
        raise RecordError(f"{file}: not valid JSON for a record: its lists nest too deeply") from None
    except ValueError:  # Python refuses to read numbers of more than 4300 digits
        raise RecordError(f"{file}: not valid JSON for a record: it holds a number too long to read") from None
    try:
        return GameRecord.model_validate(data)
    except ValidationError as err:
        raise _describe_validation(err, file) from None


def apply_step(state: State, action, where: str = "") -> None:
    """Apply one action of a record to the state (a card name, or a play, penalty, castle or pass step).

    Where a seat is played by the automaton clause, the record's card (played or passed) must be the one its
    rule makes (the state refuses any other): a record is the game as it was played."""
    try:
        if type(action) in DECISION_STEPS:
            key, phases = DECISION_STEPS[type(action)]
            if state.phase_name not in phases:
                raise IllegalAction(f"the record says {key} {getattr(action, key)!r}, but the game is at its "
                                    f"{state.phase_name}, not its {' or '.join(phases)}")
            state.apply(decision_action(state, getattr(action, key)))
        elif isinstance(action, str):
            state.play(action)
        elif isinstance(action, PlayStep):
            state.play(action.play.card, by=action.play.by)
        elif isinstance(action, PenaltyStep):
            state.penalty(action.penalty.seat, action.penalty.name, action.penalty.card)
        elif isinstance(action, PassStep):
            state.pass_castle(action.pass_.seat)
        else:
            seat = action.castle.seat
            # A record leaves passes out: a castle at a later moment (between tricks, after a rescue nobody took)
            # says that every chance still open before it was let go.
            while state.phase_name == "castle" and not any(o.seat == seat for o in state.castle_options()):
                state.pass_castle()
            state.castle(seat, action.castle.officer, action.castle.king)
            _check_hands(state, action.castle)
    except IllegalAction as err:
        raise IllegalAction(err.reason, err.trick, err.seat, err.card, err.clause, where=where) from None


def _check_hands(state: State, step: CastleAction) -> None:
    """Where a record says which hands a castle's King and officer came from, the castle just made must agree."""
    made = state.records_of("castle")[-1]
    for said, was, what in ((step.king_from, made.king_from, f"the {made.king}"),
                            (step.officer_from, made.officer_from, f"the {made.officer}")):
        if said is not None and said != was:
            state.undo()
            raise IllegalAction(f"the record says {what} came from seat {said}'s hand, but in this game seat {was} "
                                f"gave it ({made.cite})", trick=made.trick or None, seat=step.seat, clause=made.cite)


def game_of_record(record: GameRecord, t: Tables) -> int:
    """The game's number a record plays: its ``game``, or where it names only the way the cards pass, the first
    game of the passing cycle that passes that way; a :class:`RecordError` where the two disagree."""
    if record.passing is None:
        return record.game
    flow = t.flow
    if flow is None or flow.passing is None:
        raise RecordError(f"the record says the cards pass {record.passing}, but {t.name} passes no cards "
                          f"before play; leave \"passing\" out")
    directions = flow.passing[1]
    cycle = ", ".join(f"game {i} {d}" for i, d in enumerate(directions))
    if "game" in record.model_fields_set:
        way = directions[record.game % len(directions)]
        if way != record.passing:
            raise RecordError(f"the record says game {record.game} and that the cards pass {record.passing}, but in "
                              f"game {record.game} of {t.name} they pass {way} (the passing clause: {cycle}, and "
                              f"so round)")
        return record.game
    if record.passing not in directions:
        raise RecordError(f"the record says the cards pass {record.passing}, but in {t.name} they never do "
                          f"(the passing clause: {cycle}, and so round)")
    return directions.index(record.passing)


def state_of(record: GameRecord, t: Tables, file: str = "<record>", upto: int | None = None) -> State:
    """The state after the record's first ``upto`` actions (all of them by default), every action checked."""
    try:
        state = State.from_record(t, record.dealer, record.hands, game_of_record(record, t), record.stock,
                                  record.turned)
    except RecordError as err:
        raise RecordError(f"{file}: {err.message}") from None
    for i, action in enumerate(record.actions[:upto]):
        if state.over and isinstance(action, str):
            raise RecordError(f"{file}, action {i + 1}: the game is over after {t.n_tricks} tricks, but the record "
                              f"goes on with {action!r}")
        apply_step(state, action, f"{file}, action {i + 1}")
    return state


def replay(record: GameRecord, file: str = "<record>", options: dict[str, str] | None = None,
           resolved: Resolved | None = None, near: Path | None = None, tables: Tables | None = None) -> ReplayReport:
    """Check, play and score a record; the project's errors for anything wrong.

    ``near``: where a ruleset of one's own may lie (default: beside the record's file), so that a record
    replays wherever its rule file travels with it. ``tables``: ``resolved`` already compiled (a session's
    ledger, the game server), so that a game is not compiled again for every record.
    """
    opts = dict(record.options)
    opts.update(options or {})
    try:
        if near is None and Path(file).is_file():
            near = Path(file).parent
        r = resolved or load(record.ruleset, opts, chosen_by="the record's options", near=near)
    except RecordError as err:
        raise RecordError(f"{file}: {err.message}") from None
    t: Tables = tables if tables is not None and resolved is not None else compile_ruleset(r)
    game = state_of(record, t, file)
    if record.stopped is None:
        game.lapse()   # a record that ends in silence lets every chance to castle still open go
    if not game.over and record.stopped is None:
        played = sum(1 for a in record.actions if isinstance(a, str))
        raise RecordError(f"{file}: the record ends after {played} cards, in trick {game.trick_number}; a game of "
                          f"{t.name} has {t.n_tricks} tricks of {t.n_seats} cards ({t.n_tricks * t.n_seats} cards)")
    played = game.t           # the game's own tables: its parties, once its contract and partner are known
    return ReplayReport(ruleset=r.name, title=r.title, options={c.lacuna.name: c.option for c in r.lacunae},
                        dealer=record.dealer, face_up=[tuple(x) for x in game.log[0].face_up],
                        tricks=list(game.tricks), penalties=[x for x in game.log if isinstance(x, PenaltyRecord)],
                        castles=list(game.castles),
                        before_play=[x for x in game.log if x.action in ("give", "bid", "call", "discard", "answer")],
                        result=game.result() if game.over else None, stopped=None if game.over else record.stopped,
                        seat_labels=list(played.seat_names), party_names=list(played.party_names),
                        party_labels=[played.party_label(p, record.dealer) for p in range(len(played.parties))],
                        king_events=t.counts_kings, card_points=t.counts_card_points)


def record_of(game: State, ruleset: str, options: dict[str, str] | None = None,
              passes: bool = False, stopped: str | None = None) -> GameRecord:
    """The record of a game (for saving and replaying), finished or not (``stopped``: why it ends early).

    A chance to castle let go is written only with ``passes``: otherwise the next card or castle says it.
    """
    deal = game.log[0]
    actions: list = []
    for rec in game.log[1:]:
        if rec.action == "give":
            actions.append(GiveStep(give=rec.card))
        elif rec.action == "bid":
            actions.append(BidStep(bid="pass" if rec.contract is None else
                                   rec.contract + (f" {rec.colour}" if rec.colour else "")))
        elif rec.action == "call":
            actions.append(CallStep(call=rec.card))
        elif rec.action == "discard":
            actions.append(DiscardStep(discard=rec.card))
        elif rec.action == "answer":
            actions.append(AnswerStep(answer="take" if rec.take else "pass"))
        elif rec.action == "play":
            actions.append(rec.card)
        elif rec.action == "penalty":
            actions.append(PenaltyStep(penalty=PenaltyAction(seat=rec.seat, name=rec.name, card=rec.card)))
        elif rec.action == "castle":
            actions.append(CastleStep(castle=CastleAction(
                seat=rec.seat, officer=rec.officer, king=rec.king,
                king_from=rec.king_from if rec.king_from >= 0 else None,
                officer_from=rec.officer_from if rec.officer_from >= 0 else None)))
        elif rec.action == "pass" and passes:
            actions.append(PassStep(pass_=PassAction(seat=rec.seat)))
    passes = game.base.flow is not None and game.base.flow.passing is not None
    return GameRecord(ruleset=ruleset, options=dict(options or {}), dealer=game.dealer, game=game.game,
                      passing=pass_direction(game) if passes else None,
                      hands=[list(h) for h in record_hands(game)], stock=list(deal.stock), turned=deal.turned,
                      actions=actions, stopped=None if game.over else stopped)


def record_hands(game: State) -> list[tuple[str, ...]]:
    """The hands as a record lists them: in deck order, but in a tableau the covered cards first and then the
    cards covering them, pile by pile (as :meth:`State.from_record` reads them)."""
    t = game.base
    deal = game.log[0]
    if not game.under:
        return list(deal.hands)
    hands = game._history[0][1]
    out = []
    for seat in range(t.n_seats):
        piles = [(top, down) for top, down in game.under.items() if hands[seat] >> top & 1]
        loose = hands[seat] & ~sum((1 << a) | (1 << b) for a, b in piles)
        name = t.deck.card_name
        out.append(tuple([name(d) for _, d in piles] + [name(u) for u, _ in piles] + list(names_of(t, loose))))
    return out


def _fmt_money(x) -> str:
    return f"{x:+g}" if x else "0"


def format_report(rep: ReplayReport, t: Tables | None = None) -> str:
    """The report as text: every trick with why, then King events, points, totals and money.

    Seats are called by the ruleset's names (its ``seat names`` clause), with their numbers where they are first
    met; parties by their names (``party names``, or their seats' names).
    """
    r = rep.result
    seat_labels, party_names, party_labels = rep.seat_labels, rep.party_names, rep.party_labels
    if t is not None:
        seat_labels = list(t.seat_names)
        party_names = list(t.party_names)
        party_labels = [t.party_label(p, rep.dealer) for p in range(len(t.parties))]

    def seat(s: int) -> str:
        return seat_labels[s] if s < len(seat_labels) else f"seat {s}"

    def party(p: int) -> str:
        return party_names[p] if p < len(party_names) else f"party {p}"

    def titled(s: int) -> str:
        return seat(s) if seat(s) == f"seat {s}" else f"{seat(s)} (seat {s})"

    lines = [f"{rep.title or rep.ruleset} (ruleset {rep.ruleset})"]
    if rep.options:             # a ruleset without lacunae has no readings to name
        lines.append("Readings: " + ", ".join(f"{k}={v}" for k, v in rep.options.items()))
    lines += [f"Dealer: {titled(rep.dealer)}." + (" Face up: " + ", ".join(f"{c} to {seat(s)}" for s, c in rep.face_up)
                                                 + "." if rep.face_up else "")]
    if seat_labels:
        lines.append("Seats: " + ", ".join(titled(s) for s in range(len(seat_labels))) + ".")
    if party_labels and not (rep.result is not None and rep.result.thrown_in):
        # a deal thrown in is played by no parties: nobody declared, or nobody took the card offered
        lines.append("Parties: " + "; ".join(party_labels) + ".")
    lines += _before_play_lines(rep, seat)
    lines.append("")

    def castle_line(c: CastleRecord) -> str:
        by = f" ({seat(c.by)} plays it)" if c.by != c.seat else ""
        return f"  ♜ {c.told(seat)}{by} ({c.cite})"

    for c in rep.castles:
        if c.kind == "before":
            lines.append(castle_line(c))
    for tr in rep.tricks:
        cards = ", ".join(f"{seat(s)} {c}" for s, c in tr.cards)
        last = " — last trick" if tr.last else ""
        lines.append(f"Trick {tr.number}{last}: {seat(tr.leader)} leads; {cards}")
        for why in tr.why:
            lines.append(f"    {why}")
        lines.append(f"  → {seat(tr.winner)} wins with {tr.winning_card}"
                     + (f", {tr.points} card points" if rep.card_points else ""))
        for c in tr.rescues:
            lines.append(castle_line(c))
        for e in tr.events:
            lines.append(f"  ♚ {e.event}: {seat(e.owner)}'s {e.king}, taken by {seat(e.taker)} — {e.order} King, "
                         f"{e.points} points to {' and '.join(party(p) for p in e.scoring_parties)} ({e.cite})")
        lines += [castle_line(c) for c in rep.castles if c.kind == "between" and c.trick == tr.number]
    for p in rep.penalties:
        lines.append(f"Penalty {p.name} ({p.cite}) on {seat(p.seat)} in trick {p.trick}"
                     + (f": {p.card} is taken back into the hand, shown to all" if p.card else "")
                     + (f": pays {p.points} points to {', '.join(seat(s) for s in p.to)}" if p.to else "")
                     + ("; the party scores nothing" if p.forfeit else ""))
    lines.append("")
    if r is None:
        lines.append(f"The record stops in trick {len(rep.tricks) + 1}: {rep.stopped}. The game was not finished.")
        return "\n".join(lines)
    # a game without Kings' fates (the family's) says nothing of them, and one without card points (Euchre,
    # Whist) nothing of those: its tricks and game points decide it
    if rep.king_events:
        lines.append("King events:" if r.events else "King events: none")
    for e in r.events:
        lines.append(f"  trick {e.trick}: {e.event} of {seat(e.owner)}'s {e.king} by {seat(e.taker)}, {e.order} King, "
                     f"{e.points} points ({e.cite})")
    parties = [party(i) for i in range(len(r.totals))]
    if rep.card_points:
        lines.append("Card points: " + ", ".join(f"{p} {v}" for p, v in zip(parties, r.card_points)))
    if rep.king_events:
        lines.append("King points: " + ", ".join(f"{p} {v}" for p, v in zip(parties, r.event_points)))
    if rep.king_events or r.forfeited or list(r.totals) != list(r.card_points) or not (r.tricks or r.game_points):
        lines.append("Totals:      " + ", ".join(f"{p} {v}" for p, v in zip(parties, r.totals))
                     + (f" ({' and '.join(party(p) for p in r.forfeited)} forfeit{'s' if len(r.forfeited) == 1 else ''})"
                        if r.forfeited else ""))
    if r.tricks:
        lines.append("Tricks:      " + ", ".join(f"{p} {v}" for p, v in zip(parties, r.tricks)))
    if r.game_points:
        lines.append("Game points: " + ", ".join(f"{p} {_fmt_money(v)}" for p, v in zip(parties, r.game_points)))
    if r.thrown_in:
        why = "Nobody took the card offered" if r.contract is not None else "Every player passed"
        lines.append(f"{why}: the cards are thrown in, and nobody scores.")
        return "\n".join(lines)
    lines.append("Winner: " + (party(r.winner) if r.winner is not None else "none (equal points)"))
    if r.unit:
        lines.append(f"Settlement ({r.unit}): " + ", ".join(f"{seat(s)} {_fmt_money(v)}" for s, v in enumerate(r.net)))
    return "\n".join(lines)


def _before_play_lines(rep: ReplayReport, seat) -> list[str]:
    """What happened between the deal and the first card, in words: the cards passed, the bids, the call and the
    cards laid away (a report is read after the game, when nothing is secret any more)."""
    lines: list[str] = []
    given: dict[tuple[int, int], list[str]] = {}
    for x in rep.before_play:
        if x.action == "give" and not x.back:
            given.setdefault((x.seat, x.to), []).append(x.card)
    if given:
        lines.append("Passing: " + "; ".join(f"{seat(a)} passes {', '.join(cards)} to {seat(b)}"
                                             for (a, b), cards in given.items()) + ".")
    bids = [x for x in rep.before_play if x.action == "bid"]
    if bids:
        lines.append("Bidding: " + "; ".join(
            f"{seat(x.seat)} " + ("passes" if x.contract is None else
                                  f"bids {x.title or x.contract}" + (f" ({x.colour})" if x.colour else ""))
            for x in bids) + ".")
    for x in rep.before_play:
        if x.action == "call":
            lines.append(f"{seat(x.seat)} calls {x.card} ({x.cite}).")
    answers = [x for x in rep.before_play if x.action == "answer"]
    if answers:
        said = "; ".join(f"{seat(x.seat)} {'takes it' if x.take else 'lets it lie'}" for x in answers)
        if not any(x.take for x in answers):
            said += ", and nobody takes it"
        lines.append(f"Offer: the declarer offers {answers[0].card}; {said} ({answers[0].cite}).")
        back = [x for x in rep.before_play if x.action == "give" and x.back]
        if back:
            lines.append(f"{seat(back[0].seat)} gives back {', '.join(x.card for x in back)} ({back[0].cite}).")
    laid = [x for x in rep.before_play if x.action == "discard"]
    if laid:
        lines.append(f"{seat(laid[0].seat)} lays away {', '.join(x.card for x in laid)} ({laid[0].cite}).")
    r = rep.result
    if r is not None and r.contract is not None:
        who = f" by {seat(r.declarer)}" if r.declarer is not None else ""
        trump = f", {r.trump} trumps" if r.trump else ""
        partner = ""
        if r.called is not None:
            # with two decks the called card's copies may give the declarer more than one partner
            mates = [s for p in r.parties if r.declarer in p for s in p if s != r.declarer] \
                if r.declarer is not None else []
            if r.partner is not None and len(mates) > 1:
                partner = f"; {' and '.join(seat(s) for s in mates)} hold the called {r.called}"
            elif r.partner is not None:
                partner = f"; {seat(r.partner)} holds the called {r.called}"
            else:
                partner = f"; nobody holds the called {r.called}, so the declarer plays alone"
        taker = next((x.seat for x in answers if x.take), None)
        if taker is not None:
            partner = f"; {seat(taker)} took the card offered and plays with him"
        lines.append(f"Contract: {r.contract}{who}{trump}{partner}.")
    return lines


__all__ = ["GameRecord", "ReplayReport", "read_record", "parse_record", "replay", "record_of", "format_report",
           "names_of"]

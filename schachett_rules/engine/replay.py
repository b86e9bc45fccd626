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
from typing import Any, Union

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from ..kernel.compiler import Tables, compile_ruleset
from ..kernel.deal import names_of
from ..kernel.records import CastleRecord, GameResult, PenaltyRecord, TrickRecord
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
    """Castling: a seat exchanges its King for an officer of the hand the castling clause names (`castle with`)."""

    seat: StrictInt
    officer: str
    king: str | None = None


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


class GameRecord(_Strict):
    """A whole game as JSON: ruleset, options, dealer, hands and actions.

    ``stopped`` says why a record ends before the game does (a player left the table): it replays up to there.
    """

    ruleset: RulesetName
    options: dict[str, str] = {}
    dealer: StrictInt
    hands: list[list[str]]
    actions: list[Union[str, PlayStep, PenaltyStep, CastleStep, PassStep]]
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
    result: GameResult | None            # None: the record stopped before the game was over
    stopped: str | None = None
    # Words for a reader (the text report); the JSON keeps the numbers. Seat by seat, its name (the seat names
    # clause); party by party, its name and its name with seats and face-up cards (Tables.party_label).
    seat_labels: list[str] = []
    party_names: list[str] = []
    party_labels: list[str] = []

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
        if r is None:
            return out | {"stopped": self.stopped}
        return out | {
            "card_points": list(r.card_points), "event_points": list(r.event_points),
            "totals": list(r.totals), "winner": r.winner,
            "settlement": {"unit": r.unit, "by_seat": list(r.settlement), "penalties": list(r.penalties),
                           "net": list(r.net)},
        }


ACTION_FORMS = ('a card name such as "w7", {"play": {"card": "w7", "by": SEAT}}, '
                '{"penalty": {"seat": SEAT, "name": NAME, "card": CARD}}, '
                '{"castle": {"seat": SEAT, "officer": CARD, "king": CARD}} or {"pass": {"seat": SEAT}}')


def _describe_validation(err: ValidationError, file: str) -> RecordError:
    errors = err.errors()
    first = errors[0]
    loc = [str(x) for x in first["loc"]]
    if len(loc) >= 2 and loc[0] == "actions":
        # An action matches none of the forms: pydantic reports one error per form; say it once, in words.
        index = int(loc[1])
        return RecordError(f"{file}: action {index + 1} is not an action of a record; an action is "
                           f"{ACTION_FORMS}")
    where = ".".join(x for x in loc if not x.startswith(("str", "PenaltyStep", "CastleStep", "PlayStep", "PassStep")))
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
    """Apply one action of a record to the state (a card name, or a play, penalty, castle or pass step)."""
    try:
        if isinstance(action, str):
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
    except IllegalAction as err:
        raise IllegalAction(err.reason, err.trick, err.seat, err.card, err.clause, where=where) from None


def state_of(record: GameRecord, t: Tables, file: str = "<record>", upto: int | None = None) -> State:
    """The state after the record's first ``upto`` actions (all of them by default), every action checked."""
    try:
        state = State.from_record(t, record.dealer, record.hands)
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
    return ReplayReport(ruleset=r.name, title=r.title, options={c.lacuna.name: c.option for c in r.lacunae},
                        dealer=record.dealer, face_up=[tuple(x) for x in game.log[0].face_up],
                        tricks=list(game.tricks), penalties=[x for x in game.log if isinstance(x, PenaltyRecord)],
                        castles=list(game.castles),
                        result=game.result() if game.over else None, stopped=None if game.over else record.stopped,
                        seat_labels=list(t.seat_names), party_names=list(t.party_names),
                        party_labels=[t.party_label(p, record.dealer) for p in range(len(t.parties))])


def record_of(game: State, ruleset: str, options: dict[str, str] | None = None,
              passes: bool = False, stopped: str | None = None) -> GameRecord:
    """The record of a game (for saving and replaying), finished or not (``stopped``: why it ends early).

    A chance to castle let go is written only with ``passes``: otherwise the next card or castle says it.
    """
    deal = game.log[0]
    actions: list = []
    for rec in game.log[1:]:
        if rec.action == "play":
            actions.append(rec.card)
        elif rec.action == "penalty":
            actions.append(PenaltyStep(penalty=PenaltyAction(seat=rec.seat, name=rec.name, card=rec.card)))
        elif rec.action == "castle":
            actions.append(CastleStep(castle=CastleAction(seat=rec.seat, officer=rec.officer, king=rec.king)))
        elif rec.action == "pass" and passes:
            actions.append(PassStep(pass_=PassAction(seat=rec.seat)))
    return GameRecord(ruleset=ruleset, options=dict(options or {}), dealer=game.dealer,
                      hands=[list(h) for h in deal.hands], actions=actions,
                      stopped=None if game.over else stopped)


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

    lines = [f"{rep.title or rep.ruleset} (ruleset {rep.ruleset})",
             "Readings: " + ", ".join(f"{k}={v}" for k, v in rep.options.items()),
             f"Dealer: {titled(rep.dealer)}." + (" Face up: " + ", ".join(f"{c} to {seat(s)}" for s, c in rep.face_up)
                                                 + "." if rep.face_up else "")]
    if seat_labels:
        lines.append("Seats: " + ", ".join(titled(s) for s in range(len(seat_labels))) + ".")
    if party_labels:
        lines.append("Parties: " + "; ".join(party_labels) + ".")
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
        lines.append(f"  → {seat(tr.winner)} wins with {tr.winning_card}, {tr.points} card points")
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
    lines.append("King events:" if r.events else "King events: none")
    for e in r.events:
        lines.append(f"  trick {e.trick}: {e.event} of {seat(e.owner)}'s {e.king} by {seat(e.taker)}, {e.order} King, "
                     f"{e.points} points ({e.cite})")
    parties = [party(i) for i in range(len(r.totals))]
    lines.append("Card points: " + ", ".join(f"{p} {v}" for p, v in zip(parties, r.card_points)))
    lines.append("King points: " + ", ".join(f"{p} {v}" for p, v in zip(parties, r.event_points)))
    lines.append("Totals:      " + ", ".join(f"{p} {v}" for p, v in zip(parties, r.totals))
                 + (f" ({' and '.join(party(p) for p in r.forfeited)} forfeit{'s' if len(r.forfeited) == 1 else ''})"
                    if r.forfeited else ""))
    lines.append("Winner: " + (party(r.winner) if r.winner is not None else "none (equal points)"))
    lines.append(f"Settlement ({r.unit}): " + ", ".join(f"{seat(s)} {_fmt_money(v)}" for s, v in enumerate(r.net)))
    return "\n".join(lines)


__all__ = ["GameRecord", "ReplayReport", "read_record", "parse_record", "replay", "record_of", "format_report",
           "names_of"]

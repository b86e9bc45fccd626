"""The lesson's sample hand: one whole game played by the engine, told trick by trick in the order it happened.

Each trick is drawn as it was played; where a King was rescued in it, the trick is drawn once as played
(the King in it) and once as taken (the officer in the King's place), with the rescue told between the
two. Every castle, every forced play, every King event and the score come from the game's own log.

>>> from schachett_rules.kernel.compiler import tables_for
>>> t = tables_for("reconstruction")
>>> game = sample_game(t)
>>> [c.kind for c in game.castles], game.dealer
(['rescue'], 0)
"""

from __future__ import annotations

import random

from ..kernel.state import State
from ..kernel.records import CastleRecord, PlayRecord
from ..kernel.tables import Tables
from ..kernel.scoring import fate_word
from ..kernel.trick import holders_of_faces
from ..players.bots import HeuristicBot, play_game
from ..rules.seating import and_list
from .lesson_figures import Shown, drawn, headline, tricks_of, why_words
from .lesson_model import Picture, Table

SAMPLE_SEED, SAMPLE_DEALER = 44, 0             # a fixed deal, so the page is the same every build


def sample_game(t: Tables) -> State:
    """The sample hand: four of the program's heuristic players, South dealing, a fixed seed."""
    return play_game(t, SAMPLE_DEALER, [HeuristicBot(t) for _ in range(t.n_seats)], random.Random(SAMPLE_SEED))


def castle_words(t: Tables, c: CastleRecord) -> str:
    """A castle of a game in words (a rescue is told with its trick)."""
    n = t.n_seats
    me, other = t.seat_name(c.seat), t.seat_name(c.with_seat)
    if c.kind == "rescue":
        return (f"**Castling as a rescue** ({c.cite}): {me}'s {c.king} has just been taken in trick {c.trick}, so "
                f"{me} castles: the {c.king} is lifted out of the trick into {other}'s hand, and {other}'s "
                f"{c.officer} takes its place in the trick.")
    when = "before the first card" if c.kind == "before" else f"before trick {c.trick + 1}"
    return (f"**Castling** ({c.cite}): {me} castles {when}: the {c.king} goes into {other}'s hand and {other}'s "
            f"{c.officer} comes into {me}'s.")


def _events(t: Tables, shown: Shown) -> str:
    n = t.n_seats
    return "; ".join(f"{e.event} of {t.seat_name(e.owner)}'s {e.king} ({'first' if e.order == 'first' else 'second'} King): "
                     f"{and_list(t.seat_name(s) for p in e.scoring_parties for s in t.parties[p])} score {e.points}"
                     for e in shown.taken.events)


def trick_blocks(t: Tables, shown: Shown, forced: list[str]) -> list:
    """One trick of the sample: its drawing(s), the engine's reasons, and who had to follow."""
    tr, n = shown.taken, t.n_seats
    events = _events(t, shown)
    cap = f"{headline(t, shown)}, {tr.points} card points" + (f". {events[0].upper() + events[1:]}." if events else ".")
    name = f"assets/learn/sample-{tr.number}"
    out: list = []
    if shown.rescue is not None:
        faces = [(s, t.face(c)) for s, c in shown.played]
        held = holders_of_faces(t, shown.index, faces)[-1]
        fate = next(e.name for e in t.events if e.when == fate_word(t, shown.rescue.seat, held[0]))
        first = (f"Trick {tr.number} as played: {t.seat_name(tr.leader)} leads {shown.played[0][1]}; "
                 f"{t.seat_name(held[0])}'s {t.deck.face_names[held[1]]} holds it, and {t.seat_name(shown.rescue.seat)}'s "
                 f"{shown.rescue.king} in it is taken: {fate}, unless it is rescued.")
        out += [Picture(f"{name}-played.svg", drawn(t, shown.played, tr.leader, held[0], first), first, shown,
                        shown.played, held[0]),
                "*Why:* " + "; ".join(why_words(t, shown)) + ".",
                castle_words(t, shown.rescue)]
    out += [Picture(f"{name}.svg", drawn(t, tr.cards, tr.leader, tr.winner, cap), cap, shown, tr.cards, tr.winner),
            "*Why:* " + "; ".join(tr.why) + "."]
    if forced:
        out.append("*Had to follow:* " + "; ".join(forced) + ".")
    return out


def sample_blocks(t: Tables, game: State) -> list:
    """The sample part: the hands, every trick and castle in the order they happened, and the score."""
    n = t.n_seats
    deal = game.log[0]
    hands = tuple((t.seat_name(s) + (" (dealer)" if s == deal.dealer else ""), " ".join(h))
                  for s, h in enumerate(deal.hands))
    blocks: list = [(
        "Here is a whole game, played by four of the program's players (its heuristic players, which play by "
        f"the rules and some sense, not well). {t.seat_name(deal.dealer)} deals; the Kings are laid face up first. "
        "The hands:"),
        Table(("player", "cards"), hands)]
    forced: dict[int, list[str]] = {}
    for rec in game.log[1:]:
        if isinstance(rec, PlayRecord) and rec.forced_by:
            forced.setdefault(rec.trick, []).append(f"{t.seat_name(rec.seat)} {rec.forced_by}")
    castles = [c for c in game.castles if c.kind != "rescue"]
    for shown in tricks_of(0, game):
        while castles and castles[0].trick < shown.number:   # a castle before this trick is told before it
            blocks.append(castle_words(t, castles.pop(0)))
        blocks += trick_blocks(t, shown, forced.get(shown.number, []))
    res = game.result()
    rows = tuple((and_list(t.seat_name(s) for s in t.parties[p]), str(res.card_points[p]), str(res.event_points[p]),
                  f"**{res.totals[p]}**", f"{res.settlement[t.parties[p][0]]:+g} {res.unit} each")
                 for p in range(len(t.parties)))
    winner = and_list(t.seat_name(s) for s in t.parties[res.winner]) if res.winner is not None else "nobody"
    blocks += ["### The score", Table(("partnership", "cards", "Kings", "total", "money"), rows),
               f"{winner} win{'s' if res.winner is None else ''} the game."]
    return blocks

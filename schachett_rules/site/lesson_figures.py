"""The lesson's figures: tricks found in games the engine played, never tricks made up for the page.

A made-up trick can break the rules it is meant to teach (a first trick led by the wrong player, a card
no hand could hold). So every figure of How to play is a trick of a real game: the search plays games
of the reconstruction with South dealing, as the page's deal does, one seed after another, with the
program's random players (they play any card the rules allow, and so reach every kind of position),
and takes for each wanted event the first trick that shows it. The captions are written from the
trick itself: who led, who took it, and the engine's own reason for every card.

>>> from schachett_rules.kernel.compiler import tables_for
>>> search = FigureSearch(tables_for("reconstruction"), games=40)
>>> shown = search.first(lambda t, s: s.number == 13)
>>> shown.number, len(shown.played), shown.game.dealer
(13, 4, 0)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable, Iterator

from ..kernel.state import State
from ..kernel.records import CastleRecord, PlayRecord, TrickRecord
from ..engine.replay import GameRecord, record_of
from ..kernel.tables import Tables
from ..kernel.trick import explain, holders_of_faces, is_last
from .svgcards import trick_svg

FIGURE_DEALER = 0      # South deals every figure's game, as the page's deal says
SEARCH_GAMES = 400     # games searched, seed 0 upward; every wanted trick turns up well within them


@dataclass(frozen=True)
class Shown:
    """One trick of a real game: the cards as they were played, and the trick as it was taken.

    The two differ only when a King was rescued: then the officer lies in the King's place in ``taken``.
    """

    seed: int
    game: State
    number: int                              # the trick's number, from 1
    played: tuple[tuple[int, str], ...]      # (seat, card) in the order played
    taken: TrickRecord
    rescue: CastleRecord | None

    @property
    def index(self) -> int:
        """The trick's number counted from 0, as the kernel counts tricks."""
        return self.number - 1

    def record(self, ruleset: str) -> GameRecord:
        """The game's record, which ``schachett replay`` plays and checks move by move."""
        return record_of(self.game, ruleset)


def tricks_of(seed: int, game: State) -> Iterator[Shown]:
    """Every trick of a finished game, each with its cards as played and any rescue made in it."""
    played: list[tuple[int, str]] = []
    rescue = None
    for rec in game.log[1:]:
        if isinstance(rec, PlayRecord):
            played.append((rec.seat, rec.card))
        elif isinstance(rec, CastleRecord) and rec.kind == "rescue":
            rescue = rec
        elif isinstance(rec, TrickRecord):
            yield Shown(seed, game, rec.number, tuple(played), rec, rescue)
            played, rescue = [], None


class FigureSearch:
    """Games of random players, South dealing, seed by seed; the first trick that shows what is wanted."""

    def __init__(self, t: Tables, games: int = SEARCH_GAMES):
        self.t, self.games = t, games
        self._played: list[State] = []

    def game(self, seed: int) -> State:
        """The game of ``seed`` (played once, then kept)."""
        while len(self._played) <= seed:
            # the random player's own walk: the game a table of random bots plays from these numbers, without
            # making each seat's view at every card (the search plays hundreds of games)
            rng = random.Random(len(self._played))
            game = State.deal(self.t, FIGURE_DEALER, rng)
            game.play_randomly(rng)
            self._played.append(game)
        return self._played[seed]

    def tricks(self) -> Iterator[Shown]:
        """Every trick of every game searched, game by game."""
        for seed in range(self.games):
            yield from tricks_of(seed, self.game(seed))

    def first(self, want: Callable[[Tables, Shown], bool]) -> Shown:
        """The first trick, in seed order, for which ``want(t, shown)`` holds."""
        for shown in self.tricks():
            if want(self.t, shown):
                return shown
        raise LookupError(f"none of {self.games} games has the trick wanted ({getattr(want, '__name__', want)})")

    def earliest(self, want: Callable[[Tables, Shown], bool]) -> Shown:
        """Of the tricks ``want`` accepts, the one earliest in its game (the first such game on a tie)."""
        best = None
        for shown in self.tricks():
            if want(self.t, shown) and (best is None or shown.number < best.number):
                best = shown
                if best.number == 1:
                    break
        if best is None:
            raise LookupError(f"none of {self.games} games has the trick wanted ({getattr(want, '__name__', want)})")
        return best

    def first_castle(self, kind: str, seat: int) -> tuple[int, State, CastleRecord]:
        """The first game in which ``seat`` castles at the moment ``kind`` (before, between, rescue)."""
        for seed in range(self.games):
            game = self.game(seed)
            for c in game.castles:
                if c.kind == kind and c.seat == seat:
                    return seed, game, c
        raise LookupError(f"in none of {self.games} games does seat {seat} castle {kind}")


# --- what a figure is wanted to show ---------------------------------------------------------------

def _faces(t: Tables, cards) -> list[tuple[int, int]]:
    return [(s, t.face(c)) for s, c in cards]


def colours_apart(t: Tables, s: Shown) -> bool:
    """A pawn led and taken by a higher pawn of its colour, while a higher card of the other colour does not take."""
    d = t.deck
    faces = _faces(t, s.played)
    led = faces[0][1]
    if is_last(t, s.index) or d.face_kind[led] != "pawn" or any(d.face_royal[f] for _, f in faces):
        return False
    held = holders_of_faces(t, s.index, faces)
    winner = held[-1][1]
    if winner == led or d.face_kind[winner] != "pawn" or d.face_colour[winner] != d.face_colour[led]:
        return False
    return any(d.face_kind[f] != d.kinds[0] and d.face_colour[f] != d.face_colour[led]
               and t.rank[f] > t.rank[held[i][1]] and held[i + 1][1] != f
               for i, (_seat, f) in enumerate(faces[1:]))


def as_dealt(s: Shown) -> bool:
    """Whether the Kings are where the deal put them when the trick is played: no castle before it or in it."""
    return s.rescue is None and not any(c.trick < s.number for c in s.game.castles)


def king_event(name: str) -> Callable[[Tables, Shown], bool]:
    """A trick in which exactly one King, still where the deal put it, is the first to meet a fate, ``name``."""
    def want(t: Tables, s: Shown) -> bool:
        return as_dealt(s) and [(e.event, e.order) for e in s.taken.events] == [(name, "first")]
    want.__name__ = f"a {name}"
    return want


def promoted_takes(t: Tables, s: Shown) -> bool:
    """A last trick held by a promoted card against a real officer played after it."""
    if not s.taken.last:
        return False
    d, faces = t.deck, _faces(t, s.played)
    win = t.face(s.taken.winning_card)
    later = faces[[c for _s, c in s.played].index(s.taken.winning_card) + 1:]
    return t.promoted_as[win] != win and any(d.face_kind[f] == d.kinds[0] and not d.face_royal[f] for _, f in later)


def dame_before_promoted(t: Tables, s: Shown) -> bool:
    """A last trick held by a real card of the highest rank against a card promoted to its equal, played after it."""
    if not s.taken.last:
        return False
    faces = [f for _s, f in _faces(t, s.played)]
    win = t.face(s.taken.winning_card)
    return (t.promoted_as[win] == win and t.rank[win] == max(t.rank)
            and any(f != win and t.promoted_as[f] == win for f in faces[faces.index(win) + 1:]))


# --- the drawing -------------------------------------------------------------------------------------

def drawn(t: Tables, cards, leader: int, winner: int, caption: str) -> str:
    """A trick drawn with the seats named as the page names them."""
    return trick_svg(t.deck, _faces(t, cards), leader=leader, winner=winner, n_seats=t.n_seats,
                     labels={s: t.seat_name(s) for s in range(t.n_seats)}, caption=caption)


def why_words(t: Tables, s: Shown, cards=None) -> list[str]:
    """The engine's reason for each card after the lead: whether it takes the trick from the card holding it."""
    faces = _faces(t, cards or s.played)
    held = holders_of_faces(t, s.index, faces)
    return [explain(t, s.index, f, held[i][1]) for i, (_s, f) in enumerate(faces[1:])]


def headline(t: Tables, s: Shown) -> str:
    """The trick in one sentence: which trick, who led what, who took it with which card."""
    n = t.n_seats
    which = "the last trick" if s.taken.last else f"trick {s.number}"
    taken = s.taken
    return (f"{which[0].upper()}{which[1:]}: {t.seat_name(taken.leader)} leads {s.played[0][1]}; "
            f"{t.seat_name(taken.winner)} takes it with the {taken.winning_card}")

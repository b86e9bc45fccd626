"""The fixed phrases of the rule language, in one table: the parser, the printer and the prose all read it.

Each entry is a grammar rule that chooses among fixed phrases (a grade, a
castle limit, a King's fate ...). For every IR value it gives the phrase a rule
file writes and the words the prose uses. The grammar's rules for these choices
are generated from this table (:func:`grammar_rules`), the parser turns a
phrase into its IR value (:func:`value_of`), the printer writes
:func:`phrase` and the prose :func:`prose`.

>>> phrase("limit", "party"), value_of("limit", "once per party"), prose("limit", "party")
('once per party', 'party', 'once per party and game')
>>> print(grammar_rules()["limit"])
!limit: "once" "per" "game" | "once" "per" "party" | "once" "per" "seat" | "no" "limit"
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from .ir import GRADE_MEANING, Grade


class Word(NamedTuple):
    """One choice: the IR value, the phrase in a rule file, the words in prose."""

    value: str
    phrase: str
    prose: str


def _words(*rows: tuple[str, str, str]) -> tuple[Word, ...]:
    return tuple(Word(*row) for row in rows)


KEYWORDS: dict[str, tuple[Word, ...]] = {
    "grade": tuple(Word(g.value, g.value, GRADE_MEANING[g]) for g in Grade),
    "lead_which": _words(("first", "first", "the first trick"), ("next", "next", "each later trick")),
    "direction_word": _words(("lower", "lower", "lower"), ("higher", "higher", "higher"),
                             ("any", "any", "any, whatever its rank,")),
    "tie_outcome": _words(("first", "first played holds", "first played holds the trick"),
                          ("later", "later played takes", "later played takes the trick")),
    "remaining_scope": _words(
        ("each", "each hand", "'Remaining' counts the cards each player held before the deciding trick "
                              "(a full hand in the first trick)."),
        ("all", "all hands", "'Remaining' counts the cards all players held together before the deciding trick.")),
    "when": _words(("opponent", "taken by opponent", "a King is taken by an opponent"),
                   ("partner", "taken by partner", "a King is taken by its owner's partner"),
                   ("self", "wins the trick", "a King wins the trick itself")),
    "scorer": _words(("taker", "taker", "the taking party"), ("owner", "owner", "the King's own party"),
                     ("opponents", "opponents", "the party opposing the King's owner")),
    "order_count": _words(("all", "all events", "The first King is the first to meet any fate"),
                          ("each", "each event", "Each kind of King event has its own first King")),
    "same_trick": _words(("play", "play order", "two Kings falling in one trick count in the order they were played"),
                         ("all-first", "all first", "two Kings falling in one trick both count as first")),
    "payee": _words(("opponents", "opponent", "opponent"), ("players", "player", "other player")),
    "memory_kind": _words(("every", "every trick", "Players may keep in mind every trick they have seen."),
                          ("review", "nothing but review", "Players keep in mind nothing beyond the tricks they may "
                                                           "look at.")),
    "parity": _words(("even", "even", "even"), ("odd", "odd", "odd")),
    "direction": _words(("left", "left", "left"), ("right", "right", "right")),
    "limit": _words(("game", "once per game", "once per game"), ("party", "once per party", "once per party and game"),
                    ("seat", "once per seat", "once per player and game"), ("none", "no limit", "any number of times")),
    "castle_king_kind": _words(
        ("own", "own only", "A castle exchanges the castling player's own King."),
        ("other-before-play", "own, or before play the one he castles with",
         "A castle exchanges the castling player's own King; before play, a player who holds no King may instead "
         "take the King of the hand he castles with, giving it one of his own officers.")),
    "stake_kind": _words(
        ("seat", "per seat", "Every seat settles the game's amount: a player who plays two seats receives or pays "
                             "it twice."),
        ("player", "per player", "Every player settles once, however many seats he plays: the party with fewer "
                                 "players receives or pays the amount once per player, and the other party's "
                                 "players share that sum equally.")),
    "penalty_rounding": _words(
        ("each", "each penalty rounded", "Each penalty is turned into money on its own, as a game won by its "
                                         "points, and rounded."),
        ("game", "summed per game", "The penalty points one player owes another in a game are summed (one debt "
                                    "against the other) and turned into money once, as a game won by that many "
                                    "points.")),
    "per_moment": _words(
        ("one", "one castle", "At each moment of castling at most one castle is made: the seats that may castle "
                              "are asked in turn, and the first who castles ends the moment."),
        ("each", "one per seat", "At each moment of castling every seat that may castle is asked in turn, and each "
                                 "may castle once.")),
    "pass_direction": _words(("left", "left", "to the left"), ("right", "right", "to the right"),
                             ("across", "across", "across the table"), ("none", "none", "to nobody")),
    "exchange_who": _words(("dealer", "dealer", "the dealer"), ("declarer", "declarer", "the declarer")),
    "exchange_what": _words(("turned", "turned card", "the turned card"), ("stock", "stock", "the stock")),
    "round_mode": _words(("first", "first bid wins", "the first bid wins"),
                         ("highest", "highest bid wins", "the highest bid wins, of equal bids the earlier")),
    "requires_how": _words(("all", "all of", "all of"), ("one", "one of", "at least one of")),
    "partner_who": _words(("called", "holder of called card", "the holder of the card he calls"),
                          ("none", "none", "nobody: he plays alone"),
                          ("first-trick", "first other trick winner", "the first other player to take a trick"),
                          ("taker", "taker", "the player who takes the card he offers")),
    "offer_face": _words(("down", "face down", "face down, so that only the two players who exchange see the "
                                               "cards"),
                         ("up", "face up", "face up, for every player to see")),
    "refused_outcome": _words(("redeal", "redeal", "the cards are thrown in and dealt again"),
                              ("alone", "declarer alone", "the declarer plays alone")),
    "game_points_who": _words(("declarer", "declarer party", "the declarer's party"),
                              ("others", "other parties", "each other party"), ("each", "each party", "every party")),
    "settle_per": _words(("player", "per player", "each player of the losing party pays each player of the "
                                                  "winning party the amount"),
                         ("defender", "per defender", "each defender settles the amount with the declarer's party, "
                                                      "which shares what it wins or pays")),
    "policy": _words(("lowest", "the lowest card", "the lowest legal card"),
                     ("highest", "the highest card", "the highest legal card"),
                     ("cheapest-taker", "the cheapest card that takes, else the lowest card",
                      "the cheapest legal card that takes the trick, and otherwise the lowest")),
    "pass_policy": _words(("highest", "the highest cards", "the highest cards of its hand"),
                          ("lowest", "the lowest cards", "the lowest cards of its hand")),
    "call_policy": _words(("highest", "the highest card it may", "the highest card it may call"),
                          ("lowest", "the lowest card it may", "the lowest card it may call")),
}


def _row(table: str, value: str) -> Word:
    for w in KEYWORDS[table]:
        if w.value == value:
            return w
    raise KeyError(f"{table}: no keyword for {value!r}")


def phrase(table: str, value: str) -> str:
    """The phrase a rule file writes for an IR value."""
    return _row(table, value).phrase


def prose(table: str, value: str) -> str:
    """The words the prose uses for an IR value."""
    return _row(table, value).prose


@functools.lru_cache(maxsize=None)
def _by_phrase(table: str) -> dict[str, str]:
    return {w.phrase: w.value for w in KEYWORDS[table]}


def value_of(table: str, text: str) -> str:
    """The IR value of a phrase as parsed (words separated by single spaces)."""
    return _by_phrase(table)[text]


def phrases(table: str) -> tuple[str, ...]:
    """Every phrase of one choice, in the table's order."""
    return tuple(w.phrase for w in KEYWORDS[table])


def _quoted(text: str) -> str:
    # A comma stays a token of its own, as the rule file writes it: "takes," is "takes" ","
    return " ".join(f'"{part}"' for part in text.replace(",", " , ").split())


def grammar_rules() -> dict[str, str]:
    """The grammar rule of every choice, in Lark's notation (the `!` keeps the words for the parser)."""
    return {table: f"!{table}: " + " | ".join(_quoted(w.phrase) for w in words) for table, words in KEYWORDS.items()}

"""Seats and parties named for a reader: by their place from the dealer, and by the cards the deal gives them face up.

Seats are numbered for the data (records, JSON); a reader thinks of the table
from the dealer: "the dealer's left", "opposite the dealer". A party is named
by its seat nearest the dealer, going left ("the dealer's party", "the party on
the dealer's left"), and described by its seats and any card the deal gives it
face up. Play goes to the left, so the place ``offset`` seats after the dealer
is seat ``(dealer + offset) % seats``.

>>> [seat_words(k, 4) for k in range(4)]
['the dealer', "the dealer's left", 'opposite the dealer', "the dealer's right"]
>>> party_words((1, 3), 4)
"the party on the dealer's left"
>>> describe_party("the dealer's party", (1, 3), ("wK",))
"the dealer's party (seats 1 and 3), which holds the wK"
>>> describe_party("the party on the dealer's left", (1, 3, 5), ("sK", "sK"))
"the party on the dealer's left (seats 1, 3 and 5), which holds the two sK"
"""

from __future__ import annotations

NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}


def seat_words(offset: int, seats: int) -> str:
    """The place ``offset`` seats to the left of the dealer, in words, at a table of ``seats``."""
    k = offset % seats
    if k == 0:
        return "the dealer"
    if k == 1:
        return "the dealer's left"
    if seats % 2 == 0 and k == seats // 2:
        return "opposite the dealer"
    if k == seats - 1:
        return "the dealer's right"
    return f"{NUMBER_WORDS.get(k, str(k))} places to the dealer's left"


def player_words(offset: int, seats: int) -> str:
    """The player at the place ``offset`` seats to the left of the dealer: 'the player opposite the dealer' …

    >>> player_words(1, 4), player_words(2, 4), player_words(0, 4)
    ("the player on the dealer's left", 'the player opposite the dealer', 'the dealer')
    """
    place = seat_words(offset, seats)
    if place == "the dealer":
        return place
    return f"the player on {place}" if place.startswith("the dealer's") else f"the player {place}"


def party_words(offsets, seats: int) -> str:
    """A party's name from the places of its seats after the dealer: named by the place nearest the dealer's left."""
    k = min(o % seats for o in offsets)
    if k == 0:
        return "the dealer's party"
    place = seat_words(k, seats)
    if place.startswith("the dealer's"):
        return f"the party on {place}"
    if place == "opposite the dealer":
        return "the party opposite the dealer"
    return f"the party {place}"


def _and(items) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def describe_party(name: str, seat_numbers, face_up=()) -> str:
    """A party's name with its seats and the cards dealt to it face up, for naming it once to a reader."""
    seat_numbers = sorted(seat_numbers)
    text = f"{name} (seat{'s' if len(seat_numbers) > 1 else ''} {_and(map(str, seat_numbers))})"
    if face_up:
        # two decks deal a card twice: "the two wK", not "the wK and wK"
        counts = {c: list(face_up).count(c) for c in dict.fromkeys(face_up)}
        cards = [c if n == 1 else f"{NUMBER_WORDS.get(n, str(n))} {c}" for c, n in counts.items()]
        text += f", which holds the {_and(cards)}"
    return text

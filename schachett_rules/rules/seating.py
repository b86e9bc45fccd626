"""Seats and parties put in words: lists said as lists, places from the dealer, parties with their face-up cards.

Seats are numbered for the data (records, JSON), clockwise from 0, and play
goes to the left, so the place ``offset`` seats after the dealer is seat
``(dealer + offset) % seats``. A reader knows the seats by the names the
ruleset gives them (its ``seat names`` clause: South, West, North, East; the
Kaiser, the dummy ...; see :meth:`Tables.seat_name
<schachett_rules.kernel.tables.Tables.seat_name>`); a rule names them from the
dealer: "the dealer's left", "opposite the dealer". These functions put both in
words.

>>> and_list(["South", "North"]), and_list(["South", "West", "North"])
('South and North', 'South, West and North')
>>> [seat_words(k, 4) for k in range(4)]
['the dealer', "the dealer's left", 'opposite the dealer', "the dealer's right"]
>>> party_words((1, 3), 4)
"the party on the dealer's left"
>>> describe_party("the dealer's party", (1, 3), ("wK",))
"the dealer's party (seats 1 and 3), which holds the wK"
>>> describe_party("the party on the dealer's left", (1, 3, 5), ("sK", "sK"))
"the party on the dealer's left (seats 1, 3 and 5), which holds the two sK"
>>> describe_party("the dealer's party", (0, 2), ("wK",), ("South", "West", "North", "East"))
"the dealer's party (South and North, seats 0 and 2), which holds the wK"
"""

from __future__ import annotations

NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}
def and_list(items, conjunction: str = "and") -> str:
    """Words joined as a list is said: "A", "A and B", "A, B and C" (empty for no words)."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {conjunction} " + items[-1]


def or_list(items) -> str:
    """Words joined as choices are said: "A", "A or B", "A, B or C"."""
    return and_list(items, "or")


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


def describe_party(name: str, seat_numbers, face_up=(), seat_names=None) -> str:
    """A party's name with its seats and the cards dealt to it face up, for naming it once to a reader.

    Given the ``seat_names`` of the table, the seats are named too (where the party's name does not already
    name them).
    """
    seat_numbers = sorted(seat_numbers)
    numbers = f"seat{'s' if len(seat_numbers) > 1 else ''} {and_list(map(str, seat_numbers))}"
    names = [seat_names[s] for s in seat_numbers] if seat_names else []
    # the seats' names, unless the party's name already says them or they are only numbers
    said = any(n in name for n in names) or any(n.startswith("seat ") for n in names)
    text = f"{name} ({and_list(names)}, {numbers})" if names and not said else f"{name} ({numbers})"
    if face_up:
        # two decks deal a card twice: "the two wK", not "the wK and wK"
        counts = {c: list(face_up).count(c) for c in dict.fromkeys(face_up)}
        cards = [c if n == 1 else f"{NUMBER_WORDS.get(n, str(n))} {c}" for c, n in counts.items()]
        text += f", which holds the {and_list(cards)}"
    return text

"""What a client may send, checked before anything is touched: a new table, or one action at a table.

Every refusal is a :class:`RequestError`: an HTTP status, one paragraph in words and, where a rule
of the game refused it, the clause. Nothing a client sends is evaluated: the values are read as
JSON, their types and sizes checked, and card names are looked up in the deck by the kernel.

>>> parse_action({"card": "w7"})
('card', 'w7')
>>> parse_action({"castle": {"officer": "wT"}})
('castle', ('wT', None))
>>> parse_action({"card": 7})
Traceback (most recent call last):
...
schachett_rules.server.requests.RequestError: "card" must be a card's name as the manual writes it (colour and face), not 7
"""

from __future__ import annotations

import json
import re

from ..errors import SchachettError

MAX_BODY = 16 * 1024         # bytes: a larger message is refused unread
MAX_NAME = 16                # characters of a card's name
MAX_WORD = 40                # characters of a decision's word (a bid such as "up-alone s")
# The words of a refusal name no card: an example card could be one that a hidden hand holds.
ACTIONS = ('{"card": NAME} (a card as the manual writes it), {"castle": {"officer": NAME}} (with "king": NAME where '
           'two Kings may castle), {"pass": true} to let a chance to castle go, {"decide": WORD} for a decision '
           'before play (a card passed on, called or laid away, or a bid: "pass", "rufer", "solo h"), '
           '{"next": true} for the next game, '
           '{"away": true} to let a bot play your seat and {"away": false} to take it back')


class RequestError(SchachettError):
    """A request the server refuses: its HTTP status, why in words, and the clause of the rules if one refused it."""

    def __init__(self, status: int, message: str, clause: str | None = None):
        super().__init__(message)
        self.status, self.clause = status, clause

    def as_json(self) -> dict:
        """The answer's body: ``{"error": ..., "clause": ...}``."""
        return {"error": self.message, "clause": self.clause}


def citation(text: str | None) -> str | None:
    """The citation at the end of a rule's words: "must follow sII with … (§3.3)" → "§3.3".

    >>> citation("must follow sII with a black suit card (§3.3)"), citation("no citation here")
    ('§3.3', None)
    """
    if not text:
        return None
    found = re.search(r"\(([^()]*(?:§|p\.)[^()]*)\)\s*$", text)
    return found.group(1) if found else None


def read_json(body: bytes) -> object:
    """A request's body as JSON, refused when too large or not JSON."""
    if len(body) > MAX_BODY:
        raise RequestError(413, f"the message is {len(body)} bytes; at most {MAX_BODY} bytes (16 KiB) are read")
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise RequestError(400, "the message is not JSON text (UTF-8)") from None


def _shown(value) -> str:
    """A client's value as an error quotes it: short, and never more than 40 characters of it."""
    if isinstance(value, str) and len(value) > 40:
        return f"a text of {len(value)} characters"
    return json.dumps(value)[:40]


def _name(value, what: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= MAX_NAME:
        raise RequestError(400, f'"{what}" must be a card\'s name as the manual writes it (colour and face), '
                                f'not {_shown(value)}')
    return value


def parse_action(data: object) -> tuple[str, object]:
    """One action from its JSON: (kind, value), kind being card, castle, pass, decide, next or away."""
    if not isinstance(data, dict) or len(data) != 1:
        raise RequestError(400, f"an action is a JSON object with one field: {ACTIONS}")
    (kind, value), = data.items()
    if kind == "card":
        return kind, _name(value, "card")
    if kind == "castle":
        if not isinstance(value, dict) or not set(value) <= {"officer", "king", "seat"} or "officer" not in value:
            raise RequestError(400, 'castling is {"castle": {"officer": NAME}}, with "king": NAME where the seat may '
                                    'castle either of two Kings')
        king = value.get("king")
        return kind, (_name(value["officer"], "officer"), None if king is None else _name(king, "king"))
    if kind == "decide":
        if not isinstance(value, str) or not 0 < len(value) <= MAX_WORD:
            raise RequestError(400, f'"decide" is one of the options the view offers, as text (a card, "pass", a '
                                    f'contract), not {_shown(value)}')
        return kind, value
    if kind in ("pass", "next"):
        if value is not True:
            raise RequestError(400, f'write {{"{kind}": true}}')
        return kind, True
    if kind == "away":
        if not isinstance(value, bool):
            raise RequestError(400, 'write {"away": true} to let a bot play for you, {"away": false} to come back')
        return kind, value
    raise RequestError(400, f"{_shown(kind)} is not an action; the actions are {ACTIONS}")

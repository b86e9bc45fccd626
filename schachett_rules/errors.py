"""The project's error types.

Every complaint about bad input is one of these. Each carries enough context
(file, line and column; or trick, seat and card; and the clause it breaks) to be
printed as a single paragraph, and the CLI prints exactly that paragraph.
"""

from __future__ import annotations


class SchachettError(Exception):
    """Base of every error raised for bad input."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class RuleSyntaxError(SchachettError):
    """A rule file does not parse: shows file, line, column and a caret."""

    def __init__(self, message: str, file: str, line: int, column: int, excerpt: str = ""):
        self.file, self.line, self.column, self.excerpt = file, line, column, excerpt
        text = f"{file}:{line}:{column}: {message}"
        if excerpt:
            text += "\n" + excerpt
        super().__init__(text)


class RuleCheckError(SchachettError):
    """A rule file parses but says something impossible or inconsistent."""

    def __init__(self, message: str, file: str = "", line: int = 0, column: int = 0, clause: str = ""):
        self.file, self.line, self.column, self.clause = file, line, column, clause
        where = f"{file}:{line}:{column}: " if file else ""
        what = f"{clause}: " if clause else ""
        super().__init__(f"{where}{what}{message}")


class UnknownCard(SchachettError):
    """A card name that the ruleset's deck does not contain."""


class RecordError(SchachettError):
    """A game record that is malformed or does not fit the ruleset."""


class IllegalAction(SchachettError):
    """An action that the rules forbid at this point of the game.

    It names the trick, the seat, the card and the clause broken.
    """

    def __init__(self, message: str, trick: int | None = None, seat: int | None = None,
                 card: str | None = None, clause: str | None = None, where: str = ""):
        self.trick, self.seat, self.card, self.clause = trick, seat, card, clause
        self.reason, self.where = message, where  # kept apart so the error can be re-raised with a place
        parts = [where] if where else []
        if trick is not None:
            parts.append(f"trick {trick}")
        if seat is not None:
            parts.append(f"seat {seat}")
        if card is not None:
            parts.append(f"card {card}")
        head = ", ".join(parts)
        super().__init__(f"{head}: {message}" if head else message)


class UsageError(SchachettError):
    """A command-line argument that makes no sense (exit code 2)."""

"""Typed errors a player can read. All are ValueErrors so callers can catch them broadly."""

from __future__ import annotations


class VertexError(ValueError):
    """Base of every error Vertex raises on bad input."""


class OptionsError(VertexError):
    """Unknown game, unknown option or an option value out of range.

    `option` names the option the message is about (where one is), so a form can show the
    message next to that field.
    """

    def __init__(self, message: str, option: str | None = None) -> None:
        super().__init__(message)
        self.option = option


class IllegalMove(VertexError):
    """A move that does not parse, breaks a rule, or comes from the wrong seat.

    `reason` (where a game gives one) names the rule in a word a page can translate, with
    `params` (numbers and names) for its message; the English message says the same.
    """

    def __init__(
        self,
        message: str,
        reason: str | None = None,
        params: dict[str, float | int | str] | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.params = dict(params or {})


class NotationError(IllegalMove):
    """A move string that does not parse; the message names the expected form."""


class RecordError(VertexError):
    """A game record that is malformed or does not replay."""

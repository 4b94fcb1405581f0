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
    """A move that does not parse, breaks a rule, or comes from the wrong seat."""


class NotationError(IllegalMove):
    """A move string that does not parse; the message names the expected form."""


class RecordError(VertexError):
    """A game record that is malformed or does not replay."""

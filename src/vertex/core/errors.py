"""Typed errors a player can read. All are ValueErrors so callers can catch them broadly."""

from __future__ import annotations


class VertexError(ValueError):
    """Base of every error Vertex raises on bad input."""


Params = dict[str, "float | int | str | bool | list[str] | None"]


class OptionsError(VertexError):
    """Unknown game, unknown option or an option value out of range.

    `option` names the option the message is about (where one is), so a form can show the
    message next to that field; `problem` names what is wrong in a word and `params` its
    numbers and names, so a page can say it in its own language (the English message says
    the same). Nothing reads the message to find these.
    """

    def __init__(
        self,
        message: str,
        option: str | None = None,
        problem: str = "invalid",
        params: Params | None = None,
    ) -> None:
        super().__init__(message)
        self.option = option
        self.problem = problem
        self.params: Params = dict(params or {})


class OptionRule(ValueError):
    """A rule across a game's options, raised in its options model's validators: which
    option it is about, the problem in a word and its params (pydantic keeps the exception,
    and validate_options reads them from it)."""

    def __init__(self, message: str, option: str | None, problem: str, **params: object) -> None:
        super().__init__(message)
        self.option = option
        self.problem = problem
        self.params: Params = {k: _plain(v) for k, v in params.items()}


def _plain(v: object) -> float | int | str | bool | list[str] | None:
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (list, tuple)):
        return [str(x) for x in v]
    return str(v)


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

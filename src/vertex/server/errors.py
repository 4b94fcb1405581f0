"""Refusals a client can read: a code, its params, a message and (for HTTP) a 4xx status.

The code and params say what is wrong, for a page to word in its language (the page's
`errors` catalogs have a text for every code raised here: tests/server/test_error_codes.py);
the English message says the same for scripts and logs. Nothing matches the message.
"""

from __future__ import annotations

from typing import Any

from vertex.core.errors import IllegalMove, OptionsError, VertexError


class ApiError(Exception):
    """A refused request or message. Raised anywhere in the server, shown as
    `{error: {code, message, params?, option?, reason?}}` over HTTP and
    `{t: "error", code, message, ...}` on a socket."""

    def __init__(
        self,
        code: str,
        message: str,
        status: int = 400,
        option: str | None = None,
        reason: dict[str, Any] | None = None,
        params: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        #: For bad options: the option the message is about, so a form can point at it.
        self.option = option
        #: For a refused move: the game's rule in a word and its numbers ({rule, ...params}),
        #: so a page can say it in its own language.
        self.reason = reason
        #: The numbers and names the message quotes, for the page's own wording.
        self.params = dict(params or {})

    def fields(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.params:
            out["params"] = self.params
        if self.option is not None:
            out["option"] = self.option
        if self.reason is not None:
            out["reason"] = self.reason
        return out

    def body(self) -> dict[str, dict[str, Any]]:
        return {"error": self.fields()}


def illegal_move(exc: VertexError) -> ApiError:
    """A move the game refused, with the game's reason where it gives one."""
    reason = None
    if isinstance(exc, IllegalMove) and exc.reason is not None:
        reason = {"rule": exc.reason, **exc.params}
    return ApiError("illegal-move", str(exc), 422, reason=reason)


def bad_options(exc: OptionsError) -> ApiError:
    """Options a game refused: the option, the problem in a word and its params."""
    params = {"problem": exc.problem, **exc.params}
    return ApiError("bad-options", str(exc), 422, option=exc.option, params=params)


def not_found(table_id: str) -> ApiError:
    return ApiError("no-such-table", f"there is no table {table_id!r}", 404)

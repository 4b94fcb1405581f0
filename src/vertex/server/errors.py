"""Refusals a client can read: a code, a message and (for HTTP) a 4xx status."""

from __future__ import annotations

from typing import Any

from vertex.core.errors import IllegalMove, VertexError


class ApiError(Exception):
    """A refused request or message. Raised anywhere in the server, shown as
    `{error: {code, message}}` over HTTP and `{t: "error", code, message}` on a socket."""

    def __init__(
        self,
        code: str,
        message: str,
        status: int = 400,
        option: str | None = None,
        reason: dict[str, Any] | None = None,
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

    def body(self) -> dict[str, dict[str, Any]]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.option is not None:
            out["option"] = self.option
        if self.reason is not None:
            out["reason"] = self.reason
        return {"error": out}


def illegal_move(exc: VertexError) -> ApiError:
    """A move the game refused, with the game's reason where it gives one."""
    reason = None
    if isinstance(exc, IllegalMove) and exc.reason is not None:
        reason = {"rule": exc.reason, **exc.params}
    return ApiError("illegal-move", str(exc), 422, reason=reason)


def not_found(table_id: str) -> ApiError:
    return ApiError("no-such-table", f"there is no table {table_id!r}", 404)

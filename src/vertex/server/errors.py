"""Refusals a client can read: a code, a message and (for HTTP) a 4xx status."""

from __future__ import annotations


class ApiError(Exception):
    """A refused request or message. Raised anywhere in the server, shown as
    `{error: {code, message}}` over HTTP and `{t: "error", code, message}` on a socket."""

    def __init__(
        self, code: str, message: str, status: int = 400, option: str | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        #: For bad options: the option the message is about, so a form can point at it.
        self.option = option

    def body(self) -> dict[str, dict[str, str]]:
        out = {"code": self.code, "message": self.message}
        if self.option is not None:
            out["option"] = self.option
        return {"error": out}


def not_found(table_id: str) -> ApiError:
    return ApiError("no-such-table", f"there is no table {table_id!r}", 404)

"""Refusals a client can read: a code, a message and (for HTTP) a 4xx status."""

from __future__ import annotations


class ApiError(Exception):
    """A refused request or message. Raised anywhere in the server, shown as
    `{error: {code, message}}` over HTTP and `{t: "error", code, message}` on a socket."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def body(self) -> dict[str, dict[str, str]]:
        return {"error": {"code": self.code, "message": self.message}}


def not_found(table_id: str) -> ApiError:
    return ApiError("no-such-table", f"there is no table {table_id!r}", 404)

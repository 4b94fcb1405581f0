"""The socket protocol: client messages in (messages.py parses them), errors out."""

from __future__ import annotations

from typing import Any

from vertex.server.errors import ApiError
from vertex.server.table.messages import TYPES, parse

#: Client message types (messages.py's models), for tests and docs.
CLIENT_MESSAGES = tuple(TYPES)

__all__ = ["CLIENT_MESSAGES", "error", "parse"]


def error(exc: ApiError, cid: Any = None) -> dict[str, Any]:
    msg: dict[str, Any] = {"t": "error", **exc.fields()}
    if cid is not None:
        msg["id"] = cid
    return msg

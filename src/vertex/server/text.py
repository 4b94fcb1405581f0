"""Display names and chat lines: trimmed, printable, within their limit."""

from __future__ import annotations

from typing import Any, Literal

from vertex.server.errors import ApiError


def check_text(text: str, limit: int, what: Literal["name", "chat"]) -> str:
    text = text.strip()
    params: dict[str, Any]
    if not text:
        msg, params = f"the {what} is empty", {"why": "empty"}
    elif len(text) > limit:
        msg = f"a {what} may be at most {limit} characters, not {len(text)}"
        params = {"why": "too-long", "limit": limit, "length": len(text)}
        if what == "chat":
            raise ApiError("chat-too-long", msg, params=params)
    elif any(not ch.isprintable() for ch in text):
        msg, params = f"the {what} has control characters", {"why": "control"}
    else:
        return text
    if what == "chat":
        raise ApiError("bad-chat", msg, params=params)
    raise ApiError("bad-name", msg, params=params)

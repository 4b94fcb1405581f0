"""Display names and chat lines: trimmed, printable, within their limit."""

from __future__ import annotations

from typing import Literal

from vertex.server.errors import ApiError


def check_text(text: str, limit: int, what: Literal["name", "chat"]) -> str:
    text = text.strip()
    bad = "bad-name" if what == "name" else "bad-chat"
    if not text:
        raise ApiError(bad, f"the {what} is empty", params={"why": "empty"})
    if len(text) > limit:
        code = "chat-too-long" if what == "chat" else "bad-name"
        raise ApiError(
            code,
            f"a {what} may be at most {limit} characters, not {len(text)}",
            params={"why": "too-long", "limit": limit, "length": len(text)},
        )
    if any(not ch.isprintable() for ch in text):
        raise ApiError(bad, f"the {what} has control characters", params={"why": "control"})
    return text

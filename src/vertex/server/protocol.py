"""The socket protocol: client messages in, checked before anything else sees them.

Every message is a JSON object `{t, ...}`. Anything else, or anything too big, is refused
with an error naming the problem.
"""

from __future__ import annotations

import json
from typing import Any

from vertex.server.commands import COMMANDS
from vertex.server.errors import ApiError

#: Client message types and the fields each may carry (beyond `t` and `id`): the command
#: table's (commands.py), and `ping`.
CLIENT_MESSAGES: dict[str, frozenset[str]] = {
    **{name: cmd.fields for name, cmd in COMMANDS.items()},
    "ping": frozenset(),
}

MAX_ID_CHARS = 64
MAX_MOVE_CHARS = 200


def parse(raw: str | bytes, max_bytes: int) -> dict[str, Any]:
    """A checked client message, or ApiError (`too-large`, `bad-json`, `bad-message`)."""
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > max_bytes:
        raise ApiError("too-large", f"a message may be at most {max_bytes} bytes, not {size}")
    try:
        msg = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise ApiError("bad-json", 'a message must be a JSON object like {"t": "ping"}') from None
    if not isinstance(msg, dict):
        raise ApiError("bad-message", "a message must be a JSON object with a type 't'")
    t = msg.get("t")
    if not isinstance(t, str) or t not in CLIENT_MESSAGES:
        known = ", ".join(CLIENT_MESSAGES)
        raise ApiError("bad-message", f"unknown message type {t!r} (types: {known})")
    allowed = CLIENT_MESSAGES[t] | {"t", "id"}
    extra = sorted(set(msg) - allowed)
    if extra:
        raise ApiError("bad-message", f"'{t}' messages take no field {', '.join(extra)}")
    check_id(msg.get("id"))
    if t in ("move", "aim"):
        move = msg.get("move")
        if not isinstance(move, str) or not move.strip():
            example = "a1-b1" if t == "move" else "pyramid x=0 y=0 rot=0"
            raise ApiError("bad-message", f"'{t}' needs a move string, like \"{example}\"")
        if len(move) > MAX_MOVE_CHARS:
            raise ApiError("bad-message", f"a move may be at most {MAX_MOVE_CHARS} characters")
        check_version(msg.get("v"))
    elif t == "chat":
        if not isinstance(msg.get("text"), str):
            raise ApiError("bad-message", "'chat' needs a text string")
    elif t == "hand-over":
        seat, level = msg.get("seat"), msg.get("level")
        if seat is not None and not _is_int(seat):
            raise ApiError("bad-message", "'seat' must be a seat number")
        if level is not None and not (_is_int(level) and 1 <= level <= 5):
            raise ApiError("bad-message", "'level' must be a computer level from 1 to 5")
    return msg


def check_id(cid: Any) -> None:
    if cid is None:
        return
    if _is_int(cid) or (isinstance(cid, str) and 0 < len(cid) <= MAX_ID_CHARS):
        return
    raise ApiError("bad-message", f"'id' must be a number or a string of 1-{MAX_ID_CHARS} chars")


def check_version(v: Any) -> None:
    if v is not None and not (_is_int(v) and v >= 0):
        raise ApiError("bad-message", "'v' must be the table version you saw (a number ≥ 0)")


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def error(exc: ApiError, cid: Any = None) -> dict[str, Any]:
    msg: dict[str, Any] = {"t": "error", "code": exc.code, "message": exc.message}
    if exc.reason is not None:
        msg["reason"] = exc.reason
    if cid is not None:
        msg["id"] = cid
    return msg


def check_text(text: str, limit: int, what: str) -> str:
    """A display name or chat line: trimmed, printable, within its limit."""
    text = text.strip()
    if not text:
        raise ApiError("bad-" + what, f"the {what} is empty")
    if len(text) > limit:
        code = "chat-too-long" if what == "chat" else "bad-" + what
        raise ApiError(code, f"a {what} may be at most {limit} characters, not {len(text)}")
    if any(not ch.isprintable() for ch in text):
        raise ApiError("bad-" + what, f"the {what} has control characters")
    return text

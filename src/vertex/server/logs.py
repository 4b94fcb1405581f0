"""The server's log: one JSON object a line, on stderr.

Most events are logged as JSON already (`{"event": "think", ...}`); this formatter adds the
level, the time and the request id of the HTTP request being served (api/request_ids.py)
and wraps any other line as `{"event": "log", "msg": ...}`. A traceback (an unexpected
failure; expected outages have none, site/faults.py) goes in the line's `exc` field, so a
line is always one event.
"""

from __future__ import annotations

import json
import logging
import sys
from contextvars import ContextVar
from typing import Any

#: The request id of the HTTP request (or socket) being served in this task.
REQUEST_ID: ContextVar[str | None] = ContextVar("vertex_request_id", default=None)


class JsonLines(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        msg = record.getMessage()
        out: dict[str, Any] = {}
        if msg.startswith("{"):
            try:
                fields = json.loads(msg)
            except ValueError:
                fields = None
            if isinstance(fields, dict):
                out.update(fields)
        if not out:
            out = {"event": "log", "msg": msg, "logger": record.name}
        out["level"] = record.levelname.lower()
        out["ts"] = round(record.created, 3)
        rid = REQUEST_ID.get()
        if rid is not None:
            out.setdefault("request", rid)
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, separators=(",", ":"), default=str)


def setup() -> None:
    """JSON lines on stderr for every logger (uvicorn's too: cli.py gives it no config)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines())
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    # Alembic's step-by-step lines belong to `vertex db upgrade`, which says what it did;
    # a server creating a new database's schema needs none of them
    logging.getLogger("alembic").setLevel(logging.WARNING)

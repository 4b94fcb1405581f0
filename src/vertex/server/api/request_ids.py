"""Every HTTP request has an id: the client's (or nginx's) `X-Request-Id` when it is a
sane token, else a new one. It is echoed in the reply's `X-Request-Id`, carried by every
log line written while the request is served (logs.py) and by the request's own access
line (`{"event": "http", ...}`: method, path without the query, status, milliseconds).
Sockets get one too, for their log lines (their handshake reply is uvicorn's).
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import time
from typing import Any

from vertex.server.api.guards import ASGIApp, Message, Receive, Scope, Send
from vertex.server.logs import REQUEST_ID
from vertex.server.metrics import HTTP

log = logging.getLogger("vertex.server.http")

#: An id a client may choose: short, and nothing a log reader could be misled by.
_SANE = re.compile(rb"^[A-Za-z0-9._:-]{1,64}$")
_CLASSES = {1: "1xx", 2: "2xx", 3: "3xx", 4: "4xx", 5: "5xx"}


def request_id(scope: Scope) -> str:
    for name, value in scope.get("headers", ()):
        if name == b"x-request-id" and _SANE.match(value):
            text: str = value.decode("ascii")
            return text
    return secrets.token_hex(8)


class RequestIds:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        rid = request_id(scope)
        token = REQUEST_ID.set(rid)
        if scope["type"] == "websocket":
            try:
                await self.app(scope, receive, send)
            finally:
                REQUEST_ID.reset(token)
            return
        start = time.perf_counter()
        status = [0]

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
                headers = [*message.get("headers", ()), (b"x-request-id", rid.encode())]
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            _access(scope, status[0], time.perf_counter() - start)
            REQUEST_ID.reset(token)


def _access(scope: Scope, status: int, seconds: float) -> None:
    HTTP.labels(_CLASSES.get(status // 100, "none")).inc()
    line: dict[str, Any] = {
        "event": "http",
        "method": scope.get("method"),
        "path": str(scope.get("path", ""))[:200],  # never the query (it may hold a token)
        "status": status,
        "ms": round(seconds * 1000, 1),
    }
    if log.isEnabledFor(logging.INFO):
        log.info(json.dumps(line, separators=(",", ":")))

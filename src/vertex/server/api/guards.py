"""What every HTTP request passes: the error replies, the path check, the body's limits
(size, nesting, time).

Handlers only translate: ApiErrors become `{error: {code, message}}`. Nothing a client sends
can produce a stack trace in a reply.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from vertex.server.errors import ApiError
from vertex.server.site.faults import unavailable
from vertex.server.table.nesting import MAX_DEPTH, depth

log = logging.getLogger("vertex.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def add_error_handlers(app: FastAPI) -> None:
    """Every error a client gets is `{error: {code, message, params?}}`; never a trace."""

    @app.exception_handler(ApiError)
    async def api_error(_r: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse(exc.body(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(_r: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for err in exc.errors()[:5]:
            where = ".".join(str(p) for p in err.get("loc", ()) if p != "body") or "request"
            problems.append(f"{where}: {err.get('msg', 'invalid')}")
        first = exc.errors()[0] if exc.errors() else {}
        field = ".".join(str(p) for p in first.get("loc", ()) if p != "body") or None
        params = {"field": field, "problem": str(first.get("type", "invalid"))}
        body = {"error": {"code": "bad-request", "message": "; ".join(problems), "params": params}}
        return JSONResponse(body, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_r: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not-found", 405: "method-not-allowed"}.get(exc.status_code, "http-error")
        body = {"error": {"code": code, "message": str(exc.detail)}}
        return JSONResponse(body, status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def crash(_r: Request, exc: Exception) -> JSONResponse:
        away = unavailable(exc)
        if away is not None:
            return JSONResponse(away.body(), status_code=away.status)
        log.error("request failed", exc_info=exc)
        body = {"error": {"code": "internal", "message": "the server failed; nothing changed"}}
        return JSONResponse(body, status_code=500)


#: No URL of ours has a NUL, a control character or a `..` segment.
_BAD_PATH = re.compile(r"[\x00-\x1f\x7f]|(^|/)\.\.(/|$)")


class PathCheck:
    """A path no route of ours could have (NUL, control characters, `..`) is a plain 404
    here, before a router, a file lookup or a database sees it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and _BAD_PATH.search(scope.get("path", "")):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 4404})
                return
            body = {"error": {"code": "not-found", "message": "there is no such page"}}
            await JSONResponse(body, status_code=404)(scope, _no_receive, send)
            return
        await self.app(scope, receive, send)


#: What a redirect's path and query keep as they are (RFC 3986: pchar, and the query's own).
PATH_SAFE = "/:@!$&'()*+,;=-._~"
QUERY_SAFE = PATH_SAFE + "?%"


class SlashRedirect:
    """`/api/games/` -> `/api/games`, redirected with a relative `Location` (the path alone).

    Starlette's own redirect writes the absolute URL from the request's `Host` header, so a
    forged Host came back in `Location` (issue 37); it is switched off (app.py) and this one
    answers instead, only where the path without its slash is a route of ours.
    """

    def __init__(self, app: ASGIApp, router: Any) -> None:
        self.app = app
        self.router = router

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and len(path) > 1 and path.endswith("/"):
            # never `//host`: a Location with two slashes would lead to another site
            bare = {**scope, "path": "/" + path.strip("/")}
            if any(route.matches(bare)[0] != Match.NONE for route in self.router.routes):
                # percent-encoded again (the path arrived decoded; a header is ASCII), the
                # query's bytes as they came but for what a header cannot carry
                query = quote(scope.get("query_string", b""), safe=QUERY_SAFE)
                target = quote(bare["path"], safe=PATH_SAFE) + (f"?{query}" if query else "")
                await send(
                    {
                        "type": "http.response.start",
                        "status": 308,
                        "headers": [
                            (b"location", target.encode("latin-1")),
                            (b"content-length", b"0"),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": b""})
                return
        await self.app(scope, receive, send)


class BodyLimit:
    """Refuse request bodies over `limit` bytes, nested deeper than `MAX_DEPTH` or not in
    whole within `timeout_s` seconds, before anything parses them.

    The body is read here (it is small by definition) and handed on whole. (Headers that
    never end are the server's to time out: server/api/timeouts.py.)
    """

    def __init__(self, app: ASGIApp, limit: int, timeout_s: float = 10.0) -> None:
        self.app = app
        self.limit = limit
        self.timeout_s = timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await self._refuse(send)
                return
        try:
            async with asyncio.timeout(self.timeout_s):
                body = await self._read(receive, send)
        except TimeoutError:
            msg = f"the request body did not arrive within {self.timeout_s:g} s"
            params = {"seconds": self.timeout_s}
            await _reply(send, 408, {"code": "slow-request", "message": msg, "params": params})
            return
        if body is None:
            return
        if depth(body) > MAX_DEPTH:
            msg = f"a request body may nest at most {MAX_DEPTH} levels of arrays and objects"
            params = {"limit": MAX_DEPTH}
            await _reply(send, 400, {"code": "too-deep", "message": msg, "params": params})
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _read(self, receive: Receive, send: Send) -> bytes | None:
        """The whole body, or None if the client went away or it was too large (refused)."""
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return None  # the client went away
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                await self._refuse(send)
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)

    async def _refuse(self, send: Send) -> None:
        msg = f"a request body may be at most {self.limit} bytes"
        await _reply(
            send, 413, {"code": "too-large", "message": msg, "params": {"limit": self.limit}}
        )


async def _reply(send: Send, status: int, error: dict[str, Any]) -> None:
    headers = {"Connection": "close"} if status == 408 else None
    await JSONResponse({"error": error}, status_code=status, headers=headers)(
        {"type": "http"}, _no_receive, send
    )


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}

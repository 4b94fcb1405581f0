"""What every HTTP request passes: the error replies and the body limit.

Handlers only translate: ApiErrors become `{error: {code, message}}`. Nothing a client sends
can produce a stack trace in a reply.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from vertex.server.errors import ApiError
from vertex.server.faults import unavailable

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


class BodyLimit:
    """Refuse request bodies over `limit` bytes before anything parses them.

    The body is read here (it is small by definition) and handed on whole.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await self._refuse(send)
                return
        chunks: list[bytes] = []
        seen = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            seen += len(chunk)
            if seen > self.limit:
                await self._refuse(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if sent:
                return await receive()
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        msg = f"a request body may be at most {self.limit} bytes"
        body = {"error": {"code": "too-large", "message": msg, "params": {"limit": self.limit}}}
        response = JSONResponse(body, status_code=413)
        await response({"type": "http"}, _no_receive, send)


async def _no_receive() -> Message:
    return {"type": "http.disconnect"}

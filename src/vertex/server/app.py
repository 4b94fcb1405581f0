"""The ASGI app: the HTTP API and the table socket of DESIGN.md §5.

Handlers only translate: requests become hub commands, ApiErrors become
`{error: {code, message}}`. Nothing a client sends can produce a stack trace in a reply.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field, model_validator
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect

from vertex.core import list_games
from vertex.server import views
from vertex.server.analysis import add_analysis_routes
from vertex.server.bests import router as bests_router
from vertex.server.conn import Conn, TokenBucket
from vertex.server.errors import ApiError
from vertex.server.faults import unavailable
from vertex.server.hub import Hub, checked_game, dumps
from vertex.server.lobby.routes import add_lobby_routes
from vertex.server.messages import (
    ACTIONS,
    AimText,
    ChatText,
    ClientId,
    Command,
    MoveText,
    Ping,
    SeatNumber,
    Version,
    command,
)
from vertex.server.parts import parts_for
from vertex.server.protocol import error, parse
from vertex.server.replay import add_replay_routes
from vertex.server.rules import add_rules_routes
from vertex.server.settings import Settings
from vertex.server.spec import SeatSpec
from vertex.server.table import Table, token_hash
from vertex.server.text import check_text
from vertex.server.web import SecurityHeaders, Site, add_page_routes, preview

log = logging.getLogger("vertex.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


# ---- request bodies ---------------------------------------------------------------------------
# Strict like the socket's models (messages.py): `"version": "2"` or `"level": true` are refused.
class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


Level = Annotated[int, Field(ge=1, le=5, description="computer level, 1-5")]


class SeatIn(_Body):
    kind: Literal["human", "ai"] = "human"
    level: Level | None = None

    def spec(self) -> SeatSpec:
        if self.kind == "human":
            return SeatSpec(kind="human")
        return SeatSpec(kind="ai", level=2 if self.level is None else self.level)


#: Clock seconds: at least a tenth of a second (no 1e-300), at most a day.
Seconds = Annotated[float, Field(ge=0.1, le=86_400, allow_inf_nan=False)]


class Clock(_Body):
    per_move: Seconds | None = Field(default=None, description="seconds a move")
    total: Seconds | None = Field(default=None, description="seconds a game")
    increment: float = Field(
        default=0, ge=0, le=3_600, allow_inf_nan=False, description="seconds added per move"
    )

    @model_validator(mode="after")
    def _one_kind(self) -> Clock:
        if (self.per_move is None) == (self.total is None):
            raise ValueError("a clock has either per_move or total (+ increment)")
        return self


class CreateTable(_Body):
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatIn] | None = Field(
        default=None, max_length=64, description="default: every seat human"
    )
    undo: bool = Field(default=False, description="take-backs with the others' consent")
    clock: Clock | None = Field(default=None, description="default: no clock")
    on_timeout: Literal["computer", "lose"] = Field(
        default="computer", description="when a clock runs out: a computer moves, or the seat loses"
    )
    listed: bool = Field(
        default=False,
        description="show the table in the lobby (`GET /api/lobby`); default: only its link",
    )
    analysis: bool = Field(
        default=False,
        description="analysis allowed (a practice table): perfect-play analysis for anyone "
        "during play; default: only once the game is over",
    )


class CheckOptions(_Body):
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)


class TakeSeat(_Body):
    name: str = Field(min_length=1, max_length=200)


Token = Annotated[str, Field(min_length=1, max_length=200, description="your seat token")]


class MoveIn(_Body):
    token: Token
    move: MoveText
    version: Version | None = None
    id: ClientId | None = None


class AimIn(_Body):
    token: Token
    move: AimText
    id: ClientId | None = None


class Best(BaseModel):
    name: str = Field(description="the player's display name")
    levels: int = Field(description="levels completed")
    height_mm: float = Field(description="height of the tower's last good placement (mm)")
    table: str = Field(description="the table the result was built at")
    at: float = Field(description="when the game ended (seconds since 1970, UTC)")


class Bests(BaseModel):
    name: str | None = Field(description="whose results these are; null for the top list")
    bests: list[Best] = Field(description="best first: levels, then height, then the earlier")


class ActionIn(_Body):
    """A table action; its fields are the socket command's (messages.py), checked alike."""

    token: Token
    action: Literal[ACTIONS] = Field(description="one of the table actions")  # type: ignore[valid-type]
    text: ChatText | None = Field(default=None, description="chat: the line")
    seat: SeatNumber | None = Field(default=None, description="hand-over: whose seat")
    level: Level | None = Field(default=None, description="hand-over: the computer's level")

    def command(self) -> Command:
        msg: dict[str, Any] = {"t": self.action}
        if self.action == "chat":
            msg["text"] = self.text or ""
        if self.action == "hand-over":
            msg.update(seat=self.seat, level=self.level)
        return command(msg)


# ---- the app ----------------------------------------------------------------------------------
def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    hub = Hub(settings, parts_for(settings))

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(
        title="Vertex",
        version="0.1.0",
        summary="Play pen-and-paper and pyramid games online: tables, seats, live play.",
        lifespan=lifespan,
    )
    app.state.hub = hub
    _errors(app)
    app.add_middleware(BodyLimit, limit=settings.limits.body_bytes)
    app.add_middleware(SecurityHeaders)

    site = Site()

    async def table_exists(tid: str) -> bool:
        try:
            await hub.get(tid)
        except ApiError:
            return False
        return True

    add_page_routes(app, site, table_exists)
    add_rules_routes(app)

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        """The process is up; `status` is `degraded` while Redis or the database is away."""
        return await hub.health()

    @app.get("/readyz", responses={503: {"description": "Redis or the database is away"}})
    async def readyz() -> JSONResponse:
        """200 when this process can serve everything; 503 while Redis or the database is
        unreachable (a load balancer sends new clients elsewhere meanwhile)."""
        health = await hub.health()
        keys = ("status", "database_up", "redis_up", "worker")
        return JSONResponse({k: health[k] for k in keys}, status_code=200 if health["ok"] else 503)

    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        """Every game: id, name, rule summary, options (JSON Schema) and their defaults, and
        `preview`: the state (as in a table view) of a small example game, for pictures."""
        return [{**g, "preview": preview(g["id"])} for g in list_games()]

    @app.post("/api/options/check")
    async def check_options(body: CheckOptions) -> dict[str, Any]:
        """Check a game's options before opening a table: the options as the table would
        have them and its number of seats, or the error (its `option` names the field)."""
        game = checked_game(body.game, body.options)
        return {"game": game.id, "options": game.options_dict(), "seats": game.seats}

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        """Open a table. Share `url`; each player then takes a seat."""
        creator = request.client.host if request.client else "unknown"
        game = checked_game(body.game, body.options)  # the one time options are checked
        seats = None if body.seats is None else [s.spec() for s in body.seats]
        settings_ = {
            "undo": body.undo,
            "clock": None if body.clock is None else body.clock.model_dump(exclude_none=True),
            "on_timeout": body.on_timeout,
            "analysis": body.analysis,
        }
        table = await hub.create(game, seats, settings_, creator, body.listed)
        return {"id": table.id, "url": f"/tables/{table.id}", "seats": views.public_seats(table)}

    @app.get("/api/tables/{table_id}")
    async def view(table_id: TableId) -> dict[str, Any]:
        """The public view: what a spectator sees."""
        return await hub.view(table_id)

    @app.post("/api/tables/{table_id}/seats/{n}")
    async def take_seat(table_id: TableId, n: int, body: TakeSeat) -> dict[str, Any]:
        """Take free seat `n`. The token is the only proof of the seat: keep it private."""
        token, v = await hub.take_seat(table_id, n, body.name)
        return {"seat": n, "token": token, "version": v, "seat_link": _seat_link(table_id, token)}

    @app.post("/api/tables/{table_id}/moves")
    async def move(table_id: TableId, body: MoveIn) -> dict[str, Any]:
        """Play a move for the seat the token holds (the same checks as the socket)."""
        table = await hub.get(table_id)
        seat = await _seat(hub, table, body.token)
        msg = command({"t": "move", "move": body.move, "v": body.version, "id": body.id})
        reply = await hub.command(table_id, seat, token_hash(body.token), msg)
        return {"version": reply["v"], "duplicate": reply.get("duplicate", False)}

    @app.post("/api/tables/{table_id}/aims")
    async def aim(table_id: TableId, body: AimIn) -> dict[str, Any]:
        """Say where you aim your piece now (games with aiming: Verticality). Checked like a
        move but not played; kept privately, never shown to others. When your step clock
        runs out the piece drops at your last aim (else at the game's default spot)."""
        table = await hub.get(table_id)
        seat = await _seat(hub, table, body.token)
        msg = command({"t": "aim", "move": body.move, "id": body.id})
        reply = await hub.command(table_id, seat, token_hash(body.token), msg)
        return {"version": reply["v"], "aim": reply["aim"]}

    @app.post("/api/tables/{table_id}/actions")
    async def action(table_id: TableId, body: ActionIn) -> dict[str, Any]:
        """Table actions for scripts: resign, rematch, undo and end requests, chat, hand-over."""
        table = await hub.get(table_id)
        seat = await _seat(hub, table, body.token)
        reply = await hub.command(table_id, seat, token_hash(body.token), body.command())
        out = {"version": reply["v"]}
        if "table" in reply:
            out["table"] = reply["table"]
        return out

    @app.get("/api/tables/{table_id}/record", response_model=None)
    async def record(
        table_id: TableId, format: Literal["json", "text"] = "json"
    ) -> dict[str, Any] | PlainTextResponse:
        """The game record (replays with `vertex replay`); `?format=text`: one move a line."""
        rec = views.record(await hub.get(table_id))
        if format == "text":
            return PlainTextResponse(rec.to_text())
        return rec.model_dump(mode="json")

    @app.get("/api/verticality/bests")
    async def bests(
        name: Annotated[
            str | None,
            Query(max_length=200, description="a display name: that player's results"),
        ] = None,
        limit: Annotated[int, Query(ge=1, le=100, description="at most this many")] = 20,
    ) -> Bests:
        """Solo Verticality personal bests: with `name`, that player's results; without, the
        top list (each name's best). Best first: levels completed, then height."""
        if name is not None:
            name = check_text(name, hub.limits.name_chars, "name")
        rows = await hub.store.bests(name, limit)
        listed = [
            Best(name=r.name, levels=r.levels, height_mm=r.height_mm, table=r.table_id, at=r.at)
            for r in rows
        ]
        return Bests(name=name, bests=listed)

    @app.websocket("/ws/tables/{table_id}")
    async def socket(ws: WebSocket, table_id: str) -> None:
        await _serve_socket(hub, ws, table_id)

    app.include_router(bests_router)
    add_replay_routes(app, hub)
    add_lobby_routes(app, hub)
    add_analysis_routes(app, hub)
    return app


TableId = Annotated[str, Path(max_length=64, description="the table id from its link")]


async def _seat(hub: Hub, table: Table, token: str) -> int:
    seat = table.seat_of(token)
    if seat is None:
        raise ApiError("bad-token", "that seat token does not hold a seat at this table", 403)
    if not await hub.take_rate(token_hash(token)):
        per_s = hub.limits.messages_per_second
        raise ApiError(
            "rate-limited",
            f"too many commands: at most {per_s:g} a second",
            429,
            params={"per_second": per_s},
        )
    return seat


def _seat_link(table_id: str, token: str) -> str:
    # The token rides in the fragment, which browsers never send to a server or a log.
    return f"/tables/{table_id}#token={token}"


# ---- the socket -------------------------------------------------------------------------------
async def _serve_socket(hub: Hub, ws: WebSocket, table_id: str) -> None:
    await ws.accept()
    limits = hub.limits
    try:
        table = await hub.get(table_id)
        seat, token = None, ws.query_params.get("token")
        if token is not None:
            seat = table.seat_of(token)
            if seat is None:
                raise ApiError("bad-token", "that seat token does not hold a seat at this table")
        since_raw = ws.query_params.get("since")
        since = None
        if since_raw is not None:
            if not since_raw.isdigit() or len(since_raw) > 12:
                raise ApiError(
                    "bad-message",
                    "'since' must be a table version (a number ≥ 0)",
                    params={"problem": "since"},
                )
            since = int(since_raw)
    except ApiError as exc:
        with contextlib.suppress(Exception):
            await ws.send_text(dumps(error(exc)))
            await ws.close(code=4404 if exc.code == "no-such-table" else 4400)
        return
    bucket = TokenBucket(limits.messages_per_second, limits.message_burst)
    deltas = ws.query_params.get("deltas") == "1"  # state patches instead of states
    conn = Conn(ws, table_id, seat, None if token is None else token_hash(token), bucket, deltas)
    pump = asyncio.create_task(conn.pump())
    try:
        await hub.attach(conn, since)
        while not conn.closed:
            raw = await ws.receive()
            if raw["type"] == "websocket.disconnect":
                break
            data = raw.get("text")
            if data is None:
                data = raw.get("bytes") or b""
            reply = await _handle(hub, conn, data)
            if reply is not None:
                conn.send(dumps(reply))
    except WebSocketDisconnect:
        pass
    except ApiError as exc:  # the table could not be loaded
        conn.send(dumps(error(exc)))
    except Exception:
        log.exception("socket for table %s failed", table_id)
    finally:
        hub.detach(conn)
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(pump, timeout=5)
        with contextlib.suppress(Exception):
            await ws.close()


async def _handle(hub: Hub, conn: Conn, data: str | bytes) -> dict[str, Any] | None:
    cid = None
    try:
        if not conn.bucket.take():
            per_s = hub.limits.messages_per_second
            raise ApiError(
                "rate-limited",
                f"too many messages: at most {per_s:g} a second",
                params={"per_second": per_s},
            )
        msg = parse(data, hub.limits.message_bytes)
        cid = msg.id
        if isinstance(msg, Ping):
            return {"t": "pong", **({"id": cid} if cid is not None else {})}
        if conn.seat is None or conn.token is None:
            raise ApiError("spectator", "spectators watch; take a seat to play")
        return await hub.command(conn.table_id, conn.seat, conn.token, msg)
    except ApiError as exc:
        return error(exc, cid)
    except Exception as exc:
        away = unavailable(exc)
        if away is None:
            raise
        return error(away, cid)


# ---- errors and limits ------------------------------------------------------------------------
def _errors(app: FastAPI) -> None:
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

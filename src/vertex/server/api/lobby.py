"""The lobby's routes: `GET /api/lobby`, Play now, unlisting, and the `/ws/lobby` socket.

The socket sends `{"t": "lobby", "v", "open", "live", "finished", "counts"}` first, then
`{"t": "change", "v", "up": [entries], "gone": [ids], "counts"}` for each change to what it
shows (`v` counts this process's changes). A client may send `{"t": "follow", "tables":
[ids]}` (its own tables, at most 50): it gets `{"t": "mine", "tables": [entries],
"missing": [ids]}` now and `{"t": "mine", "tables": [entry]}` after each of their events.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
from typing import TYPE_CHECKING, Annotated, Any, Literal

from fastapi import FastAPI, Query, Request, Response, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, Field

from vertex.core import game_ids
from vertex.server.api.socket import take_slot
from vertex.server.errors import ApiError
from vertex.server.live.sockets import dumps
from vertex.server.lobby import play
from vertex.server.lobby.conns import FOLLOW_MOST, LobbyConn
from vertex.server.site.addresses import address_of
from vertex.server.site.faults import log_failure
from vertex.server.site.rates import TokenBucket
from vertex.server.table.messages import StrictBody
from vertex.server.table.nesting import check_depth
from vertex.server.table.pools import BY_ID
from vertex.server.text import check_text

if TYPE_CHECKING:
    from vertex.server.hub import Hub

log = logging.getLogger("vertex.server")

_ID = re.compile(r"^[A-Za-z0-9_-]{8,40}$")


class LobbySeat(BaseModel):
    name: str | None = Field(description="who sits here (null: free, or a computer)")
    kind: Literal["human", "ai"]
    level: int | None = Field(description="a computer's level, 1-5")
    free: bool = Field(description="a person may still sit here")


class LobbyResult(BaseModel):
    winners: list[int] | None
    reason: str | None


class LobbyEntry(BaseModel):
    id: str = Field(description="the table id (its page is /tables/ID)")
    game: str
    options: dict[str, Any] = Field(description="the game's options, as the table has them")
    seats: list[LobbySeat]
    free_seats: int
    clock: dict[str, float] | None = Field(description="per_move, or total + increment")
    undo: bool
    analysis: bool = Field(
        default=False, description="analysis allowed during play (a practice table)"
    )
    section: Literal["open", "live", "finished"]
    listed_at: float = Field(description="when the table was opened (seconds since 1970)")
    started_at: float | None
    finished_at: float | None
    scores: list[float] | None = Field(description="per seat, once the game started")
    to_move: list[int] = Field(description="seats to move now")
    result: LobbyResult | None
    watching: int = Field(description="spectators connected")
    quick: bool = Field(description="Play now may seat a player here")
    v: int = Field(description="the table's version this summary is of")


class LobbyCounts(BaseModel):
    open: int
    live: int
    finished: int


class LobbyView(BaseModel):
    open: list[LobbyEntry] = Field(description="waiting for players, newest first (at most 50)")
    live: list[LobbyEntry] = Field(description="playing now, newest first (at most 50)")
    finished: list[LobbyEntry] = Field(description="just finished, newest first (at most 50)")
    counts: LobbyCounts = Field(description="entries in each section in all (the rest: minus 50)")


_Body = StrictBody


class PlayNow(_Body):
    game: str = Field(max_length=64)
    name: str | None = Field(
        default=None,
        min_length=1,
        max_length=400,
        description="your display name (rated: the player's name instead)",
    )
    pool: str | None = Field(
        default=None,
        max_length=64,
        description="rated Play now in this pool (`/api/games` pools; needs the player key)",
    )


class Seated(BaseModel):
    id: str
    seat: int
    token: str = Field(description="the seat token: keep it private")
    waiting: bool = Field(description="true: a new table, waiting for an opponent")
    url: str
    seat_link: str


class Unlist(_Body):
    table: str = Field(max_length=64)
    token: str = Field(min_length=1, max_length=200, description="a seat token of the table")


class Unlisted(BaseModel):
    id: str
    listed: bool
    started: bool = Field(description="someone sat down first: the game is on")


GameFilter = Annotated[
    str | None, Query(max_length=64, description="only this game's tables (a game id)")
]


def _game(game: str | None) -> str | None:
    if game is not None and game not in game_ids():
        raise ApiError("unknown-game", f"there is no game {game!r}", 422)
    return game


def add_lobby_routes(app: FastAPI, hub: Hub) -> None:
    lobby = hub.lobby
    # The answer per filter, kept until the list changes (many readers, few changes).
    answers: dict[str | None, tuple[int, bytes]] = {}

    @app.get("/api/lobby", response_model=LobbyView)
    async def lobby_view(game: GameFilter = None) -> Response:
        """The listed tables: waiting for players, playing now, just finished (each newest
        first, at most 50, with the full counts). Private tables are never in it."""
        game = _game(game)
        kept = answers.get(game)
        if kept is None or kept[0] != lobby.v:
            kept = answers[game] = (lobby.v, dumps(lobby.snapshot(game)).encode())
        return Response(kept[1], media_type="application/json")

    @app.post("/api/lobby/play-now")
    async def play_now(body: PlayNow, request: Request) -> Seated:
        """Sit at the oldest listed table of this game waiting for one more player (default
        options, no clock), or open one, listed, and wait there (`waiting`). With `pool`
        and the player's key: rated, seated with players of similar rating first."""
        creator = address_of(request.scope, hub.settings.trusted_proxies)
        if body.pool is not None:
            pool = BY_ID.get(body.pool)
            if pool is None or pool.game != body.game:
                raise ApiError("no-pool", "there is no such rating pool for this game", 404)
            auth = request.headers.get("authorization")
            me = await hub.identity.required(auth, creator)
            out = await play.play_rated(lobby, pool, me, creator)
        else:
            name = check_text(body.name or "", hub.limits.name_chars, "name")
            out = await play.play_now(lobby, body.game, name, creator)
        tid, token = out["id"], out["token"]
        return Seated(**out, url=f"/tables/{tid}", seat_link=f"/tables/{tid}#token={token}")

    @app.post("/api/lobby/unlist")
    async def unlist(body: Unlist) -> Unlisted:
        """Take a table off the lobby (its seat holders may; Play now's cancel does)."""
        return Unlisted(**await play.unlist(lobby, body.table, body.token))

    @app.websocket("/ws/lobby")
    async def lobby_socket(ws: WebSocket) -> None:
        await ws.accept()
        address = address_of(ws.scope, hub.settings.trusted_proxies)
        if not await take_slot(hub, ws, address):
            return
        try:
            await _serve(hub, ws)
        finally:
            hub.slots.give_back(address)


async def _serve(hub: Hub, ws: WebSocket) -> None:
    lobby = hub.lobby
    try:
        game = _game(ws.query_params.get("game") or None)
    except ApiError as exc:
        with contextlib.suppress(Exception):
            await ws.send_text(dumps({"t": "error", "code": exc.code, "message": exc.message}))
            await ws.close(code=4400)
        return
    limits = hub.limits
    bucket = TokenBucket(limits.messages_per_second, limits.message_burst)
    conn = LobbyConn(ws, game, bucket, limits.send_buffer_bytes)
    pump = asyncio.create_task(conn.pump())
    # a reader let go for being too slow may never send again: stop waiting for it then
    ending = asyncio.ensure_future(conn.done.wait())
    try:
        await lobby.attach(conn)
        while not conn.closed:
            receiving = asyncio.ensure_future(ws.receive())
            await asyncio.wait((receiving, ending), return_when=asyncio.FIRST_COMPLETED)
            if not receiving.done():
                receiving.cancel()
                break
            raw = receiving.result()
            if raw["type"] == "websocket.disconnect":
                break
            reply = await _handle(hub, conn, raw.get("text") or raw.get("bytes") or "")
            conn.send(dumps(reply))
    except WebSocketDisconnect:
        pass
    except Exception as exc:
        log_failure(log, exc, "lobby socket failed")
    finally:
        ending.cancel()
        lobby.detach(conn)
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(pump, timeout=5)
        with contextlib.suppress(Exception):
            # 1013 "try again later": too slow to keep up; the page reconnects
            await asyncio.wait_for(ws.close(code=1013 if conn.resynced else 1000), timeout=5)


async def _handle(hub: Hub, conn: LobbyConn, data: str | bytes) -> dict[str, Any]:
    try:
        if not conn.bucket.take():
            raise ApiError("rate-limited", "too many messages")
        most = hub.limits.message_bytes
        if len(data) > most:
            raise ApiError("too-large", f"a message may be at most {most} bytes")
        check_depth(data)
        try:
            msg = json.loads(data)
        except ValueError:
            raise ApiError("bad-message", "messages are JSON objects") from None
        if not isinstance(msg, dict):
            raise ApiError("bad-message", "messages are JSON objects")
        if msg.get("t") == "ping":
            return {"t": "pong"}
        if msg.get("t") == "follow":
            tids = msg.get("tables")
            if not isinstance(tids, list) or len(tids) > FOLLOW_MOST:
                raise ApiError("bad-message", f"'tables' is a list of at most {FOLLOW_MOST} ids")
            if not all(isinstance(t, str) and _ID.match(t) for t in tids):
                raise ApiError("bad-message", "'tables' holds table ids")
            return await hub.lobby.follow(conn, tids)
        raise ApiError("bad-message", "lobby messages: follow, ping")
    except ApiError as exc:
        return {"t": "error", "code": exc.code, "message": exc.message}

"""The table socket `/ws/tables/{id}` (DESIGN.md §5): its handshake and its read loop.

Each message is parsed by the socket's models (messages.py) and handed to the hub; replies and
events go out through the connection's pump (conn.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from fastapi import WebSocket
from starlette.websockets import WebSocketDisconnect

from vertex.server.errors import ApiError
from vertex.server.hub import Hub, dumps
from vertex.server.live.conn import Conn
from vertex.server.live.protocol import error, parse
from vertex.server.site.addresses import address_of
from vertex.server.site.faults import log_failure, unavailable
from vertex.server.site.rates import TokenBucket
from vertex.server.table.messages import Ping, SpectatorLine
from vertex.server.table.table import token_hash

log = logging.getLogger("vertex.server")


async def serve_table_socket(hub: Hub, ws: WebSocket, table_id: str) -> None:
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
    holder = None if token is None else token_hash(token)
    conn = Conn(ws, table_id, seat, holder, bucket, deltas, limits.send_buffer_bytes)
    pump = asyncio.create_task(conn.pump())
    # A client let go for being too slow may never send again: stop waiting for it then.
    reader = _Reader(ws, conn.done)
    try:
        await hub.attach(conn, since)
        # a page's own id for its browser: its tabs count once among the spectators
        await hub.joined(conn, ws.query_params.get("viewer"))
        address = address_of(ws.scope, hub.settings.trusted_proxies)
        while not conn.closed:
            raw = await reader.next()
            if raw is None or raw["type"] == "websocket.disconnect":
                break
            data = raw.get("text")
            if data is None:
                data = raw.get("bytes") or b""
            reply = await _handle(hub, conn, data, address)
            if reply is not None:
                conn.send(dumps(reply))
    except WebSocketDisconnect:
        pass
    except ApiError as exc:  # the table could not be loaded
        conn.send(dumps(error(exc)))
    except Exception as exc:
        log_failure(log, exc, "socket for table %s failed", table_id)
    finally:
        reader.close()
        hub.detach(conn)
        with contextlib.suppress(BaseException):
            await asyncio.wait_for(pump, timeout=5)
        with contextlib.suppress(Exception):
            # 1013 "try again later": the client reconnects with `since` at once
            await ws.close(code=1013 if conn.resynced else 1000)


class _Reader:
    """The socket's messages, read in the handler's own task (a task and a wait per message
    cost ~30 us, on every move). When the connection is let go (`done`: too slow, resync), a
    read that is waiting is cut by cancelling the handler's task there and only there,
    never while a command is being carried out; the loop then ends."""

    def __init__(self, ws: WebSocket, done: asyncio.Event) -> None:
        self.ws = ws
        self.task = asyncio.current_task()
        self.waiting = False
        self.cut = False
        self._ending = asyncio.ensure_future(done.wait())
        self._ending.add_done_callback(self._on_done)

    def _on_done(self, fut: asyncio.Future[Any]) -> None:
        if fut.cancelled():
            return
        self.cut = True
        if self.waiting and self.task is not None:
            self.task.cancel()

    async def next(self) -> Any:
        """The next ASGI message, or None once the connection was let go."""
        if self.cut:
            return None
        self.waiting = True
        try:
            return await self.ws.receive()
        except asyncio.CancelledError:
            # ours (the cut) is taken back; any other cancellation goes on
            if not self.cut or self.task is None or self.task.uncancel() > 0:
                raise
            return None
        finally:
            self.waiting = False

    def close(self) -> None:
        self._ending.cancel()


async def _handle(hub: Hub, conn: Conn, data: str | bytes, address: str) -> dict[str, Any] | None:
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
        if isinstance(msg, SpectatorLine):
            return await hub.spectators.write(conn, msg, address)
        if conn.seat is None or conn.token is None:
            raise ApiError("spectator", "spectators watch; take a seat to play")
        if not await hub.allowances.command(conn.token):  # the seat's, over all its sockets
            per_s = hub.limits.messages_per_second
            raise ApiError(
                "rate-limited",
                f"too many commands from this seat: at most {per_s:g} a second",
                params={"per_second": per_s},
            )
        return await hub.command(conn.table_id, conn.seat, conn.token, msg)
    except ApiError as exc:
        return error(exc, cid)
    except Exception as exc:
        away = unavailable(exc)
        if away is None:
            raise
        return error(away, cid)

"""The table socket `/ws/tables/{id}` (DESIGN.md §5): its handshake and its read loop.

A player proves the seat in the socket's first frame, `{"t": "hello", "token": …}` (or a
player's `{"t": "hello", "key": …}`: the seat that player holds here, if any), having
opened it with `?hello=1` (so the server waits for that frame; a spectator sends none and
hears the table at once). The token never rides in the URL, where a proxy's access log
would keep it. (Clients of the release before still put `?token=` in the URL: accepted for
this one release, then refused.) One address holds at most `sockets_per_address` sockets on
a process (live/slots.py).

Each message is parsed by the socket's models (messages.py) and handed to the hub; replies and
events go out through the connection's pump (conn.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
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


#: Seconds a socket opened with `?hello=1` has to send its first frame.
HELLO_S = 10.0
#: The longest first frame read (a token is 43 characters).
HELLO_BYTES = 512


async def serve_table_socket(hub: Hub, ws: WebSocket, table_id: str) -> None:
    await ws.accept()
    address = address_of(ws.scope, hub.settings.trusted_proxies)
    if not await take_slot(hub, ws, address):
        return
    try:
        await _serve(hub, ws, table_id, address)
    finally:
        hub.slots.give_back(address)


async def take_slot(hub: Hub, ws: WebSocket, address: str) -> bool:
    """A socket slot for this address, or the socket refused and closed (4429)."""
    if hub.slots.take(address):
        return True
    most = hub.limits.sockets_per_address
    refusal = ApiError(
        "too-many-sockets",
        f"at most {most} open connections from one address; close some tabs",
        429,
        params={"limit": most},
    )
    with contextlib.suppress(Exception):
        await ws.send_text(dumps(error(refusal)))
        await ws.close(code=4429)
    return False


async def _hello(ws: WebSocket) -> tuple[str, str]:
    """The first frame, `{"t": "hello", "token": …}` or `{"t": "hello", "key": …}`:
    ("token" or "key", its value)."""
    bad = ApiError(
        "bad-message",
        'the first frame of a socket opened with ?hello=1 is {"t": "hello", "token": …}',
        params={"problem": "hello"},
    )
    try:
        async with asyncio.timeout(HELLO_S):
            raw = await ws.receive()
    except TimeoutError:
        raise bad from None
    text = raw.get("text") or ""
    if raw["type"] != "websocket.receive" or not text or len(text) > HELLO_BYTES:
        raise bad
    try:
        msg = json.loads(text)
    except ValueError:
        raise bad from None
    if not isinstance(msg, dict) or msg.get("t") != "hello":
        raise bad
    for kind in ("token", "key"):
        value = msg.get(kind)
        if isinstance(value, str) and value:
            return kind, value
    raise bad


async def _serve(hub: Hub, ws: WebSocket, table_id: str, address: str) -> None:
    limits = hub.limits
    try:
        table = await hub.get(table_id)
        seat, token = None, ws.query_params.get("token")  # the release before's way
        player = None  # the player whose key opened it
        holder = None if token is None else token_hash(token)
        if token is None and ws.query_params.get("hello") == "1":
            kind, value = await _hello(ws)
            if kind == "token":
                token, holder = value, token_hash(value)
            else:  # a player's key: their seat here, or they watch
                me = await hub.identity.by_key(value, address)
                player = me.id
                seat = next((n for n, s in enumerate(table.seats) if s.player == me.id), None)
                holder = None if seat is None else table.seats[seat].token
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
    conn = Conn(ws, table_id, seat, holder, bucket, deltas, limits.send_buffer_bytes)
    conn.player = player
    pump = asyncio.create_task(conn.pump())
    # A client let go for being too slow may never send again: stop waiting for it then.
    reader = _Reader(ws, conn.done)
    try:
        await hub.attach(conn, since)
        # a spectator's sockets from one address count once (watching.py)
        await hub.joined(conn, address)
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

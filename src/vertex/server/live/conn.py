"""One socket: who it is, its outbound queue and its message allowance."""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from websockets.protocol import State

from vertex.server.site.rates import TokenBucket

#: The open state of the server's side of a connection (websockets' sans-I/O protocol).
_OPEN = State.OPEN


class Sender(Protocol):
    async def send_text(self, data: str) -> None: ...


#: A table (or lobby) socket's send buffer, in bytes: what is queued here plus what its
#: transport has not yet written. A client further behind than this cannot keep up (a large
#: board's states are hundreds of kB each): it is sent `{"t": "resync"}` and let go, and
#: comes back with `since`, catching up from the table's recent events or a snapshot.
SEND_BUFFER_BYTES = 4 << 20  # the default of Limits.send_buffer_bytes
#: Seconds a dropped client's connection may take to read its last bytes before it is cut.
RESYNC_GRACE_S = 2.0
RESYNC = '{"t":"resync"}'


def text_frame(text: str) -> bytes:
    """A whole unmasked WebSocket text frame (RFC 6455 §5.2): what a server sends. The same
    bytes go to every socket of a kind of viewer (sockets.py)."""
    data = text.encode()
    n = len(data)
    if n < 126:
        head = bytes((0x81, n))
    elif n < 1 << 16:
        head = bytes((0x81, 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((0x81, 127)) + n.to_bytes(8, "big")
    return head + data


def _direct(ws: object) -> Any:
    """The server's protocol object for `ws` when it is uvicorn's sans-I/O websockets one
    (which writes each frame to its transport in one piece and keeps no state about data
    frames sent): frames may then go straight to its transport. None otherwise (tests'
    clients, other servers): messages take the ASGI path.

    The socket's `send` is the protocol's own bound method wrapped by whatever stands
    between (Starlette's exception handling, middleware that watches the messages): each
    wrapper keeps the `send` it was given in its closure, so the chain is followed back."""
    proto = _sender_of(getattr(ws, "_send", None), WRAPPERS_FOLLOWED)
    if type(proto).__name__ != "WebSocketsSansIOProtocol":
        return None
    if not hasattr(proto, "transport") or not hasattr(proto, "close_sent"):
        return None
    if getattr(getattr(proto, "conn", None), "_state", None) is None:
        return None
    return proto


#: How many wrappers of a socket's `send` are followed looking for the server's protocol.
WRAPPERS_FOLLOWED = 8


def _sender_of(send: object, depth: int) -> object:
    """The object whose bound method `send` is, through up to `depth` closure wrappers."""
    owner = getattr(send, "__self__", None)
    if owner is not None or depth <= 0:
        return owner
    for cell in getattr(send, "__closure__", None) or ():
        try:
            inner = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if callable(inner) and not isinstance(inner, type):
            found = _sender_of(inner, depth - 1)
            if type(found).__name__ == "WebSocketsSansIOProtocol":
                return found
    return None


class Outbox:
    """What waits to be sent to one socket (a table's, here, or the lobby's), in order: a
    queue that `pump` writes out, its count and its bytes (a text queued without its bytes
    counted is one the socket is let go after, `resync`)."""

    def __init__(self, ws: Sender, buffer_bytes: int) -> None:
        self.ws = ws
        self.buffer_bytes = buffer_bytes
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        #: Set when the connection is to end (closed, or let go for being too slow).
        self.done = asyncio.Event()
        self.resynced = False
        self._inflight = 0  # queued messages not yet written: a frame must wait its turn
        self._queued_bytes = 0  # their size (JSON text is ASCII: characters are bytes)

    def _enqueue(self, text: str, counted: bool = True) -> None:
        self._inflight += 1
        if counted:
            self._queued_bytes += len(text)
        self.queue.put_nowait(text)

    def _drop_queued(self) -> None:
        """Forget what waits, unsent (that frees the memory)."""
        while not self.queue.empty():
            if self.queue.get_nowait() is not None:
                self._inflight -= 1
        self._queued_bytes = 0

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.done.set()
            self.queue.put_nowait(None)

    async def pump(self) -> None:
        """Write queued messages until closed (run as a task beside the reader)."""
        while True:
            text = await self.queue.get()
            if text is None:
                return
            try:
                await self.ws.send_text(text)
            finally:
                self._inflight -= 1
                self._queued_bytes = max(0, self._queued_bytes - len(text))


class Conn(Outbox):
    """A connected client. Messages go out through a queue so one slow reader never holds
    up a broadcast to everyone else at the table; what waits for it is bounded in bytes
    (`SEND_BUFFER_BYTES`). Keepalive pings are the server's (uvicorn's, with their own
    timeout): they do not wait on this buffer."""

    def __init__(
        self,
        ws: Sender,
        table_id: str,
        seat: int | None,
        token: str | None,
        bucket: TokenBucket,
        deltas: bool = False,
        buffer_bytes: int = SEND_BUFFER_BYTES,
    ) -> None:
        super().__init__(ws, buffer_bytes)
        self.deltas = deltas  # events carry a state patch (deltas.py) rather than the state
        self.table_id = table_id
        self.seat = seat
        self.token = token  # sha256 of the seat token, to notice a seat handed over
        #: The player whose key opened this socket (their id): let go when that key stops
        #: (replaced or forgotten, on any process: hub.player_gone).
        self.player: str | None = None
        self.bucket = bucket
        self._direct = _direct(ws)

    def buffered(self) -> int:
        """Bytes waiting for this client: queued here, and in its transport."""
        out = self._queued_bytes
        transport = None if self._direct is None else self._direct.transport
        if transport is not None:
            out += transport.get_write_buffer_size()
        return out

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.buffered() + len(text) > self.buffer_bytes:
            self.resync()
            return
        self._enqueue(text)

    def send_frame(self, text: str, frame: bytes) -> None:
        """Send `text`, whose frame is `frame` (text_frame), made once for many sockets.

        Written straight to the transport when nothing sent before is still queued (the
        order holds) and the connection is open: no task switch and no framing per socket,
        which is what a move to a thousand spectators costs. Otherwise it is queued. (The
        checks are the fewest that keep that true: this runs once per socket per event.)"""
        proto = self._direct
        if proto is None or self._inflight or self.closed:
            self.send(text)
            return
        transport = proto.transport
        if (
            transport is None
            or proto.close_sent
            or transport.is_closing()
            or proto.conn._state is not _OPEN
        ):
            self.send(text)
            return
        if transport.get_write_buffer_size() + len(frame) > self.buffer_bytes:
            self.resync()
            return
        transport.write(frame)

    def resync(self) -> None:
        """Let a client that cannot keep up go: what waits for it is dropped (that frees the
        memory), it is sent `resync` (if it ever reads that far) and the connection ends; it
        reconnects with `since`. A connection that still does not read is cut after
        `RESYNC_GRACE_S`, whatever its transport still holds."""
        if self.closed:
            return
        self.resynced = True
        self._drop_queued()  # nothing queued is sent now
        proto = self._direct
        transport = None if proto is None else proto.transport
        if transport is not None and not transport.is_closing() and not self._inflight:
            transport.write(text_frame(RESYNC))
            asyncio.get_running_loop().call_later(RESYNC_GRACE_S, transport.abort)
        else:
            self._enqueue(RESYNC, counted=False)
            if transport is not None:
                asyncio.get_running_loop().call_later(RESYNC_GRACE_S, transport.abort)
        self.close()

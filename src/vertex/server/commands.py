"""The one command table: every message a seat may send, over the socket or over HTTP.

Each command names the fields its socket message may carry, whether `POST
/api/tables/{id}/actions` offers it, and what it does. protocol.py checks socket messages
against it, app.py validates actions against it, and the hub carries them out through it.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from vertex.server.errors import ApiError
from vertex.server.repository import Duplicate
from vertex.server.store import StoredEvent
from vertex.server.table import Table

if TYPE_CHECKING:
    from vertex.server.hub import Hub


@dataclass(frozen=True)
class Call:
    """One command from a seat: which table, which seat, its token's hash, the message."""

    tid: str
    seat: int
    token: str
    msg: dict[str, Any]
    now: float


Handler = Callable[["Hub", Call], Awaitable[dict[str, Any]]]
Make = Callable[[Table, Call], StoredEvent]


@dataclass(frozen=True)
class Command:
    fields: frozenset[str]  # what its socket message carries besides `t` and `id`
    http: bool  # offered as an action at POST /api/tables/{id}/actions
    run: Handler


def ack(cid: Any, v: int, duplicate: bool = False) -> dict[str, Any]:
    msg: dict[str, Any] = {"t": "ack", "v": v}
    if cid is not None:
        msg["id"] = cid
    if duplicate:
        msg["duplicate"] = True
    return msg


def _checked(t: Table, c: Call) -> Table:
    if t.seats[c.seat].token != c.token:
        raise ApiError("bad-token", "this seat token is no longer valid", 403)
    return t


def event(make: Make) -> Handler:
    """A command that is one table event: checked and stored under the table's lock."""

    async def run(hub: Hub, c: Call) -> dict[str, Any]:
        cid = c.msg.get("id")
        try:
            ev = await hub.repo.submit(c.tid, lambda t: make(_checked(t, c), c))
        except Duplicate as dup:
            return ack(cid, dup.v, duplicate=True)
        return ack(cid, ev.seq)

    return run


def _move(t: Table, c: Call) -> StoredEvent:
    cid = c.msg.get("id")
    if cid is not None and (c.seat, str(cid)) in t.cids:
        raise Duplicate(t.cids[(c.seat, str(cid))])
    return t.move(c.seat, c.msg["move"], c.now, v=c.msg.get("v"), cid=cid)


async def _chat(hub: Hub, c: Call) -> dict[str, Any]:
    from vertex.server.protocol import check_text

    text = check_text(c.msg["text"], hub.limits.chat_chars, "chat")
    return await event(lambda t, c: t.chat(c.seat, text, c.now))(hub, c)


async def _hand_over(hub: Hub, c: Call) -> dict[str, Any]:
    target = c.seat if c.msg.get("seat") is None else int(c.msg["seat"])
    level = int(c.msg.get("level") or 2)
    table = await hub.repo.get(c.tid)
    # who is here, on any process: only a player who is away can be handed over by another
    here = await hub.sockets.connected(c.tid, len(table.seats))

    def make(t: Table, c: Call) -> StoredEvent:
        if not 0 <= target < len(t.seats):
            raise ApiError("no-such-seat", f"this table has no seat {target}")
        if target != c.seat and here[target]:
            raise ApiError(
                "not-allowed", f"seat {target}'s player is here; only they can leave", 409
            )
        return t.hand_over(target, level, c.now)

    return await event(make)(hub, c)


async def _aim(hub: Hub, c: Call) -> dict[str, Any]:
    """Keep where a seat aims now, for its step clock. Not an event and never broadcast (it
    would give the aim away): only the sender hears the ack. The table's owner runs its
    clock, so the other processes are told over the bus, which no client hears."""
    repo = hub.repo
    async with repo.lock(c.tid):
        table = _checked(await repo.get_locked(c.tid), c)
        try:
            aim = table.aim_check(c.seat, c.msg["move"])
        except ApiError:
            if not repo.scaled or not await repo.catch_up(table):
                raise
            aim = table.aim_check(c.seat, c.msg["move"])
        tag = table.aim_tag(c.seat)
        table.hold_aim(c.seat, tag, aim)
        if repo.scaled:
            payload = {"aim": {"seat": c.seat, "tag": list(tag), "move": aim}}
            repo.spawn(repo.bus.publish(c.tid, payload))
        return {**ack(c.msg.get("id"), table.v), "aim": aim}


async def _rematch(hub: Hub, c: Call) -> dict[str, Any]:
    # One lock around both steps, so two players asking at once get one rematch.
    repo = hub.repo
    cid = c.msg.get("id")
    async with repo.lock(c.tid):
        table = _checked(await repo.get_locked(c.tid), c)
        if repo.scaled:
            await repo.catch_up(table)
        if table.rematch is not None:
            return {**ack(cid, table.v), "table": table.rematch}
        table.rematch_cmd("", time.time())  # checks the game is over
        row = await hub.store.table(c.tid)
        spec = table.rematch_spec(secrets.randbits(32))
        new = await hub.open_table(spec, row.creator if row else "", time.time())
        try:
            ev = await repo.submit_locked(table, lambda t: t.rematch_cmd(new.id, time.time()))
        except ApiError:
            # another process wrote the rematch first: theirs is the one
            if table.rematch is None:
                raise
            return {**ack(cid, table.v), "table": table.rematch}
    return {**ack(cid, ev.seq), "table": new.id}


COMMANDS: dict[str, Command] = {
    "move": Command(frozenset({"move", "v"}), False, event(_move)),
    "aim": Command(frozenset({"move"}), False, _aim),
    "resign": Command(frozenset(), True, event(lambda t, c: t.resign(c.seat, c.now))),
    "rematch": Command(frozenset(), True, _rematch),
    "undo-request": Command(
        frozenset(), True, event(lambda t, c: t.undo_request_cmd(c.seat, c.now))
    ),
    "undo-accept": Command(frozenset(), True, event(lambda t, c: t.undo_accept(c.seat, c.now))),
    "end-request": Command(frozenset(), True, event(lambda t, c: t.end_request(c.seat, c.now))),
    "end-accept": Command(frozenset(), True, event(lambda t, c: t.end_accept(c.seat, c.now))),
    "chat": Command(frozenset({"text"}), True, _chat),
    "hand-over": Command(frozenset({"seat", "level"}), True, _hand_over),
}
#: What POST /api/tables/{id}/actions offers.
ACTIONS = tuple(name for name, cmd in COMMANDS.items() if cmd.http)


async def run(hub: Hub, tid: str, seat: int, token: str, msg: dict[str, Any]) -> dict[str, Any]:
    """Carry out a seat's message (socket or HTTP); the reply for the sender."""
    cmd = COMMANDS.get(msg["t"])
    if cmd is None:
        raise ApiError("bad-message", f"'{msg['t']}' is not a table action")
    return await cmd.run(hub, Call(tid, seat, token, msg, time.time()))

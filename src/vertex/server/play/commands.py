"""What each table command does: one handler per command model (messages.py).

A handler gets the command's model, who sent it, and a narrow port (ports.py: submit, lock,
get, open, connected), never the hub. Most commands are one table event: `event(make)`
checks the seat's token and submits what `make` returns. A new command is one model in
messages.py and one entry in HANDLERS here.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from vertex.server.errors import ApiError
from vertex.server.play.ports import Port
from vertex.server.storage.repository import Duplicate
from vertex.server.table import absence, agreement, chat, rematch, takebacks, turns
from vertex.server.table.events import StoredEvent
from vertex.server.table.messages import (
    Aim,
    Cancel,
    Chat,
    Command,
    EndAccept,
    EndRequest,
    HandOver,
    Move,
    Rematch,
    Resign,
    UndoAccept,
    UndoDecline,
    UndoRequest,
)
from vertex.server.table.table import Table
from vertex.server.text import check_text

M = TypeVar("M", bound=Command)


@dataclass(frozen=True)
class Call(Generic[M]):
    """One command from a seat: which table, which seat, its token's hash, the message."""

    tid: str
    seat: int
    token: str
    msg: M
    now: float


Handler = Callable[[Port, Call[Any]], Awaitable[dict[str, Any]]]


def ack(cid: Any, v: int, duplicate: bool = False) -> dict[str, Any]:
    msg: dict[str, Any] = {"t": "ack", "v": v}
    if cid is not None:
        msg["id"] = cid
    if duplicate:
        msg["duplicate"] = True
    return msg


def _checked(t: Table, c: Call[Any]) -> Table:
    if t.seats[c.seat].token != c.token:
        raise ApiError("bad-token", "this seat token is no longer valid", 403)
    return t


def event(make: Callable[[Table, Call[Any]], StoredEvent]) -> Handler:
    """A command that is one table event: checked and stored under the table's lock."""

    async def run(port: Port, c: Call[Any]) -> dict[str, Any]:
        try:
            ev = await port.submit(c.tid, lambda t: make(_checked(t, c), c))
        except Duplicate as dup:
            return ack(c.msg.id, dup.v, duplicate=True)
        return ack(c.msg.id, ev.seq)

    return run


def _move(t: Table, c: Call[Move]) -> StoredEvent:
    cid = c.msg.id
    if cid is not None and (c.seat, str(cid)) in t.cids:
        raise Duplicate(t.cids[(c.seat, str(cid))])
    return t.move(c.seat, c.msg.move, c.now, v=c.msg.v, cid=cid)


async def _chat(port: Port, c: Call[Chat]) -> dict[str, Any]:
    text = check_text(c.msg.text, port.chat_chars, "chat")
    return await event(lambda t, c: chat.line(t, c.seat, text, c.now))(port, c)


async def _hand_over(port: Port, c: Call[HandOver]) -> dict[str, Any]:
    target = c.seat if c.msg.seat is None else c.msg.seat
    level = c.msg.level or 2
    # who is here, on any process: only a player who is away can be handed over by another,
    # and only once they have been away for the grace period (absence.py)
    here, left = await port.absent(c.tid)

    def make(t: Table, c: Call[HandOver]) -> StoredEvent:
        if not 0 <= target < len(t.seats):
            raise ApiError(
                "no-such-seat",
                f"this table has no seat {target}",
                params={"seat": target, "seats": len(t.seats)},
            )
        if target != c.seat and t.slow and t.seats[target].taken:
            # days away is a slow table's pace: an absent player is never handed over
            raise ApiError(
                "not-allowed",
                f"seat {target}'s player has days to move; only they can hand it over",
                409,
                params={"why": "slow", "seat": target},
            )
        if target != c.seat and target < len(here) and here[target]:
            raise ApiError(
                "not-allowed",
                f"seat {target}'s player is here; only they can leave",
                409,
                params={"why": "player-here", "seat": target},
            )
        wait = left[target] if target != c.seat and target < len(left) else None
        if wait:
            seconds = absence.refusal_seconds(wait)
            raise ApiError(
                "not-allowed",
                f"seat {target}'s player may come back: they can be handed over in {seconds} s",
                409,
                params={"why": "grace", "seat": target, "seconds": seconds},
            )
        return t.hand_over(target, level, c.now)

    return await event(make)(port, c)


async def _aim(port: Port, c: Call[Aim]) -> dict[str, Any]:
    """Keep where a seat aims now, for its step clock. Not an event and never broadcast (it
    would give the aim away): only the sender hears the ack. The table's owner runs its
    clock, so the other processes are told (port.share_aim), which no client hears."""
    async with port.lock(c.tid):
        table = _checked(await port.get(c.tid), c)
        try:
            aim = turns.aim_check(table, c.seat, c.msg.move)
        except ApiError:
            if not await port.catch_up(table):
                raise
            aim = turns.aim_check(table, c.seat, c.msg.move)
        tag = turns.aim_tag(table, c.seat)
        turns.hold_aim(table, c.seat, tag, aim)
        await port.share_aim(c.tid, {"seat": c.seat, "tag": list(tag), "move": aim})
        return {**ack(c.msg.id, table.v), "aim": aim}


async def _rematch(port: Port, c: Call[Rematch]) -> dict[str, Any]:
    # One lock around both steps, so two players asking at once get one rematch.
    cid = c.msg.id
    async with port.lock(c.tid):
        table = _checked(await port.get(c.tid, fresh=True), c)
        if table.rematch is not None:
            return {**ack(cid, table.v), "table": table.rematch}
        rematch.decide(table, "", time.time())  # checks the game is over
        new = await port.open(rematch.spec(table, secrets.randbits(32)), like=c.tid)
        try:
            ev = await port.submit_locked(table, lambda t: rematch.decide(t, new.id, time.time()))
        except ApiError:
            # another process wrote the rematch first: theirs is the one
            if table.rematch is None:
                raise
            return {**ack(cid, table.v), "table": table.rematch}
    return {**ack(cid, ev.seq), "table": new.id}


HANDLERS: dict[type[Command], Handler] = {
    Move: event(_move),
    Aim: _aim,
    Resign: event(lambda t, c: t.resign(c.seat, c.now)),
    Rematch: _rematch,
    UndoRequest: event(lambda t, c: takebacks.request(t, c.seat, c.now)),
    UndoAccept: event(lambda t, c: takebacks.accept(t, c.seat, c.now)),
    UndoDecline: event(lambda t, c: takebacks.decline(t, c.seat, c.now)),
    Cancel: event(lambda t, c: t.cancel(c.seat, c.now)),
    EndRequest: event(lambda t, c: agreement.request(t, c.seat, c.now)),
    EndAccept: event(lambda t, c: agreement.accept(t, c.seat, c.now)),
    Chat: _chat,
    HandOver: _hand_over,
}


async def run(port: Port, tid: str, seat: int, token: str, msg: Command) -> dict[str, Any]:
    """Carry out a seat's command (socket or HTTP); the reply for the sender."""
    return await HANDLERS[type(msg)](port, Call(tid, seat, token, msg, time.time()))

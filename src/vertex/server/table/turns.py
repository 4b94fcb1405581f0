"""Turns: which seats owe a move, the checks a move or an aim passes before it is played,
the haste the server measured, and the aims a due seat holds (games with aiming).

Functions of the state the log folds into (events.Folded), as lila's round keeps its Player
apart from the game: the table (table.py) calls them to decide, and never needs to know how
a turn is counted. Aims are never logged or sent to anyone: they would give the move away.
"""

from __future__ import annotations

from vertex.core import VertexError
from vertex.server.errors import ApiError, illegal_move
from vertex.server.table.events import Folded


def check_open(t: Folded) -> None:
    """Refuse when the table's game is over (or the table expired)."""
    if t.result is not None:
        if t.result["reason"] == "expired":
            raise ApiError("expired", "this table expired after a long pause", 409)
        raise ApiError("game-over", "the game at this table is over", 409)


def due(t: Folded) -> tuple[int, ...]:
    """Seats that owe a move now (none before the start or after the end)."""
    if t.started_at is None or t.result is not None:
        return ()
    return t.state.to_move


def sealed(t: Folded) -> frozenset[int]:
    """Seats whose move in the step under way others may not see yet (a game's
    `State.sealed`: Verticality's aims until the step resolves); none once it is over."""
    return frozenset() if t.result is not None else frozenset(t.state.sealed())


def check_due(t: Folded, seat: int, v: int | None = None) -> None:
    """Refuse unless the seat may move now (at version `v`, when the sender named one)."""
    check_open(t)
    if t.started_at is None:
        raise ApiError("not-started", "the game starts when every seat is taken", 409)
    if v is not None and v != t.v:
        raise ApiError(
            "stale",
            f"the table is at version {t.v}, not {v}",
            409,
            params={"version": t.v, "sent": v},
        )
    if seat not in t.state.to_move:
        owing = ", ".join(f"seat {s}" for s in t.state.to_move)
        raise ApiError(
            "not-your-turn",
            f"it is not seat {seat}'s turn ({owing} to move)",
            409,
            params={"seat": seat, "due": list(t.state.to_move)},
        )


def hastened(t: Folded, seat: int, move: str, now: float) -> str:
    """A person's move with the haste the server measured (games that have haste).

    Haste counts from when the seat's step began (the server time of the event that made
    it due); the game takes the larger of that and what the client claimed. Computer
    seats are exempt: they run here, and their level sets their haste.
    """
    aiming = t.state.aiming()
    since = t.due_since.get(seat)
    if aiming is None or since is None:
        return move
    try:
        return aiming.hasten(move, now - since)
    except VertexError:
        return move  # play() says what is wrong with it


def aim_check(t: Folded, seat: int, move: str) -> str:
    """A seat's aim, checked as its move would be but not played: the canonical aim.

    Not an event: the hub keeps it with `hold_aim`, privately, for the step clock.
    """
    check_due(t, seat)
    aiming = t.state.aiming()
    if aiming is None:
        raise ApiError("no-aims", f"{t.game.name} has no aiming: send your move", 409)
    try:
        return aiming.check_aim(move, seat)
    except VertexError as exc:
        raise illegal_move(exc) from None


def aim_tag(t: Folded, seat: int) -> tuple[int, int]:
    """Which step of the seat an aim belongs to: (epoch, pieces the seat placed so far)."""
    return t.epoch, sum(1 for s, _ in t.state.history if s == seat)


def hold_aim(t: Folded, seat: int, tag: tuple[int, int], move: str) -> None:
    if tag == aim_tag(t, seat):  # (one from another worker may come after the move)
        t.aims[seat] = (tag, move)


def held_aim(t: Folded, seat: int) -> str | None:
    held = t.aims.get(seat)
    return held[1] if held is not None and held[0] == aim_tag(t, seat) else None

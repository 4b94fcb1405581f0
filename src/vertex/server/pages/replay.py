"""Replay: the position after any ply of a table, finished or running, for stepping back.

Read-only: a position is rebuilt from the table's history (what its record lists) and never
touches the table, so spectators may step through a running game. Rebuilt states are kept in
one bounded cache (checkpoints every few plies), so stepping one ply costs one `play`; games
whose moves are slow (physics) are replayed off the event loop.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections import OrderedDict
from typing import Annotated, Any

from fastapi import FastAPI, Path

from vertex.core import AGREED_END, State
from vertex.server.errors import ApiError
from vertex.server.hub import Hub
from vertex.server.table import turns
from vertex.server.table.table import Table

#: Rebuilt positions kept, all tables together (a Dots state is a few hundred bytes).
CACHE_SIZE = 1024
#: While replaying, keep every this many plies as a checkpoint for later requests.
CHECKPOINT_EVERY = 8

TableId = Annotated[str, Path(max_length=64, description="the table id from its link")]
Ply = Annotated[int, Path(description="moves played: 0 is the start, `plies` the last")]


class Positions:
    """Positions of tables' games by (table, ply), rebuilt from their histories on demand.

    An entry is only used while its history is still the table's (a take-back rewrites the
    end of a history), so the cache can never show a position the table did not have.
    """

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._states: OrderedDict[tuple[str, int], State] = OrderedDict()
        self._lock = threading.Lock()  # replays of slow games run in threads

    def at(self, tid: str, current: State, ply: int) -> State:
        """The position after `ply` moves of the game that led to `current` (table `tid`'s
        state, read once: the table may move on meanwhile). Check the ply first."""
        history = current.history
        if ply == len(history):
            return current
        state, done = self._start(tid, current, ply)
        for i in range(done, ply):
            seat, move = history[i]
            state = state.end_by_agreement() if seat is None else state.play(move, seat=seat)
            assert seat is not None or move == AGREED_END
            if (i + 1) % CHECKPOINT_EVERY == 0 or i + 1 == ply:
                self._keep(tid, i + 1, state)
        return state

    def _start(self, tid: str, current: State, ply: int) -> tuple[State, int]:
        """The latest cached position at or before `ply` on this history (else the start)."""
        history = current.history
        with self._lock:
            for k in range(ply, 0, -1):
                state = self._states.get((tid, k))
                if state is not None and state.history == history[:k]:
                    self._states.move_to_end((tid, k))
                    return state, k
        return current.game.initial_state(current.seed), 0

    def _keep(self, tid: str, ply: int, state: State) -> None:
        with self._lock:
            self._states[(tid, ply)] = state
            self._states.move_to_end((tid, ply))
            while len(self._states) > self.size:
                self._states.popitem(last=False)

    def __len__(self) -> int:
        return len(self._states)


_positions: weakref.WeakKeyDictionary[Hub, Positions] = weakref.WeakKeyDictionary()


def positions(hub: Hub) -> Positions:
    """The one position cache of a hub (shared by replay and analysis)."""
    found = _positions.get(hub)
    if found is None:
        found = _positions[hub] = Positions()
    return found


def shown(table: Table) -> tuple[State, int]:
    """The table's state (read once: the table may move on meanwhile) and how many of its
    plies anyone may replay: all but the sealed moves of a step under way (Verticality's aims
    until the step resolves), which the table's record leaves out too."""
    current = table.state
    return current, len(current.history) - len(turns.sealed(table))


def check_ply(plies: int, ply: int | None) -> int:
    """`ply` (None: the last position) if it is one of the game's `plies` + 1 positions,
    else a clear error."""
    if ply is None:
        return plies
    if not 0 <= ply <= plies:
        raise ApiError(
            "no-such-ply",
            f"ply {ply} is not in this game: it has positions 0 (the start) to {plies}",
            404,
        )
    return ply


async def position(hub: Hub, tid: str, current: State, ply: int) -> State:
    """The position after `ply` moves of the game that led to `current`, rebuilt off the
    event loop when the game's moves are slow."""
    cache = positions(hub)
    if current.game.slow_play:
        return await asyncio.to_thread(cache.at, tid, current, ply)
    return cache.at(tid, current, ply)


def add_replay_routes(app: FastAPI, hub: Hub) -> None:
    """`GET /api/tables/{id}/positions/{ply}`."""

    @app.get("/api/tables/{table_id}/positions/{ply}")
    async def replay_position(table_id: TableId, ply: Ply) -> dict[str, Any]:
        """The position after `ply` moves of the table's game (finished or still running),
        for stepping through it. Read-only: the table is not disturbed.

        - `ply`: the ply asked for; `plies`: moves in the game so far (the last position);
        - `move`: the move that led here, `{seat, move}` (`seat` null for a table action
          such as an agreed end), or null at ply 0;
        - `state`: the position as a table view's `state` (`state.to_dict()`);
        - `version`: the table version the game's history was read at.

        The moves are the record's (`/api/tables/{id}/record`, `?format=text`): the moves of
        a simultaneous step still under way are not shown until it resolves. A ply outside
        0..plies is a 404 `no-such-ply`.
        """
        table = await hub.get(table_id)
        version = table.v
        current, plies = shown(table)
        ply = check_ply(plies, ply)
        state = await position(hub, table.id, current, ply)
        last = current.history[ply - 1] if ply else None
        return {
            "ply": ply,
            "plies": plies,
            "version": version,
            "move": None if last is None else {"seat": last[0], "move": last[1]},
            "state": state.to_dict(),
        }

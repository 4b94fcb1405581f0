"""Computer seats: choose a move away from the event loop.

A worker process (default) or a thread asks `vertex.ai.player(game, level)` for a move. A
process gets the record, so nothing but JSON crosses the boundary, and plays on from the
state it kept from the table's last move (worker_states.py).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor
from typing import Any

from vertex.core import Rng, State
from vertex.server.pools import make_pool
from vertex.server.worker_states import state_of


def choose(state: State, seat: int, level: int, budget_s: float) -> str:
    """The computer player's move (an import error in the players is loud, never random play)."""
    from vertex.ai import player

    return player(state.game, level).choose(state, seat, budget_s)


def random_move(state: State, seat: int) -> str:
    rng = Rng.from_seed(state.seed, "fallback", seat, len(state.history))
    return state.sample_move(seat, rng)[0]


def _choose_from_record(record_json: str, seat: int, level: int, budget_s: float) -> str:
    # the worker keeps its states between moves: only the new moves are played
    return choose(state_of(record_json), seat, level, budget_s)


def _ready() -> None:
    import vertex.ai  # noqa: F401  (loaded before the first move is asked for)


class Thinker:
    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._pool: Executor | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            self._pool = make_pool(self.kind, name="vertex-ai", threads=2)
        return self._pool

    def warm(self) -> None:
        """Start the worker process now (a fresh interpreter takes seconds to start, which
        a table taken over from a dead owner should not wait for)."""
        if self.kind == "process":
            self._executor().submit(_ready)

    async def choose(self, state: State, seat: int, level: int, budget_s: float) -> str:
        loop = asyncio.get_running_loop()
        args: tuple[Any, ...]
        if self.kind == "process":
            args = (state.record().to_json(), seat, level, budget_s)
            return await loop.run_in_executor(self._executor(), _choose_from_record, *args)
        return await loop.run_in_executor(self._executor(), choose, state, seat, level, budget_s)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

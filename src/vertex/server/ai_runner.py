"""Computer seats: choose a move away from the event loop.

Worker processes (default) or threads ask `vertex.ai.player(game, level)` for a move. A
process gets the record and replays it, so nothing but JSON crosses the boundary. The pool
has a worker per core (`Settings.ai_workers`), shared fairly between the addresses that
opened the tables (fair.py): one address's many tables cannot hold every worker.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor
from typing import Any

from vertex.core import Rng, State, replay
from vertex.server.fair import FairShare
from vertex.server.pools import make_pool


def choose(state: State, seat: int, level: int, budget_s: float) -> str:
    """The computer player's move (an import error in the players is loud, never random play)."""
    from vertex.ai import player

    return player(state.game, level).choose(state, seat, budget_s)


def random_move(state: State, seat: int) -> str:
    rng = Rng.from_seed(state.seed, "fallback", seat, len(state.history))
    return state.sample_move(seat, rng)[0]


def _choose_from_record(record_json: str, seat: int, level: int, budget_s: float) -> str:
    return choose(replay(record_json), seat, level, budget_s)


def _ready() -> None:
    import vertex.ai  # noqa: F401  (loaded before the first move is asked for)


class Thinker:
    def __init__(self, kind: str, workers: int, per_address: int) -> None:
        self.kind = kind
        self.workers = workers
        self.share = FairShare(workers, per_address)
        self._pool: Executor | None = None

    def _executor(self) -> Executor:
        if self._pool is None:
            self._pool = make_pool(
                self.kind, name="vertex-ai", threads=self.workers, workers=self.workers
            )
        return self._pool

    def warm(self) -> None:
        """Start a worker process now (a fresh interpreter takes seconds to start, which a
        table taken over from a dead owner should not wait for); the pool starts the others
        when two moves are asked for at once."""
        if self.kind == "process":
            self._executor().submit(_ready)

    async def choose(
        self, state: State, seat: int, level: int, budget_s: float, address: str = ""
    ) -> str:
        """The move, once `address` (who opened the table) has its turn at a worker."""
        loop = asyncio.get_running_loop()
        args: tuple[Any, ...]
        async with self.share.turn(address):
            if self.kind == "process":
                args = (state.record().to_json(), seat, level, budget_s)
                return await loop.run_in_executor(self._executor(), _choose_from_record, *args)
            args = (state, seat, level, budget_s)
            return await loop.run_in_executor(self._executor(), choose, *args)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

"""The review of a whole game (DESIGN.md §5b): run once for the whole site, in the background,
on the analysis workers, a position at a time in the asking address's turn (fair.py).

Who computes: the process whose claim row goes in first (storage/reviews.py); the others
read the row's progress and, once done, its result. The one computing walks the game from
its end back to the start (the worker keeps the game's solver, so the later positions'
table serves the earlier ones: reviewing.py), beats the row's heartbeat as it goes and tells
the table's sockets everywhere `{t: "review", done, total}` (`tell`). The Dots family is
solved exactly while each position settles within `review_position_s` (and the review within
`review_total_s`); from the first that does not, going back, the level-5 player's move is
the estimate, and such moves are not marked. A review that fails gives its claim up, so the
next request starts it again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from vertex.core import State, replay
from vertex.server.compute import reviewing
from vertex.server.compute.analyst import Analyst
from vertex.server.compute.review_marks import dots_mark, juxtapose_mark, seat_summary
from vertex.server.errors import ApiError
from vertex.server.metrics import REVIEWS
from vertex.server.settings import Settings
from vertex.server.storage import reviews
from vertex.server.storage.store import Store

log = logging.getLogger("vertex.server")

Tell = Callable[[str, dict[str, Any]], Awaitable[None]]
#: Told of every review this process finished: (table id, the game's record JSON, the
#: review). The puzzles' mining (issue 35, `candidates_from_review`) hangs here.
Done = Callable[[str, str, dict[str, Any]], Awaitable[None]]
#: How often progress is written to the row and told to the sockets (and at the end).
BEAT_S = 1.0
#: A busy worker pool (the address's turn is taken): wait this long and ask again.
BUSY_WAIT_S = 0.25


class Reviewer:
    def __init__(
        self, analyst: Analyst, store: Store, settings: Settings, me: str, tell: Tell
    ) -> None:
        self.analyst = analyst
        self.store = store
        self.settings = settings
        self.me = me
        self.tell = tell
        self.running: dict[tuple[str, int], asyncio.Task[None]] = {}
        self.on_done: list[Done] = []

    async def start(self, tid: str, state: State, plies: int, client: str) -> reviews.ReviewRow:
        """Start (or join) the review of the first `plies` moves of `state`'s game."""
        row = await reviews.read(self.store, tid, plies)
        if row is not None and row.status == "done":
            REVIEWS.labels("stored").inc()
            return row
        total = plies + (0 if _over(state, plies) else 1)
        now = time.time()
        if (tid, plies) not in self.running and await reviews.claim(
            self.store, tid, plies, self.me, total, now, self.settings.review_stale_s
        ):
            REVIEWS.labels("computed").inc()
            record = state.record().to_json()
            task = asyncio.create_task(self._run(tid, plies, record, total, client))
            self.running[(tid, plies)] = task
            task.add_done_callback(lambda _: self.running.pop((tid, plies), None))
        else:
            REVIEWS.labels("joined").inc()
        found = await reviews.read(self.store, tid, plies)
        assert found is not None  # claimed by us or another; a row is only dropped on failure
        return found

    async def close(self) -> None:
        for task in list(self.running.values()):
            task.cancel()

    async def _run(self, tid: str, plies: int, record: str, total: int, client: str) -> None:
        key = f"review:{tid}:{plies}"
        try:
            states = await asyncio.to_thread(_positions, record, plies)
            await reviews.beat(self.store, tid, plies, self.me, "running", 0, time.time())
            await self.tell(tid, {"t": "review", "status": "running", "done": 0, "total": total})
            found = await self._positions(tid, plies, record, states, total, client, key)
            data = assemble(states, found)
            if await reviews.finish(self.store, tid, plies, self.me, data, time.time()):
                await self.tell(
                    tid, {"t": "review", "status": "done", "done": total, "total": total}
                )
                for hook in self.on_done:
                    await _quietly(hook(tid, record, data))
        except asyncio.CancelledError:
            await _quietly(reviews.drop(self.store, tid, plies, self.me))
            raise
        except Exception:
            log.exception("review of table %s failed", tid)
            REVIEWS.labels("failed").inc()
            await _quietly(reviews.drop(self.store, tid, plies, self.me))

    async def _positions(
        self,
        tid: str,
        plies: int,
        record: str,
        states: list[State],
        total: int,
        client: str,
        key: str,
    ) -> dict[int, dict[str, Any]]:
        """Each position's judgement, from the last to the first."""
        s = self.settings
        dots = states[0].game.solver is not None
        started = last = time.monotonic()
        exact = True
        found: dict[int, dict[str, Any]] = {}
        for k in range(total - 1, -1, -1):
            if not dots:
                budget = s.review_depth_s
            elif exact:
                budget = min(s.review_position_s, s.review_total_s - (time.monotonic() - started))
            else:
                budget = 0.0
            out = await self._one(client, key, record, k, max(budget, 0.0))
            if dots and not out["exact"]:
                exact = False  # earlier positions are bigger: estimates from here back
            found[k] = out
            done = total - k
            now = time.monotonic()
            if now - last >= BEAT_S or done == total:
                last = now
                if not await reviews.beat(
                    self.store, tid, plies, self.me, "running", done, time.time()
                ):
                    raise RuntimeError("the review's claim was taken over")
                await self.tell(
                    tid, {"t": "review", "status": "running", "done": done, "total": total}
                )
        return found

    async def _one(
        self, client: str, key: str, record: str, ply: int, budget: float
    ) -> dict[str, Any]:
        limit = budget + self.settings.review_estimate_s + 5.0
        while True:
            try:
                return await self.analyst.job(
                    client,
                    key,
                    reviewing.review_position,
                    record,
                    ply,
                    budget,
                    self.settings.review_estimate_s,
                    key,
                    limit_s=limit,
                )
            except ApiError as exc:
                if exc.code == "busy":
                    await asyncio.sleep(BUSY_WAIT_S)
                    continue
                return {"exact": False, "value": None, "best": []}  # overran: no verdict


async def _quietly(work: Awaitable[None]) -> None:
    try:
        await work
    except Exception:
        log.exception("a review's claim could not be given up, or a hook failed")


def _positions(record: str, plies: int) -> list[State]:
    final = replay(record)
    state = final.game.initial_state(final.seed)
    states = [state]
    for seat, move in final.history[:plies]:
        if seat is None:
            break
        state = state.play(move, seat)
        states.append(state)
    return states


def _over(state: State, plies: int) -> bool:
    return plies >= len(state.history) and state.is_over


def _jx(value: int | None) -> str | None:
    if value is None:
        return None
    if value == 0:
        return "draw"
    return f"win-{value}" if value > 0 else f"loss-{-value}"


def _flip(value: str) -> str:
    """The other seat's view: their win in N is our loss at their N-th move."""
    if value == "draw":
        return value
    kind, n = value.split("-")
    return f"{'loss' if kind == 'win' else 'win'}-{n}"


def _sign(value: str | None) -> int | None:
    if value is None:
        return None
    return 0 if value == "draw" else (1 if value.startswith("win") else -1)


def _end_value(state: State, mover: int, dots: bool) -> Any:
    """The mover's value of a finished game: the cell difference, or won/lost/drawn."""
    sc = state.scores
    if dots:
        return int(sc[mover] - sc[1 - mover])
    winners = state.winners
    if len(winners) != 1:
        return "draw"
    return "win-0" if winners[0] == mover else "loss-0"


def assemble(states: list[State], found: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """The stored review from each position's judgement (`found[k]`: the position after k
    moves): every move's values for its mover, its mark and best moves, and the seats'."""
    game = states[0].game
    dots = game.solver is not None
    misere = bool(game.lowest_score_wins)

    def value(k: int, mover: int) -> Any:
        """Position k's value for `mover` (None: not exact)."""
        if k == len(states) - 1 and states[k].is_over:
            return _end_value(states[k], mover, dots)
        out = found[k]
        if dots:
            if not out["exact"]:
                return None
            cells = int(out["value"])
            return cells if states[k].to_move[0] == mover else -cells
        v = _jx(out["value"])
        if states[k].to_move[0] == mover or v is None:
            return v
        return _flip(v)

    moves: list[dict[str, Any]] = []
    for k in range(len(states) - 1):
        seat, move = states[k + 1].history[k]
        assert seat is not None
        before, after = value(k, seat), value(k + 1, seat)
        entry: dict[str, Any] = {
            "ply": k,
            "seat": seat,
            "move": move,
            "before": before,
            "after": after,
            "exact": before is not None and after is not None,
            "best": found[k]["best"],
        }
        if dots and entry["exact"]:
            entry["mark"], entry["lost"] = dots_mark(before, after, misere)
        elif not dots:
            mark = juxtapose_mark(_sign(before), _sign(after))
            entry["exact"] = mark is not None
            if mark is not None:
                entry["mark"] = mark
        moves.append(entry)
    exact_from = len(moves)  # the first ply from which every move is exact
    while exact_from > 0 and moves[exact_from - 1]["exact"]:
        exact_from -= 1
    return {
        "game": game.id,
        "unit": "cells" if dots else "moves",
        "misere": misere,
        "plies": len(moves),
        "exact_from": exact_from,
        "moves": moves,
        "seats": seat_summary(moves, game.seats, dots),
    }

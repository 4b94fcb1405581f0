"""The review's work in an analysis worker (a process, or a thread in-process): one position
of a game at a time, so the workers stay shared fairly between the review and everyone's
analyses (reviewer.py takes a turn per position).

The review walks the game from its end back to its start, and each worker keeps one solver
per reviewed game (its transposition table, `TABLE_BYTES`) between calls: what the solver
learnt about the later positions is most of the work for the earlier ones. A position the
solver cannot settle within its budget gets the level-5 computer player's move instead (an
estimate, never marked). Juxtapose is searched exactly to a depth (`ai/juxtapose_exact.py`).
Only JSON crosses the process boundary.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any

from vertex.core import State, replay
from vertex.server.compute.solving import _cancelled

#: Bytes of a review's solver table: bigger than an analysis's (64 MiB), as a 5×5 review
#: settles positions with 40 lines open, and one review at a time runs in a worker.
TABLE_BYTES = 128 << 20
#: Reviewed games whose solver and positions a worker keeps.
KEPT = 1

_kept: OrderedDict[str, tuple[str, list[State], Any]] = OrderedDict()
_lock = threading.Lock()


def _positions(record_json: str, key: str) -> tuple[str, list[State], Any]:
    """The game's positions (ply 0 to the end) and its review solver, kept under `key`."""
    with _lock:
        found = _kept.pop(key, None)
    if found is not None and found[0] == record_json:
        return found
    final = replay(record_json)
    state = final.game.initial_state(final.seed)
    states = [state]
    for seat, move in final.history:
        if seat is None:  # an agreed end: nothing after it is a move
            break
        state = state.play(move, seat)
        states.append(state)
    solver = None
    if final.game.solver is not None:
        from vertex.ai import Solver

        solver = Solver(final.game, table_bytes=TABLE_BYTES)  # type: ignore[arg-type]
    return record_json, states, solver


def _keep(key: str, found: tuple[str, list[State], Any]) -> None:
    with _lock:
        _kept[key] = found
        while len(_kept) > KEPT:
            _kept.popitem(last=False)


def review_position(
    record_json: str, ply: int, budget_s: float, estimate_s: float, key: str
) -> dict[str, Any]:
    """The position before move `ply`: `{exact, value, best, estimate}`. Dots family: exact
    within `budget_s` (0: do not try), else the level-5 move within `estimate_s`. Juxtapose:
    the exact search to the depth `budget_s` allows (`value` None: unknown)."""
    start = time.monotonic()
    found = _positions(record_json, key)
    try:
        state = found[1][ply]
        if found[2] is None:
            return _searched(state, budget_s)
        return _dots(state, found[2], start, budget_s, estimate_s)
    finally:
        _keep(key, found)


def _searched(state: State, budget_s: float) -> dict[str, Any]:
    """A game without a solver: its own exact search to a depth (`GameInfo.review_search`)."""
    from vertex.core.info import load

    path = state.game.info.review_search
    assert path is not None  # analysable.review_refusal lets no other game through
    verdict = load(path)(state, budget_s)
    known = verdict.value is not None
    return {"exact": known, "value": verdict.value, "best": verdict.best, "depth": verdict.depth}


def _dots(
    state: State, solver: Any, start: float, budget_s: float, estimate_s: float
) -> dict[str, Any]:
    from vertex.ai import SolveTimeout, player

    if budget_s > 0:
        try:
            sol = solver.solve(state, deadline=start + budget_s, stop=_cancelled)
        except SolveTimeout:
            pass
        else:
            return {"exact": True, "value": sol.value, "best": list(sol.best_moves)}
    if _cancelled():
        return {"exact": False, "value": None, "best": [], "cancelled": True}
    seat = state.to_move[0]
    move = player(state.game, 5, seed=state.seed).choose(state, seat, estimate_s)
    return {"exact": False, "value": None, "best": [move]}

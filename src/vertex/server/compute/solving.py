"""The analysis's work, in a worker process (the server's default) or a thread (in-process
tests): solve a position exactly within its time, else the level-5 player's move.

This module is all a worker imports of the server (the pool's jobs name its functions):
the solver's engines, not the web app. Each table keeps its own solver, and so its
transposition table, in the worker (a few tables, a fixed number of bytes each), so stepping
through a game asks little after the first answer. The solver stops itself at its deadline,
and when the server sets the worker's cancel flag (the client who asked left).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any

from vertex.core import Game, State, replay

#: Share of the time limit the exact solver may use; the estimate gets the rest, but at most
#: ESTIMATE_S (a long limit goes to the solver: the level-5 move needs no more).
SOLVER_SHARE = 0.7
ESTIMATE_S = 1.5
#: Tables whose solver a worker keeps between requests (stepping through a game reuses it).
SOLVERS_KEPT = 4
#: Bytes of each kept solver's transposition table (the compiled core's fixed size).
SOLVER_TABLE_BYTES = 64 << 20
#: Entries of the Python solver's table (boards too big for the core) before it is cleared.
SOLVER_TABLE_LIMIT = 2_000_000

_solvers: OrderedDict[tuple[str, Any], Any] = OrderedDict()
_solvers_lock = threading.Lock()
#: Set by the server when the client who asked has left (a process's Event, or a thread's):
#: each worker thread has its own (threads of several workers share this module).
_local = threading.local()


def init_worker(cancel: Any) -> None:
    _local.cancel = cancel


def _cancelled() -> bool:
    cancel = getattr(_local, "cancel", None)
    return cancel is not None and bool(cancel.is_set())


def _take_solver(table: str, game: Game[Any]) -> Any:
    from vertex.ai import Solver
    from vertex.ai.dots.solver import PySolver

    with _solvers_lock:
        solver = _solvers.pop((table, game.key()), None)
    if solver is None or (isinstance(solver, PySolver) and solver.stored > SOLVER_TABLE_LIMIT):
        solver = Solver(game, table_bytes=SOLVER_TABLE_BYTES)  # type: ignore[arg-type]
    return solver


def _give_back(table: str, game: Game[Any], solver: Any) -> None:
    # Taken out while in use, so an abandoned thread and a new request never share one.
    with _solvers_lock:
        _solvers[(table, game.key())] = solver
        while len(_solvers) > SOLVERS_KEPT:
            _solvers.popitem(last=False)


def analyse_state(state: State, limit_s: float, table: str = "") -> dict[str, Any]:
    """Solve `state` exactly within `limit_s`·SOLVER_SHARE (or all but ESTIMATE_S of a long
    limit), else the level-5 player's move.

    A search cut off at its deadline (or because the client left) leaves only finished
    entries in the solver's table, so the table is kept for the next request at `table`.
    """
    from vertex.ai import SolveTimeout, player
    from vertex.ai.dots.core import CoreSolver, spare_core
    from vertex.games.dots.engine import DotsState

    start = time.monotonic()
    solver = _take_solver(table, state.game)
    try:
        deadline = start + max(limit_s * SOLVER_SHARE, limit_s - ESTIMATE_S)
        if isinstance(solver, CoreSolver) and isinstance(state, DotsState) and spare_core():
            # both cores while the machine has one to spare (about 1.5x on a long solve)
            sol = solver.solve(state, deadline=deadline, stop=_cancelled, threads=2)
        else:
            sol = solver.solve(state, deadline=deadline, stop=_cancelled)
    except SolveTimeout:
        pass
    else:
        return {"exact": True, "value": sol.value, "best": list(sol.best_moves), "estimate": None}
    finally:
        _give_back(table, state.game, solver)
    if _cancelled():
        return {"exact": False, "value": None, "best": [], "estimate": None, "cancelled": True}
    left = max(0.02, limit_s - (time.monotonic() - start))
    seat = state.to_move[0]
    move = player(state.game, 5, seed=state.seed).choose(state, seat, left * 0.9)
    return {"exact": False, "value": None, "best": [], "estimate": move}


def analyse_record(record_json: str, limit_s: float, table: str = "") -> dict[str, Any]:
    """The same, in a worker process: only JSON crosses the boundary."""
    return analyse_state(replay(record_json), limit_s, table)

"""Exact solves (issues 5 and 19): the compiled core and the Python solver in one run.

    .venv/bin/python bench/bench_dots_solve.py [--limit S] [--py-limit S] [--boards quick|all]
        [--memory BYTES] [--threads N] [--positions N] [--only-positions]

Each board is solved from the empty position, best moves included, first by the compiled
core (`vertex.ai.dots.core.CoreSolver`), then by the Python solver (`PySolver`, the
reference) with its own limit; a solver not done in time is reported as such. Columns:
value, best first moves, positions searched, table entries, table hit rate, seconds (wall;
cpu in brackets). Then `--positions` 4×4 positions with at least 12 lines drawn are solved
by the core with the server's table (64 MiB, one thread): half of them with exactly 12 quiet
lines (nothing on offer: the hardest), half from random games at 12 to 20 lines; the median,
99th percentile and slowest, in seconds and positions. `--boards all` adds 3×4 and the
size-5 triangle; 4×4 from empty is `vertex solve dots-and-boxes rows=4 cols=4 --memory 4G
--threads 2 --progress` (see RESULTS.md).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import vertex
from vertex.ai.dots.core import CoreSolver
from vertex.ai.dots.solver import PySolver, SolveTimeout
from vertex.games.dots.engine import DotsGame, DotsState

#: (label, game, options, published value or None, in the quick set)
BOARDS: list[tuple[str, str, dict[str, Any], int | None, bool]] = [
    ("boxes 2x2", "dots-and-boxes", {"rows": 2, "cols": 2}, 2, True),
    ("triangles 3", "dots-and-triangles", {"size": 3}, None, True),
    ("boxes 2x3", "dots-and-boxes", {"rows": 2, "cols": 3}, None, True),
    ("boxes 2x4", "dots-and-boxes", {"rows": 2, "cols": 4}, None, True),
    ("boxes 3x3", "dots-and-boxes", {"rows": 3, "cols": 3}, -3, True),
    ("triangles 4", "dots-and-triangles", {"size": 4}, None, True),
    ("boxes 3x4", "dots-and-boxes", {"rows": 3, "cols": 4}, None, False),
    ("triangles 5", "dots-and-triangles", {"size": 5}, None, False),
]

HEAD = (
    f"{'board':13} {'solver':6} {'lines':>5} {'value':>6} {'known':>6} {'best':>5} "
    f"{'positions':>12} {'stored':>11} {'hits':>5} {'seconds':>16}"
)


def row(label: str, who: str, lines: int, known: int | None, out: dict[str, Any]) -> str:
    k = "" if known is None else f"{known:+d}"
    hits = f"{out['hits']:.0%}" if out.get("hits") is not None else ""
    if out["value"] is None:
        value, best, secs = "—", "", f"> {out['limit']:.0f} (not done)"
    else:
        value, best = f"{out['value']:+d}", str(out["best"])
        secs = f"{out['wall']:.2f} ({out['cpu']:.2f})"
    return (
        f"{label:13} {who:6} {lines:5} {value:>6} {k:>6} {best:>5} {out['nodes']:12,} "
        f"{out['stored']:11,} {hits:>5} {secs:>16}"
    )


def random_positions(game: DotsGame[Any], count: int, seed: int) -> list[DotsState]:
    """Positions of random games with 12 to 20 lines drawn (cells may be on offer)."""
    rng = random.Random(seed)
    out: list[DotsState] = []
    while len(out) < count:
        state, stop = game.initial_state(), rng.randint(12, 20)
        while len(state.history) < stop and state.legal_moves():
            nxt = state.play(rng.choice(state.legal_moves()))
            assert isinstance(nxt, DotsState)
            state = nxt
        if not state.is_over:
            out.append(state)
    return out


def pct(xs: list[float], q: int) -> float:
    return statistics.quantiles(xs, n=100, method="inclusive")[q - 1] if len(xs) > 1 else xs[0]


def run(solver: CoreSolver | PySolver, state: DotsState, limit: float) -> dict[str, Any]:
    t0, c0 = time.monotonic(), time.process_time()
    try:
        sol = solver.solve(state, deadline=t0 + limit)
        value: int | None = sol.value
        best = len(sol.best_moves)
    except SolveTimeout:
        value, best = None, 0
    stats = solver.stats()
    hits = None
    if isinstance(solver, CoreSolver) and stats["lookups"]:
        hits = stats["hits"] / stats["lookups"]
    return {
        "value": value,
        "best": best,
        "nodes": stats["nodes"],
        "stored": stats["stored"],
        "hits": hits,
        "wall": time.monotonic() - t0,
        "cpu": time.process_time() - c0,
        "limit": limit,
    }


def quiet_positions(game: DotsGame[Any], lines: int, count: int, seed: int) -> list[DotsState]:
    """Random positions with `lines` lines drawn, none of them offering a cell."""
    rng = random.Random(seed)
    board = game.board
    out: list[DotsState] = []
    while len(out) < count:
        state = game.initial_state()
        while len(state.history) < lines:
            rem = [(m & ~state.drawn).bit_count() for m in board.cell_masks]
            ok = [
                mv
                for mv in state.legal_moves()
                if all(rem[c] > 2 for c in board.line_cells[board.find_line(mv)])
            ]
            if not ok:
                break
            nxt = state.play(rng.choice(ok))
            assert isinstance(nxt, DotsState)
            state = nxt
        if len(state.history) == lines:
            out.append(state)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--limit", type=float, default=600.0, help="core: seconds per board")
    ap.add_argument("--py-limit", type=float, default=120.0, help="Python: seconds per board")
    ap.add_argument("--boards", default="quick", choices=["all", "quick"])
    ap.add_argument("--memory", type=int, default=1 << 30, help="core table bytes")
    ap.add_argument("--threads", type=int, default=1, help="core: search threads")
    ap.add_argument("--positions", type=int, default=10, help="4×4 positions, ≥ 12 lines drawn")
    ap.add_argument("--only-positions", action="store_true", help="no boards from empty")
    args = ap.parse_args()
    if not args.only_positions:
        print(HEAD)
    for label, game_id, options, known, quick in BOARDS:
        if args.only_positions or (args.boards == "quick" and not quick):
            continue
        game = vertex.create_game(game_id, **options)
        assert isinstance(game, DotsGame)
        state = game.initial_state()
        lines = len(state.legal_moves())
        core = run(
            CoreSolver(game, table_bytes=args.memory, threads=args.threads), state, args.limit
        )
        print(row(label, "core", lines, known, core), flush=True)
        py = run(PySolver(game), state, args.py_limit)
        print(row(label, "python", lines, known, py), flush=True)
        for out in (core, py):
            if known is not None and out["value"] is not None and out["value"] != known:
                raise SystemExit(f"{label}: solved {out['value']}, published {known}")
        if core["value"] is not None and py["value"] is not None:
            assert core["value"] == py["value"], label
    if args.positions:
        game = vertex.create_game("dots-and-boxes", rows=4, cols=4)
        assert isinstance(game, DotsGame)
        half = args.positions // 2
        sets = [
            ("12 quiet lines", quiet_positions(game, 12, args.positions - half, seed=19)),
            ("12-20 lines, random games", random_positions(game, half, seed=19)),
        ]
        every: dict[str, list[float]] = {"wall": [], "cpu": [], "nodes": []}
        for name, states in [*sets, ("all", [])]:
            if name == "all":
                got = every
            else:
                got = {"wall": [], "cpu": [], "nodes": []}
                for state in states:
                    out = run(CoreSolver(game, table_bytes=64 << 20), state, args.limit)
                    assert out["value"] is not None
                    for key in got:
                        got[key].append(out[key])
                        every[key].append(out[key])
            print(
                f"4x4, {name}: {len(got['wall'])} positions (core, 64 MiB, one thread): "
                f"wall median {statistics.median(got['wall']):.2f} p99 {pct(got['wall'], 99):.2f} "
                f"max {max(got['wall']):.2f} s; cpu median {statistics.median(got['cpu']):.2f} "
                f"p99 {pct(got['cpu'], 99):.2f} max {max(got['cpu']):.2f} s; positions median "
                f"{statistics.median(got['nodes']):,.0f} max {max(got['nodes']):,.0f}; "
                f"over 5 s wall: {sum(w > 5 for w in got['wall'])}",
                flush=True,
            )


if __name__ == "__main__":
    main()

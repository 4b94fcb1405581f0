"""Exact solves of empty boards (issue 5): value, positions searched, seconds.

    .venv/bin/python bench/bench_dots_solve.py [--limit SECONDS] [--boards all|quick]

Each board is solved from the empty position with the full solver (symmetry keys, forced
captures, chain counting, alpha-beta with both bounds), best moves included; a board that
is not done within the limit (default 600 s) is reported as such. OpenSpiel has no exact
Dots solver to compare with; the published values are the check.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import vertex
from vertex.ai.dots.solver import Solver, SolveTimeout

#: (label, game, options, published value or None)
BOARDS: list[tuple[str, str, dict[str, Any], int | None]] = [
    ("boxes 2x2", "dots-and-boxes", {"rows": 2, "cols": 2}, 2),
    ("triangles 3", "dots-and-triangles", {"size": 3}, None),
    ("boxes 2x3", "dots-and-boxes", {"rows": 2, "cols": 3}, None),
    ("boxes 2x4", "dots-and-boxes", {"rows": 2, "cols": 4}, None),
    ("boxes 3x3", "dots-and-boxes", {"rows": 3, "cols": 3}, -3),
    ("triangles 4", "dots-and-triangles", {"size": 4}, None),
    ("boxes 3x4", "dots-and-boxes", {"rows": 3, "cols": 4}, None),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--limit", type=float, default=600.0, help="seconds allowed per board")
    ap.add_argument("--boards", default="all", choices=["all", "quick"])
    ap.add_argument(
        "--max-table",
        type=int,
        default=12_000_000,
        help="stop a board when its table holds this many positions (memory guard)",
    )
    args = ap.parse_args()
    boards = BOARDS if args.boards == "all" else BOARDS[:5]
    print(
        f"{'board':12} {'lines':>5} {'value':>6} {'known':>6} {'best':>5} {'positions':>11} "
        f"{'stored':>10} {'seconds':>8}"
    )
    for label, game_id, options, known in boards:
        game = vertex.create_game(game_id, **options)
        solver = Solver(game)  # type: ignore[arg-type]
        state = game.initial_state()
        lines = len(state.legal_moves())
        t0 = time.monotonic()

        def guard(nodes: int, seconds: float, solver: Solver = solver) -> None:
            if len(solver.tt) > args.max_table:
                raise SolveTimeout

        try:
            sol = solver.solve(state, deadline=t0 + args.limit, progress=guard)  # type: ignore[arg-type]
        except SolveTimeout:
            print(
                f"{label:12} {lines:5} {'—':>6} {known if known is not None else '':>6} "
                f"{'':>5} {solver.nodes:11,} {len(solver.tt):10,} "
                f"  > {args.limit:.0f} (not finished)",
                flush=True,
            )
            continue
        print(
            f"{label:12} {lines:5} {sol.value:+6d} "
            f"{'' if known is None else f'{known:+d}':>6} {len(sol.best_moves):5} "
            f"{sol.nodes:11,} {len(solver.tt):10,} {sol.seconds:8.1f}",
            flush=True,
        )
        if known is not None and sol.value != known:
            raise SystemExit(f"{label}: solved {sol.value}, published {known}")


if __name__ == "__main__":
    main()

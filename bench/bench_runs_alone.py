"""Runs alone keyed by their lengths (issue 36): the compiled core with and without, side by side.

    .venv/bin/python bench/bench_runs_alone.py [--board triangles6|boxes5|boxes4]
        [--seeds 1,2,4] [--threads 1] [--memory 48M] [--handout N] [--rounds 2]
        [--settings 0,1]

Below the root the core keys a run of two-sided cells alone (both ends on the ground, or a
loop) by its length, not its place (`Core.solve(alone=1)`, `_search.c`), and with `alone=3`
a run of two cells or more hanging from a junction (its other end on the ground) too, so
positions alike but for where such runs lie share one table entry. By default it does both
where every cell has three sides (Dots and Triangles). This bench solves the recorded
middle-game positions of bench_middle_game.py (their verdict files) with two settings
(`--settings`, by default off against runs alone), in turns (`--rounds`, so the box's load
hits both alike), each from a cold table: the value search alone (the exact one, or with
`--handout N` the middle game's pruned search, handouts below N cells), on `--threads`. It
checks every exact value against the verdict and prints, for each setting, the seconds and
positions in all, and the ratios.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import bench_middle_game as bm

from vertex.ai.dots.core import CoreSolver
from vertex.terminal.solve import parse_bytes

#: The `alone` settings by what they key by length.
NAMES = {
    0: "runs by place              ",
    1: "runs alone by length       ",
    3: "runs alone, hanging, length",
}


def solve_all(
    game: Any, positions: list[dict[str, Any]], args: argparse.Namespace, alone: int
) -> tuple[float, int]:
    seconds, nodes = 0.0, 0
    for p in positions:
        state = bm.replay(game, p["moves"])
        solver = CoreSolver(game, table_bytes=args.memory, threads=args.threads)
        t0 = time.monotonic()
        out = solver.core.solve(
            state.drawn,
            state.reach,
            best=False,
            quiet=1 if args.handout else 0,
            handout=args.handout or 3,
            hard=True,
            stabilizer=True,
            threads=args.threads,
            alone=alone,
        )
        seconds += time.monotonic() - t0
        nodes += solver.core.stats()["nodes"]
        assert out is not None
        if not args.handout:
            mover = state.order[state.turn]
            score = state.owned[mover].bit_count() - state.owned[1 - mover].bit_count()
            if score + out[0] != p["value"]:
                raise SystemExit(f"seed {p['seed']}: {score + out[0]}, the verdict {p['value']}")
    return seconds, nodes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--board", default="triangles6", choices=["triangles6", "boxes5", "boxes4"])
    ap.add_argument("--seeds", default="", help="the verdicts' seeds (default: all)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--memory", type=parse_bytes, default=48 << 20)
    ap.add_argument("--handout", type=int, default=0, help="the pruned search (0: exact)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument(
        "--settings",
        default="0,1",
        help="the two `alone` settings side by side (0 off, 1 runs alone, 3 and hanging runs)",
    )
    args = ap.parse_args()
    bm.BOARD = args.board
    game = bm.game_5x5()
    positions = [p for p in bm.read_verdicts()["positions"] if p["value"] is not None]
    if args.seeds:
        wanted = {int(s) for s in args.seeds.split(",")}
        positions = [p for p in positions if p["seed"] in wanted]
    search = f"pruned (handouts below {args.handout})" if args.handout else "exact"
    print(
        f"{args.board}: {len(positions)} positions, the {search} value search, "
        f"{args.threads} thread(s), {args.memory >> 20} MiB, {bm.load()}"
    )
    first, second = (int(x) for x in args.settings.split(","))
    totals: dict[int, list[tuple[float, int]]] = {first: [], second: []}
    for r in range(args.rounds):
        for alone in (first, second):
            seconds, nodes = solve_all(game, positions, args, alone)
            totals[alone].append((seconds, nodes))
            print(f"  round {r + 1}  {NAMES[alone]}  {seconds:7.2f} s  {nodes:>12,} positions")
    a_s = sum(s for s, _ in totals[first])
    b_s = sum(s for s, _ in totals[second])
    a_n = sum(n for _, n in totals[first])
    b_n = sum(n for _, n in totals[second])
    print(
        f"ratio ({NAMES[first].strip()} / {NAMES[second].strip()}): "
        f"time {a_s / b_s:.2f}x, positions {a_n / b_n:.2f}x"
    )
    print(bm.load())


if __name__ == "__main__":
    main()

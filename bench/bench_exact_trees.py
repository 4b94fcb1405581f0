"""The exact search of the recorded middle-game positions: this tree against another (issue 36).

    .venv/bin/python bench/bench_exact_trees.py [--against PATH] [--board triangles6|boxes5|boxes4]
        [--seeds 1,4,9] [--threads 1] [--rounds 2]

`PATH` is another checkout with its compiled core built (without it, this tree alone) — an
older commit, say:

    git worktree add /tmp/old REV && (cd /tmp/old && $OLDPWD/.venv/bin/python setup.py build_ext
    --inplace)    # from this checkout's top

Each tree runs in a process of its own (`PYTHONPATH=PATH/src`), in turns (`--rounds`, so the
box's load hits both alike). Each position of bench_middle_game.py's verdict file is searched
as level 5 searches it (`CoreSolver.keep_line` with the player's `FAST` settings and exact
table size, on `--threads`), from a cold table. The line found is checked against the
verdict's value-keeping lines; the bench prints the positions searched and the seconds of
each position and tree, then the totals and their ratios. On one thread the positions are
the same from run to run: the count that a change to the search moves, whatever the box.

Beside each position's time, when the value was proved from below (`Core.passes`: the first
pass, on any thread, that ended with the root's lower bound at the value; "-" for a tree
whose core has no such log). A level-5 search stopped at its deadline (EXACT_FIRST_SHARE of a
1 s budget: these positions are all searched exactly first) plays the line of that proof once
it is there, so the count of proofs by then is the bench's nearest figure to level 5's own.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import bench_middle_game as bm

HERE = Path(__file__).resolve().parent
OURS = HERE.parent


def worker(board: str, seeds: list[int] | None, threads: int) -> None:
    """In the tree under test: search each position, one JSON line each."""
    from vertex.ai.dots import player
    from vertex.ai.dots.core import CoreSolver

    try:
        from vertex.ai.dots.kept import TABLE_BYTES as table_bytes
    except ImportError:  # a tree from before the kept tables had a module of their own
        table_bytes = player.TABLE_BYTES
    bm.BOARD = board
    game = bm.game_5x5()
    names = game.board.line_names
    for p in bm.read_verdicts()["positions"]:
        if p["value"] is None or (seeds is not None and p["seed"] not in seeds):
            continue
        state = bm.replay(game, p["moves"])
        solver = CoreSolver(game, table_bytes=table_bytes)
        t0 = time.monotonic()
        value, line = solver.keep_line(state, threads=threads, **player.FAST)
        seconds = time.monotonic() - t0
        passes = getattr(solver.core, "passes", None)  # (an older tree's core: none)
        proof = None
        if passes is not None:
            proof = next((t for t, lower, _, _ in passes() if lower >= p["value"]), None)
        row = {
            "seed": p["seed"],
            "value": value,
            "right": value == p["value"] and names[line] in p["best"],
            "positions": solver.stats()["nodes"],
            "seconds": seconds,
            "proof": proof,
        }
        print(json.dumps(row), flush=True)


def run(tree: Path, args: argparse.Namespace) -> list[dict[str, Any]]:
    cmd = [sys.executable, __file__, "--worker", "--board", args.board]
    cmd += ["--threads", str(args.threads)]
    if args.seeds:
        cmd += ["--seeds", args.seeds]
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    out = subprocess.run(cmd, env=env, cwd=HERE, capture_output=True, text=True, check=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--against", type=Path, help="another checkout, its core built")
    ap.add_argument("--board", default="triangles6", choices=sorted(bm.BOARDS))
    ap.add_argument("--seeds", default="", help="these seeds only (comma-separated)")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    seeds = [int(s) for s in args.seeds.split(",") if s] or None
    if args.worker:
        worker(args.board, seeds, args.threads)
        return
    trees = {"this tree": OURS}
    if args.against is not None:
        if not (args.against / "src" / "vertex").is_dir():
            ap.error("--against: the path of another checkout (with src/vertex), its core built")
        trees["against"] = args.against.resolve()
    rows: dict[str, list[list[dict[str, Any]]]] = {name: [] for name in trees}
    print(f"{args.board}, exact value search, {args.threads} thread(s), {bm.load()}")
    for _ in range(args.rounds):
        for name in reversed(trees):  # the other tree first in each round
            rows[name].append(run(trees[name], args))
    first = {name: got[0] for name, got in rows.items()}
    print(f"\n{'seed':>4}  " + "  ".join(f"{name + ' (proof at)':>36}" for name in trees))
    for i, row in enumerate(first["this tree"]):
        cells = []
        for name in trees:
            r = first[name][i]
            mark = "" if r["right"] else " WRONG"
            proof = "-" if r.get("proof") is None else f"{r['proof']:.2f} s"
            cells.append(f"{r['positions']:>12,} {r['seconds']:6.2f} s ({proof:>6}){mark}")
        print(f"{row['seed']:>4}  " + "  ".join(f"{c:>36}" for c in cells))
    from vertex.ai.dots.player import EXACT_FIRST_SHARE

    in_time = EXACT_FIRST_SHARE  # level 5's deadline at 1 s a move (all these go exact first)
    print(f"\nin all ({bm.load()}):")
    totals = {}
    for name, runs in rows.items():
        positions = [sum(r["positions"] for r in got) for got in runs]
        seconds = [sum(r["seconds"] for r in got) for got in runs]
        right = min(sum(r["right"] for r in got) for got in runs)
        totals[name] = (min(positions), min(seconds))
        print(
            f"  {name:10} positions {', '.join(f'{p:,}' for p in positions)};"
            f" seconds {', '.join(f'{s:.1f}' for s in seconds)}; right {right} of {len(runs[0])}"
        )
        if all(r.get("proof") is not None for got in runs for r in got):
            by = [sum(r["proof"] <= in_time for r in got) for got in runs]
            print(
                f"  {'':10} the value proved from below by {in_time:.2f} s:"
                f" {', '.join(map(str, by))} of {len(runs[0])}"
            )
    if "against" not in totals:
        return
    (p_ours, s_ours), (p_other, s_other) = totals["this tree"], totals["against"]
    print(
        f"  ratios against/this tree: positions {p_other / p_ours:.2f},"
        f" seconds {s_other / s_ours:.2f}"
    )


if __name__ == "__main__":
    main()

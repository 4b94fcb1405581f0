"""The page's analysis of 4×4 Dots and Boxes from the eighth line on (issue 36, goal 2).

    .venv/bin/python bench/bench_analysis_4x4.py [--positions 20] [--ply 8] [--limit 10]

Positions: `--ply` lines of quiet play (no cell given a third side) from the empty 4×4
board, seeds 0, 1, 2, … (the same on every box). Each is analysed as the server does it
(`solving.analyse_state` with the analysis limit of a 4×4 board, `Settings.
analysis_exact_time_s`; a fresh worker table each time: a cold start), and, side by side,
by the plain exact search (one thread, dominated handouts searched, the same table size and
the same solver share of the limit). Prints each time, whether it was exact, the p50 and
p99 over the positions, and the ratio of the two.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from typing import Any

import vertex
from vertex.ai.dots.core import build_core
from vertex.ai.dots.kit import quiet_lines
from vertex.games.dots.engine import DotsGame, DotsState
from vertex.server.compute import solving

#: the plain search's share of the limit: the analysis's before this session's changes
PLAIN_SHARE = 0.7


def quiet_position(game: DotsGame[Any], ply: int, seed: int) -> DotsState:
    rng = random.Random(8_000 + seed)
    state = game.initial_state()
    for _ in range(ply):
        nxt = state.play(rng.choice(quiet_lines(state) or state.legal_moves()))
        assert isinstance(nxt, DotsState)
        state = nxt
    return state


def p99(xs: list[float]) -> float:
    return sorted(xs)[max(0, round(0.99 * len(xs)) - 1)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--ply", type=int, default=8)
    ap.add_argument("--limit", type=float, default=10.0, help="the analysis limit (s)")
    args = ap.parse_args()
    game = vertex.create_game("dots-and-boxes", rows=4, cols=4)
    assert isinstance(game, DotsGame)
    now: list[float] = []
    plain: list[float] = []
    exact = plain_exact = 0
    print(f"load {os.getloadavg()[0]:.2f}; ply {args.ply}, limit {args.limit:g} s")
    for seed in range(args.positions):
        state = quiet_position(game, args.ply, seed)
        solving._solvers.clear()  # a cold worker
        t0 = time.monotonic()
        out = solving.analyse_state(state, args.limit, f"bench-{seed}")
        now.append(time.monotonic() - t0)
        exact += out["exact"]
        core = build_core(game, solving.SOLVER_TABLE_BYTES)
        t0 = time.monotonic()
        got = core.solve(state.drawn, state.reach, t0 + args.limit * PLAIN_SHARE, None)
        plain.append(time.monotonic() - t0)
        plain_exact += got is not None
        del core
        print(
            f"seed {seed:3}: now {now[-1]:6.2f} s {'exact' if out['exact'] else 'estimate'}"
            f" {out['value']!s:>4}   plain {plain[-1]:6.2f} s"
            f" {'exact' if got is not None else 'not done'}",
            flush=True,
        )
    n = args.positions
    print(
        f"\nexact: now {exact}/{n} (within {args.limit:g} s), plain {plain_exact}/{n}"
        f" (within {args.limit:g} s x {PLAIN_SHARE})\n"
        f"now:   p50 {statistics.median(now):.2f} s  p99 {p99(now):.2f} s  max {max(now):.2f} s\n"
        f"plain: p50 {statistics.median(plain):.2f} s  p99 {p99(plain):.2f} s"
        f"  max {max(plain):.2f} s\n"
        f"ratio of medians plain/now: {statistics.median(plain) / statistics.median(now):.2f}"
        f"; load {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()

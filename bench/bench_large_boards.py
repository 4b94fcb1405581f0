"""How far the largest boards are from solved (issue 36, goal 3): positions a second, and an
estimate of the time from empty that is checked against a board we do solve.

    .venv/bin/python bench/bench_large_boards.py [--boards 4x4,4x5,t6] [--seeds 3]
        [--cap 60] [--memory 4G] [--truth]

For each board, `--seeds` random quiet games (no cell's third side drawn while avoidable) are
cut after k lines, and each position is solved exactly from a cleared table on one thread
(the site's exact search: dominated handouts left out, the root's own symmetries), value
only, k going down by one line until the median solve takes more than `--cap` seconds. The
positions searched grow by a near-constant factor per line left open: a least-squares fit of
log(positions) on the lines left, carried to the empty board, gives its positions, and the
rate measured on the largest solves gives the time on one thread.

The estimate is only as good as that straight line. 4×4 is the check: it is solved from
empty, and `--truth` solves it here on one thread with the same table, so the run prints the
estimate beside the measured positions and seconds, and the factor between them, which the
other boards' estimates are then also shown scaled by. A table too small for a board makes
the real search slower than any fit of small solves says: the estimate is a floor.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import time
from typing import Any

from bench_middle_game import replay

import vertex
from vertex.ai.dots.core import CoreSolver
from vertex.ai.dots.kit import quiet_lines
from vertex.games.dots.engine import DotsGame, DotsState
from vertex.terminal.solve import parse_bytes

BOARDS: dict[str, tuple[str, dict[str, Any]]] = {
    "3x4": ("dots-and-boxes", {"rows": 3, "cols": 4}),
    "4x4": ("dots-and-boxes", {"rows": 4, "cols": 4}),
    "4x5": ("dots-and-boxes", {"rows": 4, "cols": 5}),
    "5x5": ("dots-and-boxes", {"rows": 5, "cols": 5}),
    "t5": ("dots-and-triangles", {"size": 5}),
    "t6": ("dots-and-triangles", {"size": 6}),
}


def load() -> str:
    return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def quiet_game(game: DotsGame[Any], seed: int) -> list[str]:
    """A random quiet game's lines, until no quiet line is left."""
    rng = random.Random(3600 + seed)
    state = game.initial_state()
    moves: list[str] = []
    while True:
        quiet = quiet_lines(state)
        if not quiet:
            return moves
        move = rng.choice(quiet)
        nxt = state.play(move)
        assert isinstance(nxt, DotsState)
        state, moves = nxt, [*moves, move]


def solve_value(solver: CoreSolver, state: DotsState) -> tuple[int, int, float]:
    """(value, positions, seconds) from a cleared table, one thread, value only."""
    solver.clear()
    before = solver.stats()["nodes"]
    t0 = time.perf_counter()
    out = solver.core.solve(
        state.drawn, state.reach, best=False, hard=True, stabilizer=True, threads=1
    )
    seconds = time.perf_counter() - t0
    assert out is not None
    return out[0], solver.stats()["nodes"] - before, seconds


def fit(points: list[tuple[int, float]]) -> tuple[float, float]:
    """Least squares of log(positions) = a + b * open lines: (a, b)."""
    xs = [x for x, _ in points]
    ys = [math.log(y) for _, y in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )
    return my - b * mx, b


def human(seconds: float) -> str:
    for unit, size in (("years", 365 * 86400), ("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:,.1f} {unit}"
    return f"{seconds:.0f} s"


def measure(name: str, seeds: int, cap: float, memory: int) -> dict[str, Any]:
    game_id, options = BOARDS[name]
    game = vertex.create_game(game_id, **options)
    assert isinstance(game, DotsGame)
    lines = len(game.board.lines)
    solver = CoreSolver(game, table_bytes=memory)
    games = [quiet_game(game, s) for s in range(seeds)]
    k = min(len(g) for g in games)
    print(f"{name}: {lines} lines, quiet games of {k}+ lines, {load()}", flush=True)
    points: list[tuple[int, float]] = []
    rates: list[float] = []
    while k >= 0:
        runs = [solve_value(solver, replay(game, g[:k])) for g in games]
        nodes = statistics.median(r[1] for r in runs)
        secs = statistics.median(r[2] for r in runs)
        open_lines = lines - k
        print(
            f"  {k:2d} drawn, {open_lines:2d} open: {nodes:>14,.0f} positions "
            f"{secs:8.3f} s  ({sum(r[1] for r in runs) / sum(r[2] for r in runs):,.0f}/s)",
            flush=True,
        )
        if secs >= 0.05:
            points.append((open_lines, nodes))
            rates.append(sum(r[1] for r in runs) / sum(r[2] for r in runs))
        if secs > cap or k == 0:
            break
        k -= 1
    out: dict[str, Any] = {"name": name, "lines": lines, "game": game, "solver": solver}
    if len(points) >= 3:
        a, b = fit(points[-6:])  # the largest solves: the small ones are all overhead
        rate = statistics.fmean(rates[-2:])
        positions = math.exp(a + b * lines)
        out.update(factor=math.exp(b), positions=positions, rate=rate)
        print(
            f"  fit: x{math.exp(b):.2f} positions a line; from empty ~{positions:,.3g} "
            f"positions at {rate:,.0f}/s on one thread: ~{human(positions / rate)}",
            flush=True,
        )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--boards", default="4x4,4x5,t6", help=f"of {', '.join(BOARDS)}")
    ap.add_argument("--seeds", type=int, default=3, help="random quiet games per board")
    ap.add_argument("--cap", type=float, default=60.0, help="stop at a median solve this long")
    ap.add_argument("--memory", default="4G", help="the table's bytes")
    ap.add_argument("--truth", action="store_true", help="solve 4×4 from empty as the check")
    args = ap.parse_args()
    memory = parse_bytes(args.memory) or 4 << 30
    results = [measure(n, args.seeds, args.cap, memory) for n in args.boards.split(",")]
    pos_scale = time_scale = 1.0
    for r in results:
        if r["name"] == "4x4" and args.truth and "positions" in r:
            state = r["game"].initial_state()
            value, nodes, secs = solve_value(r["solver"], state)
            assert value == 0  # 4×4 is a tie
            guessed = r["positions"] / r["rate"]
            pos_scale, time_scale = nodes / r["positions"], secs / guessed
            print(
                f"4x4 from empty, measured: {nodes:,} positions in {secs:.0f} s on one thread "
                f"({nodes / secs:,.0f}/s); the estimate said {r['positions']:,.3g} positions "
                f"in {human(guessed)}: positions x{pos_scale:.2f}, time x{time_scale:.2f}",
                flush=True,
            )
    for r in results:
        if "positions" in r and args.truth and r["name"] != "4x4":
            # the from-empty search meets more transpositions than the samples (fewer
            # positions) and a table far bigger than the caches (a slower rate): the time
            # is scaled by the 4x4 check's time ratio, which holds both
            t = r["positions"] / r["rate"] * time_scale
            print(
                f"{r['name']} scaled by the 4x4 check: ~{r['positions'] * pos_scale:,.3g} "
                f"positions, ~{human(t)} on one thread (~{human(t / 1.8)} on two), if its "
                "table holds what it needs",
                flush=True,
            )


if __name__ == "__main__":
    main()

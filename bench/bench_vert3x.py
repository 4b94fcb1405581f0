"""Vert3x: random GYØ games on the 15×15 board (issue 3), through the public contract.

    .venv/bin/python bench/bench_vert3x.py [--games N] [--size 15]

Each game is played to the end with random legal lines (`sample_move` + `play`, which parses
the line, checks every rule, finds the triangles it completes from that line alone and scores
them). Printed: games/s and lines/s, and the time of one `play` (legality + scoring) — mean,
95th and 99th percentile and worst — which must stay well under a millisecond for the table
to feel instant (the worst is mostly the scheduler on a shared machine). Other rule sets and
player counts are shown for comparison.
"""

from __future__ import annotations

import argparse
import statistics
import time
from typing import Any

import vertex
from vertex.core.rng import Rng


def run(options: dict[str, Any], games: int) -> dict[str, float]:
    game = vertex.create_game("vert3x", **options)
    lines = 0
    triangles = 0
    plays: list[float] = []
    start = time.perf_counter()
    for seed in range(games):
        state = game.initial_state(seed=seed)
        rng = Rng.from_seed(seed, "bench")
        while not state.is_over:
            seat = state.to_move[0]
            move, rng = state.sample_move(seat, rng)
            t0 = time.perf_counter()
            state = state.play(move, seat=seat)
            plays.append(time.perf_counter() - t0)
            lines += 1
        triangles += len(state.triangles)  # type: ignore[attr-defined]
    elapsed = time.perf_counter() - start
    plays.sort()
    return {
        "games/s": games / elapsed,
        "lines/s": lines / elapsed,
        "lines/game": lines / games,
        "triangles/game": triangles / games,
        "play mean us": statistics.fmean(plays) * 1e6,
        "play p95 us": plays[int(len(plays) * 0.95)] * 1e6,
        "play p99 us": plays[int(len(plays) * 0.99)] * 1e6,
        "play max us": plays[-1] * 1e6,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--size", type=int, default=15)
    args = parser.parse_args()
    cases: list[tuple[str, dict[str, Any], int]] = [
        (f"gyo {args.size}x{args.size}, 2 players", {"rules": "gyo", "size": args.size}, 2),
        (
            f"gyo {args.size}x{args.size}, 4 players",
            {"rules": "gyo", "size": args.size, "players": 4},
            4,
        ),
        ("gyo 30x30, 2 players", {"rules": "gyo", "size": 30}, 2),
        ("classic hexagon r=8", {"rules": "classic", "radius": 8}, 2),
        ("trianguliche 8x8 windows", {"rules": "trianguliche", "width": 8, "height": 8}, 2),
    ]
    head = ("board", "games", "games/s", "lines/s", "lines/game", "tri/game", "mean us")
    head2 = ("p95 us", "p99 us", "max us")
    print(f"{head[0]:<28}" + "".join(f"{h:>11}" for h in head[1:] + head2))
    for label, options, _ in cases:
        games = args.games if "30x30" not in label else max(1, args.games // 5)
        r = run(options, games)
        row = [
            f"{games}",
            f"{r['games/s']:.2f}",
            f"{r['lines/s']:.0f}",
            f"{r['lines/game']:.0f}",
            f"{r['triangles/game']:.0f}",
            f"{r['play mean us']:.0f}",
            f"{r['play p95 us']:.0f}",
            f"{r['play p99 us']:.0f}",
            f"{r['play max us']:.0f}",
        ]
        print(f"{label:<28}" + "".join(f"{c:>11}" for c in row), flush=True)


if __name__ == "__main__":
    main()

"""What the computer's worker process spends building the state before it thinks (issue 24):
a full replay of the record (before) against playing on from the state it kept from the
table's last move (worker_states.py, after). GYØ 30×30, a random game; CPU seconds
(`time.process_time`) per move at a few points of the game, each the median of 5.

    .venv/bin/python bench/bench_ai_worker.py [--size 30] [--at 100 1000 2000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from vertex.core import create_game
from vertex.core.record import replay
from vertex.server.compute import worker_states
from vertex.server.compute.worker_states import state_of


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=30)
    ap.add_argument("--at", type=int, nargs="+", default=[100, 1000, 2000])
    args = ap.parse_args()
    state = create_game("vert3x", rules="gyo", size=args.size).initial_state(seed=1)
    rng = random.Random(1)
    records: dict[int, tuple[str, str]] = {}
    prev = state.record().to_json()
    for n in range(1, max(args.at) + 1):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()), seat=state.to_move[0])
        rec = state.record().to_json()
        if n in args.at:
            records[n] = (prev, rec)
        prev = rec
    print(f"GYØ {args.size}x{args.size}: state built per computer move, CPU ms (median of 5)")
    print(f"{'move':>6} {'replay (before)':>16} {'play on (after)':>16} {'x':>6}")
    for n, (before_rec, rec) in sorted(records.items()):
        full, kept = [], []
        for _ in range(5):
            t = time.process_time()
            replay(rec)
            full.append(time.process_time() - t)
            worker_states.forget_all()
            state_of(before_rec)  # the worker built the table's previous state
            t = time.process_time()
            state_of(rec)
            kept.append(time.process_time() - t)
        a, b = statistics.median(full) * 1000, statistics.median(kept) * 1000
        print(f"{n:>6} {a:>16.1f} {b:>16.1f} {a / b:>6.0f}")


if __name__ == "__main__":
    main()

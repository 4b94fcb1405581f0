"""4×4 Dots and Boxes solved from empty by the compiled core (issue 19), with progress.

    .venv/bin/python bench/bench_dots_4x4.py [--memory 4G] [--threads 2] [--best]
        [--rows 4 --cols 4] [--every 60] [--plain]

As the site's exact solver searches (`CoreSolver.solve`: dominated handouts left out, which
is exact) unless `--plain`.
The value only unless `--best` (the best first lines then cost a search per class of lines
under the board's symmetries). A progress line every `--every` seconds: wall and CPU seconds
(`time.process_time`, every thread), positions searched by the main thread, table entries
stored, the load average. The published value of 4×4 is a tie (0); the bench fails if the
core says otherwise. `vertex solve dots-and-boxes rows=4 cols=4 --memory 4G --progress` is
the same search through the command line, best moves included.
"""

from __future__ import annotations

import argparse
import time

import vertex
from vertex.ai.dots.core import build_core
from vertex.games.dots.engine import DotsGame
from vertex.terminal.solve import parse_bytes

PUBLISHED = {(4, 4): 0, (3, 4): 0, (3, 3): -3, (2, 2): 2}


def load() -> str:
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--memory", default="4G", help="the table's bytes, e.g. 4G")
    ap.add_argument("--threads", type=int, default=2, help="search threads sharing the table")
    ap.add_argument("--best", action="store_true", help="the best first lines too")
    ap.add_argument(
        "--plain", action="store_true", help="search the dominated handouts too (no `hard`)"
    )
    ap.add_argument("--rows", type=int, default=4)
    ap.add_argument("--cols", type=int, default=4)
    ap.add_argument("--every", type=float, default=60.0, help="seconds between progress lines")
    ap.add_argument(
        "--alone", type=int, default=-1, help="runs keyed by their lengths (`Core.solve`)"
    )
    args = ap.parse_args()
    game = vertex.create_game("dots-and-boxes", rows=args.rows, cols=args.cols)
    assert isinstance(game, DotsGame)
    table = parse_bytes(args.memory) or 4 << 30
    print(
        f"{args.rows}x{args.cols} from empty, table {table / (1 << 30):.2f} GiB, "
        f"{args.threads} thread(s), {'plain' if args.plain else 'dominated handouts left out'}"
        f", load {load()}",
        flush=True,
    )
    t0, c0 = time.monotonic(), time.process_time()
    core = build_core(game, table)
    last = [0.0]

    def poll(nodes: int, stored: int) -> bool:
        wall = time.monotonic() - t0
        if wall - last[0] >= args.every:
            last[0] = wall
            print(
                f"  {wall:7.0f} s wall {time.process_time() - c0:7.0f} s cpu "
                f"{nodes:>15,} positions {stored:>13,} stored  load {load()}",
                flush=True,
            )
        return False

    state = game.initial_state()
    out = core.solve(
        state.drawn,
        state.reach,
        poll=poll,
        best=args.best,
        threads=args.threads,
        hard=not args.plain,
        alone=args.alone,
    )
    wall, cpu = time.monotonic() - t0, time.process_time() - c0
    assert out is not None
    value, best = out
    stats = core.stats()
    names = sorted(game.board.line_names[line] for line in best)
    print(
        f"value {value:+d} (published {PUBLISHED.get((args.rows, args.cols), '?')}), "
        f"{wall:.0f} s wall, {cpu:.0f} s cpu, {stats['nodes']:,} positions "
        f"({stats['helper_nodes']:,} by helpers), {stats['stored']:,} stored of "
        f"{stats['capacity']:,}, hits {stats['hits'] / max(stats['lookups'], 1):.0%}, "
        f"load {load()}",
        flush=True,
    )
    if args.best:
        print(f"best first lines: {' '.join(names)}")
    known = PUBLISHED.get((args.rows, args.cols))
    if known is not None and value != known:
        raise SystemExit(f"solved {value:+d}, published {known:+d}")


if __name__ == "__main__":
    main()

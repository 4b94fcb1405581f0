"""`vertex puzzles make GAME [key=value…] --count N [--seed S] [--out FILE]`.

Appends the puzzles found to FILE (JSON lines; stdout without --out), skipping positions
already in it or in any file given with --seen, and prints a rate line on stderr at the end:
how the shipped set (`vertex/puzzles/data`) is made (README, "Puzzles").
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from vertex.core.errors import VertexError
from vertex.puzzles.make import make
from vertex.terminal.options import parse_options

HELP = "make puzzles from the computer's own games, verified by the solver"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="action", required=True)
    p = sub.add_parser("make", help="find puzzles for a game", description=HELP)
    p.add_argument("game", help="dots-and-boxes, dots-and-triangles or juxtapose")
    p.add_argument("options", nargs="*", help="options as key=value, e.g. rows=4 cols=4")
    p.add_argument("--count", type=int, required=True, help="how many puzzles to find")
    p.add_argument("--seed", type=int, default=0, help="seed of the games played")
    p.add_argument("--out", default="", help="append to this JSON-lines file")
    p.add_argument("--seen", action="append", default=[], help="skip the puzzles of this file")
    p.add_argument("--minutes", type=float, default=None, help="stop after this long")
    p.add_argument("--per-theme", type=int, default=None, help="at most this many per theme")
    p.add_argument("--only", action="append", default=[], help="keep only this theme")
    p.add_argument("--quiet", action="store_true", help="no progress lines")


def _ids(path: Path) -> set[str]:
    if not path.exists():
        return set()
    out = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            out.add(str(json.loads(line)["id"]))
    return out


def run(args: argparse.Namespace) -> int:
    if args.count < 1:
        print("vertex puzzles make: --count must be at least 1", file=sys.stderr)
        return 2
    try:
        options = parse_options(args.options)
    except VertexError as exc:
        print(f"vertex puzzles make: {exc}", file=sys.stderr)
        return 2
    seen: set[str] = set()
    for name in [*args.seen, args.out]:
        if name:
            seen |= _ids(Path(name))
    out = open(args.out, "a", encoding="utf-8") if args.out else sys.stdout  # noqa: SIM115
    started = time.monotonic()
    made = 0

    def log(text: str) -> None:
        if not args.quiet:
            print(f"  {text} ({time.monotonic() - started:.0f} s)", file=sys.stderr, flush=True)

    try:
        for puzzle in make(
            args.game,
            options,
            args.count,
            args.seed,
            seen,
            args.minutes,
            log,
            args.per_theme,
            only=tuple(args.only),
        ):
            out.write(puzzle.line() + "\n")
            out.flush()
            made += 1
    except (VertexError, ValueError) as exc:
        print(f"vertex puzzles make: {exc}", file=sys.stderr)
        return 2
    finally:
        if out is not sys.stdout:
            out.close()
    minutes = (time.monotonic() - started) / 60
    rate = made / minutes if minutes > 0 else 0.0
    print(f"{made} puzzles in {minutes:.2f} min: {rate:.1f} a minute", file=sys.stderr)
    return 0

"""`vertex solve GAME [key=value…] [--moves "…"] [--json]`: the exact value of a position.

Prints the value for the player to move (for the Dots family: their cells minus the other's
at the end under perfect play) and every best move; `--json` prints one JSON object for
scripts. Long solves show a progress line on stderr when it is a terminal. Any game that
names an exact solver (`Game.solver`) can be solved.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from typing import TextIO

from vertex.core.errors import VertexError
from vertex.core.game import State
from vertex.core.registry import create_game
from vertex.terminal.options import parse_options

HELP = "solve a two-player position exactly (the Dots family)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="a game with an exact solver, e.g. dots-and-boxes")
    parser.add_argument("options", nargs="*", help="options as key=value, e.g. rows=3")
    parser.add_argument(
        "--moves", default="", help='moves played first, e.g. "a1-b1 b2-b3" (space or comma)'
    )
    parser.add_argument("--seed", type=int, default=0, help="table seed (Figures draws by lot)")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")
    parser.add_argument(
        "--memory",
        default="",
        help="bound the solver's table, e.g. 4G or 512M (default 256M)",
    )
    parser.add_argument(
        "--threads",
        type=int,
        default=0,
        help="search threads sharing the table (default: one a CPU, at most 16)",
    )
    parser.add_argument(
        "--progress", action="store_true", help="progress lines even when not on a terminal"
    )
    parser.add_argument(
        "--no-progress", action="store_true", help="no progress line, even on a terminal"
    )


def parse_bytes(text: str) -> int | None:
    """`4G`, `512M`, `1.5G` or a number of bytes; None for the default."""
    if not text:
        return None
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMG]?)i?B?\s*", text, re.IGNORECASE)
    if not m:
        raise VertexError(f"--memory: {text!r} is not a size like 4G or 512M")
    scale = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[m.group(2).upper()]
    size = int(float(m.group(1)) * scale)
    if not 1 << 20 <= size <= 1 << 40:
        raise VertexError("--memory: give between 1M and 1024G")
    return size


def run(args: argparse.Namespace) -> int:
    return solve_command(args, sys.stdout, sys.stderr)


def solve_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from vertex.ai import solver as solver_for

    try:
        game = create_game(args.game, **parse_options(args.options))
        state: State = game.initial_state(seed=args.seed)
        for move in (m for m in re.split(r"[\s,]+", args.moves) if m):
            state = state.play(move)
        threads = args.threads or min(os.cpu_count() or 1, 16)
        if not 1 <= threads <= 16:
            raise VertexError("--threads: give 1 to 16")
        solver = solver_for(game, table_bytes=parse_bytes(args.memory), threads=threads)
    except VertexError as exc:
        print(f"error: {exc}", file=err)
        return 2
    tty = err.isatty()
    show = not args.json and not args.no_progress and (tty or args.progress)
    last = [0.0]

    def progress(nodes: int, seconds: float) -> None:
        if not show or seconds < 1.0:
            return
        if not tty:  # a log gets a whole line every half minute
            if seconds - last[0] < 30:
                return
            last[0] = seconds
        rate = nodes / max(seconds, 1e-9)
        line = f"  {nodes:,} positions, {solver.stored:,} stored, {seconds:.0f} s ({rate:,.0f}/s)"
        print("\r" + line if tty else line, end="" if tty else "\n", file=err, flush=True)

    sol = solver.solve(state, progress=progress)
    if show and tty and sol.seconds > 1.0:
        print(file=err)
    mover = state.to_move[0] if state.to_move else None
    if args.json:
        data = {
            "game": game.id,
            "options": game.options_dict(),
            "moves": [m for _, m in state.history],
            "to_move": mover,
            "value": sol.value,
            "best_moves": sol.best_moves,
            "positions": sol.nodes,
            "seconds": round(sol.seconds, 3),
        }
        print(json.dumps(data), file=out)
        return 0
    if mover is None:
        print(f"The game is over: {sol.value:+d} for the last player to move.", file=out)
        return 0
    goal = "fewer" if game.lowest_score_wins else "more"
    print(
        f"Value for seat {mover} (to move): {sol.value:+d} "
        f"(their cells minus the other's at the end; each wants {goal})",
        file=out,
    )
    print(f"Best moves: {' '.join(sol.best_moves)}", file=out)
    print(f"Searched {sol.nodes:,} positions in {sol.seconds:.2f} s.", file=out)
    return 0

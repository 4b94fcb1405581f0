"""`vertex solve GAME [key=value…] [--moves "…"] [--json]`: the exact value of a position.

Prints the value for the player to move (their cells minus the other's at the end under
perfect play) and every best move; `--json` prints one JSON object for scripts. Long solves
show a progress line on stderr when it is a terminal.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import TextIO

from vertex.ai.dots.solver import Solver
from vertex.core.errors import VertexError
from vertex.core.game import State
from vertex.core.registry import create_game
from vertex.games.dots.engine import DotsGame, DotsState

HELP = "solve a two-player Dots-family position exactly"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="dots-and-boxes, dots-and-triangles or figures")
    parser.add_argument("options", nargs="*", help="options as key=value, e.g. rows=3")
    parser.add_argument(
        "--moves", default="", help='moves played first, e.g. "a1-b1 b2-b3" (space or comma)'
    )
    parser.add_argument("--seed", type=int, default=0, help="table seed (Figures draws by lot)")
    parser.add_argument("--json", action="store_true", help="print JSON for scripts")
    parser.add_argument(
        "--no-progress", action="store_true", help="no progress line, even on a terminal"
    )


def run(args: argparse.Namespace) -> int:
    return solve_command(args, sys.stdout, sys.stderr)


def solve_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from vertex.terminal.options import parse_options

    try:
        game = create_game(args.game, **parse_options(args.options))
        if not isinstance(game, DotsGame):
            raise VertexError(
                f"the solver is for the Dots family (dots-and-boxes, dots-and-triangles, "
                f"figures), not {args.game}"
            )
        state: State = game.initial_state(seed=args.seed)
        for move in (m for m in re.split(r"[\s,]+", args.moves) if m):
            state = state.play(move)
        solver = Solver(game)
    except VertexError as exc:
        print(f"error: {exc}", file=err)
        return 2
    assert isinstance(state, DotsState)
    show = not args.json and not args.no_progress and err.isatty()

    def progress(nodes: int, seconds: float) -> None:
        if show and seconds > 1.0:
            rate = nodes / max(seconds, 1e-9)
            print(
                f"\r  {nodes:,} positions, {len(solver.tt):,} stored, {seconds:.0f} s "
                f"({rate:,.0f}/s)",
                end="",
                file=err,
                flush=True,
            )

    sol = solver.solve(state, progress=progress)
    if show and sol.seconds > 1.0:
        print(file=err)
    mover = None if state.is_over else state.order[state.turn]
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
    goal = "fewer" if game.misere else "more"
    print(
        f"Value for seat {mover} (to move): {sol.value:+d} "
        f"(their cells minus the other's at the end; each wants {goal})",
        file=out,
    )
    print(f"Best moves: {' '.join(sol.best_moves)}", file=out)
    print(f"Searched {sol.nodes:,} positions in {sol.seconds:.2f} s.", file=out)
    return 0

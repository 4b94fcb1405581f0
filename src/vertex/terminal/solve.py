"""`vertex solve GAME [key=value…] [--moves "…"] [--json]`: the exact value of a position.

Prints the value for the player to move (for the Dots family: their cells minus the other's
at the end under perfect play) and every best move; `--json` prints one JSON object for
scripts. Long solves show a progress line on stderr when it is a terminal. Any game that
names an exact solver (`Game.solver`) can be solved.

`--table FILE` keeps the compiled solver's table in FILE: saved every `--save-every` seconds,
when the solve ends, and when it is stopped (Ctrl-C or SIGTERM), and read back when the same
command runs again, so that a solve of hours goes on where it stopped (the table's size is
the file's unless `--memory` says otherwise, which must then agree).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import signal
import sys
import time
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, TextIO

from vertex.core.errors import VertexError
from vertex.core.game import State
from vertex.core.registry import create_game
from vertex.terminal.options import parse_options

if TYPE_CHECKING:
    from vertex.ai.dots.core import Walk

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
    parser.add_argument(
        "--table",
        default="",
        help="keep the solver's table in this file, and go on from it when it exists",
    )
    parser.add_argument(
        "--keep-above",
        default="",
        metavar="N",
        help="with --table, keep in the file only the positions whose search took N "
        "positions or more (e.g. 16K; rounded up to a power of two): megabytes, not "
        "gigabytes, to carry a long solve to another machine; going on from it searches "
        "again what it left out",
    )
    parser.add_argument(
        "--save-every",
        type=float,
        default=600.0,
        help="seconds between saves of --table during the solve (default 600)",
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


def parse_work(text: str) -> int:
    """`--keep-above`: a count of positions (`16K`, `2M`, `5000`) as the table's least work
    kept (its entries' work w: the search took 2**(w - 1) positions or more); 0 for all."""
    if not text:
        return 0
    m = re.fullmatch(r"\s*(\d+)\s*([KMG]?)\s*", text, re.IGNORECASE)
    if not m:
        raise VertexError(f"--keep-above: {text!r} is not a count like 16K or 5000")
    count = int(m.group(1)) * {"": 1, "K": 10**3, "M": 10**6, "G": 10**9}[m.group(2).upper()]
    if not 1 <= count <= 10**15:
        raise VertexError("--keep-above: give between 1 and 10**15 positions")
    return (count - 1).bit_length() + 1


def run(args: argparse.Namespace) -> int:
    return solve_command(args, sys.stdout, sys.stderr)


def solve_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from vertex.ai import solver as solver_for
    from vertex.ai.dots import tablefile
    from vertex.ai.dots.core import CoreSolver
    from vertex.ai.dots.solver import SolveTimeout
    from vertex.games.dots.engine import DotsState

    table = Path(args.table) if args.table else None
    kept = None
    try:
        game = create_game(args.game, **parse_options(args.options))
        state: State = game.initial_state(seed=args.seed)
        for move in (m for m in re.split(r"[\s,]+", args.moves) if m):
            state = state.play(move)
        threads = args.threads or min(os.cpu_count() or 1, 16)
        if not 1 <= threads <= 16:
            raise VertexError("--threads: give 1 to 16")
        if not args.save_every > 0:
            raise VertexError("--save-every: give a number of seconds above 0")
        memory = parse_bytes(args.memory)
        min_work = parse_work(args.keep_above)
        if min_work and table is None:
            raise VertexError("--keep-above: give --table too (it says what that file keeps)")
        if table is not None and table.exists():
            kept = tablefile.read_header(table)
            memory = memory or kept.table_bytes
        solver = solver_for(game, table_bytes=memory, threads=threads)
        if table is not None and not isinstance(solver, CoreSolver):
            raise VertexError("--table: only the compiled solver keeps its table in a file")
        if kept is not None and table is not None and isinstance(solver, CoreSolver):
            kept = tablefile.load(solver, table)
            costly = (
                f" (its positions whose search took {1 << (kept.min_work - 1):,} or more)"
                if kept.min_work
                else ""
            )
            print(
                f"Going on from {table}{costly}: {solver.stored:,} positions kept, "
                f"{kept.positions:,} searched in {kept.seconds:,.0f} s before.",
                file=err,
                flush=True,
            )
    except VertexError as exc:
        print(f"error: {exc}", file=err)
        return 2
    tty = err.isatty()
    show = not args.json and not args.no_progress and (tty or args.progress)
    last = [0.0]
    width = [0]  # a terminal's last line, overwritten: a shorter one is padded
    saver = _Saver(solver, table, kept, args.save_every, min_work) if table is not None else None

    def progress(nodes: int, seconds: float) -> None:
        if saver is not None:
            saver.tick(nodes, seconds)
        if not show or seconds < 1.0:
            return
        if not tty:  # a log gets a whole line every half minute
            if seconds - last[0] < 30:
                return
            last[0] = seconds
        rate = nodes / max(seconds, 1e-9)
        line = f"  {nodes:,} positions, {solver.stored:,} stored, {seconds:.0f} s ({rate:,.0f}/s)"
        if saver is not None and saver.bounds is not None:
            line += f", value {_bounds_words(saver.bounds)}"
        walk = solver.walk() if isinstance(solver, CoreSolver) else None
        if walk is not None:  # (a terminal's one line stays short: the root's line only)
            line += f"; {_walk_words(walk, 1 if tty else len(walk.lines))}"
        if tty:
            line, width[0] = line.ljust(width[0]), len(line)
        print("\r" + line if tty else line, end="" if tty else "\n", file=err, flush=True)

    if saver is None:
        sol = solver.solve(state, progress=progress)
    else:
        assert isinstance(solver, CoreSolver) and isinstance(state, DotsState)  # as checked
        saver.state = state
        with _stop_on_signals() as signalled:
            what = (
                f", its positions whose search took {1 << (min_work - 1):,} positions or more"
                if min_work
                else ""
            )
            print(
                f"Solving; the table is kept in {table}{what} (Ctrl-C saves it and stops).",
                file=err,
                flush=True,
            )
            try:
                try:
                    sol = solver.solve(state, progress=progress, stop=lambda: bool(signalled))
                except SolveTimeout:
                    saver.save()
                    if show and tty:
                        print(file=err)
                    print(
                        f"Stopped: the table is saved in {table}; "
                        "the same command goes on from there.",
                        file=err,
                    )
                    return 128 + signalled[0]
                saver.save(sol.nodes)
            except OSError as exc:  # a full disk, say: the last good table stays
                print(f"\nerror: cannot save the table in {table}: {exc.strerror}", file=err)
                return 1
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


def _walk_words(walk: Walk, plies: int) -> str:
    """Where the search is, for the progress line: "asking at least +2: line b1-b2 (3 of 40),
    reply a1-a2 (1 of 39); below 2/37 1/36", the lines the main thread searches at the
    first `plies` plies, each with its place among its position's lines (deeper than the
    reply, the places only)."""
    if walk.best_pass:
        head = f"the lines that keep {walk.bound:+d}"
    else:
        head = f"asking {'at least' if walk.at_least else 'at most'} {walk.bound:+d}"
    steps = walk.lines[:plies]
    named = (
        f"{'reply' if depth else 'line'} {name} ({at} of {of})"
        for depth, (name, at, of) in enumerate(steps[:2])
    )
    words = f"{head}: {', '.join(named)}"
    if len(steps) > 2:
        words += "; below " + " ".join(f"{at}/{of}" for _, at, of in steps[2:])
    return words


def _bounds_words(bounds: tuple[int, int]) -> str:
    lo, hi = bounds
    return f"{lo:+d}" if lo == hi else f"between {lo:+d} and {hi:+d}"


class _Saver:
    """Saves `--table` during a solve (from its progress calls) and after it, counting the
    positions and seconds of every run so far."""

    def __init__(self, solver: Any, path: Path, kept: Any, every: float, min_work: int) -> None:
        self.solver, self.path, self.every, self.min_work = solver, path, every, min_work
        self.before_positions = kept.positions if kept is not None else 0
        self.before_seconds = kept.seconds if kept is not None else 0.0
        self.started = time.monotonic()
        self.last_save = self.started
        self.nodes = 0
        self.state: Any = None
        self.bounds: tuple[int, int] | None = None

    def tick(self, nodes: int, seconds: float) -> None:
        self.nodes = nodes
        self.bounds = self.root_bounds()
        if time.monotonic() - self.last_save >= self.every:
            self.save()

    def root_bounds(self) -> tuple[int, int] | None:
        """The root's bounds in the table, as the command prints values (cells already
        taken counted in)."""
        state = self.state
        got = self.solver.core.probe(state.drawn) if state is not None else None
        if got is None:
            return None
        mover = state.order[state.turn]
        diff = state.owned[mover].bit_count() - state.owned[1 - mover].bit_count()
        lo, hi = (self.solver.sign * got[0], self.solver.sign * got[1])
        return (diff + min(lo, hi), diff + max(lo, hi))

    def save(self, nodes: int | None = None) -> None:
        from vertex.ai.dots import tablefile

        if nodes is not None:
            self.nodes = nodes
        tablefile.save(
            self.solver,
            self.path,
            positions=self.before_positions + self.nodes,
            seconds=self.before_seconds + time.monotonic() - self.started,
            bounds=self.root_bounds(),
            min_work=self.min_work,
        )
        self.last_save = time.monotonic()


class _stop_on_signals:
    """SIGINT and SIGTERM ask the solve to stop (so its table can be saved) instead of
    killing the process; the signal's number is then in the list `with` gives."""

    def __enter__(self) -> list[int]:
        self.signalled: list[int] = []
        self.old: dict[int, Any] = {}
        for sig in (signal.SIGINT, signal.SIGTERM):
            # not on the main thread: the caller keeps its own handlers
            with contextlib.suppress(ValueError):
                self.old[sig] = signal.signal(sig, self.handle)
        return self.signalled

    def handle(self, signum: int, frame: FrameType | None) -> None:
        if not self.signalled:
            self.signalled.append(signum)

    def __exit__(self, *exc: object) -> None:
        for sig, old in self.old.items():
            signal.signal(sig, old)

"""The exact solver on the compiled core (`_core.c`, `_core.h`), from the engine's tables.

The core gets everything from the game object: the cells each line bounds, the lines of each
cell, the dots each line touches (touch rule), misère and extra turns, the board's symmetries
(`symmetry.line_symmetries`) and the centre-first move order. So the rules live in one place,
`vertex.games.dots`, and `tests/ai/test_core_differential.py` checks that core and engine agree.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from vertex.ai import ponder
from vertex.ai.dots._core import MAX_CELLS, MAX_LINES, MAX_THREADS, Core
from vertex.ai.dots.solver import Progress, Solution, SolveTimeout, centre_first
from vertex.ai.dots.symmetry import line_symmetries
from vertex.core.errors import VertexError
from vertex.games.dots.engine import DotsGame, DotsState

#: The transposition table's size unless told: 256 MiB (16 bytes an entry; 20 on boards of more
#: than 96 lines).
DEFAULT_TABLE_BYTES = 256 << 20
#: The middle game's pruned search (`CoreSolver.keep_line(middle=True)`): no handout of this
#: many cells or more below the root while a quiet line is left.
MIDDLE_HANDOUT = 3


@dataclass(frozen=True)
class Walk:
    """Where a running solve is (`CoreSolver.walk`), for a long solve's progress line. The
    value search asks, pass after pass, whether the player to move gets at least `bound`
    (at most, where fewer cells win: `at_least` false), in `solve`'s terms (cells taken
    before counted in); the best-move pass (`best_pass`) tries a line of each class at the
    root against the value found, `bound`. `lines`: the main thread's line at the root and
    at the plies below it, each with its place among its position's lines (from 1) and how
    many are listed there (a position lists its handouts only once its other lines have
    not cut the search off: then the count grows)."""

    bound: int
    at_least: bool
    best_pass: bool
    lines: list[tuple[str, int, int]]


def fits(game: DotsGame[Any]) -> bool:
    """Whether the core takes this board (two players, up to 128 lines and 127 cells)."""
    board = game.board
    return game.seats == 2 and len(board.lines) <= MAX_LINES and len(board.cells) <= MAX_CELLS


def spare_core() -> bool:
    """Whether this machine has a core to spare for a second search thread now: more than
    one core for this process, and fewer threads running at this moment than cores (this
    one counts; a worker per core thinks for other tables, and while they are busy it is
    one thread a search). Read from the kernel's count of running threads (`/proc/loadavg`)
    at once, not the load average, which lags and counts this search's own threads. Threads
    thinking on the other side's time (`vertex.ai.ponder`) give way at once: not counted."""
    if os.environ.get("VERTEX_AI_THREADS", "2").strip() == "1":
        return False  # the operator (or the test suite) keeps every search on one thread
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        cores = os.cpu_count() or 1
    if cores < 2:
        return False
    running = _running_threads()
    if running is None:  # pragma: no cover - not Linux
        return os.getloadavg()[0] < cores - 0.5
    return max(1, running - ponder.threads_pondering()) < cores


def _running_threads() -> int | None:
    """The kernel's count of threads running or ready to run now (None: not known)."""
    try:
        with open("/proc/loadavg", "rb") as f:
            return int(f.read().split()[3].split(b"/")[0])
    except (OSError, IndexError, ValueError):  # pragma: no cover - not Linux
        return None


def build_core(game: DotsGame[Any], table_bytes: int = DEFAULT_TABLE_BYTES) -> Core:
    """The core for `game`, its tables taken from the engine's board."""
    board = game.board
    return Core(
        len(board.lines),
        board.line_cells,
        board.cells,
        bool(game.misere),
        bool(game.extra_turn),
        bool(game.touch_rule),
        [board.dot_lines[a] | board.dot_lines[b] for a, b in board.lines],
        line_symmetries(board, game.predrawn),
        centre_first(game),
        table_bytes,
    )


class CoreSolver:
    """Exact search for one two-player game of the family on the compiled core.

    Keep it to reuse its table; its memory is fixed at construction (`table_bytes`).
    `threads` > 1 adds helper threads that run the same search with other first guesses and
    move orders, sharing the table (about 1.8x on two free cores for a long solve). A
    search stops at `deadline` (time.monotonic), at `cancel()` from another thread, or when
    `stop()` (polled four times a second) says so; each raises SolveTimeout and leaves only
    finished entries in the table, so a later search goes on from there. On Dots and
    Triangles the table keys runs of two-sided cells alone, and runs hanging from a
    junction, by their lengths below the root (`Core.solve(alone=...)`: 1.73x faster there,
    bench/bench_runs_alone.py).
    """

    def __init__(
        self, game: DotsGame[Any], *, table_bytes: int = DEFAULT_TABLE_BYTES, threads: int = 1
    ) -> None:
        if game.seats != 2:
            raise VertexError(f"the exact solver is for two players; this table has {game.seats}")
        if not fits(game):
            raise VertexError("this board is too big for the compiled core")
        if not 1 <= threads <= MAX_THREADS:
            raise VertexError(f"threads: give 1 to {MAX_THREADS}")
        self.game = game
        self.threads = threads
        self.core = build_core(game, table_bytes)
        self.sign = -1 if game.misere else 1
        self.names = game.board.line_names
        self.nodes = 0
        self._diff = 0

    @property
    def stored(self) -> int:
        return self.core.stats()["stored"]

    def stats(self) -> dict[str, int]:
        """Counters: nodes, lookups, hits (table), stored, capacity, table_bytes."""
        return self.core.stats()

    def walk(self) -> Walk | None:
        """Where the running `solve` is; call it from its `progress` (None between solves)."""
        got = self.core.walk()
        if got is None:
            return None
        beta, best_pass, steps = got
        return Walk(
            self._diff + self.sign * beta,
            self.sign > 0,
            best_pass,
            [(self.names[line], at + 1, of) for line, at, of in steps],
        )

    def cancel(self) -> None:
        self.core.cancel()

    def clear(self) -> None:
        self.core.clear()

    def solve(
        self,
        state: DotsState,
        *,
        deadline: float | None = None,
        progress: Progress | None = None,
        stop: Callable[[], bool] | None = None,
        threads: int | None = None,
    ) -> Solution:
        """Value and every best move. Dominated handouts are not searched (`hard`, exact:
        see `keep_line`), and keys use the root's own symmetries (`stabilizer`: 1.6x faster
        from 4×4 positions after six lines); `threads`: as the solver's unless given."""
        if state.game.key() != self.game.key():
            raise VertexError("this solver was built for another game")
        mover = state.order[state.turn]
        diff = state.owned[mover].bit_count() - state.owned[1 - mover].bit_count()
        if state.is_over:
            return Solution(diff, [], 0, 0.0)
        started = time.monotonic()
        before = self.core.stats()["nodes"]
        self._diff = diff  # (`walk`)
        poll = None
        if progress is not None or stop is not None:

            def poll(nodes: int, stored: int) -> bool:
                if progress is not None:
                    progress(nodes - before, time.monotonic() - started)
                return stop is not None and stop()

        out = self.core.solve(
            state.drawn,
            state.reach,
            deadline,
            poll,
            threads=self.threads if threads is None else threads,
            hard=True,
            stabilizer=True,
        )
        nodes = self.core.stats()["nodes"] - before
        self.nodes += nodes
        if out is None:
            raise SolveTimeout
        g, best = out
        return Solution(
            diff + self.sign * g,
            sorted(self.names[line] for line in best),
            nodes,
            time.monotonic() - started,
        )

    def keep_line(
        self,
        state: DotsState,
        *,
        deadline: float | None = None,
        middle: bool = False,
        handout: int = MIDDLE_HANDOUT,
        junctions: bool = False,
        hard: bool = False,
        stabilizer: bool = False,
        threads: int | None = None,
        guess: int = 0,
        first: int | None = None,
    ) -> tuple[int, int]:
        """A line that keeps the value, and that value for the player to move (cells from
        here on, score-free), by the value search alone: no search per root line, the line
        is the one the search stored at the root. SolveTimeout when not done by `deadline`.

        `middle`: the middle game's pruned search, a heuristic — wherever a quiet line is
        left, no handout of `handout` cells or more is searched, and of the lines that hand
        out a lone cell one per cell. Use a
        solver of its own for it: its table's bounds are not exact. On 31 recorded 5×5
        middle-game positions its line kept the exact value in 26
        (bench/bench_middle_game.py), in a tenth of the exact search's positions.

        `junctions`: loony positions with junctions are counted (`Core.loony`), not
        searched — not proven exact, but equal to the search wherever it was checked
        (tests/ai/test_junctions.py); 2-5x fewer positions in the 5×5 middle game.
        `hard`: dominated and equal handouts are not searched — a lone cell handed out by
        a second of its lines (the same position once taken), a chain of two handed out
        from its end (the middle line offers the same cells and cannot be declined), and a
        chain of three cells or more (its ends apart) or a loop by a second of its lines
        (wherever it is opened, the taker's best answers end in the same positions: all
        taken, or all but two — four of a loop — given back). Exact: the plain search's
        values and lines (tests/ai/test_junctions.py).
        `stabilizer`: table keys under the root's own symmetries only (none for most
        middle-game positions: no key costs a symmetry; a position that meets its image
        below is searched twice). `threads`: as the solver's unless given. `guess`: the
        value search's first try (MTD(f)); a right one proves the line from below in its
        first pass, so that a search stopped in the second still left a line that keeps
        the value (`proven_line`). `first`: a line to search first at the root, before the
        table's (a guess, say a pruned search's line): a right one proves the value from
        below in its own subtree, however late the line comes in the search's order."""
        if state.game.key() != self.game.key():
            raise VertexError("this solver was built for another game")
        if state.is_over:
            raise VertexError("the game is over: no line to draw")
        out = self.core.solve(
            state.drawn,
            state.reach,
            deadline,
            None,
            best=False,
            quiet=1 if middle else 0,
            handout=handout,
            junctions=junctions,
            hard=hard,
            stabilizer=stabilizer,
            threads=self.threads if threads is None else threads,
            guess=guess,
            first=-1 if first is None else first,
        )
        if out is None:
            raise SolveTimeout
        got = self.core.probe(state.drawn)
        line = got[2] if got is not None else -1
        if not self._open(state, line):
            # a capture first (the search took it before the root's entry): ask per line
            full = self.core.solve(
                state.drawn,
                state.reach,
                deadline,
                None,
                junctions=junctions,
                hard=hard,
                stabilizer=stabilizer,
            )
            if full is None:
                raise SolveTimeout
            return full[0], full[1][0]
        return out[0], line

    def proven_line(self, state: DotsState) -> tuple[int, int] | None:
        """What a value search (`keep_line`), even a stopped one, left at the root: (lo,
        line) with the line proven to keep at least lo (cells from here on for the player
        to move), or None when the table holds no lower bound and line for the position."""
        got = self.core.probe(state.drawn)
        if got is None:
            return None
        lo, _, line = got
        left = sum(1 for mask in self.game.board.cell_masks if mask & ~state.drawn)
        if lo <= -left or not self._open(state, line):
            return None
        return lo, line

    def _open(self, state: DotsState, line: int) -> bool:
        """Whether `line` (-1: none) is a line still to draw in `state`."""
        return line >= 0 and bool((self.game.board.all_lines & ~state.drawn) >> line & 1)


# ---- extras for researchers: batch playouts and a plain UCT on the core ---------------------
def random_playouts(state: DotsState, count: int, seed: int = 0) -> list[tuple[int, ...]]:
    """`count` uniformly random playouts from `state` to the end, in one call: the cells
    each seat takes from here on (by seat, as `state.scores`). Any number of seats."""
    game = state.game
    core = build_core(game, 1 << 16)
    by_turn = core.random_playouts(
        state.drawn, state.reach, state.turn, len(state.order), count, seed
    )
    out = []
    for row in by_turn:
        per_seat = [0] * game.seats
        for i, seat in enumerate(state.order):
            per_seat[seat] = row[i]
        out.append(tuple(per_seat))
    return out


def uct_search(
    state: DotsState, iterations: int, seconds: float = 0.0, seed: int = 0, c: float = 1.4
) -> tuple[str, int, list[tuple[str, int, float]]]:
    """A plain UCT search (uniform random playouts) from a two-player `state`: the most
    visited move, the iterations done (`seconds` > 0 stops it sooner) and, per root move,
    its visits and the mover's win rate. No chain knowledge: the computer players' own
    search (`vertex.ai.player`) is stronger; this one is for speed and experiments."""
    game = state.game
    if game.seats != 2 or not fits(game):
        raise VertexError("uct_search is for two-player boards of up to 128 lines")
    if state.is_over:
        raise VertexError("the game is over: nothing to search")
    core = build_core(game, 1 << 16)
    scores = [state.owned[s].bit_count() for s in state.order]
    done, rows = core.uct(
        state.drawn, state.reach, state.turn, (scores[0], scores[1]), iterations, seconds, seed, c
    )
    names = game.board.line_names
    table = sorted(((names[ln], v, w) for ln, v, w in rows), key=lambda r: (-r[1], r[0]))
    return table[0][0], done, table

"""The exact solver for two players: alpha-beta over drawn lines, with what the literature uses.

The value searched is score-free: what the player to move will still net from the cells left
(their cells minus the other's from here on), so one transposition-table entry serves every
position with the same lines drawn, whoever holds which cells (Barker & Korf, "Solving
Dots-and-Boxes", 2012). On top of that:
- a canonical key per node under the board's symmetries;
- forced captures where provably safe: a cell that can be taken without offering a new one
  is taken at once (normal play with extra turns only — in misère taking is not always good);
- simple loony endgames (only chains and loops left, every move a handout) are counted
  exactly by `endgame.loony_value` instead of searched;
- captures first, then quiet lines from the centre out, then handouts, smallest first;
- alpha-beta with both bounds kept per entry.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Union

from vertex.ai.dots.endgame import components, loony_value
from vertex.ai.dots.kit import OUTSIDE, DotsKit, lines_of
from vertex.ai.dots.symmetry import Canonizer, line_symmetries
from vertex.core.errors import VertexError
from vertex.games.dots.engine import DotsGame, DotsState

#: Boards with more lines than this get no symmetry keys.
MAX_SYMMETRY_LINES = 84


class SolveTimeout(Exception):
    """The deadline passed before the search finished."""


@dataclass(frozen=True)
class Solution:
    """`value`: the mover's cells minus the other's at the end under perfect play (misère:
    the mover tries to make it small); `best_moves`: every move that keeps that value."""

    value: int
    best_moves: list[str]
    nodes: int = field(default=0, compare=False)
    seconds: float = field(default=0.0, compare=False)


Progress = Callable[[int, float], None]


def centre_first(game: DotsGame[Any]) -> list[int]:
    """Line indices from the centre out: central lines decide most, so they are tried first."""
    pos = game.board.positions
    cx = sum(x for x, _ in pos) / len(pos)
    cy = sum(y for _, y in pos) / len(pos)

    def dist(line: int) -> float:
        a, b = game.board.lines[line]
        x = (pos[a][0] + pos[b][0]) / 2 - cx
        y = (pos[a][1] + pos[b][1]) / 2 - cy
        return x * x + y * y

    return sorted(range(len(game.board.lines)), key=dist)


class PySolver:
    """Exact search in Python for one two-player game of the family: the reference the
    compiled core is tested against, and the solver for boards too big for the core.
    Keep it to reuse its table."""

    def __init__(
        self,
        game: DotsGame[Any],
        *,
        symmetry: bool = True,
        forced_captures: bool = True,
        loony_endgames: bool = True,
    ) -> None:
        if game.seats != 2:
            raise VertexError(f"the exact solver is for two players; this table has {game.seats}")
        self.kit = kit = DotsKit(game)
        self.sign = -1 if kit.misere else 1
        normal = not kit.misere and kit.extra_turn
        self.forced = forced_captures and normal
        # the chain count assumes any line may be drawn: not so under the touch rule
        self.loony = loony_endgames and normal and not kit.touch_rule
        # big boards are only ever solved near their end, where symmetry seldom helps and
        # the lookup tables would cost more than they save
        use = symmetry and kit.lines <= MAX_SYMMETRY_LINES
        perms = line_symmetries(game.board, kit.predrawn) if use else []
        self.canon = Canonizer(perms, kit.lines) if perms else None
        self.tt: dict[int, tuple[int, int]] = {}
        self.nodes = 0
        self.deadline: float | None = None
        self.progress: Progress | None = None
        self._stop: Callable[[], bool] | None = None
        self._cancelled = False
        self._started = 0.0
        self.centre_first = centre_first(game)
        if sys.getrecursionlimit() < 10 * kit.lines + 1000:
            sys.setrecursionlimit(10 * kit.lines + 1000)

    # ---- public ----------------------------------------------------------------------------
    @property
    def stored(self) -> int:
        """Positions in the table, for progress lines."""
        return len(self.tt)

    def clear(self) -> None:
        self.tt.clear()

    def cancel(self) -> None:
        """Stop a running search (from another thread) at its next check."""
        self._cancelled = True

    def stats(self) -> dict[str, int]:
        return {"nodes": self.nodes, "stored": len(self.tt)}

    def solve(
        self,
        state: DotsState,
        *,
        deadline: float | None = None,
        progress: Progress | None = None,
        stop: Callable[[], bool] | None = None,
    ) -> Solution:
        """Value and best moves of `state`; SolveTimeout if `deadline` (time.monotonic) passes,
        `cancel()` is called or `stop()` says so."""
        if state.game.key() != self.kit.game.key():
            raise VertexError("this solver was built for another game")
        self.deadline = deadline
        self.progress = progress
        self._stop = stop
        self._cancelled = False
        self._started = time.monotonic()
        start_nodes = self.nodes
        kit = self.kit
        mover = state.order[state.turn]
        other = 1 - mover
        diff = state.owned[mover].bit_count() - state.owned[other].bit_count()
        if state.is_over:
            return Solution(diff, [], 0, 0.0)
        drawn, reach = state.drawn, state.reach
        left = self._left(drawn)
        g = self._search(drawn, reach, -left - 1, left + 1, left)
        best: list[str] = []
        for line in self._moves(drawn, reach, root=True)[0]:
            if self._child_value(drawn, reach, line, left, g - 1, g) >= g:
                best.append(kit.names[line])
        best.sort()
        return Solution(
            diff + self.sign * g,
            best,
            self.nodes - start_nodes,
            time.monotonic() - self._started,
        )

    # ---- search ----------------------------------------------------------------------------
    def _left(self, drawn: int) -> int:
        return sum(1 for m in self.kit.cell_masks if m & ~drawn)

    def _child_value(
        self, drawn: int, reach: int, line: int, left: int, alpha: int, beta: int
    ) -> int:
        kit = self.kit
        k = kit.gains(drawn, line)
        after = drawn | (1 << line)
        reach2 = reach | kit.line_reach[line] if kit.touch_rule else reach
        if k:
            gain = self.sign * k
            if kit.extra_turn:
                return gain + self._search(after, reach2, alpha - gain, beta - gain, left - k)
            return gain - self._search(after, reach2, gain - beta, gain - alpha, left - k)
        return -self._search(after, reach2, -beta, -alpha, left)

    def _moves(self, drawn: int, reach: int, root: bool = False) -> tuple[list[int], bool]:
        """Lines worth trying, best first (one line when a capture is forced), and whether
        every one of them is a handout (no capture, no quiet line)."""
        kit = self.kit
        free = kit.all_lines & ~drawn
        if kit.touch_rule:
            free &= reach
        rem = [(m & ~drawn).bit_count() for m in kit.cell_masks]
        rem.append(OUTSIDE)
        pair = kit.line_pair
        captures: list[int] = []
        quiet: list[int] = []
        give1: list[int] = []
        give2: list[int] = []
        for line in self.centre_first:
            if not free >> line & 1:
                continue
            a, b = pair[line]
            ra = rem[a]
            rb = rem[b]
            if ra == 1 or rb == 1:
                if self.forced and ra != 2 and rb != 2 and not root:
                    return [line], False
                captures.append(line)
            elif ra > 2 and rb > 2:
                quiet.append(line)
            elif ra == 2 and rb == 2:
                give2.append(line)
            else:
                give1.append(line)
        return captures + quiet + give1 + give2, not captures and not quiet

    def _search(self, drawn: int, reach: int, alpha: int, beta: int, left: int) -> int:
        if left == 0:
            return 0
        if left <= alpha:
            return left
        if -left >= beta:
            return -left
        self.nodes += 1
        if not self.nodes & 0xFF:
            self._tick()
        key = self.canon.key(drawn) if self.canon is not None else drawn
        lo, hi = self.tt.get(key, (-left, left))
        if lo >= beta:
            return lo
        if hi <= alpha:
            return hi
        if lo == hi:
            return lo
        alpha = max(alpha, lo)
        beta = min(beta, hi)
        moves, handouts = self._moves(drawn, reach)
        if self.loony and handouts:
            comps = components(self.kit, drawn)
            if comps is not None:
                chains = tuple(sorted(c.size for c in comps if not c.loop))
                loops = tuple(sorted(c.size for c in comps if c.loop))
                v = loony_value(chains, loops)
                self.tt[key] = (v, v)
                return v
        best = -left - 1
        a = alpha
        for line in moves:
            v = self._child_value(drawn, reach, line, left, a, beta)
            if v > best:
                best = v
                if v > a:
                    a = v
                    if a >= beta:
                        break
        if best <= alpha:
            self.tt[key] = (lo, min(hi, best))
        elif best >= beta:
            self.tt[key] = (max(lo, best), hi)
        else:
            self.tt[key] = (best, best)
        return best

    def _tick(self) -> None:
        now = time.monotonic()
        if self.deadline is not None and now > self.deadline:
            raise SolveTimeout
        if self._cancelled or (self._stop is not None and not self.nodes & 0xFFF and self._stop()):
            raise SolveTimeout
        if self.progress is not None and not self.nodes & 0xFFFF:
            self.progress(self.nodes, now - self._started)


if TYPE_CHECKING:
    from vertex.ai.dots.core import CoreSolver

#: Either solver: the same calls, the same answers.
AnySolver = Union["CoreSolver", PySolver]


def Solver(game: DotsGame[Any], *, table_bytes: int | None = None, threads: int = 1) -> AnySolver:
    """The exact solver for `game`: the compiled core when the board fits it (two players,
    up to 128 lines), else the Python search. `table_bytes` bounds the core's table;
    `threads` > 1 lets the core search on that many threads sharing it."""
    try:
        from vertex.ai.dots.core import DEFAULT_TABLE_BYTES, CoreSolver, fits
    except ImportError:  # an install without the compiled core: slower, the same answers
        return PySolver(game)
    if fits(game):
        return CoreSolver(game, table_bytes=table_bytes or DEFAULT_TABLE_BYTES, threads=threads)
    return PySolver(game)


def solve_state(state: DotsState, progress: Progress | None = None) -> Solution:
    return Solver(state.game).solve(state, progress=progress)


__all__ = ["AnySolver", "PySolver", "Solution", "SolveTimeout", "Solver", "lines_of", "solve_state"]

"""Computer players for the Dots family, levels 1–5.

1. random lines;
2. greedy: takes every cell offered, draws quiet lines, hands out as little as it can;
3. MCTS, few simulations, with the chain-aware playouts and pruning of `adapter` (run in the
   compiled core, `Core.mcts`, for two seats on boards of up to 128 lines);
4. more simulations, plus exact play of simple chain-and-loop endgames and, with two
   players, the exact solver once few lines are left; with the compiled core, the middle
   game's searches of level 5 (below) on one thread: where level 5 searches exactly first
   the quick search, then the exact one up to LEVEL4_EXACT_FIRST_SHARE of the budget (its
   proof when stopped, else the quick line; with at most EXACT_FIRST_LINES lines open the
   quick line searched first at the root); elsewhere no exact search, the pruned one in
   up to LEVEL4_SHARE_AFTER_QUICK of the budget;
5. the budget in full: while quiet lines are left (the middle game, with the compiled
   core), with at most EXACT_FIRST_LINES lines open or EXACT_FIRST_QUIET quiet lines left
   the exact value search first, up to EXACT_FIRST_SHARE of the budget (out of time, the
   line it proved so far); with at most EXACT_FIRST_LINES open, the quick search (below)
   first, up to QUICK_FIRST_SHARE of the budget while the exact search begins beside it,
   its line searched first at the root and played where the exact search proved nothing;
   else the pruned searches — a quick one with no handout, the
   pruned search (`CoreSolver.keep_line`: no handout of three cells or more while a quiet
   line is left — a heuristic whose line kept the exact value on 26 of 31 recorded 5×5
   middle-game positions) and, on one thread, a wider one if time is left (handouts of
   three cells too: 29 of 31) — then the exact value search up to EXACT_SHARE of the
   budget, whose line wins when it is done or has proved at least the pruned value (with
   more than WIDEN_LINES lines open, where it would not end, the pruned search again with
   ever larger handouts allowed instead); each search on two threads while the machine has
   a core to spare (`spare_core`); all of them leave out dominated handouts (`FAST`);
   otherwise the solver first (its table kept; with the compiled core at every move, up to
   SOLVER_SHARE of the budget), MCTS when the position is still too big, and MCTS again to
   choose among equally good solved moves.

Where the process allows it (the server's computer workers: `vertex.ai.ponder`), level 5
thinks on the other side's time after its move (`DotsPlayer.ponder`): the pruned and the
exact value search of the position the other side faces, then the exact search of the
positions after its likely lines, on the kept tables, until the process's next think. A
table so warmed lets the next move's exact search end in time with more lines open
(WIDEN_LINES no longer applies).

The compiled solvers' tables are kept per process between moves, games and tables of the
same board (`vertex.ai.dots.kept`).
"""

from __future__ import annotations

import contextlib
import os
import random
import threading
import time
from typing import Any

from vertex.ai import ponder
from vertex.ai.dots._core import Core
from vertex.ai.dots.adapter import DotsAdapter
from vertex.ai.dots.core import spare_core
from vertex.ai.dots.endgame import best_opening, components
from vertex.ai.dots.kept import TABLE_BYTES, KeptTables, kept_tables
from vertex.ai.dots.kit import DotsKit, Pos, lines_of, quiet_lines
from vertex.ai.dots.solver import AnySolver, PySolver, Solver, SolveTimeout
from vertex.ai.mcts import Mcts
from vertex.ai.search import BUDGET_SHARE, RebuiltPlayer, check_turn, move_rng
from vertex.core.game import State
from vertex.games.dots.engine import DotsGame, DotsState

ITERATIONS = {3: 300, 4: 3000}
#: Level 4 solves exactly when at most this many lines are open (always quick).
LEVEL4_SOLVE_LINES = 16
#: Level 5 tries the Python solver when at most this many lines are open, or in the
#: endgame (the compiled one at every move).
LEVEL5_SOLVE_LINES = 30
#: Share of the budget the level-5 solver may use before MCTS takes over.
SOLVER_SHARE = 0.6
#: Share of the budget spent choosing among solved best moves.
TIEBREAK_SHARE = 0.25
#: Entries kept in the Python solver's table before it is cleared (memory bound).
TABLE_LIMIT = 3_000_000
#: The wider pruned search's handouts (level 5: of up to WIDE_HANDOUT - 1 cells).
WIDE_HANDOUT = 4
#: Level 5 with more lines open than this widens the pruned search instead of searching
#: exactly, up to handouts below WIDEST_HANDOUT cells: boards whose middle game has more
#: lines open than Dots and Triangles 6's (50-53; 5×5's: 36-43), such as 6×6. Triangles 6
#: searches exactly since the core's 64-bit search: 20-21 of its 28 recorded positions kept
#: the value against 19-20 widening, in five runs each, with 13% less CPU (bench/RESULTS.md).
WIDEN_LINES = 56
WIDEST_HANDOUT = 7
#: Level 5 while quiet lines are left: the middle game's pruned search up to this share of
#: the budget (MCTS has the rest when it is not done) ...
MIDDLE_SHARE = 0.65
#: ... and when it is done early, the exact value search up to this share.
EXACT_SHARE = 0.82
#: Where the exact search goes first, alone (`exact_first`), up to this share: nothing follows
#: it but MCTS where it proved nothing, so it has the budget but for the way back. Dots and
#: Triangles 6: 25-27 of the 28 recorded positions kept the value, against 23-25 stopping at
#: EXACT_SHARE, whose proofs of the value from below end at 0.8-1.0 s on four of them on a
#: slow box (bench/RESULTS.md).
EXACT_FIRST_SHARE = 0.95
#: Level 5 with at most this many lines open, or this many quiet lines left, tries the exact
#: search first, alone. The pruned search's value is off (too high on 26 of the 28 recorded
#: Dots and Triangles 6 positions, by up to 14 cells), so it cannot tell whether a stopped
#: exact search proved enough, and its line was wrong on 10 of the 28: with 16-22 quiet
#: lines left the exact search alone kept the value on 24-26 of 28, after the pruned one on
#: 20-23. With 23-26 left it seldom ends or proves a line in time, and the pruned search's
#: line is the better guess (7 of 15 as it is; 4-5 of 16 going exact first; bench/RESULTS.md).
#: Level 4 does the same on one thread (after the quick search, its fallback): 18-21 of 28
#: Triangles 6 positions kept the value against 16-17 with the pruned search alone.
EXACT_FIRST_LINES = 32
EXACT_FIRST_QUIET = 22
#: Level 5's quick search where the exact search goes first with few lines open, its line
#: (or, not done, that of its last pass that raised its bound) the exact search's first at
#: the root, up to this share of the budget (the exact search on one thread meanwhile): 4×4
#: from ply 8 kept the value on 40 of 40 at 0.6-1 s a move with 0.2 or 0.25, against 38-40
#: before (bench/RESULTS.md).
QUICK_FIRST_SHARE = 0.25
#: Level 4's exact-first search, after the quick one, up to this share of the budget (one
#: thread; only MCTS follows it, where neither search gave a line): on a slow box 20-21 of the
#: 28 Triangles 6 positions kept the value against 17-18 stopping at
#: LEVEL4_SHARE_AFTER_QUICK (bench/RESULTS.md).
LEVEL4_EXACT_FIRST_SHARE = 0.8
#: Level 4: the pruned search up to this share of the budget, then MCTS.
LEVEL4_MIDDLE_SHARE = 0.5
#: The quick pruned search first, up to this share; when it gave a line no MCTS is
#: needed, and the pruned search may go on up to these shares (level 5, level 4).
QUICK_SHARE = 0.3
MIDDLE_SHARE_AFTER_QUICK = 0.8
LEVEL4_SHARE_AFTER_QUICK = 0.7
#: The quick searches: no handout at all while a quiet line is left (1); adding the lone
#: cells' handouts (2) cost more than it gave on a busy box (18-22 against 21-23 of 31).
QUICK_HANDOUTS = (1,)
#: The searches of the middle game: dominated handouts left out, keys under the root's own
#: symmetries (`CoreSolver.keep_line`). Loony positions with junctions are searched, not
#: counted (`junctions`): since captures are taken inline a position costs so little that
#: counting (66% of the time on Dots and Triangles 6) costs more than the positions it
#: saves — without it the pruned search is 2.1x faster there and 1.3x on 5×5, and level 5
#: keeps the value in 7 of 10 Triangles positions instead of 5, 38 of 40 4×4 ones instead
#: of 36, and as many 5×5 ones (bench/RESULTS.md).
FAST = {"junctions": False, "hard": True, "stabilizer": True}


def exact_first(state: DotsState, ahead: int = 0) -> bool:
    """Whether levels 4 and 5 search `state` exactly first: at most EXACT_FIRST_LINES lines open,
    or EXACT_FIRST_QUIET quiet lines left on a board whose middle game the exact search can
    reach (WIDEN_LINES). `ahead`: as if `ahead` quiet lines were drawn first (each closes
    one open line and one quiet line at least): the ponder's guess at its next move's."""
    open_lines = len(state.legal_moves()) - ahead
    return open_lines <= EXACT_FIRST_LINES or (
        open_lines <= WIDEN_LINES and len(quiet_lines(state)) - ahead <= EXACT_FIRST_QUIET
    )


def _mcts_core(game: DotsGame[Any]) -> Core | None:
    try:
        from vertex.ai.dots.core import build_core, fits
    except ImportError:  # pragma: no cover - an install without the compiled core
        return None
    return build_core(game, 1 << 16) if fits(game) else None


class DotsPlayer(RebuiltPlayer):
    game: DotsGame[Any]

    def __init__(self, game: DotsGame[Any], level: int, *, seed: int = 0) -> None:
        self.game = game
        self.level = level
        self.seed = seed
        self.kit = DotsKit(game)
        self.adapter = DotsAdapter(self.kit)
        self.solver: AnySolver | None = None
        self._mcts: Mcts[Pos, int] | None = None
        self._root: tuple[Any, ...] | None = None
        #: what the last choice was based on: "solver", "endgame", "mcts", "greedy", "random"
        self.last_reason = ""
        #: the compiled core for the MCTS (two seats, up to 128 lines), else the Python one
        self.core = _mcts_core(game)
        #: simulations run by the compiled MCTS, all moves together
        self.iterations = 0

    # ---- the contract ----------------------------------------------------------------------
    def choose(self, state: State, seat: int, budget_s: float) -> str:
        ponder.stop()  # this think has the process, its cores and its tables
        move = self._choose(state, seat, budget_s)
        if self.level == 5 and ponder.allowed():
            assert isinstance(state, DotsState)
            self.ponder(state.play(move), seat)
        return move

    def ponder(self, state: DotsState, seat: int) -> bool:
        """Think on the other side's time (`vertex.ai.ponder`): the exact value search of
        `state`, where the other seat is to move, on this board's kept exact table (the
        pruned search first where the next move starts with it), then of the
        positions after its value-keeping line and its quiet lines, one by one, until the
        process's next think. False when there is nothing to do (the game over, `seat` to
        move again, no compiled core, more than two seats) or the process does not ponder."""
        if self.core is None or self.game.seats != 2 or state.is_over or seat in state.to_move:
            return False
        kept = kept_tables(self.game)
        threads = 1 if os.environ.get("VERTEX_AI_THREADS", "2").strip() == "1" else 2
        threads = min(threads, len(os.sched_getaffinity(0)))

        def think(deadline: float) -> None:
            if not kept.lock.acquire(timeout=1.0):
                return
            started, done = time.monotonic(), False
            try:
                if not exact_first(state, ahead=1):
                    # the pruned search first, where the next move starts with it (its
                    # table warm too, it leaves the exact search more of the budget)
                    kept.made("middle").keep_line(
                        state, deadline=deadline, middle=True, threads=threads, **FAST
                    )
                _, reply = kept.exact.keep_line(state, deadline=deadline, threads=threads, **FAST)
                done = True
                # then the positions after the other side's likely lines, one by one: the
                # one that keeps its value, then the quiet ones (a middle game's usual)
                names = self.game.board.line_names
                for line in [names[reply], *quiet_lines(state)]:
                    after = state.play(line)
                    if seat in after.to_move and not after.is_over:
                        kept.exact.keep_line(after, deadline=deadline, threads=threads, **FAST)
            except SolveTimeout:
                pass
            finally:
                kept.pondered = (state.drawn, time.monotonic() - started, done)
                kept.lock.release()

        def cancel() -> None:
            for solver in (kept.exact, kept.middle):
                if solver is not None:
                    solver.cancel()

        return ponder.start(think, cancel, threads)

    def _choose(self, state: State, seat: int, budget_s: float) -> str:
        start = time.monotonic()
        moves = check_turn(state, seat)
        assert isinstance(state, DotsState)
        if len(moves) == 1:
            return moves[0]
        rng = move_rng(self.seed, state, seat)
        deadline = start + max(budget_s, 0.0) * BUDGET_SHARE
        pos = self.kit.start(state)
        if self.level == 1:
            self.last_reason = "random"
            return moves[rng.randrange(len(moves))]
        if self.level == 2:
            self.last_reason = "greedy"
            return self.kit.names[self._greedy(pos, rng)]
        free = lines_of(self.kit.open_lines(pos))
        line = self._endgame(pos)
        if line is not None:
            self.last_reason = "endgame"
            return self.kit.names[line]
        best: list[int] | None = None
        if self.level >= 4 and self.game.seats == 2:
            kept = kept_tables(self.game) if self.core is not None else None
            # one player at a time on a kept table; wait at most for the solver's share
            if kept is not None and not kept.lock.acquire(timeout=max(budget_s * SOLVER_SHARE, 0)):
                kept = None
            try:
                best = self._solve(state, len(free), start, budget_s, deadline, kept)
                if best is not None and (len(best) == 1 or self.level == 4):
                    self.last_reason = "solver"
                    return self.kit.names[best[rng.randrange(len(best))]]
                if best is None and kept is not None:
                    line = self._middle(state, start, budget_s, kept)
                    if line is not None:
                        return self.kit.names[line]
            finally:
                if kept is not None:
                    kept.lock.release()
        self.last_reason = "mcts" if best is None else "solver+mcts"
        if best is not None:
            # solved: a short search only to pick the best move hardest to answer in practice
            deadline = min(deadline, time.monotonic() + budget_s * TIEBREAK_SHARE)
        return self.kit.names[self._search(state, pos, rng, deadline, best)]

    # ---- the pieces ------------------------------------------------------------------------
    def _greedy(self, pos: Pos, rng: random.Random) -> int:
        kit = self.kit
        free = lines_of(kit.open_lines(pos))
        rem = kit.remaining(pos.drawn)
        takes = [ln for ln in free if any(rem[c] == 1 for c in kit.line_cells[ln])]
        if takes and not kit.misere:
            return takes[rng.randrange(len(takes))]
        quiet = [ln for ln in free if kit.safe(rem, ln)]
        if quiet:
            return quiet[rng.randrange(len(quiet))]
        fewest = min(sum(rem[c] == 2 for c in kit.line_cells[ln]) for ln in free)
        least = [ln for ln in free if sum(rem[c] == 2 for c in kit.line_cells[ln]) == fewest]
        return least[rng.randrange(len(least))]

    def _endgame(self, pos: Pos) -> int | None:
        """In a simple chain-and-loop endgame with nothing on offer: the exact opening."""
        kit = self.kit
        if kit.seats != 2 or kit.misere or not kit.extra_turn or kit.touch_rule:
            return None
        rem = kit.remaining(pos.drawn)
        if any(r == 1 for r in rem):
            return None
        comps = components(kit, pos.drawn)
        if not comps:
            return None
        return best_opening(comps)[1].opening_line()

    def _quiet_left(self, state: DotsState) -> bool:
        rem = self.kit.remaining(state.drawn)
        return any(
            self.kit.safe(rem, ln) for ln in lines_of(self.kit.open_lines(self.kit.pos(state)))
        )

    def _solve(
        self,
        state: DotsState,
        open_lines: int,
        start: float,
        budget: float,
        deadline: float,
        kept: KeptTables | None,
    ) -> list[int] | None:
        limit = LEVEL4_SOLVE_LINES if self.level == 4 else LEVEL5_SOLVE_LINES
        quiet_left = self._quiet_left(state)
        # level 5 with the compiled solver tries at every move, within its share of the
        # budget and its table's memory: exact as soon as the position is settled in time
        every_move = self.level == 5 and self.core is not None
        if open_lines > limit and quiet_left and not every_move:
            return None
        if self.core is not None:
            if kept is None:
                return None  # the kept table is busy with another player's move
            self.solver = kept.exact
        elif self.solver is None:
            self.solver = Solver(self.game, table_bytes=TABLE_BYTES)
        if isinstance(self.solver, PySolver) and self.solver.stored > TABLE_LIMIT:
            self.solver.clear()
        stop = None if self.level == 4 else start + budget * SOLVER_SHARE
        if self.level == 4 and open_lines > LEVEL4_SOLVE_LINES:
            stop = deadline
        if every_move and quiet_left:
            return None  # the middle game: the pruned search first (`_middle`)
        try:
            sol = self.solver.solve(state, deadline=stop)
        except SolveTimeout:
            return None
        return [self.kit.index[name] for name in sol.best_moves]

    def _middle(
        self, state: DotsState, start: float, budget: float, kept: KeptTables
    ) -> int | None:
        """The middle game: a line or nothing (MCTS decides). Where `exact_first` says so:
        the exact value search alone, up to EXACT_FIRST_SHARE of the budget (level 4 on one
        thread, after the quick search that gives its line when the exact one proved
        nothing, up to LEVEL4_EXACT_FIRST_SHARE). Else the pruned searches
        (`_pruned`) give a line; at level 5 the exact value search then runs up to
        EXACT_SHARE of the budget, and its line, when it is done, wins. While the machine
        has a core to spare (`spare_core`) level 5 runs each search on two threads and
        leaves out the wide one (the exact search costs little more now)."""
        if self.level < 4 or not self._quiet_left(state):
            return None
        until = start + budget * EXACT_SHARE
        threads = 2 if self.level >= 5 and spare_core() else 1
        if exact_first(state):
            # few lines open (4×4 from its eighth line) or few quiet lines left (the chain
            # fight near): the exact search alone often ends in time; stopped, its line
            # proven to keep the most so far (the value itself when only the last pass, the
            # proof from above, was left), else the quick search's line. Level 4 on one
            # thread, up to its share, the quick search first. With few lines open the
            # quick line goes first at the root (`keep_line(first=)`): where it keeps the
            # value, its subtree alone proves it from below (4×4 seed 17: at 0.42 s, not
            # 0.91; its keeper is the 28th line in the search's order), and level 5
            # searches it while the exact search begins on the other thread
            # (`_quick_beside`). With more open, where only few quiet lines are left, its
            # line seldom keeps the value (Triangles 6: 3 of 28; 5×5: 8 of 32)
            few = len(state.legal_moves()) <= EXACT_FIRST_LINES
            share = LEVEL4_EXACT_FIRST_SHARE if self.level == 4 else EXACT_FIRST_SHARE
            quick = None
            if self.level == 4:
                quick = self._quick(state, start, budget, kept, partial=few)
            elif few:
                quick = self._quick_beside(state, start, budget, kept, threads)
            until = start + budget * share
            try:
                _, exact = kept.exact.keep_line(
                    state, deadline=until, threads=threads, first=quick if few else None, **FAST
                )
            except SolveTimeout:
                proven = kept.exact.proven_line(state)
                if proven is None:
                    if quick is not None:
                        self.last_reason = "middle, quick"
                    return quick
                self.last_reason = "solver, unfinished"
                return proven[1]
            else:
                self.last_reason = "solver, warm" if kept.warm_for(state) else "solver"
                return exact
        value, line = self._pruned(state, start, budget, kept, threads)
        # with more lines open the exact search would not end in time, unless its table is
        # warm from thinking on the other side's time
        warm = kept.warm_for(state)
        if (
            self.level >= 5
            and value is not None
            and len(state.legal_moves()) > WIDEN_LINES
            and not warm
        ):
            return self._widen(state, until, kept, threads, line)
        if self.level >= 5 and time.monotonic() < until:
            # from 0, not from the pruned value: that is off by six cells at times, and a
            # pass from a wrong guess costs about as much as the proof (5×5 seed 13: the
            # search from 9 did not end in time). Out of time, its line wins when it has
            # proved at least the pruned value
            try:
                _, exact = kept.exact.keep_line(state, deadline=until, threads=threads, **FAST)
            except SolveTimeout:
                proven = kept.exact.proven_line(state)
                if value is not None and proven is not None and proven[0] >= value:
                    self.last_reason = "solver, unfinished"
                    return proven[1]
                return line
            self.last_reason = "solver, warm" if warm else "solver"
            return exact
        return line

    def _widen(
        self, state: DotsState, until: float, kept: KeptTables, threads: int, line: int | None
    ) -> int | None:
        """Too many lines open for the exact search to end in time (Dots and Triangles 6):
        the pruned search again with larger handouts allowed (WIDE_HANDOUT, then one cell
        more each time) until `until`; the widest one done gives the line."""
        wide = kept.made("wide")
        handout = WIDE_HANDOUT
        while time.monotonic() < until and handout <= WIDEST_HANDOUT:
            wide.clear()  # another handout cap: other values
            try:
                _, line = wide.keep_line(
                    state, deadline=until, middle=True, handout=handout, threads=threads, **FAST
                )
            except SolveTimeout:
                break
            self.last_reason = f"middle, handouts below {handout}"
            handout += 1
        return line

    def _pruned(
        self, state: DotsState, start: float, budget: float, kept: KeptTables, threads: int
    ) -> tuple[int | None, int | None]:
        """The pruned searches, in stages, each a line or nothing: the quick ones
        (`QUICK_HANDOUTS`: no handout while a quiet line is left) up to QUICK_SHARE of the
        budget; the pruned search (`CoreSolver.keep_line(middle=True)`) up to the level's
        share (more when a quick one gave a line; at level 5 on two threads up to
        EXACT_SHARE), on `threads`; at level 5 on one thread the wider one (WIDE_HANDOUT)
        when time is left. The last stage done gives the line; an unfinished pruned search
        gives the line of its last pass that raised the bound, before the quick one's. All
        leave out dominated handouts (`FAST`).
        Returns the pruned search's value (None when it did not end) and the line."""
        middle = kept.made("middle")
        quick = self._quick(state, start, budget, kept)
        if self.level < 5:
            share = LEVEL4_MIDDLE_SHARE if quick is None else LEVEL4_SHARE_AFTER_QUICK
        elif threads > 1:
            share = EXACT_SHARE  # on two threads it seldom needs it all
        else:
            share = MIDDLE_SHARE if quick is None else MIDDLE_SHARE_AFTER_QUICK
        try:
            value, line = middle.keep_line(
                state, deadline=start + budget * share, middle=True, threads=threads, **FAST
            )
        except SolveTimeout:
            # not done: the line of the search's last finished pass that raised the bound
            got = middle.proven_line(state)
            if got is not None:
                self.last_reason = "middle, unfinished"
                return None, got[1]
            self.last_reason = "middle, quick"
            return None, quick
        self.last_reason = "middle"
        wide_until = start + budget * EXACT_SHARE
        # on two threads the exact search follows at once, and with more than WIDEN_LINES
        # open `_widen` does it (`_middle`)
        if (
            self.level >= 5
            and threads == 1
            and len(state.legal_moves()) <= WIDEN_LINES
            and time.monotonic() < wide_until
        ):
            # wider: handouts of WIDE_HANDOUT - 1 cells too; its line wins when it is done
            try:
                value, line = kept.made("wide").keep_line(
                    state, deadline=wide_until, middle=True, handout=WIDE_HANDOUT, **FAST
                )
                self.last_reason = "middle, wide"
            except SolveTimeout:
                pass
        return value, line

    def _quick(
        self,
        state: DotsState,
        start: float,
        budget: float,
        kept: KeptTables,
        share: float = QUICK_SHARE,
        partial: bool = False,
    ) -> int | None:
        """The quick pruned searches' line (`QUICK_HANDOUTS`: no handout while a quiet line
        is left), up to `share` of the budget; None when none ended in time, unless
        `partial`: then the line of the last pass that raised its bound, if one did (a first
        line for the exact search: 4×4 seed 18's, at 0.1-0.2 s, keeps the value)."""
        quick_solver = kept.made("quick")
        quick: int | None = None
        for handout in QUICK_HANDOUTS:  # one table, cleared
            quick_solver.clear()
            try:
                _, quick = quick_solver.keep_line(
                    state,
                    deadline=start + budget * share,
                    middle=True,
                    handout=handout,
                    **FAST,
                )
            except SolveTimeout:
                got = quick_solver.proven_line(state) if partial else None
                if got is not None:
                    quick = got[1]
                break
        return quick

    def _quick_beside(
        self, state: DotsState, start: float, budget: float, kept: KeptTables, threads: int
    ) -> int | None:
        """The quick search's line, up to QUICK_FIRST_SHARE of the budget, while the exact
        value search runs on the other thread (its finished entries stay in the table for
        the search that follows): the quick one costs the exact one half a core for its
        time, not all of it."""
        if threads < 2:
            return self._quick(state, start, budget, kept, QUICK_FIRST_SHARE, partial=True)

        def exact() -> None:
            with contextlib.suppress(SolveTimeout):
                until = start + budget * QUICK_FIRST_SHARE
                kept.exact.keep_line(state, deadline=until, threads=1, **FAST)

        beside = threading.Thread(target=exact, name="vertex-exact", daemon=True)
        beside.start()
        try:
            return self._quick(state, start, budget, kept, QUICK_FIRST_SHARE, partial=True)
        finally:
            # again until it returns: a cancel can land before the search has begun
            while beside.is_alive():
                kept.exact.cancel()
                beside.join(0.002)

    def _search(
        self,
        state: DotsState,
        pos: Pos,
        rng: random.Random,
        deadline: float,
        only: list[int] | None,
    ) -> int:
        if self.core is not None:
            return self._core_search(pos, rng, deadline, only)
        mcts = self._mcts or Mcts(self.adapter, self.kit.seats)
        self._mcts = mcts
        root = mcts.set_root(pos, None if only else self._path(state), rng)
        self._root = None if only else state.history
        if only is not None:
            # choose among the solved best moves: the one hardest to answer in practice
            root.untried = [m for m in only if all(m != done for done, _ in root.children)]
            root.children = [(m, ch) for m, ch in root.children if m in only]
        iterations = ITERATIONS.get(self.level)
        mcts.search(rng, iterations, deadline)
        if only is not None:
            self._mcts = None  # a pruned root is no tree to reuse
        return mcts.best()

    def _core_search(
        self, pos: Pos, rng: random.Random, deadline: float, only: list[int] | None
    ) -> int:
        """The same search (UCT, the pruned moves, the chain-aware playouts, the rewards of
        `DotsAdapter`) in the compiled core: a new tree each move, tens of times the
        simulations a second."""
        assert self.core is not None
        iterations = ITERATIONS.get(self.level, 1 << 62)
        seconds = max(deadline - time.monotonic(), 1e-3)
        only_mask = sum(1 << m for m in only) if only else 0
        scores = (pos.scores[0], pos.scores[1])
        done, rows = self.core.mcts(
            pos.drawn,
            pos.reach,
            pos.turn,
            scores,
            iterations,
            seconds,
            rng.getrandbits(64),
            only=only_mask,
            live=self.kit.live_cells,
        )
        self.iterations += done
        return max(rows, key=lambda row: (row[1], -row[0]))[0]

    def _path(self, state: State) -> list[str] | None:
        old = self._root
        if old is None or state.history[: len(old)] != old:
            return None
        return [move for _, move in state.history[len(old) :]]

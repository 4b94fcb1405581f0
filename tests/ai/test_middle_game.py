"""Level 5 in the 5×5 middle game (issue 36): positions of bench/bench_middle_game.py.

Each position was reached by quiet play (16–18 quiet lines left) and solved offline by the
compiled core; its verdict — the value for the player to move and every line that keeps it —
is recorded here beside the lines drawn (also in bench/middle_game_5x5.json). No time
limits: the player gets a generous budget, and only its choice is checked. Seeds 19 and 29
are two where the middle game's pruned search (a heuristic) goes wrong: the exact search
must have the last word there.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

import vertex
from vertex.ai.dots.core import CoreSolver
from vertex.ai.dots.kept import forget_tables
from vertex.ai.dots.kit import quiet_lines
from vertex.ai.dots.player import FAST, DotsPlayer
from vertex.games.dots.engine import DotsGame, DotsState

#: (bench seed, lines drawn, value for the player to move, the value-keeping lines)
POSITIONS: list[tuple[int, str, int, list[str]]] = [
    (
        2,
        "b6-c6 d3-d4 a4-b4 b1-c1 e5-e6 e6-f6 d1-e1 f1-f2 b4-c4 d2-e2 c2-d2 e2-e3 b3-c3 b2-b3 "
        "c4-c5 e3-e4 e3-f3 b5-b6 e4-e5 d5-d6 a1-a2 c1-c2",
        5,
        ["c3-d3"],
    ),
    (
        17,
        "b6-c6 e4-e5 f5-f6 c3-d3 c1-d1 e2-f2 b5-b6 b1-c1 d4-e4 a6-b6 d3-e3 b2-b3 d6-e6 c1-c2 "
        "d5-d6 d2-e2 f3-f4 d1-e1 a4-a5 b4-c4 e1-f1 b4-b5 a2-a3",
        1,
        ["d2-d3", "e2-e3", "e5-f5"],
    ),
    (
        27,
        "a5-a6 d1-e1 e1-f1 a5-b5 f4-f5 a3-b3 b4-b5 e4-f4 a2-b2 e3-e4 c4-d4 d5-e5 f2-f3 d4-d5 "
        "e1-e2 c3-c4 c6-d6 b5-c5 b1-c1 c2-c3 d5-d6",
        1,
        ["b3-c3"],
    ),
    (
        28,
        "c3-d3 f1-f2 c6-d6 a1-a2 e4-f4 c1-c2 d5-d6 f5-f6 b2-c2 b3-c3 c1-d1 c4-d4 e1-e2 d1-e1 "
        "d6-e6 a2-a3 e3-f3 a2-b2 b4-b5 d3-e3 a6-b6 f2-f3 d4-e4",
        1,
        ["d4-d5"],
    ),
    (
        31,
        "d1-d2 b3-c3 d3-e3 a5-a6 e4-e5 b1-c1 f5-f6 c1-c2 b2-b3 d1-e1 a4-b4 e4-f4 e1-f1 c6-d6 "
        "e6-f6 a1-a2 c3-d3 a4-a5 f3-f4 d2-d3 d6-e6 b5-c5 c4-d4 d4-e4",
        1,
        ["c4-c5"],
    ),
    (
        20,
        "e1-f1 d2-e2 b5-c5 d5-e5 a5-a6 c2-d2 d2-d3 e5-f5 f2-f3 b2-c2 b5-b6 e2-f2 d6-e6 f4-f5 "
        "a4-a5 a4-b4 d1-d2 d4-e4 a1-a2 d3-d4 c6-d6",
        1,
        ["a3-a4", "b1-c1", "b2-b3", "b3-b4", "b4-c4", "c4-d4"],
    ),
    (
        19,
        "b1-b2 e5-f5 c3-d3 b6-c6 e4-f4 f1-f2 b2-b3 d1-e1 c1-c2 e2-f2 b5-b6 b3-c3 d5-d6 c2-d2 "
        "d6-e6 e6-f6 c3-c4 a4-b4 d3-e3 d2-e2 a1-b1",
        3,
        ["a3-a4"],
    ),
    (
        29,
        "d5-e5 a1-b1 e1-e2 e3-f3 d3-d4 b2-b3 c3-c4 f5-f6 d4-d5 d1-e1 c1-c2 b3-b4 e5-f5 a1-a2 "
        "e4-f4 c5-d5 a3-b3 e1-f1 c2-d2 f2-f3 b5-b6",
        1,
        ["b4-b5"],
    ),
]
#: where the pruned search's line is not one of the solver's
PRUNED_WRONG = {19, 29}

IDS = [f"seed{seed}" for seed, *_ in POSITIONS]


def position(moves: str, rows: int = 5) -> tuple[DotsGame[Any], DotsState]:
    """Dots and Boxes `rows`×`rows` (5×5 unless told) after `moves`."""
    game = vertex.create_game("dots-and-boxes", rows=rows, cols=rows)
    assert isinstance(game, DotsGame)
    state = game.initial_state()
    for move in moves.split():
        nxt = state.play(move)
        assert isinstance(nxt, DotsState)
        state = nxt
    return game, state


@pytest.mark.parametrize(("seed", "moves", "value", "best"), POSITIONS, ids=IDS)
def test_level_five_keeps_the_value_in_the_middle_game(
    seed: int, moves: str, value: int, best: list[str]
) -> None:
    game, state = position(moves)
    forget_tables()  # a cold start, as in a fresh worker
    me = DotsPlayer(game, 5, seed=1)
    # a generous budget: the choice is checked, never the time
    assert me.choose(state, state.to_move[0], 120.0) in best
    assert me.last_reason in ("solver", "middle")


@pytest.mark.parametrize(("seed", "moves", "value", "best"), POSITIONS, ids=IDS)
def test_the_value_search_alone_names_a_value_keeping_line(
    seed: int, moves: str, value: int, best: list[str]
) -> None:
    game, state = position(moves)
    names = game.board.line_names
    exact = CoreSolver(game, table_bytes=16 << 20)
    got, line = exact.keep_line(state)
    assert (got, names[line]) == (value, names[line])
    assert names[line] in best
    # the same with the players' flags (dominated handouts left out, keys under the root's
    # own symmetries), and with junctions counted as well
    for flags in (FAST, {**FAST, "junctions": True}):
        fast = CoreSolver(game, table_bytes=16 << 20)
        got, line = fast.keep_line(state, **flags)
        assert got == value and names[line] in best
    # the middle game's pruned search (a heuristic) agrees on most of these positions,
    # with the flags or without
    for flags in ({}, FAST, {**FAST, "junctions": True}):
        pruned = CoreSolver(game, table_bytes=16 << 20)
        _, line = pruned.keep_line(state, middle=True, **flags)
        assert (names[line] in best) == (seed not in PRUNED_WRONG), flags


def test_two_threads_that_put_off_each_others_lines_keep_the_values() -> None:
    # With a helper thread, a line the other thread searches now near the root waits until
    # the rest are searched (`inflight`): the order changes, never a value or the line's
    # worth. Over the recorded positions the threads met and put lines off.
    deferred = 0
    for _seed, moves, value, best in POSITIONS:
        game, state = position(moves)
        solver = CoreSolver(game, table_bytes=16 << 20)
        got, line = solver.keep_line(state, threads=2, **FAST)
        assert got == value and game.board.line_names[line] in best
        deferred += solver.stats()["deferred"]
    assert deferred > 0


def test_a_second_thread_only_while_a_core_is_spare(monkeypatch: pytest.MonkeyPatch) -> None:
    from vertex.ai.dots import core

    monkeypatch.setenv("VERTEX_AI_THREADS", "2")
    monkeypatch.setattr(core.os, "sched_getaffinity", lambda _pid: {0})
    assert core.spare_core() is False  # one core: never
    monkeypatch.setattr(core.os, "sched_getaffinity", lambda _pid: set(range(4096)))
    assert core.spare_core() is True  # far more cores than threads running
    monkeypatch.setenv("VERTEX_AI_THREADS", "1")
    assert core.spare_core() is False  # the operator's (and the test suite's) choice


def four_by_four_after(ply: int, seed: int) -> tuple[DotsGame[Any], DotsState]:
    """Quiet play (no cell given a third side) to `ply` lines on 4×4."""
    import random

    game = vertex.create_game("dots-and-boxes", rows=4, cols=4)
    assert isinstance(game, DotsGame)
    rng, state = random.Random(seed), game.initial_state()
    for _ in range(ply):
        nxt = state.play(rng.choice(quiet_lines(state)))
        assert isinstance(nxt, DotsState)
        state = nxt
    return game, state


def cells_from_here(solver: CoreSolver, state: DotsState, line: str) -> int:
    """The exact cells from here on for the player to move when they draw `line`."""
    mover = state.order[state.turn]
    diff = state.owned[mover].bit_count() - state.owned[1 - mover].bit_count()
    child = state.play(line)
    assert isinstance(child, DotsState)
    value = solver.solve(child).value
    return (value if child.order[child.turn] == mover else -value) - diff


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_stopped_value_search_leaves_a_line_proven_to_keep_its_bound(seed: int) -> None:
    import time

    from vertex.ai.dots.solver import SolveTimeout

    game, state = four_by_four_after(10, seed)
    names = game.board.line_names
    judge = CoreSolver(game, table_bytes=64 << 20)
    value = judge.keep_line(state)[0]
    found = []
    # stopped at every stage of the search (the last, None, not stopped at all), from a
    # first guess below, at and above the value: whatever line is left keeps its bound
    for guess in (value - 2, value, value + 2):
        for wait in (0.0005, 0.002, 0.01, 0.05, None):
            solver = CoreSolver(game, table_bytes=64 << 20)
            deadline = None if wait is None else time.monotonic() + wait
            try:
                got, line = solver.keep_line(state, deadline=deadline, guess=guess)
            except SolveTimeout:
                pass
            else:
                assert got == value and cells_from_here(judge, state, names[line]) == value
            proven = solver.proven_line(state)
            if proven is not None:
                lo, line = proven
                assert lo <= value and cells_from_here(judge, state, names[line]) >= lo
                found.append(lo)
    assert value in found  # at the least the searches that ended proved it


@pytest.mark.parametrize("threads", [1, 2])
def test_a_value_search_logs_the_bounds_each_pass_proved(threads: int) -> None:
    # `Core.passes`: every pass that ended, on any thread, bounds the value from below and
    # above, from first guesses under and over it; the main thread's last pass ends at the
    # value itself. A stopped search logs only the passes that ended; each search its own.
    import contextlib

    from vertex.ai.dots.solver import SolveTimeout

    for seed in (1, 2, 3):
        game, state = four_by_four_after(10, seed)
        value = CoreSolver(game, table_bytes=64 << 20).keep_line(state)[0]
        for guess in (value - 4, value + 4):
            solver = CoreSolver(game, table_bytes=64 << 20)
            with contextlib.suppress(SolveTimeout):  # stopped early, or not
                solver.keep_line(
                    state, deadline=time.monotonic() + 0.002, threads=threads, guess=guess
                )
            assert all(lower <= value <= upper for _, lower, upper, _ in solver.core.passes())
            solver.keep_line(state, threads=threads, guess=guess)
            passes = solver.core.passes()
            assert all(lower <= value <= upper for _, lower, upper, _ in passes)
            main = [(t, lower, upper) for t, lower, upper, tid in passes if tid == 0]
            assert main[-1][1:] == (value, value)
            assert [t for t, *_ in main] == sorted(t for t, *_ in main)
            assert all(tid in range(threads) for *_, tid in passes)
            # from a guess four cells off, two passes at the least: one each side
            assert len(main) >= 2


def test_an_exact_search_out_of_time_on_4x4_plays_the_line_it_proved(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from vertex.ai.dots.solver import SolveTimeout

    game, state = four_by_four_after(8, 2)
    best = CoreSolver(game, table_bytes=64 << 20).solve(state).best_moves
    real = CoreSolver.keep_line

    def out_of_time(self: CoreSolver, st: DotsState, **kw: Any) -> tuple[int, int]:
        got = real(self, st, **kw)
        if not kw.get("middle"):
            raise SolveTimeout  # it ended, but as if the clock had run out just before
        return got

    monkeypatch.setattr(CoreSolver, "keep_line", out_of_time)
    forget_tables()
    me = DotsPlayer(game, 5, seed=1)
    assert me.choose(state, state.to_move[0], 60.0) in best
    assert me.last_reason == "solver, unfinished"


@pytest.mark.parametrize("seed", [19, 29])  # the pruned line is wrong on both
def test_an_exact_search_out_of_time_after_the_pruned_one_plays_a_proof_that_reaches_it(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    from vertex.ai.dots import player as dots_player
    from vertex.ai.dots.solver import SolveTimeout

    # the middle band: more quiet lines left than where the exact search goes first
    monkeypatch.setattr(dots_player, "EXACT_FIRST_QUIET", 0)
    moves, value, best = next((m, v, b) for s, m, v, b in POSITIONS if s == seed)
    game, state = position(moves)
    assert not dots_player.exact_first(state)
    pruned_value = CoreSolver(game, table_bytes=16 << 20).keep_line(state, middle=True, **FAST)[0]
    real = CoreSolver.keep_line
    exact_calls = []

    def out_of_time(self: CoreSolver, st: DotsState, **kw: Any) -> tuple[int, int]:
        got = real(self, st, **kw)
        if not kw.get("middle"):
            exact_calls.append(got[0])
            raise SolveTimeout  # proved from below (and above), then "out of time"
        return got

    monkeypatch.setattr(CoreSolver, "keep_line", out_of_time)
    forget_tables()
    me = DotsPlayer(game, 5, seed=1)
    line = me.choose(state, state.to_move[0], 120.0)
    assert exact_calls == [value]  # the exact search ran once, after the pruned ones
    if pruned_value <= value:  # the exact search proved at least what the pruned one said
        assert line in best and me.last_reason == "solver, unfinished"
    else:  # it proved less: the pruned line stands
        assert me.last_reason.startswith("middle")


@pytest.mark.parametrize("seed", [19, 29])  # the pruned line is wrong on both
def test_with_few_quiet_lines_left_the_exact_search_alone_stopped_plays_its_proof(
    monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    from vertex.ai.dots import player as dots_player
    from vertex.ai.dots.solver import SolveTimeout

    moves, _value, best = next((m, v, b) for s, m, v, b in POSITIONS if s == seed)
    game, state = position(moves)
    # 5×5 with more lines open than EXACT_FIRST_LINES, but few quiet lines left
    assert len(state.legal_moves()) > dots_player.EXACT_FIRST_LINES
    assert dots_player.exact_first(state)
    real = CoreSolver.keep_line
    calls: list[bool] = []
    deadlines: list[float] = []

    def out_of_time(self: CoreSolver, st: DotsState, **kw: Any) -> tuple[int, int]:
        calls.append(bool(kw.get("middle")))
        deadlines.append(kw["deadline"])
        real(self, st, **kw)
        raise SolveTimeout  # proved from below (and above), then "out of time"

    monkeypatch.setattr(CoreSolver, "keep_line", out_of_time)
    forget_tables()
    me = DotsPlayer(game, 5, seed=1)
    started = time.monotonic()
    assert me.choose(state, state.to_move[0], 120.0) in best
    assert me.last_reason == "solver, unfinished"
    assert calls == [False]  # the exact search alone: never the pruned one, wrong here
    # with nothing after it but the way back, it has all the budget but that
    share = (deadlines[0] - started) / 120.0
    assert dots_player.EXACT_SHARE < dots_player.EXACT_FIRST_SHARE - 0.01 <= share
    assert share < dots_player.EXACT_FIRST_SHARE + 0.01 < 1


def test_which_positions_level_five_searches_exactly_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import random

    from vertex.ai.dots import player as player_module
    from vertex.ai.dots.player import EXACT_FIRST_QUIET, WIDEN_LINES, exact_first

    game, state = four_by_four_after(8, 2)  # 32 lines open: EXACT_FIRST_LINES
    assert exact_first(state) and not exact_first(game.initial_state())
    tri = vertex.create_game("dots-and-triangles", size=6)
    assert isinstance(tri, DotsGame)
    quiet, later = tri.initial_state(), tri.initial_state()
    rng = random.Random(7)
    while len(quiet_lines(later)) > EXACT_FIRST_QUIET:  # quiet play to the chain fight
        quiet, nxt = later, later.play(rng.choice(quiet_lines(later)))
        assert isinstance(nxt, DotsState)
        later = nxt
    assert len(later.legal_moves()) <= WIDEN_LINES
    assert exact_first(later) and not exact_first(quiet)
    # the ponder asks of the position after the next line: as many fewer, at most
    assert exact_first(quiet, ahead=len(quiet_lines(quiet)) - EXACT_FIRST_QUIET)
    # a board whose middle game has more lines open than the exact search can reach
    monkeypatch.setattr(player_module, "WIDEN_LINES", len(later.legal_moves()) - 1)
    assert not exact_first(later)


#: Dots and Triangles 6, bench seed 3 (bench/middle_game_triangles6.json): 51 lines open,
#: the value +10 for the player to move, kept by one line only.
TRIANGLES_SEED_3 = (
    "f7-g7 d4-d5 e6-f7 d5-e6 d7-e7 b7-c7 c6-d6 a4-b5 b3-c4 a3-b4 c5-d5 b5-b6",
    ["b4-c5"],
)


def triangles_seed_3() -> DotsState:
    game = vertex.create_game("dots-and-triangles", size=6)
    assert isinstance(game, DotsGame)
    state = game.initial_state()
    for move in TRIANGLES_SEED_3[0].split():
        nxt = state.play(move)
        assert isinstance(nxt, DotsState)
        state = nxt
    return state


def test_level_five_searches_the_triangles_6_middle_game_exactly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # 51 lines open, 18 quiet: the exact search alone, which ends well within the budget
    # here and names the one value-keeping line (the pruned search's line is wrong here:
    # bench/middle_game_triangles6.json)
    from vertex.ai.dots import player as dots_player

    state = triangles_seed_3()
    assert len(state.legal_moves()) <= dots_player.WIDEN_LINES
    calls: list[bool] = []
    real = CoreSolver.keep_line

    def seen(self: CoreSolver, st: DotsState, **kw: Any) -> tuple[int, int]:
        calls.append(bool(kw.get("middle")))
        return real(self, st, **kw)

    monkeypatch.setattr(CoreSolver, "keep_line", seen)
    forget_tables()
    me = DotsPlayer(state.game, 5, seed=1)
    assert me.choose(state, state.to_move[0], 120.0) in TRIANGLES_SEED_3[1]
    assert me.last_reason == "solver"
    assert calls == [False]  # the exact search alone


def spy_keep_line(monkeypatch: pytest.MonkeyPatch, keyword: str) -> list[tuple[bool, Any]]:
    """Each `CoreSolver.keep_line` call from here on, recorded: whether it was the pruned
    search (`middle`), and its `keyword` argument (None when not given)."""
    calls: list[tuple[bool, Any]] = []
    real = CoreSolver.keep_line

    def seen(self: CoreSolver, st: DotsState, **kw: Any) -> tuple[int, int]:
        calls.append((bool(kw.get("middle")), kw.get(keyword)))
        return real(self, st, **kw)

    monkeypatch.setattr(CoreSolver, "keep_line", seen)
    return calls


def test_level_four_searches_exactly_on_one_thread_after_the_quick_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # where level 5 searches exactly first, level 4 does too, on one thread, after the
    # quick search (no handout while a quiet line is left), its line kept as a fallback
    from vertex.ai.dots import player as dots_player

    state = triangles_seed_3()
    calls = spy_keep_line(monkeypatch, "threads")
    deadlines = spy_keep_line(monkeypatch, "deadline")
    forget_tables()
    me = DotsPlayer(state.game, 4, seed=1)
    started = time.monotonic()
    assert me.choose(state, state.to_move[0], 120.0) in TRIANGLES_SEED_3[1]
    assert me.last_reason == "solver"
    assert calls == [(True, None), (False, 1)]  # the quick one, then the exact one alone
    # the exact one up to its own share of the budget, more than the pruned search's
    share = (deadlines[1][1] - started) / 120.0
    low = dots_player.LEVEL4_EXACT_FIRST_SHARE - 0.01
    assert dots_player.LEVEL4_SHARE_AFTER_QUICK < low <= share
    assert share < dots_player.LEVEL4_EXACT_FIRST_SHARE + 0.01 < dots_player.EXACT_FIRST_SHARE


def test_level_four_plays_the_quick_line_when_its_exact_search_proved_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from vertex.ai.dots.solver import SolveTimeout

    state = triangles_seed_3()
    real = CoreSolver.keep_line
    quick: list[int] = []

    def exact_out_of_time(self: CoreSolver, st: DotsState, **kw: Any) -> tuple[int, int]:
        if kw.get("middle"):
            got = real(self, st, **kw)
            quick.append(got[1])
            return got
        raise SolveTimeout  # at once: no proof in the table

    monkeypatch.setattr(CoreSolver, "keep_line", exact_out_of_time)
    forget_tables()
    me = DotsPlayer(state.game, 4, seed=1)
    line = me.choose(state, state.to_move[0], 120.0)
    assert [line] == [state.game.board.line_names[q] for q in quick]
    assert me.last_reason == "middle, quick"


@pytest.mark.parametrize("spare", [True, False])  # two threads a search, or one
def test_with_too_many_lines_open_for_the_exact_search_level_five_widens_the_pruned_one(
    monkeypatch: pytest.MonkeyPatch, spare: bool
) -> None:
    from vertex.ai.dots import player as dots_player

    monkeypatch.setattr(dots_player, "spare_core", lambda: spare)
    # boards with more lines open in their middle game than this one (6×6): the mechanism
    # on Triangles 6, whose exact search would be the one to end in time
    monkeypatch.setattr(dots_player, "WIDEN_LINES", 46)
    assert not dots_player.exact_first(triangles_seed_3())

    game = vertex.create_game("dots-and-triangles", size=6)
    assert isinstance(game, DotsGame)
    moves, best = TRIANGLES_SEED_3
    state = game.initial_state()
    for move in moves.split():
        nxt = state.play(move)
        assert isinstance(nxt, DotsState)
        state = nxt
    assert len(state.legal_moves()) > dots_player.WIDEN_LINES
    calls = spy_keep_line(monkeypatch, "handout")
    monkeypatch.setattr(dots_player, "WIDEST_HANDOUT", 5)
    forget_tables()
    me = DotsPlayer(game, 5, seed=1)
    assert me.choose(state, state.to_move[0], 120.0) in best
    assert me.last_reason == "middle, handouts below 5"
    # the quick one, the pruned one, then wider ones, each once: never the exact search
    assert all(middle for middle, _ in calls)
    assert [h for _, h in calls[-2:]] == [4, 5] and len(calls) == 4

"""Known values from the compiled core, and its time, cancel and memory controls."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

import vertex
from vertex.ai import SolveTimeout, solve
from vertex.ai.dots.core import CoreSolver, Walk
from vertex.games.dots.engine import DotsGame, DotsState


def game_of(game_id: str, **options: Any) -> DotsGame[Any]:
    game = vertex.create_game(game_id, **options)
    assert isinstance(game, DotsGame)
    return game


def test_two_by_two_is_won_by_two_from_the_eight_outer_lines() -> None:
    sol = CoreSolver(game_of("dots-and-boxes", rows=2, cols=2)).solve(
        game_of("dots-and-boxes", rows=2, cols=2).initial_state()
    )
    assert sol.value == 2
    assert sol.best_moves == [
        "a1-a2", "a1-b1", "a2-a3", "a3-b3", "b1-c1", "b3-c3", "c1-c2", "c2-c3"
    ]  # fmt: skip


def test_three_by_three_every_first_line_loses_by_three() -> None:
    # D. Wilson's result: the first player loses 3×3 by 3 whatever they draw first
    game = game_of("dots-and-boxes", rows=3, cols=3)
    solver = CoreSolver(game)
    start = game.initial_state()
    sol = solver.solve(start)
    assert sol.value == -3
    assert sol.best_moves == sorted(start.legal_moves())
    assert len(sol.best_moves) == 24
    for move in ("a1-b1", "b2-c2", "b2-b3"):  # a corner, an inner and a central line
        after = start.play(move)
        assert isinstance(after, DotsState)
        assert solver.solve(after).value == 3  # the second player, now to move, wins by 3


@pytest.mark.parametrize("length", range(1, 13))
def test_the_closed_triangle_strip_is_a_first_player_win_except_length_two(length: int) -> None:
    # Jobson et al. (2015): the closed 1×n strip of Dots and Triangles is a first-player
    # win for every n except 2
    state = game_of("dots-and-triangles", shape="strip", length=length, border=True).initial_state()
    value = solve(state).value
    if length == 2:
        assert value <= 0
    else:
        assert value > 0


def test_a_deadline_stops_the_search_and_keeps_the_table_sound() -> None:
    game = game_of("dots-and-boxes", rows=4, cols=4)
    solver = CoreSolver(game, table_bytes=8 << 20)
    with pytest.raises(SolveTimeout):
        solver.solve(game.initial_state(), deadline=time.monotonic() + 0.05)
    # what it kept is only finished work: a small board position is still solved right
    small = game_of("dots-and-boxes", rows=4, cols=4)
    state = small.initial_state()
    for move in state.legal_moves()[:30]:
        nxt = state.play(move)
        assert isinstance(nxt, DotsState)
        state = nxt
    from vertex.ai.dots.solver import PySolver

    assert solver.solve(state) == PySolver(small).solve(state)


def test_cancel_from_another_thread_stops_the_search() -> None:
    game = game_of("dots-and-boxes", rows=4, cols=4)
    solver = CoreSolver(game, table_bytes=8 << 20)
    started = threading.Event()

    def progress(nodes: int, seconds: float) -> None:
        started.set()

    timer = threading.Thread(target=lambda: (started.wait(60), solver.cancel()))
    timer.start()
    with pytest.raises(SolveTimeout):
        solver.solve(game.initial_state(), progress=progress)
    timer.join()


def test_a_stop_callback_stops_the_search() -> None:
    game = game_of("dots-and-boxes", rows=4, cols=4)
    calls: list[int] = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) >= 2

    with pytest.raises(SolveTimeout):
        CoreSolver(game, table_bytes=8 << 20).solve(game.initial_state(), stop=stop)
    assert len(calls) == 2


@pytest.mark.parametrize("misere", [False, True])
def test_a_long_solve_says_where_it_is(misere: bool) -> None:
    game = game_of("dots-and-boxes", rows=4, cols=4, misere=misere)
    solver = CoreSolver(game, table_bytes=8 << 20, threads=1)
    walks: list[Walk | None] = []

    def progress(nodes: int, seconds: float) -> None:
        walks.append(solver.walk())

    with pytest.raises(SolveTimeout):
        solver.solve(game.initial_state(), progress=progress, stop=lambda: len(walks) >= 3)
    assert solver.walk() is None  # between solves
    first = walks[0]
    assert first is not None and not first.best_pass
    # the first pass asks whether the first player gets at least 0 (fewer cells win in
    # misère: at most 0), and is still in the first of the root's 36 lines: 40 less one
    # of the two outer lines of each corner cell, which give the same position
    assert (first.bound, first.at_least) == (0, not misere)
    assert len(first.lines) == 6  # (the first plies: `WALK_PLIES`)
    assert first.lines[0] == (first.lines[0][0], 1, 36)
    names = set(game.board.line_names)
    for walk in walks:
        assert walk is not None
        assert all(name in names and 1 <= at <= of for name, at, of in walk.lines)
        assert len({name for name, _, _ in walk.lines}) == len(walk.lines)


def test_the_table_has_the_size_asked_for() -> None:
    game = game_of("dots-and-boxes", rows=3, cols=3)
    stats = CoreSolver(game, table_bytes=10 << 20).stats()
    assert 5 << 20 < stats["table_bytes"] <= 10 << 20


def test_batch_playouts_share_out_every_cell() -> None:
    from vertex.ai.dots.core import random_playouts

    game = game_of("dots-and-boxes", rows=3, cols=3, players=3)
    state = game.initial_state().play("a1-b1")
    assert isinstance(state, DotsState)
    rows = random_playouts(state, 50, seed=4)
    assert len(rows) == 50 and all(len(r) == 3 and sum(r) == 9 for r in rows)
    assert len(set(rows)) > 1  # random, not one line of play


def test_uct_finds_the_only_good_line() -> None:
    from vertex.ai.dots.core import uct_search

    # 2×2 with a chain of three boxes offered: the mover takes them (and the fourth follows)
    game = game_of("dots-and-boxes", rows=1, cols=2)
    state = game.initial_state()
    for move in ("a1-b1", "b1-c1", "a2-b2", "b2-c2", "a1-a2"):
        state = state.play(move)  # type: ignore[assignment]
    best, done, table = uct_search(state, 3000, seed=1)
    assert done == 3000
    assert best == "b1-b2"  # takes the left box; the right one follows
    assert {name for name, _, _ in table} == set(state.legal_moves())


def test_two_threads_solve_three_by_three_alike() -> None:
    game = game_of("dots-and-boxes", rows=3, cols=3)
    sol = CoreSolver(game, table_bytes=16 << 20, threads=2).solve(game.initial_state())
    assert sol.value == -3
    assert len(sol.best_moves) == 24


def test_keys_built_from_the_parents_are_the_tables_keys() -> None:
    # Below the root a node's key comes from its parent's images under the symmetries, a line
    # added (`_search.h`, keys from the parent's); the table is read with keys made from
    # scratch (`canon`). From empty all eight symmetries of 3×3 key the search, so the
    # positions two lines in are stored under incremental keys: read back, each holds its
    # value (known by a fresh solve), and most are there.
    game = game_of("dots-and-boxes", rows=3, cols=3)
    solver = CoreSolver(game, table_bytes=16 << 20)
    start = game.initial_state()
    assert solver.solve(start).value == -3
    fresh = CoreSolver(game, table_bytes=16 << 20)
    names = game.board.line_names
    found = 0
    for first in range(0, len(names), 3):
        for second in range(len(names)):
            if second == first:
                continue
            got = solver.core.probe((1 << first) | (1 << second))
            if got is None:
                continue
            found += 1
            after = start.play(names[first]).play(names[second])
            assert isinstance(after, DotsState)
            value = fresh.solve(after).value
            assert got[0] <= value <= got[1], (names[first], names[second], got, value)
    assert found >= 100

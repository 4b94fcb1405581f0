"""A line searched first at the root (`CoreSolver.keep_line(first=)`), and levels 4 and 5
giving it the quick search's line with few lines open (issue 36, goal 2).

The position is bench/middle_game_4x4.json's seed 17: 4×4 after eight quiet lines, worth +2
to the player to move, kept by one line of the 32 (e1-e2), the 28th in the search's own
order (the centre first) — every other line gives the position away for 0. No time limits:
the players get a generous budget, and only their searches and choice are checked.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.ai.test_middle_game import position
from vertex.ai.dots import player as dots_player
from vertex.ai.dots.core import CoreSolver
from vertex.ai.dots.kept import TABLE_BYTES, forget_tables, kept_tables
from vertex.ai.dots.player import FAST, DotsPlayer
from vertex.ai.dots.solver import SolveTimeout
from vertex.games.dots.engine import DotsState

SEED_17 = "a3-b3 a1-b1 b2-c2 d3-d4 e2-e3 d1-e1 b4-b5 e3-e4"
VALUE, KEEPER = 2, "e1-e2"


def seed_17() -> DotsState:
    return position(SEED_17, rows=4)[1]


def line(state: DotsState, name: str) -> int:
    return state.game.board.line_names.index(name)


def searched(state: DotsState, first: str | None, threads: int = 1) -> tuple[int, int, int]:
    """The value, the line and the positions of a value search from a cold table."""
    solver = CoreSolver(state.game, table_bytes=TABLE_BYTES)
    hint = None if first is None else line(state, first)
    value, got = solver.keep_line(state, threads=threads, first=hint, **FAST)
    return value, got, solver.stats()["nodes"]


def test_the_line_searched_first_proves_the_value_in_its_own_subtree() -> None:
    state = seed_17()
    keeper = line(state, KEEPER)
    assert len(state.legal_moves()) == 32
    plain = searched(state, None)
    first = searched(state, KEEPER)
    assert plain[:2] == first[:2] == (VALUE, keeper)
    # one thread: the same positions every run. The 27 lines before the keeper need no
    # proof that they fall short of +2 once the keeper has proved it (5.6 M positions
    # against 3.6 M when this was written)
    assert first[2] < 0.8 * plain[2]
    # on two threads, the helper thread's root too
    assert searched(state, KEEPER, threads=2)[:2] == (VALUE, keeper)


def test_a_wrong_or_drawn_first_line_changes_no_value() -> None:
    state = seed_17()
    keeper = line(state, KEEPER)
    plain = searched(state, None)
    # a line worth 0, first: refuted, and the keeper found after it
    assert searched(state, "c2-c3")[:2] == (VALUE, keeper)
    # a line already drawn is no line to search: as if none was given
    assert searched(state, "a3-b3") == plain


def spy(monkeypatch: pytest.MonkeyPatch, exact_stops: bool = False) -> list[list[Any]]:
    """Each `CoreSolver.keep_line` call as it began: [middle, threads, first, the line it
    returned (None: none yet, or it ran out of time)]; `exact_stops`: the exact search runs
    out of time at once, no proof in its table."""
    calls: list[list[Any]] = []
    real = CoreSolver.keep_line

    def seen(self: CoreSolver, st: DotsState, **kw: Any) -> tuple[int, int]:
        call = [bool(kw.get("middle")), kw.get("threads"), kw.get("first"), None]
        calls.append(call)
        if exact_stops and not kw.get("middle"):
            raise SolveTimeout
        got = real(self, st, **kw)
        call[3] = got[1]
        return got

    monkeypatch.setattr(CoreSolver, "keep_line", seen)
    return calls


def chosen(
    monkeypatch: pytest.MonkeyPatch, level: int, exact_stops: bool = False
) -> tuple[DotsPlayer, list[list[Any]], int]:
    """Level `level` at seed 17, from cold tables: the player (its choice checked to be the
    keeper), its searches as `spy` saw them, and the keeper's line."""
    state = seed_17()
    calls = spy(monkeypatch, exact_stops)
    forget_tables()
    me = DotsPlayer(state.game, level, seed=1)
    assert me.choose(state, state.to_move[0], 60.0) == KEEPER
    return me, calls, line(state, KEEPER)


def test_level_five_searches_the_quick_line_first_with_few_lines_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(dots_player, "spare_core", lambda: True)
    me, calls, keeper = chosen(monkeypatch, 5)
    assert me.last_reason == "solver"
    quick = [c for c in calls if c[0]]
    assert quick == [[True, None, None, keeper]]  # the quick search's line keeps it here
    exact = [c[1:] for c in calls if not c[0]]
    # beside the quick search, the exact one on the other thread (stopped when the quick
    # one ended, before its proof); then on both, the quick line first
    assert exact == [[1, None, None], [2, keeper, keeper]]


def test_level_four_searches_the_quick_line_first_with_few_lines_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _me, calls, keeper = chosen(monkeypatch, 4)
    # the quick search, then the exact one alone on one thread, the quick line first
    assert [c[:3] for c in calls] == [[True, None, None], [False, 1, keeper]]


@pytest.mark.parametrize("spare", [True, False])
def test_level_five_plays_the_quick_line_when_its_exact_search_proved_nothing(
    monkeypatch: pytest.MonkeyPatch, spare: bool
) -> None:
    monkeypatch.setattr(dots_player, "spare_core", lambda: spare)
    me, calls, _keeper = chosen(monkeypatch, 5, exact_stops=True)
    assert me.last_reason == "middle, quick"
    assert [c[0] for c in calls].count(True) == 1


def test_a_quick_search_out_of_time_gives_the_line_it_proved_as_the_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = seed_17()
    real = CoreSolver.keep_line

    def quick_out_of_time(self: CoreSolver, st: DotsState, **kw: Any) -> tuple[int, int]:
        got = real(self, st, **kw)
        if kw.get("middle"):
            raise SolveTimeout  # it ended, but as if the clock had run out just before
        return got

    monkeypatch.setattr(CoreSolver, "keep_line", quick_out_of_time)
    forget_tables()
    me = DotsPlayer(state.game, 4, seed=1)
    kept = kept_tables(state.game)
    start = time.monotonic()
    assert me._quick(state, start, 60.0, kept) is None  # a fallback move: none unfinished
    assert me._quick(state, start, 60.0, kept, partial=True) == line(state, KEEPER)
    calls = spy(monkeypatch)
    assert me.choose(state, state.to_move[0], 60.0) == KEEPER
    # level 4 with few lines open: the quick search out of time, its line first all the same
    keeper = line(state, KEEPER)
    assert calls == [[True, None, None, None], [False, 1, keeper, keeper]]


#: 3×3, the player to move with cells on offer: the search takes the cell b2-c2 closes (it
#: offers no other) before its root lists its lines, so b2-c2 is drawn by then
TAKEN_FIRST = "c2-c3 b3-b4 c2-d2 a4-b4 d2-d3 c3-d3 a2-a3 a1-b1 c3-c4 d3-d4 c4-d4 b3-c3 b2-b3"


def three_by_three(moves: str) -> DotsState:
    return position(moves, rows=3)[1]


def test_a_first_line_the_root_took_before_its_search_is_not_drawn_again() -> None:
    # once it was (a line drawn twice: +7 here, not +5, or a search that never ended)
    state = three_by_three(TAKEN_FIRST)
    assert searched(state, None)[0] == 5
    for name in state.legal_moves():
        assert searched(state, name)[0] == 5, name


def test_any_first_line_leaves_the_value_as_it_is() -> None:
    import random

    rng = random.Random(5)
    game = three_by_three("").game
    for _ in range(12):
        state = game.initial_state()
        for _ in range(rng.randrange(8, 20)):
            nxt = state.play(rng.choice(state.legal_moves()))
            assert isinstance(nxt, DotsState)
            state = nxt
        if state.is_over:
            continue
        value = searched(state, None)[0]
        for name in state.legal_moves():
            assert searched(state, name)[0] == value, (state.history, name)

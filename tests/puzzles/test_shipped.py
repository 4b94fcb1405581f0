"""The shipped set checked against the solver (a sample, as CI runs it): every puzzle's
position replays, its goal is the solver's value, exactly one first move up to symmetry
keeps it, and its stored line is judged solved."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from vertex.ai.dots.solver import Solver
from vertex.games.dots.engine import DotsState
from vertex.games.juxtapose.game import JuxtaposeState, move_code
from vertex.puzzles.dots import DotsJudge
from vertex.puzzles.judge import judge, position
from vertex.puzzles.jux import JuxSearch, position_key
from vertex.puzzles.model import Puzzle, pool_name, puzzle_id
from vertex.puzzles.shipped import shipped

SAMPLE = random.Random(35).sample(list(shipped()), 20)


def test_the_set_is_big_and_varied() -> None:
    every = shipped()
    assert len(every) >= 300
    pools = Counter(pool_name(p.game, p.options) for p in every)
    for pool in (
        "dots-and-boxes-3x3",
        "dots-and-boxes-4x4",
        "dots-and-boxes-5x5",
        "dots-and-triangles-4",
        "juxtapose",
    ):
        assert pools[pool] >= 30, pools
    assert len({p.id for p in every}) == len(every)
    assert len({(p.game, p.key) for p in every}) == len(every)  # one per position


@pytest.mark.parametrize("puzzle", SAMPLE, ids=[p.id for p in SAMPLE])
def test_a_shipped_puzzle_is_what_it_says(puzzle: Puzzle) -> None:
    state = position(puzzle)
    assert state.to_move == (puzzle.to_move,)
    assert puzzle.id == puzzle_id(puzzle.game, puzzle.options, puzzle.key)
    if isinstance(state, DotsState):
        # a fresh solver, not the judge's warm one
        sol = Solver(state.game, table_bytes=16 << 20).solve(state)
        assert sol.value == puzzle.goal.margin
        j = DotsJudge(state.game)
        assert len(j.groups(state, sol.best_moves)) == 1
        assert puzzle.solution[0] in sol.best_moves
    else:
        assert isinstance(state, JuxtaposeState)
        found = JuxSearch().find(state)
        assert found is not None and found.kind == puzzle.goal.kind
        assert found.depth == puzzle.goal.depth
        assert position_key(state.apply(move_code(found.answer))) == position_key(
            state.apply(move_code(puzzle.solution[0]))
        )
    assert judge(puzzle, list(puzzle.solution)).status == "solved"


DEEP = [p for p in shipped() if p.game == "juxtapose" and p.goal.depth >= 2]


def test_the_set_has_juxtapose_wins_in_2_and_3() -> None:
    kinds = Counter(p.themes[0] for p in DEEP)
    assert kinds["win-in-2"] >= 10 and kinds["win-in-3"] >= 1, kinds


@pytest.mark.parametrize("puzzle", DEEP, ids=[p.id for p in DEEP])
def test_a_shipped_juxtapose_win_in_2_or_3_has_one_first_move(puzzle: Puzzle) -> None:
    """By the exact search: no quicker win, and one first move (up to symmetry) wins in N."""
    state = position(puzzle)
    assert isinstance(state, JuxtaposeState)
    search = JuxSearch()
    n = puzzle.goal.depth
    assert puzzle.themes == (f"win-in-{n}",) and search.distance(state, n) == n
    good = [c for c in state.move_codes() if search.keeps(state, c, n)]
    assert len({position_key(state.apply(c)) for c in good}) == 1
    assert move_code(puzzle.solution[0]) in good
    assert judge(puzzle, list(puzzle.solution)).status == "solved"

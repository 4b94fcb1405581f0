"""The exact solver: published values, and its shortcuts agree with plain search."""

from __future__ import annotations

import random
from typing import Any

import pytest

import vertex
from vertex.ai import Solution, solve
from vertex.ai.dots.solver import PySolver, Solver
from vertex.core.errors import VertexError
from vertex.games.dots.engine import DotsState


def start(game_id: str, **options: Any) -> DotsState:
    state = vertex.create_game(game_id, **options).initial_state()
    assert isinstance(state, DotsState)
    return state


@pytest.mark.parametrize(
    ("game_id", "options", "value"),
    [
        ("dots-and-boxes", {"rows": 1, "cols": 1}, -1),
        ("dots-and-boxes", {"rows": 2, "cols": 2}, 2),
        ("dots-and-triangles", {"size": 2}, -2),
    ],
)
def test_known_values(game_id: str, options: dict[str, Any], value: int) -> None:
    assert solve(start(game_id, **options)).value == value


def test_three_by_three_loses_by_three_whatever_the_first_line() -> None:
    # D. Wilson's result: every first move on 3×3 boxes loses by 3
    sol = solve(start("dots-and-boxes", rows=3, cols=3))
    assert sol.value == -3
    assert len(sol.best_moves) == 24


def test_one_box_every_line_is_as_good() -> None:
    sol = solve(start("dots-and-boxes", rows=1, cols=1))
    assert sol == Solution(-1, ["a1-a2", "a1-b1", "a2-b2", "b1-b2"])


def test_two_by_two_best_first_lines_are_the_outside_ones() -> None:
    # 2×2 is a win by 2 for the first player only from the 8 outer lines
    sol = solve(start("dots-and-boxes", rows=2, cols=2))
    assert len(sol.best_moves) == 8
    assert "b1-b2" not in sol.best_moves  # an inner line


def test_value_counts_cells_already_taken() -> None:
    # a1-b1, b1-b2, a2-b2 drawn: the mover takes the box with a1-a2 and wins the 1×1 by 1
    state = start("dots-and-boxes", rows=1, cols=1)
    for move in ("a1-b1", "b1-b2", "a2-b2"):
        state = state.play(move)  # type: ignore[assignment]
    assert solve(state) == Solution(1, ["a1-a2"])
    done = state.play("a1-a2")
    assert isinstance(done, DotsState)
    # the game is over; seat 1 took the box and is the seat "to move" in the order
    assert solve(done).value in (1, -1)
    assert solve(done).best_moves == []


def test_misere_one_box() -> None:
    # the fourth line falls to the second player: the first ends with none, which misère wants
    sol = solve(start("dots-and-boxes", rows=1, cols=1, misere=True))
    assert sol.value == -1


def test_more_than_two_players_is_refused() -> None:
    with pytest.raises(VertexError, match="two players"):
        solve(start("dots-and-boxes", rows=2, cols=2, players=3))


def test_not_a_dots_game_is_refused() -> None:
    state = vertex.create_game("juxtapose").initial_state()
    with pytest.raises(VertexError, match="Dots family"):
        solve(state)


def random_positions(state: DotsState, count: int, seed: int) -> list[DotsState]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        s = state
        for _ in range(rng.randrange(len(state.legal_moves()))):
            moves = s.legal_moves()
            if not moves:
                break
            nxt = s.play(rng.choice(moves))
            assert isinstance(nxt, DotsState)
            s = nxt
        out.append(s)
    return out


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("dots-and-boxes", {"rows": 2, "cols": 3}),
        ("dots-and-boxes", {"rows": 2, "cols": 2, "misere": True}),
        ("dots-and-boxes", {"rows": 2, "cols": 2, "extra_turn": False}),
        ("dots-and-triangles", {"size": 3}),
        ("dots-and-triangles", {"shape": "strip", "length": 5, "border": True}),
        ("figures", {"rows": 2, "cols": 3}),
    ],
)
def test_shortcuts_agree_with_plain_alpha_beta(game_id: str, options: dict[str, Any]) -> None:
    # symmetry keys, forced captures and the chain count must never change a value (the
    # compiled core, which has them all, against the Python search with none)
    game = vertex.create_game(game_id, **options)
    state = game.initial_state(seed=3)
    assert isinstance(state, DotsState)
    fast = Solver(game)  # type: ignore[arg-type]
    plain = PySolver(game, symmetry=False, forced_captures=False, loony_endgames=False)  # type: ignore[arg-type]
    for pos in random_positions(state, 12, seed=5):
        if len(pos.legal_moves()) > 16:
            continue
        assert fast.solve(pos) == plain.solve(pos), pos.history

"""Scores and winners of the Dots family at the end of random games: they add up."""

from __future__ import annotations

import pytest

import vertex
from vertex.core import Rng
from vertex.games.dots.engine import DotsState


def finish(game_id: str, seed: int, **options: object) -> DotsState:
    state = vertex.create_game(game_id, **options).initial_state(seed=seed)
    rng = Rng.from_seed(seed)
    while not state.is_over:
        move, rng = state.sample_move(state.to_move[0], rng)
        state = state.play(move)
    assert isinstance(state, DotsState)
    return state


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize(
    ("game_id", "options", "cells"),
    [
        ("dots-and-boxes", {"rows": 3, "cols": 4}, 12),
        ("dots-and-boxes", {"rows": 2, "cols": 2, "players": 4}, 4),
        ("dots-and-triangles", {"size": 4}, 16),
        ("dots-and-triangles", {"shape": "strip", "length": 4}, 7),
        ("figures", {"rows": 5, "cols": 5, "shape": "rhombus", "players": 3}, 13),
    ],
)
def test_scores_add_up(game_id: str, options: dict[str, object], cells: int, seed: int) -> None:
    state = finish(game_id, seed, **options)
    assert sum(state.scores) == cells
    top = max(state.scores)
    assert state.winners == tuple(s for s, v in enumerate(state.scores) if v == top)


@pytest.mark.parametrize("seed", range(10))
def test_misere_fewest_wins(seed: int) -> None:
    state = finish("dots-and-boxes", seed, rows=2, cols=3, misere=True, players=3)
    low = min(state.scores)
    assert state.winners == tuple(s for s, v in enumerate(state.scores) if v == low)


def test_draw_means_every_seat_wins() -> None:
    # 1×2 boxes without extra turns: seat 1 takes the left box, seat 0 the right one.
    state = vertex.create_game("dots-and-boxes", rows=1, cols=2, extra_turn=False).initial_state()
    for move in ["a1-b1", "b1-c1", "a2-b2", "b2-c2", "b1-b2"]:
        state = state.play(move)
    assert state.scores == (0, 0) and state.to_move == (1,)
    state = state.play("a1-a2")
    assert state.scores == (0, 1) and state.to_move == (0,)  # no extra turn
    assert state.winners == ()
    state = state.play("c1-c2")
    assert state.scores == (1, 1) and state.is_over
    assert state.winners == (0, 1)

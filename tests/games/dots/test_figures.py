"""Figures: the lot, the cross moving first, the turn order of the figures in play."""

from __future__ import annotations

from collections import Counter

import pytest

import vertex
from vertex.games.dots.figures import FIGURES, Figures


@pytest.mark.parametrize("players", range(2, 7))
def test_figures_by_lot_and_cross_first(players: int) -> None:
    firsts = Counter()
    for seed in range(60):
        game = vertex.create_game("figures", players=players)
        assert isinstance(game, Figures)
        figures = game.figures(seed)
        assert sorted(figures) == sorted(FIGURES[:players])
        state = game.initial_state(seed=seed)
        cross = figures.index("cross")
        assert state.to_move == (cross,)
        # turn order follows the list order of the figures in play
        order = [figures[s] for s in state.order]  # type: ignore[attr-defined]
        assert order == list(FIGURES[:players])
        firsts[cross] += 1
    assert len(firsts) == players, "the lot gives the cross to every seat sometimes"


def test_lot_is_reproducible() -> None:
    game = vertex.create_game("figures", players=6)
    assert isinstance(game, Figures)
    assert game.figures(42) == game.figures(42)
    assert len({game.figures(s) for s in range(30)}) > 10


def test_symbols_on_the_board() -> None:
    state = vertex.create_game("figures", players=3).initial_state(seed=9)
    board = state.to_dict()["board"]
    assert sorted(board["symbols"]) == sorted(["✕", "○", "＋"])


def test_rim_cell_needs_only_inner_sides() -> None:
    # corner cell a1-b2 of a 3×3 board: two rim sides, two inner sides
    state = vertex.create_game("figures", rows=3, cols=3, players=2).initial_state(seed=0)
    first = state.to_move[0]
    state = state.play("b1-b2")
    state = state.play("a2-b2")  # the other seat closes the corner cell
    assert state.scores[1 - first] == 1 and state.to_move == (1 - first,)

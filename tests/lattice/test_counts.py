"""Counts of dots, lines and cells against the formulas of RULES.md §1."""

from __future__ import annotations

import pytest

import vertex
from vertex.games.dots.engine import DotsGame
from vertex.lattice.square import rhombus_keeps, square_board
from vertex.lattice.triangular import strip_board, triangle_board


@pytest.mark.parametrize("rows", range(1, 13))
@pytest.mark.parametrize("cols", [1, 2, 3, 5, 12])
def test_square_counts(rows: int, cols: int) -> None:
    board = square_board(rows, cols)
    assert len(board.dots) == (rows + 1) * (cols + 1)
    assert len(board.lines) == (rows + 1) * cols + rows * (cols + 1)
    assert len(board.cells) == rows * cols
    assert board.rim.bit_count() == 2 * (rows + cols)


def test_three_by_three_known_numbers() -> None:
    board = square_board(3, 3)
    assert (len(board.dots), len(board.lines), len(board.cells)) == (16, 24, 9)


@pytest.mark.parametrize("n", range(2, 9))
def test_triangle_counts(n: int) -> None:
    board = triangle_board(n)
    assert len(board.dots) == (n + 1) * (n + 2) // 2
    assert len(board.lines) == 3 * n * (n + 1) // 2
    assert len(board.cells) == n * n
    assert board.rim.bit_count() == 3 * n
    assert all(len(cell) == 3 for cell in board.cells)


def test_triangle_size_four() -> None:
    board = triangle_board(4)
    assert (len(board.dots), len(board.lines), len(board.cells)) == (15, 30, 16)


@pytest.mark.parametrize("n", range(1, 13))
def test_strip_counts(n: int) -> None:
    board = strip_board(n)
    assert len(board.lines) == 4 * n - 1
    assert len(board.cells) == 2 * n - 1
    assert len(board.dots) == 2 * n + 1
    game = vertex.create_game("dots-and-triangles", shape="strip", length=n, border=True)
    assert isinstance(game, DotsGame)
    assert game.predrawn.bit_count() == n + 1
    assert len(game.initial_state().legal_moves()) == 3 * n - 2


@pytest.mark.parametrize(("n", "cells"), [(5, 13), (6, 24)])
def test_rhombus_counts(n: int, cells: int) -> None:
    assert len(square_board(n, n, "rhombus").cells) == cells


def test_rhombus_formula_is_symmetric() -> None:
    for rows, cols in [(5, 5), (6, 8), (7, 3), (20, 20)]:
        kept = {(r, c) for r in range(rows) for c in range(cols) if rhombus_keeps(r, c, rows, cols)}
        assert kept == {(rows - 1 - r, c) for r, c in kept}
        assert kept == {(r, cols - 1 - c) for r, c in kept}


def test_rhombus_rim_lines_border_one_cell() -> None:
    board = square_board(5, 5, "rhombus")
    # 13 cells in a diamond: 1+3+5+3+1, perimeter 20 unit lines
    assert board.rim.bit_count() == 20
    # every line of the rhombus borders a kept cell
    assert all(board.line_cells[i] for i in range(len(board.lines)))


@pytest.mark.parametrize(("rows", "cols"), [(1, 1), (3, 3), (2, 5)])
def test_box_border_predrawn(rows: int, cols: int) -> None:
    game = vertex.create_game("dots-and-boxes", rows=rows, cols=cols, border=True)
    state = game.initial_state()
    total = (rows + 1) * cols + rows * (cols + 1)
    assert len(state.legal_moves()) == total - 2 * (rows + cols)


def test_triangle_border_predrawn() -> None:
    state = vertex.create_game("dots-and-triangles", size=4, border=True).initial_state()
    assert len(state.legal_moves()) == 30 - 12


def test_one_by_one_with_border_is_over_at_once() -> None:
    state = vertex.create_game("dots-and-boxes", rows=1, cols=1, border=True).initial_state()
    assert state.is_over and state.scores == (0, 0) and state.winners == (0, 1)


def test_figures_rim_always_drawn() -> None:
    state = vertex.create_game("figures", rows=8, cols=8).initial_state()
    # 112 inner lines; only the 28 that touch the rim may be drawn first
    assert len(state.legal_moves()) == 28


def test_line_between_finds_each_line_either_way_round() -> None:
    from vertex.lattice.diagonal_grid import diagonal_grid_board
    from vertex.lattice.square import square_board
    from vertex.lattice.tri_shapes import hexagon_board
    from vertex.lattice.triangular import strip_board
    from vertex.lattice.windows import window_board

    for board in (
        square_board(2, 3),
        strip_board(3),
        hexagon_board(2),
        window_board(1, 1),
        diagonal_grid_board(3),
    ):
        for i, (a, b) in enumerate(board.lines):
            assert board.line_between(a, b) == board.line_between(b, a) == i
        ends = {frozenset(pair) for pair in board.lines}
        far = next(
            (a, b)
            for a in range(len(board.dots))
            for b in range(a + 1, len(board.dots))
            if frozenset((a, b)) not in ends
        )
        assert board.line_between(*far) is None

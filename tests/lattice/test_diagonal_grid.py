"""The GYØ grid (RULES.md §2.3): a square grid of dots with both diagonals of every square."""

from __future__ import annotations

import pytest

from vertex.lattice.diagonal_grid import diagonal_grid_board, diagonal_grid_geometry
from vertex.lattice.names import dot_name


@pytest.mark.parametrize("size", [3, 4, 7, 15, 30])
def test_counts(size: int) -> None:
    board = diagonal_grid_board(size)
    assert len(board.dots) == size * size
    assert len(board.lines) == 2 * size * (size - 1) + 2 * (size - 1) ** 2
    assert len(board.cells) == 4 * (size - 1) ** 2


def test_fifteen_known_numbers() -> None:
    board = diagonal_grid_board(15)
    assert (len(board.dots), len(board.lines), len(board.cells)) == (225, 812, 784)


def test_the_two_diagonals_of_a_square_cross() -> None:
    geo = diagonal_grid_geometry(4)
    board = geo.board
    a = board.find_line("a1-b2")
    b = board.find_line("b1-a2")
    assert geo.crossing[a] == 1 << b and geo.crossing[b] == 1 << a
    assert geo.crossing[board.find_line("a1-b1")] == 0
    # one crossing pair per unit square
    assert sum(m.bit_count() for m in geo.crossing) == 2 * 3 * 3


def test_outline() -> None:
    geo = diagonal_grid_geometry(3)
    names = [dot_name(*geo.board.dots[d]) for d in geo.outline]
    assert names == ["a1", "b1", "c1", "c2", "c3", "b3", "a3", "a2"]

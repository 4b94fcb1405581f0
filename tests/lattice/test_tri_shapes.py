"""Triangular-lattice shapes of Vert3x (RULES.md §2.1): counts against formulas, names."""

from __future__ import annotations

import pytest

from vertex.lattice.geometry import rim_dots
from vertex.lattice.names import dot_name
from vertex.lattice.tri_shapes import (
    big_triangle_board,
    custom_board,
    hexagon_board,
    parallelogram_board,
    parse_cell,
    triangular_geometry,
)


@pytest.mark.parametrize("radius", range(1, 9))
def test_hexagon_counts(radius: int) -> None:
    board = hexagon_board(radius)
    assert len(board.dots) == 3 * radius * radius + 3 * radius + 1
    assert len(board.lines) == 9 * radius * radius + 3 * radius
    assert len(board.cells) == 6 * radius * radius
    assert len(rim_dots(board)) == 6 * radius


def test_hexagon_radius_three_known_numbers() -> None:
    board = hexagon_board(3)
    assert (len(board.dots), len(board.lines), len(board.cells)) == (37, 90, 54)


def test_hexagon_names_lower_rows_start_later() -> None:
    board = hexagon_board(2)
    rows: dict[int, list[str]] = {}
    for q, r in board.dots:
        rows.setdefault(r, []).append(dot_name(q, r))
    assert rows[0] == ["a1", "b1", "c1"]
    assert rows[2] == ["a3", "b3", "c3", "d3", "e3"]
    assert rows[4] == ["c5", "d5", "e5"]


@pytest.mark.parametrize("size", range(1, 13))
def test_triangle_counts(size: int) -> None:
    board = big_triangle_board(size)
    assert len(board.dots) == (size + 1) * (size + 2) // 2
    assert len(board.lines) == 3 * size * (size + 1) // 2
    assert len(board.cells) == size * size


@pytest.mark.parametrize(("width", "height"), [(1, 1), (2, 3), (4, 4), (12, 1), (7, 12)])
def test_parallelogram_counts(width: int, height: int) -> None:
    board = parallelogram_board(width, height)
    assert len(board.dots) == (width + 1) * (height + 1)
    assert len(board.lines) == 3 * width * height + width + height
    assert len(board.cells) == 2 * width * height


def test_custom_board_from_cells() -> None:
    board = custom_board(("a1-b2-a2", "b1-a1-b2", "b1-c2-b2"))
    assert [dot_name(*d) for d in board.dots] == ["a1", "b1", "a2", "b2", "c2"]
    assert (len(board.lines), len(board.cells)) == (7, 3)


def test_parse_cell_accepts_any_corner_order() -> None:
    assert parse_cell("a2-a1-b2") == ((0, 0), (1, 1), (0, 1))
    assert parse_cell("b2 b1 a1") == ((0, 0), (1, 0), (1, 1))
    with pytest.raises(ValueError, match="not a small triangle"):
        parse_cell("a1-c3-a3")


def test_outline_is_clockwise_from_the_top_left() -> None:
    board = hexagon_board(1)
    geo = triangular_geometry(board)
    assert [dot_name(*board.dots[d]) for d in geo.outline] == ["a1", "b1", "c2", "c3", "b3", "a2"]

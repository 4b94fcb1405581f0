"""The Trianguliche window grid (RULES.md §2.2): the Alquerque pattern, 8 triangles a window."""

from __future__ import annotations

import pytest

from vertex.lattice.windows import window_board, window_geometry


@pytest.mark.parametrize(("width", "height"), [(1, 1), (2, 2), (3, 1), (4, 4), (8, 8)])
def test_window_counts(width: int, height: int) -> None:
    board = window_board(width, height)
    assert len(board.dots) == (2 * width + 1) * (2 * height + 1)
    straight = 2 * width * (2 * height + 1) + 2 * height * (2 * width + 1)
    assert len(board.lines) == straight + 4 * width * height
    assert len(board.cells) == 8 * width * height


def test_one_window() -> None:
    board = window_board(1, 1)
    assert (len(board.dots), len(board.lines), len(board.cells)) == (9, 16, 8)
    diagonals = sorted(n for n in board.line_names if n[0] != n[3] and n[1] != n[4])
    assert diagonals == ["a1-b2", "b2-a3", "b2-c3", "c1-b2"]


def test_diagonals_run_on_through_windows() -> None:
    board = window_board(2, 2)
    names = set(board.line_names)
    # the long diagonal a1..e5 and the diagonal c1-b2-a3 of the first window
    assert {"a1-b2", "b2-c3", "c3-d4", "d4-e5", "c1-b2", "b2-a3", "c1-d2", "d2-e3"} <= names
    assert "b1-c2" not in names and "a2-b1" not in names


def test_no_lines_cross() -> None:
    assert not any(window_geometry(3, 2).crossing)

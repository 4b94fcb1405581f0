"""The coordinates the page writes round a board (LineBoard.axes): the notation's own letters
and numbers at the first dot of each column and row, with the step outward along the lattice
where the page puts each label."""

from __future__ import annotations

import math

from vertex.lattice.diagonal_grid import diagonal_grid_board
from vertex.lattice.names import dot_name
from vertex.lattice.square import square_board
from vertex.lattice.triangular import triangle_board


def test_a_square_grid_has_letters_above_and_numbers_to_the_left() -> None:
    axes = square_board(2, 3).axes  # 2 rows × 3 columns of boxes: 3 × 4 dots
    assert axes["columns"] == [["a", 0.0, 0.0], ["b", 1.0, 0.0], ["c", 2.0, 0.0], ["d", 3.0, 0.0]]
    assert axes["rows"] == [["1", 0.0, 0.0], ["2", 0.0, 1.0], ["3", 0.0, 2.0]]
    assert axes["away"] == {"column": [0.0, -1.0], "row": [-1.0, 0.0]}  # up, and left


def test_a_triangle_labels_its_slanted_columns_along_the_right_edge() -> None:
    # column q starts at dot (q, q) on the right edge and runs down-left (x − ½, y + √3/2 a
    # row): its letter goes up-right of that dot; row r starts at (0, r) on the left edge
    board = triangle_board(2)
    axes = board.axes
    h = math.sqrt(3) / 2
    at = dict(zip(board.dot_names, board.positions, strict=True))
    assert [c[0] for c in axes["columns"]] == ["a", "b", "c"]
    for q, (label, x, y) in enumerate(axes["columns"]):
        assert (x, y) == at[dot_name(q, q)] == (q / 2, q * h)
        assert label == dot_name(q, q).rstrip("0123456789")
    assert [r[0] for r in axes["rows"]] == ["1", "2", "3"]
    assert axes["away"] == {"column": [0.5, round(-h, 4)], "row": [-1.0, 0.0]}


def test_gyo_15_has_15_letters_and_15_numbers_and_works_them_out_once() -> None:
    board = diagonal_grid_board(15)
    axes = board.axes
    assert [c[0] for c in axes["columns"]] == list("abcdefghijklmno")
    assert [r[0] for r in axes["rows"]] == [str(n) for n in range(1, 16)]
    assert board.axes is axes
    view = board.axes_view()  # a board view's own copy
    assert view == axes and view["columns"] is not axes["columns"]

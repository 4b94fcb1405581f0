"""Dot and line names: a1 top-left, columns a..z, aa.. ; canonical lines; round trips."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vertex.core.errors import IllegalMove, NotationError
from vertex.lattice.names import (
    column_index,
    column_name,
    dot_name,
    line_name,
    parse_dot,
    parse_line,
)
from vertex.lattice.square import square_board
from vertex.lattice.triangular import triangle_board


def test_columns() -> None:
    assert [column_name(i) for i in (0, 1, 25, 26, 27, 51, 52, 701, 702)] == [
        "a", "b", "z", "aa", "ab", "az", "ba", "zz", "aaa",
    ]  # fmt: skip


@given(st.integers(min_value=0, max_value=100_000))
def test_column_round_trip(i: int) -> None:
    assert column_index(column_name(i)) == i


@given(st.integers(0, 500), st.integers(0, 500))
def test_dot_round_trip(col: int, row: int) -> None:
    assert parse_dot(dot_name(col, row)) == (col, row)


def test_dot_names() -> None:
    assert dot_name(0, 0) == "a1"
    assert parse_dot(" B12 ") == (1, 11)


@pytest.mark.parametrize("bad", ["", "a", "1", "a0", "a01", "1a", "a-1", "é1", "a1b"])
def test_bad_dot(bad: str) -> None:
    with pytest.raises(NotationError, match="like 'a1'"):
        parse_dot(bad)


def test_canonical_line_order() -> None:
    assert line_name((1, 0), (0, 0)) == "a1-b1"
    assert line_name((0, 1), (0, 0)) == "a1-a2"
    assert line_name((2, 3), (2, 2)) == "c3-c4"


@pytest.mark.parametrize("bad", ["a1", "a1-", "-a1", "a1-b1-c1", "a1 b1"])
def test_bad_line(bad: str) -> None:
    with pytest.raises(NotationError, match="like 'a1-b1'"):
        parse_line(bad)


@pytest.mark.parametrize("board", [square_board(3, 4), triangle_board(5)], ids=["sq", "tri"])
def test_every_line_round_trips_in_both_orders(board: object) -> None:
    from vertex.lattice.board import LineBoard

    assert isinstance(board, LineBoard)
    for i, name in enumerate(board.line_names):
        a, b = name.split("-")
        assert board.find_line(name) == i
        assert board.find_line(f"{b}-{a}") == i
        assert board.find_line(f" {a.upper()} - {b} ") == i


def test_find_line_errors() -> None:
    board = square_board(2, 2)
    with pytest.raises(IllegalMove, match="no dot z9"):
        board.find_line("a1-z9")
    with pytest.raises(IllegalMove, match="not neighbouring"):
        board.find_line("a1-b2")  # a diagonal is not a line on a square grid
    tri = triangle_board(3)
    assert tri.find_line("a2-b3") >= 0  # (0,1)-(1,2): a lattice neighbour
    with pytest.raises(IllegalMove, match="not neighbouring"):
        tri.find_line("b2-a3")  # (1,1)-(0,2) is not


def test_triangle_apex_names() -> None:
    board = triangle_board(4)
    assert board.dot_names[:3] == ("a1", "a2", "b2")
    assert board.line_names[:3] == ("a1-a2", "a1-b2", "a2-b2")

"""The triangular lattice (RULES.md §1.2): the big triangle of size n and the 1×n strip.

Row r (0-based, from the top) holds dots q = 0, 1, …; dot (q, r) neighbours (q±1, r), (q, r±1),
(q+1, r+1) and (q−1, r−1). Drawn at x = q − r/2, y = r·√3/2, so each row is centred.
"""

from __future__ import annotations

from functools import lru_cache
from math import sqrt

from vertex.lattice.board import BOARDS_KEPT, Dot, LineBoard, build_board

H = sqrt(3) / 2


def up_triangle(q: int, r: int) -> list[Dot]:
    return [(q, r), (q + 1, r + 1), (q, r + 1)]


def down_triangle(q: int, r: int) -> list[Dot]:
    return [(q, r), (q + 1, r), (q + 1, r + 1)]


def lattice_position(q: int, r: int) -> tuple[float, float]:
    return (q - r / 2, r * H)


@lru_cache(maxsize=BOARDS_KEPT)
def triangle_board(size: int) -> LineBoard:
    """The big triangle with `size` small triangles along each side."""
    cells: list[list[Dot]] = []
    for r in range(size):
        for q in range(r + 1):
            cells.append(up_triangle(q, r))
            if q < r:
                cells.append(down_triangle(q, r))
    dots = [(q, r) for r in range(size + 1) for q in range(r + 1)]
    position = {d: lattice_position(*d) for d in dots}
    return build_board("triangle", dots, position, cells)


@lru_cache(maxsize=BOARDS_KEPT)
def strip_board(length: int) -> LineBoard:
    """A 1×n strip: n dots on top (row 1), n+1 below (row 2), 2n−1 triangles."""
    cells: list[list[Dot]] = []
    for q in range(length):
        cells.append([(q, 0), (q + 1, 1), (q, 1)])
        if q + 1 < length:
            cells.append(down_triangle(q, 0))
    dots = [(q, 0) for q in range(length)] + [(q, 1) for q in range(length + 1)]
    position = {(q, r): (q - r / 2, r * H) for q, r in dots}
    return build_board("strip", dots, position, cells)


def strip_closed_border(board: LineBoard, length: int) -> int:
    """The closed strip's pre-drawn lines: the top row and the two slanted end lines."""
    idx = board.dot_index
    pairs = [((q, 0), (q + 1, 0)) for q in range(length - 1)]
    pairs += [((0, 0), (0, 1)), ((length - 1, 0), (length, 1))]
    mask = 0
    for a, b in pairs:
        line = board.line_between(idx[a], idx[b])
        assert line is not None, "the strip has its ends"
        mask |= 1 << line
    return mask

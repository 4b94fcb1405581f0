"""The window grid of Trianguliche (RULES.md §2.2): the Alquerque pattern.

`width` × `height` windows; a window is 2×2 panes with both of its diagonals drawn through its
centre, so every pane carries exactly one diagonal: pane (x, y) has the falling one (from
(x, y) to (x+1, y+1)) when x + y is even and the rising one otherwise. Dots are the integer
points (0..2w) × (0..2h), named like square-grid dots; each window holds 8 small triangles.
"""

from __future__ import annotations

from functools import lru_cache

from vertex.lattice.board import BOARDS_KEPT, Dot, LineBoard, build_board
from vertex.lattice.geometry import SQUARE_DIAGONAL_DIRECTIONS, Geometry, unit_steps


def pane_cells(x: int, y: int) -> list[list[Dot]]:
    """The two small triangles of pane (x, y), split by its one diagonal."""
    a, b, c, d = (x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)
    if (x + y) % 2 == 0:
        return [[a, b, c], [a, c, d]]
    return [[a, b, d], [b, c, d]]


@lru_cache(maxsize=BOARDS_KEPT)
def window_board(width: int, height: int) -> LineBoard:
    """(2w+1)(2h+1) dots; 8·w·h small triangles."""
    cells = [cell for y in range(2 * height) for x in range(2 * width) for cell in pane_cells(x, y)]
    dots = [(x, y) for y in range(2 * height + 1) for x in range(2 * width + 1)]
    position = {d: (float(d[0]), float(d[1])) for d in dots}
    return build_board("windows", dots, position, cells)


def rectangle_outline(board: LineBoard, cols: int, rows: int) -> tuple[int, ...]:
    """The dots around a `cols` × `rows` dot rectangle, clockwise from the top-left."""
    ring: list[Dot] = [(x, 0) for x in range(cols)]
    ring += [(cols - 1, y) for y in range(1, rows)]
    ring += [(x, rows - 1) for x in range(cols - 2, -1, -1)]
    ring += [(0, y) for y in range(rows - 2, 0, -1)]
    return tuple(board.dot_index[d] for d in ring)


@lru_cache(maxsize=BOARDS_KEPT)
def window_geometry(width: int, height: int) -> Geometry:
    board = window_board(width, height)
    outline = rectangle_outline(board, 2 * width + 1, 2 * height + 1)
    return Geometry(board, unit_steps(SQUARE_DIAGONAL_DIRECTIONS), outline)

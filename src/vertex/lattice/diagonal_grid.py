"""The square grid with diagonals of GYØ (RULES.md §2.3).

`size` × `size` dots named like every square grid; lines are unit steps across, down and along
both diagonals of every unit square (which cross at its centre). The smallest triangles are the
four half-squares of each unit square, so they overlap: 4·(size−1)² of them.
"""

from __future__ import annotations

from functools import lru_cache

from vertex.lattice.board import BOARDS_KEPT, Dot, LineBoard, build_board
from vertex.lattice.geometry import SQUARE_DIAGONAL_DIRECTIONS, Geometry, unit_steps
from vertex.lattice.windows import rectangle_outline


def half_squares(x: int, y: int) -> list[list[Dot]]:
    """The four half-squares (triangular units) of unit square (x, y)."""
    a, b, c, d = (x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)
    return [[a, b, d], [a, b, c], [b, c, d], [a, c, d]]


@lru_cache(maxsize=BOARDS_KEPT)
def diagonal_grid_board(size: int) -> LineBoard:
    """size² dots, 2·size·(size−1) straight and 2·(size−1)² diagonal lines."""
    cells = [cell for y in range(size - 1) for x in range(size - 1) for cell in half_squares(x, y)]
    dots = [(x, y) for y in range(size) for x in range(size)]
    position = {d: (float(d[0]), float(d[1])) for d in dots}
    return build_board("diagonal-grid", dots, position, cells)


@lru_cache(maxsize=BOARDS_KEPT)
def diagonal_grid_geometry(size: int) -> Geometry:
    board = diagonal_grid_board(size)
    outline = rectangle_outline(board, size, size)
    return Geometry(board, unit_steps(SQUARE_DIAGONAL_DIRECTIONS), outline)

"""Board shapes on the triangular lattice (RULES.md §2.1): hexagon, triangle, parallelogram, custom.

Dots are axial `(q, r)` as in §1.2 (neighbours `(q±1, r)`, `(q, r±1)`, `(q+1, r+1)`,
`(q−1, r−1)`), counted from 0 at the top-left of the board's bounding rows, so the rows of a
hexagon's lower half start at a later letter. Each shape is given by its small triangles.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from vertex.lattice.board import BOARDS_KEPT, Dot, LineBoard, build_board
from vertex.lattice.geometry import (
    TRIANGULAR_DIRECTIONS,
    Geometry,
    outline_by_angle,
    rim_dots,
    unit_steps,
)
from vertex.lattice.names import dot_name, parse_dot
from vertex.lattice.triangular import down_triangle, lattice_position, triangle_board, up_triangle

Cell = tuple[Dot, Dot, Dot]


def _board_from_cells(kind: str, cells: Iterable[Sequence[Dot]]) -> LineBoard:
    cell_list = [list(c) for c in cells]
    dots = {d for c in cell_list for d in c}
    return build_board(kind, dots, {d: lattice_position(*d) for d in dots}, cell_list)


def _cells_within(dots: set[Dot]) -> list[list[Dot]]:
    """Every small triangle whose three corners are among `dots`, row by row."""
    out = []
    for q, r in sorted(dots, key=lambda d: (d[1], d[0])):
        for cell in (up_triangle(q, r), down_triangle(q, r)):
            if all(d in dots for d in cell):
                out.append(cell)
    return out


@lru_cache(maxsize=BOARDS_KEPT)
def hexagon_board(radius: int) -> LineBoard:
    """The hexagon of side `radius`: 3R²+3R+1 dots, 9R²+3R lines, 6R² small triangles."""
    n = 2 * radius
    dots = {(q, r) for r in range(n + 1) for q in range(n + 1) if abs(q - r) <= radius}
    return _board_from_cells("hexagon", _cells_within(dots))


@lru_cache(maxsize=BOARDS_KEPT)
def parallelogram_board(width: int, height: int) -> LineBoard:
    """`width` × `height` rhombi, 2·w·h small triangles, leaning left as rows go down."""
    dots = {(q, r) for r in range(height + 1) for q in range(width + 1)}
    return _board_from_cells("parallelogram", _cells_within(dots))


def big_triangle_board(size: int) -> LineBoard:
    """The triangle of §1.2: `size` small triangles along each side, apex `a1`."""
    return triangle_board(size)


_SEP = re.compile(r"[\s,;-]+")


def parse_cell(text: str) -> Cell:
    """'a1-b2-a2' (three corner dots in any order) to a small triangle; ValueError if not one."""
    parts = [p for p in _SEP.split(text.strip().lower()) if p]
    if len(parts) != 3:
        raise ValueError(f"cell {text!r} must be three dot names like 'a1-b2-a2'")
    corners = {parse_dot(p) for p in parts}
    top = min(r for _, r in corners)
    for q, r in corners:
        for cell in (up_triangle(q, r), down_triangle(q, r)):
            if r == top and set(cell) == corners:
                a, b, c = cell
                return (a, b, c)
    raise ValueError(f"cell {text!r} is not a small triangle of the triangular lattice")


def cell_name(cell: Sequence[Dot]) -> str:
    return "-".join(dot_name(*d) for d in cell)


@lru_cache(maxsize=BOARDS_KEPT)
def custom_board(cells: tuple[str, ...]) -> LineBoard:
    """A board made of the listed small triangles, named as on the board itself."""
    if not cells:
        raise ValueError("a custom board needs at least one cell")
    parsed = [parse_cell(c) for c in cells]
    if len(set(parsed)) != len(parsed):
        raise ValueError("a cell is listed twice in 'cells'")
    dots = {d for c in parsed for d in c}
    if min(r for _, r in dots) != 0 or min(q for q, _ in dots) != 0:
        raise ValueError(
            "custom cells use the board's own names: the top row is 1 and the leftmost "
            "column letter is a"
        )
    return _board_from_cells("custom", parsed)


@lru_cache(maxsize=BOARDS_KEPT)
def triangular_geometry(board: LineBoard) -> Geometry:
    """The geometry of a triangular-lattice board, its outline from the rim."""
    outline = outline_by_angle(board, rim_dots(board))
    return Geometry(board, unit_steps(TRIANGULAR_DIRECTIONS), outline)

"""Triangular units as bits, for claims (RULES.md §2.3): a unit is the smallest triangle's area.

On a square grid with diagonals (GYØ, the windows of Trianguliche) both diagonals cut a unit
square into four quarters and a unit is two of them (`quarters.py`); on the triangular lattice
the small triangles do not overlap, and a unit is one small triangle, a cell of the board.
Every triangle drawn on either is a union of these pieces, so a claim is a bitmask of them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from vertex.lattice.geometry import (
    SQUARE_DIAGONAL_DIRECTIONS,
    Geometry,
    Triangle,
    strictly_inside_scaled,
    unit_steps,
)
from vertex.lattice.names import dot_name
from vertex.lattice.quarters import QUARTERS, quarter_corners, quarter_mask


@dataclass(frozen=True)
class Units:
    """The claimable pieces of one board: `per_unit` of them make a unit (a point)."""

    geometry: Geometry
    square: bool  # quarters of unit squares; else the board's (small-triangle) cells
    across: int  # unit squares across (square grids)
    #: Each piece's view, made once: a board view lists every claimed piece on every move.
    _views: dict[int, dict[str, Any]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    @classmethod
    def of(cls, geo: Geometry) -> Units:
        square = set(geo.directions) == set(unit_steps(SQUARE_DIAGONAL_DIRECTIONS))
        across = max(x for x, _ in geo.board.dots) if square else 0
        return cls(geo, square, across)

    @property
    def per_unit(self) -> int:
        return 2 if self.square else 1

    def mask(self, tri: Triangle) -> int:
        """The pieces inside the triangle (cached per board and triangle)."""
        geo = self.geometry
        if self.square:
            return quarter_mask(geo, tri, self.across)
        return geo.memo("cells", tri.corners, lambda: _cells_inside(geo, tri))

    def view(self, piece: int) -> dict[str, Any]:
        """A piece for the board view: where it is and its corners (drawing coordinates).

        The same dict for the same piece: callers copy it into their own (views are read,
        never changed)."""
        got = self._views.get(piece)
        if got is None:
            got = self._views[piece] = self._view(piece)
        return got

    def _view(self, piece: int) -> dict[str, Any]:
        if self.square:
            square, k = divmod(piece, 4)
            y, x = divmod(square, self.across)
            return {
                "square": dot_name(x, y),
                "quarter": QUARTERS[k],
                "corners": [list(c) for c in quarter_corners(piece, self.across)],
            }
        board = self.geometry.board
        corners = board.cell_dots[piece]
        return {
            "cell": [board.dot_names[d] for d in corners],
            "corners": [list(board.positions[d]) for d in corners],
        }


def _cells_inside(geo: Geometry, tri: Triangle) -> int:
    """Cells whose centroid is strictly inside the triangle (cells never straddle a side)."""
    pts = [geo.coords(c) for c in tri.corners]
    board = geo.board
    mask = 0
    for cell, corners in enumerate(board.cell_dots):
        x = sum(board.dots[d][0] for d in corners)
        y = sum(board.dots[d][1] for d in corners)
        if strictly_inside_scaled(pts, len(corners), x, y):
            mask |= 1 << cell
    return mask

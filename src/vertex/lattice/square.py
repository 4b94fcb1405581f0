"""Square grids of cells: rectangles and the rhombus of Figures (RULES.md §1.3)."""

from __future__ import annotations

from functools import lru_cache

from vertex.lattice.board import BOARDS_KEPT, Dot, LineBoard, build_board


def rhombus_keeps(r: int, c: int, rows: int, cols: int) -> bool:
    """RULES §1.3: cell (r, c) is kept iff |2r+1−R|·C + |2c+1−C|·R ≤ R·C."""
    return abs(2 * r + 1 - rows) * cols + abs(2 * c + 1 - cols) * rows <= rows * cols


@lru_cache(maxsize=BOARDS_KEPT)
def square_board(rows: int, cols: int, shape: str = "rectangle") -> LineBoard:
    """`rows` × `cols` cells; dot (c, r) sits at column c, row r, `a1` top-left."""
    keep = [
        (r, c)
        for r in range(rows)
        for c in range(cols)
        if shape == "rectangle" or rhombus_keeps(r, c, rows, cols)
    ]
    cells: list[list[Dot]] = [[(c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1)] for r, c in keep]
    dots = (
        [(c, r) for r in range(rows + 1) for c in range(cols + 1)] if shape == "rectangle" else []
    )
    position = {(c, r): (float(c), float(r)) for r in range(rows + 1) for c in range(cols + 1)}
    return build_board(f"square-{shape}", dots, position, cells)

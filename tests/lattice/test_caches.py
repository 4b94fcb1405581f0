"""Board builders are keyed by a table's options, which come from clients: their caches are
bounded, so building many distinct boards (custom ones above all) keeps memory flat."""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Callable
from typing import Any

import vertex
from vertex.lattice import diagonal_grid, square, tri_shapes, triangular, windows
from vertex.lattice.board import BOARDS_KEPT
from vertex.lattice.names import dot_name

BUILDERS: list[Any] = [
    square.square_board,
    triangular.triangle_board,
    triangular.strip_board,
    tri_shapes.hexagon_board,
    tri_shapes.parallelogram_board,
    tri_shapes.custom_board,
    tri_shapes.triangular_geometry,
    windows.window_board,
    windows.window_geometry,
    diagonal_grid.diagonal_grid_board,
    diagonal_grid.diagonal_grid_geometry,
]


def strip_cells(n: int) -> list[str]:
    """A distinct custom board per n < 256, all about the same size: a strip of nine
    up-triangles, with the down-triangles between them chosen by the bits of n."""
    up = [((q, 0), (q + 1, 1), (q, 1)) for q in range(9)]
    down = [((q, 0), (q + 1, 0), (q + 1, 1)) for q in range(8) if n >> q & 1]
    return ["-".join(dot_name(*d) for d in cell) for cell in up + down]


def custom_game(n: int) -> vertex.Game[Any]:
    return vertex.create_game("vert3x", shape="custom", cells=strip_cells(n), connected=False)


def test_every_builder_cache_is_bounded() -> None:
    for build in BUILDERS:
        info: Callable[[], Any] = build.cache_info
        assert info().maxsize == BOARDS_KEPT, build.__name__


def test_many_custom_boards_keep_memory_flat() -> None:
    tri_shapes.custom_board.cache_clear()
    tri_shapes.triangular_geometry.cache_clear()
    gc.collect()
    tracemalloc.start()
    try:
        for n in range(BOARDS_KEPT):  # fill the caches
            custom_game(n)
        gc.collect()
        full, _ = tracemalloc.get_traced_memory()
        for n in range(BOARDS_KEPT, 4 * BOARDS_KEPT):  # three times as many again
            custom_game(n)
        gc.collect()
        later, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert tri_shapes.custom_board.cache_info().currsize == BOARDS_KEPT
    assert tri_shapes.triangular_geometry.cache_info().currsize == BOARDS_KEPT
    # an unbounded cache would have grown by three times what the first boards took
    assert later - full < full // 4, f"{full} bytes for the first boards, then {later}"


def test_the_boards_are_distinct() -> None:
    boards = {custom_game(n).geometry.board.cells for n in range(4 * BOARDS_KEPT)}
    assert len(boards) == 4 * BOARDS_KEPT

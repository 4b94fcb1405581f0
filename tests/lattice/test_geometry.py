"""Geometry: triangles found from the new line agree with a brute-force search; insides."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from vertex.core.rng import Rng
from vertex.lattice.diagonal_grid import diagonal_grid_geometry
from vertex.lattice.geometry import Geometry, Triangle, strictly_inside
from vertex.lattice.names import dot_name, parse_dot
from vertex.lattice.tri_shapes import (
    big_triangle_board,
    hexagon_board,
    parallelogram_board,
    triangular_geometry,
)
from vertex.lattice.windows import window_geometry


def straight_chain(geo: Geometry, a: int, b: int) -> int | None:
    """The lines of the straight chain from dot a to dot b, or None if there is none."""
    (xa, ya), (xb, yb) = geo.coords(a), geo.coords(b)
    for d, (dx, dy) in enumerate(geo.directions):
        for k in range(1, 40):
            if (xa + k * dx, ya + k * dy) == (xb, yb):
                mask, p = 0, a
                for _ in range(k):
                    line = geo.step[p][d]
                    if line < 0:
                        return None
                    mask |= 1 << line
                    p = geo.nbr[p][d]
                return mask
    return None


def all_triangles(geo: Geometry) -> dict[tuple[int, int, int], int]:
    """Every triangle of the board with sides along lines, as corners -> its lines."""
    out = {}
    for a, b, c in combinations(range(len(geo.board.dots)), 3):
        pa, pb, pc = geo.coords(a), geo.coords(b), geo.coords(c)
        if (pb[0] - pa[0]) * (pc[1] - pa[1]) == (pb[1] - pa[1]) * (pc[0] - pa[0]):
            continue
        sides = [straight_chain(geo, a, b), straight_chain(geo, b, c), straight_chain(geo, a, c)]
        if all(s is not None for s in sides):
            out[(a, b, c)] = sum(s for s in sides if s is not None)
    return out


GEOMETRIES = {
    "hexagon-2": lambda: triangular_geometry(hexagon_board(2)),
    "triangle-4": lambda: triangular_geometry(big_triangle_board(4)),
    "parallelogram-3x2": lambda: triangular_geometry(parallelogram_board(3, 2)),
    "windows-2x2": lambda: window_geometry(2, 2),
    "gyo-5": lambda: diagonal_grid_geometry(5),
}


@pytest.mark.parametrize("name", sorted(GEOMETRIES))
def test_incremental_search_matches_brute_force(name: str) -> None:
    geo = GEOMETRIES[name]()
    every = all_triangles(geo)
    lines = len(geo.board.lines)
    for seed in range(3):
        order, _ = Rng.from_seed(seed, name).shuffled(range(lines))
        mine = 0
        for line in order[: lines * 2 // 3]:  # one colour drawing two thirds of the board
            before = mine
            mine |= 1 << line
            found = {t.corners: t for t in geo.completed_triangles(line, mine)}
            expect = {
                c for c, m in every.items() if m & mine == m and m & before != m and m >> line & 1
            }
            assert set(found) == expect
            for t in found.values():
                assert sorted(t.sides) == sorted(
                    straight_chain(geo, x, y).bit_count()  # type: ignore[union-attr]
                    for x, y in (
                        (t.corners[0], t.corners[1]),
                        (t.corners[1], t.corners[2]),
                        (t.corners[0], t.corners[2]),
                    )
                )


def test_triangle_counts_on_small_boards() -> None:
    # side-k triangles in a big triangle of size 4: 10 + 6 + 3 + 1 upright, 6 + 1 upside down
    assert len(all_triangles(triangular_geometry(big_triangle_board(4)))) == 27
    # by size (small triangles inside): a window, 2×2 windows, a 3×3-dot GYØ grid
    assert sizes(window_geometry(1, 1)) == {1: 8, 2: 4, 4: 4}
    assert sizes(window_geometry(2, 2)) == {1: 32, 2: 24, 4: 20, 8: 8, 9: 8, 16: 4}
    assert sizes(diagonal_grid_geometry(3)) == {1: 16, 2: 8, 4: 4}


def sizes(geo: Geometry) -> dict[int, int]:
    return dict(Counter(abs_small(geo, c) for c in all_triangles(geo)))


def abs_small(geo: Geometry, corners: tuple[int, int, int]) -> int:
    (ax, ay), (bx, by), (cx, cy) = (geo.coords(c) for c in corners)
    return abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax))


def named(geo: Geometry, mask: int) -> list[str]:
    return [geo.board.line_names[i] for i in range(len(geo.board.lines)) if mask >> i & 1]


def make(geo: Geometry, *names: str) -> Triangle:
    idx = sorted(geo.board.dot_index[parse_dot(n)] for n in names)
    return Triangle((idx[0], idx[1], idx[2]), (0, 0, 0), 0)


def test_lines_inside_a_gyo_triangle() -> None:
    geo = diagonal_grid_geometry(5)
    inside = named(geo, geo.lines_inside(make(geo, "a1", "c1", "a3")))
    # the unit square's both diagonals, the two inner sides of the middle unit, and the
    # diagonals that poke in through the hypotenuse at a square's centre
    assert sorted(inside) == ["a1-b2", "a2-b2", "a2-b3", "b1-a2", "b1-b2", "b1-c2"]


def test_lines_inside_a_triangular_triangle() -> None:
    geo = triangular_geometry(hexagon_board(3))
    assert named(geo, geo.lines_inside(make(geo, "a1", "c1", "c3"))) == ["b1-b2", "b1-c2", "b2-c2"]
    assert geo.lines_inside(make(geo, "a1", "b1", "b2")) == 0


def test_strictly_inside() -> None:
    pts = [(0, 0), (4, 0), (0, 4)]
    assert strictly_inside(pts, 1, 1)
    assert not strictly_inside(pts, 2, 2)  # on the hypotenuse
    assert not strictly_inside(pts, 0, 1)  # on a leg
    assert not strictly_inside(pts, 3, 3)


def test_names_of_found_triangles() -> None:
    geo = diagonal_grid_geometry(4)
    lines = [geo.board.find_line(n) for n in ("a1-b1", "b1-c1", "a1-b2", "b2-c1")]
    mine = sum(1 << ln for ln in lines)
    (t,) = geo.completed_triangles(lines[-1], mine)
    assert [dot_name(*geo.coords(c)) for c in t.corners] == ["a1", "c1", "b2"]
    assert (sorted(t.sides), t.small) == ([1, 1, 2], 2)

"""Quarter-square claims on the GYØ grid: a triangle of area A holds 4A quarters (2A units)."""

from __future__ import annotations

from vertex.lattice.diagonal_grid import diagonal_grid_geometry
from vertex.lattice.geometry import Triangle
from vertex.lattice.quarters import quarter_corners, quarter_mask


def tri(geo_size: int, *names: str) -> tuple[Triangle, int]:
    geo = diagonal_grid_geometry(geo_size)
    idx = geo.board.dot_index
    from vertex.lattice.names import parse_dot

    corners = sorted(idx[parse_dot(n)] for n in names)
    t = Triangle((corners[0], corners[1], corners[2]), (0, 0, 0), 0)
    return t, quarter_mask(geo, t, geo_size - 1)


def test_unit_holds_two_quarters() -> None:
    _, mask = tri(5, "a1", "b1", "a2")
    assert mask == 0b1001  # top and left of square a1


def test_legs_two_holds_eight_quarters() -> None:
    _, mask = tri(5, "a1", "c1", "a3")
    assert mask.bit_count() == 8


def test_legs_six_holds_72_quarters() -> None:
    _, mask = tri(8, "a1", "g1", "a7")
    assert mask.bit_count() == 72


def test_hypotenuse_on_a_row() -> None:
    # a1, e1, c3: legs along the diagonals, area 4, so 8 units
    _, mask = tri(5, "a1", "e1", "c3")
    assert mask.bit_count() == 16


def test_quarter_corners() -> None:
    assert quarter_corners(4 * 5 + 2, 4) == [(2.0, 2.0), (1.0, 2.0), (1.5, 1.5)]

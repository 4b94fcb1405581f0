"""The pieces at real size and mass (RULES.md §4), in SI units as MuJoCo wants them.

Looney Pyramids are hollow: their mass is in the four side faces, so the centre of mass sits at
a third of the height (not a quarter, as for a solid pyramid) and the inertia is a shell's.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal

Kind = Literal["S", "M", "L", "card"]
SIZES: tuple[Kind, ...] = ("S", "M", "L")
KINDS: tuple[Kind, ...] = ("S", "M", "L", "card")


@dataclass(frozen=True, slots=True)
class PyramidSpec:
    base: float  # m, side of the square base
    height: float  # m
    mass: float  # kg


PYRAMIDS: dict[str, PyramidSpec] = {
    "S": PyramidSpec(14.29e-3, 25.40e-3, 1.4e-3),
    "M": PyramidSpec(19.84e-3, 34.93e-3, 2.7e-3),
    "L": PyramidSpec(25.40e-3, 44.45e-3, 4.4e-3),
}

#: A Zark City card: 63.5 × 88.9 mm, 0.3 mm thick, 1.75 g.
CARD_WIDTH = 63.5e-3
CARD_LENGTH = 88.9e-3
CARD_THICKNESS = 0.3e-3
CARD_MASS = 1.75e-3

Vec3 = tuple[float, float, float]


@cache
def shell_inertia(size: str) -> tuple[Vec3, Vec3]:
    """Centre of mass and principal moments (about it) of a hollow pyramid of `size`.

    Exact for four thin triangles of even thickness: for a triangle a, b, c of area A,
    ∫ r rᵀ dA = A/12 (a aᵀ + b bᵀ + c cᵀ + s sᵀ) with s = a + b + c.
    """
    spec = PYRAMIDS[size]
    a = spec.base / 2
    apex = (0.0, 0.0, spec.height)
    corners = [(-a, -a, 0.0), (a, -a, 0.0), (a, a, 0.0), (-a, a, 0.0)]
    area = 0.0
    first = [0.0, 0.0, 0.0]
    second = [[0.0] * 3 for _ in range(3)]
    for i in range(4):
        tri = (corners[i], corners[(i + 1) % 4], apex)
        ar = _triangle_area(*tri)
        s = [tri[0][k] + tri[1][k] + tri[2][k] for k in range(3)]
        area += ar
        for k in range(3):
            first[k] += ar * s[k] / 3
            for j in range(3):
                outer = sum(p[k] * p[j] for p in tri) + s[k] * s[j]
                second[k][j] += ar / 12 * outer
    com = [first[k] / area for k in range(3)]
    cov = [[second[k][j] / area - com[k] * com[j] for j in range(3)] for k in range(3)]
    trace = cov[0][0] + cov[1][1] + cov[2][2]
    # The pyramid is symmetric about its axis, so the off-diagonal terms vanish.
    moments = tuple(spec.mass * (trace - cov[k][k]) for k in range(3))
    return (com[0], com[1], com[2]), (moments[0], moments[1], moments[2])


def _triangle_area(p: Vec3, q: Vec3, r: Vec3) -> float:
    u = [q[k] - p[k] for k in range(3)]
    v = [r[k] - p[k] for k in range(3)]
    cx = u[1] * v[2] - u[2] * v[1]
    cy = u[2] * v[0] - u[0] * v[2]
    cz = u[0] * v[1] - u[1] * v[0]
    return float((cx * cx + cy * cy + cz * cz) ** 0.5 / 2)

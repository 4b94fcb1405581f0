"""Quarter-squares on a square grid with diagonals (GYØ claims, RULES.md §2.3).

Both diagonals cut a unit square into four quarters: top, right, bottom, left. Every triangle
drawn on such a grid is a union of quarters and a triangular unit (half a square) is two, so
claims are kept as bitmasks of quarters: quarter k of square (x, y) is bit 4·(y·w + x) + k,
where w is the number of unit squares across.
"""

from __future__ import annotations

from vertex.lattice.geometry import Geometry, Triangle, cross

QUARTERS = ("top", "right", "bottom", "left")

# A quarter's centroid in coordinates scaled by 6, relative to 6·(x, y): never on a line.
_CENTROIDS = ((3, 2), (4, 3), (3, 4), (2, 3))


def quarter_mask(geo: Geometry, tri: Triangle, across: int) -> int:
    """The quarters inside the triangle (cached per board and triangle)."""
    return geo.memo("quarters", tri.corners, lambda: _quarters(geo, tri, across))


def _quarters(geo: Geometry, tri: Triangle, across: int) -> int:
    pts = [geo.coords(c) for c in tri.corners]
    a, b, c = ((6 * x, 6 * y) for x, y in pts)
    sign = 1 if cross(a, b, c) > 0 else -1
    # each side as a half-plane u·x + v·y > w holding the inside (cross(p, q, r)·sign > 0)
    planes = [
        (
            -sign * (q[1] - p[1]),
            sign * (q[0] - p[0]),
            sign * ((q[0] - p[0]) * p[1] - (q[1] - p[1]) * p[0]),
        )
        for p, q in ((a, b), (b, c), (c, a))
    ]
    (u1, v1, w1), (u2, v2, w2), (u3, v3, w3) = planes
    x0, x1 = min(p[0] for p in pts), max(p[0] for p in pts)
    y0, y1 = min(p[1] for p in pts), max(p[1] for p in pts)
    mask = 0
    for y in range(y0, y1):
        for x in range(x0, x1):
            base = 4 * (y * across + x)
            for k, (dx, dy) in enumerate(_CENTROIDS):
                px, py = 6 * x + dx, 6 * y + dy
                if u1 * px + v1 * py > w1 and u2 * px + v2 * py > w2 and u3 * px + v3 * py > w3:
                    mask |= 1 << (base + k)
    return mask


def quarter_corners(index: int, across: int) -> list[tuple[float, float]]:
    """The three corners of quarter `index` (drawing coordinates, y down)."""
    square, k = divmod(index, 4)
    y, x = divmod(square, across)
    nw, ne, se, sw = (x, y), (x + 1, y), (x + 1, y + 1), (x, y + 1)
    centre = (x + 0.5, y + 0.5)
    pairs = ((nw, ne), (ne, se), (se, sw), (sw, nw))
    first, second = pairs[k]
    return [(float(first[0]), float(first[1])), (float(second[0]), float(second[1])), centre]

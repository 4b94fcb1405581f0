"""Layouts of a level: where the second and third pyramids go against the first, a small gap
apart (units: mm), and the geometry of pyramids touching.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

import numpy as np

from vertex.games.verticality.statics import inradius
from vertex.games.verticality.tower import MM
from vertex.physics import PYRAMIDS

#: Least gap kept to the pyramids a new one does not touch (mm).
CLEAR_MM = 0.4


@lru_cache(maxsize=32)
def layout_library(size: str, gap_mm: float, shapes: str) -> tuple[np.ndarray, np.ndarray]:
    """Layouts of a level in the first pyramid's frame (all three turned alike): where the
    second goes (against the first) and the third (against the first or the second, clear of
    the other). "tight": the third touches both."""
    s = PYRAMIDS[size].base / MM
    q2s, q3s = [], []
    seen = set()
    for deg2 in range(0, 360, 15):
        p2 = _square_contact(s, deg2, gap_mm)
        for base in (np.zeros(2), p2):
            other = p2 if base is not p2 else np.zeros(2)
            for deg3 in range(0, 360, 15):
                p3 = base + _square_contact(s, deg3, gap_mm)
                clear = _square_gap(s, p3 - other)
                if clear < CLEAR_MM:
                    continue
                if shapes == "tight" and clear > 1.0:
                    continue
                tri = np.stack([np.zeros(2), p2, p3])
                if float(inradius(tri[0], tri[1], tri[2])) < 1.0:
                    continue
                key = (round(float(p2[0]), 2), round(float(p2[1]), 2))
                key3 = (round(float(p3[0]), 2), round(float(p3[1]), 2))
                if (key, key3) in seen:
                    continue
                seen.add((key, key3))
                q2s.append(p2)
                q3s.append(p3)
    return np.array(q2s), np.array(q3s)


def _square_contact(s: float, deg: float, gap_mm: float) -> np.ndarray:
    """Centre of a square of side s turned like one at the origin, exactly `gap_mm` from it
    along `deg`."""
    t = math.radians(deg)
    u = np.array([math.cos(t), math.sin(t)])
    r = _ray_to_gap(lambda p: _square_gap(s, p), u, s, gap_mm)
    return np.asarray(u * r)


def _square_gap(s: float, d: np.ndarray) -> float:
    """Gap between two alike squares of side s whose centres are d apart (< 0: overlap)."""
    dx = abs(float(d[0])) - s
    dy = abs(float(d[1])) - s
    if dx <= 0 and dy <= 0:
        return max(dx, dy)
    return math.hypot(max(dx, 0.0), max(dy, 0.0))


def _ray_to_gap(gap_at: Callable[[np.ndarray], float], u: np.ndarray, s: float, g: float) -> float:
    """The distance r along the unit vector u at which gap_at(r u) = g (it grows with r)."""
    lo, hi = 0.0, 2.0 * s + 4.0 * g + 1.0
    for _ in range(40):
        mid = (lo + hi) / 2
        if gap_at(mid * u) < g:
            lo = mid
        else:
            hi = mid
    return hi


def contact_hull(size: str, deg: float, mate: str, mate_deg: float) -> np.ndarray:
    """Where a pyramid of `size` turned `deg` overlaps a mate (of kind `mate`, turned
    `mate_deg`, at the origin): the convex hull of the mate's corners minus its own."""
    pa = _square_points(PYRAMIDS[mate].base / MM / 2, mate_deg)
    pb = _square_points(PYRAMIDS[size].base / MM / 2, deg)
    return _hull((pa[:, None, :] - pb[None, :, :]).reshape(-1, 2))


def contact_distances(hull: np.ndarray, phis: np.ndarray, gap_mm: float) -> np.ndarray:
    """How far from the mate's centre (mm), along each direction, the pyramid stands exactly
    `gap_mm` from it."""
    u = np.stack([np.cos(np.radians(phis)), np.sin(np.radians(phis))], axis=-1)
    lo = np.zeros(len(phis))
    hi = np.full(len(phis), 2 * float(np.abs(hull).max()) + 4 * gap_mm + 1)
    for _ in range(36):
        mid = (lo + hi) / 2
        short = polygon_gaps(hull, mid[:, None] * u) < gap_mm
        lo = np.where(short, mid, lo)
        hi = np.where(short, hi, mid)
    return hi


def polygon_gaps(hull: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Distance from each point p (N, 2) to a counter-clockwise convex polygon (< 0 inside:
    minus the depth)."""
    q = hull[None, :, :]
    e = np.roll(hull, -1, axis=0)[None, :, :] - q
    length = np.hypot(e[..., 0], e[..., 1])
    d = p[:, None, :] - q
    side = (e[..., 1] * d[..., 0] - e[..., 0] * d[..., 1]) / length  # > 0 outside an edge
    t = np.clip((d * e).sum(axis=-1) / (length * length), 0.0, 1.0)
    near = d - t[..., None] * e
    outside = np.hypot(near[..., 0], near[..., 1]).min(axis=1)
    inside = side.max(axis=1)
    return np.asarray(np.where(inside <= 0, inside, outside))


def _square_points(half: float, deg: float) -> np.ndarray:
    t = math.radians(deg)
    c, s = math.cos(t), math.sin(t)
    pts = np.array([(-half, -half), (half, -half), (half, half), (-half, half)])
    return np.stack([c * pts[:, 0] - s * pts[:, 1], s * pts[:, 0] + c * pts[:, 1]], axis=-1)


def _hull(points: np.ndarray) -> np.ndarray:
    pts = sorted({(round(float(x), 9), round(float(y), 9)) for x, y in points})

    def half(seq: list[tuple[float, float]]) -> list[tuple[float, float]]:
        h: list[tuple[float, float]] = []
        for p in seq:
            while len(h) >= 2:
                (ax, ay), (bx, by) = h[-2], h[-1]
                if (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax) > 1e-12:
                    break
                h.pop()
            h.append(p)
        return h

    lower, upper = half(pts), half(pts[::-1])
    return np.array(lower[:-1] + upper[:-1])

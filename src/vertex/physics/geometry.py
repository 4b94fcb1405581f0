"""Poses and the little geometry the rules need: tilt, footprints, gaps between footprints.

A pose is (x, y, z, qw, qx, qy, qz): the position of the piece's frame in metres (a pyramid's
frame is the centre of its base, a card's its centre) and its orientation as a unit quaternion,
exactly as MuJoCo keeps a free body in qpos.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from vertex.physics.pieces import CARD_LENGTH, CARD_THICKNESS, CARD_WIDTH, PYRAMIDS

Pose = tuple[float, float, float, float, float, float, float]
Point = tuple[float, float]


def yaw_pose(x: float, y: float, z: float, rot_deg: float) -> Pose:
    """An upright pose turned `rot_deg` degrees about the vertical axis."""
    half = math.radians(rot_deg) / 2
    return (x, y, z, math.cos(half), 0.0, 0.0, math.sin(half))


def rotate(pose: Pose, v: tuple[float, float, float]) -> tuple[float, float, float]:
    """The vector `v` of the piece's frame, in world axes."""
    w, x, y, z = pose[3:]
    vx, vy, vz = v
    # v + 2w (q × v) + 2 q × (q × v), with q the vector part
    cx = y * vz - z * vy
    cy = z * vx - x * vz
    cz = x * vy - y * vx
    dx = y * cz - z * cy
    dy = z * cx - x * cz
    dz = x * cy - y * cx
    return (vx + 2 * (w * cx + dx), vy + 2 * (w * cy + dy), vz + 2 * (w * cz + dz))


def to_world(pose: Pose, v: tuple[float, float, float]) -> tuple[float, float, float]:
    r = rotate(pose, v)
    return (pose[0] + r[0], pose[1] + r[1], pose[2] + r[2])


def tilt_deg(pose: Pose) -> float:
    """Angle between the piece's up axis and the vertical, in degrees."""
    _, _, _, _, x, y, _ = pose
    up_z = 1.0 - 2.0 * (x * x + y * y)
    return math.degrees(math.acos(max(-1.0, min(1.0, up_z))))


def yaw_deg(pose: Pose) -> float:
    """Heading of the piece's x axis about the vertical, in degrees (-180, 180]."""
    ax, ay, _ = rotate(pose, (1.0, 0.0, 0.0))
    return math.degrees(math.atan2(ay, ax))


def pyramid_footprint(size: str, pose: Pose) -> list[Point]:
    """The base square's corners projected on the table plane, counter-clockwise."""
    a = PYRAMIDS[size].base / 2
    return [_xy(to_world(pose, (sx * a, sy * a, 0.0))) for sx, sy in _SQUARE]


def apex(size: str, pose: Pose) -> tuple[float, float, float]:
    return to_world(pose, (0.0, 0.0, PYRAMIDS[size].height))


def card_footprint(pose: Pose) -> list[Point]:
    w, ln = CARD_WIDTH / 2, CARD_LENGTH / 2
    return [_xy(to_world(pose, (sx * w, sy * ln, 0.0))) for sx, sy in _SQUARE]


def card_top_z(pose: Pose, x: float, y: float) -> float:
    """Height of the card's upper face above the point (x, y), as if the face were infinite."""
    nx, ny, nz = rotate(pose, (0.0, 0.0, 1.0))
    top = to_world(pose, (0.0, 0.0, CARD_THICKNESS / 2))
    if abs(nz) < 1e-9:
        return top[2]
    return top[2] - (nx * (x - top[0]) + ny * (y - top[1])) / nz


def inside(poly: Sequence[Point], p: Point) -> bool:
    """Whether p lies in the convex counter-clockwise polygon (edges included)."""
    n = len(poly)
    for i in range(n):
        ax, ay = poly[i]
        bx, by = poly[(i + 1) % n]
        if (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax) < -1e-12:
            return False
    return True


def overlap(a: Sequence[Point], b: Sequence[Point]) -> bool:
    """Whether two convex polygons share interior points (separating-axis test)."""
    for poly in (a, b):
        n = len(poly)
        for i in range(n):
            ex = poly[(i + 1) % n][0] - poly[i][0]
            ey = poly[(i + 1) % n][1] - poly[i][1]
            nx, ny = -ey, ex
            pa = [nx * p[0] + ny * p[1] for p in a]
            pb = [nx * p[0] + ny * p[1] for p in b]
            if max(pa) <= min(pb) + 1e-12 or max(pb) <= min(pa) + 1e-12:
                return False
    return True


def penetration(a: Sequence[Point], b: Sequence[Point]) -> float:
    """How deep two convex polygons overlap: the least push that separates them; 0 if apart."""
    depth = math.inf
    for poly in (a, b):
        n = len(poly)
        for i in range(n):
            ex = poly[(i + 1) % n][0] - poly[i][0]
            ey = poly[(i + 1) % n][1] - poly[i][1]
            norm = math.hypot(ex, ey)
            if norm == 0:
                continue
            nx, ny = -ey / norm, ex / norm
            pa = [nx * p[0] + ny * p[1] for p in a]
            pb = [nx * p[0] + ny * p[1] for p in b]
            depth = min(depth, min(max(pa), max(pb)) - max(min(pa), min(pb)))
            if depth <= 0:
                return 0.0
    return depth


def gap(a: Sequence[Point], b: Sequence[Point]) -> float:
    """Shortest distance between two convex polygons; 0 when they touch or overlap."""
    if overlap(a, b):
        return 0.0
    best = math.inf
    for p, q in ((a, b), (b, a)):
        for pt in p:
            for i in range(len(q)):
                best = min(best, _segment_distance(pt, q[i], q[(i + 1) % len(q)]))
    return best


def nearest_points(a: Sequence[Point], b: Sequence[Point]) -> tuple[Point, Point]:
    """The nearest point of `a` and of `b` (two convex polygons apart): moving `a` by their
    difference makes the two touch."""
    best: tuple[float, Point, Point] = (math.inf, a[0], b[0])
    for p, q, flip in ((a, b, False), (b, a, True)):
        for pt in p:
            for i in range(len(q)):
                on = _segment_point(pt, q[i], q[(i + 1) % len(q)])
                d = math.hypot(pt[0] - on[0], pt[1] - on[1])
                if d < best[0]:
                    best = (d, on, pt) if flip else (d, pt, on)
    return best[1], best[2]


def _segment_point(p: Point, a: Point, b: Point) -> Point:
    """The point of segment a–b nearest to p."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2
    t = max(0.0, min(1.0, t))
    return (a[0] + t * dx, a[1] + t * dy)


def _segment_distance(p: Point, a: Point, b: Point) -> float:
    q = _segment_point(p, a, b)
    return math.hypot(p[0] - q[0], p[1] - q[1])


def _xy(v: tuple[float, float, float]) -> Point:
    return (v[0], v[1])


_SQUARE = ((-1, -1), (1, -1), (1, 1), (-1, 1))

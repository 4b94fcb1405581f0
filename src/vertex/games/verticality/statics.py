"""The statics of a tower (units: mm and grams): a card on three tips stands while the centre
of mass of everything it carries, itself included, lies inside the tips' triangle.

`tests/physics/test_stability.py` shows the simulated world tips where this says it does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from vertex.games.verticality.tower import MM, Piece, Tower
from vertex.physics import PYRAMIDS
from vertex.physics.geometry import apex, to_world
from vertex.physics.pieces import CARD_MASS, shell_inertia

CARD_G = CARD_MASS * 1e3


@dataclass(frozen=True)
class Support:
    """A card on three tips: the tips' triangle and what the card carries (itself included)."""

    normals: np.ndarray  # (3, 2) inward unit normals of the triangle's edges
    offsets: np.ndarray  # (3,) margin(p) = min(normals · p - offsets)
    centre: np.ndarray  # (2,) incentre of the triangle
    mass: float  # g
    moment: np.ndarray  # (2,) g·mm: mass × centre of mass

    @classmethod
    def of(cls, tips: np.ndarray, mass: float, moment: np.ndarray) -> Support:
        normals, offsets, centre = _triangle(tuple(map(tuple, tips.tolist())))
        return cls(normals, offsets, centre, mass, moment)

    def margin(self, p: np.ndarray) -> np.ndarray:
        """Signed distance (mm) from p (..., 2) to the triangle's edges: > 0 inside."""
        px, py = p[..., 0], p[..., 1]
        (ax, ay), (bx, by), (cx, cy) = self.normals
        a, b, c = self.offsets
        edge = np.minimum(ax * px + ay * py - a, bx * px + by * py - b)
        return np.asarray(np.minimum(edge, cx * px + cy * py - c))


@dataclass(frozen=True)
class Stacked:
    """Supports stacked (K of them), for margins against every card at once: the same
    arithmetic as `Support.margin`, one card after another, without a loop in Python."""

    normals: np.ndarray  # (K, 3, 2)
    offsets: np.ndarray  # (K, 3)
    mass: np.ndarray  # (K,)
    moment: np.ndarray  # (K, 2)

    @classmethod
    def of(cls, sups: list[Support]) -> Stacked:
        return cls(
            np.stack([s.normals for s in sups]),
            np.stack([s.offsets for s in sups]),
            np.array([s.mass for s in sups], dtype=float),
            np.stack([s.moment for s in sups]).astype(float),
        )

    def margin(self, p: np.ndarray) -> np.ndarray:
        """p (K, ..., 2): point k against card k; (K, ...) signed distances (> 0 inside)."""
        lead = (len(self.mass),) + (1,) * (p.ndim - 2)
        px, py = p[..., 0], p[..., 1]
        n, o = self.normals, self.offsets
        edge = np.minimum(
            n[:, 0, 0].reshape(lead) * px + n[:, 0, 1].reshape(lead) * py - o[:, 0].reshape(lead),
            n[:, 1, 0].reshape(lead) * px + n[:, 1, 1].reshape(lead) * py - o[:, 1].reshape(lead),
        )
        third = n[:, 2, 0].reshape(lead) * px + n[:, 2, 1].reshape(lead) * py
        return np.asarray(np.minimum(edge, third - o[:, 2].reshape(lead)))


@lru_cache(maxsize=4096)
def _triangle(tips: tuple[tuple[float, ...], ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A tips' triangle's inward edge normals, offsets and incentre: worked out once a
    triangle, as a look ahead asks for the same cards below once a layout (a fifth of its
    time at 24 levels)."""
    pts = _ccw(np.array(tips))
    normals, offsets = [], []
    for i in range(3):
        a, b = pts[i], pts[(i + 1) % 3]
        d = b - a
        n = np.array([-d[1], d[0]]) / (float(np.hypot(d[0], d[1])) or 1.0)
        normals.append(n)
        offsets.append(float(n @ a))
    centre = incentre(pts[0], pts[1], pts[2])
    out = (np.array(normals), np.array(offsets), np.asarray(centre))
    for a in out:
        a.flags.writeable = False  # shared by every support on this triangle
    return out


def supports(tower: Tower, level: int) -> list[Support]:
    """The cards below `level` that rest on three tips, lowest first, with their loads.

    Each card carries itself and every piece of the levels above it: the loads are sums
    over the levels from the top down, each piece's mass and centre worked out once (a
    30-level tower has 120 pieces; the planner asks for these several times a move)."""
    top = max((p.level for p in tower.pieces), default=0)
    mass = [0.0] * (top + 2)  # mass[l]: the pieces of level l (g)
    moment = [np.zeros(2) for _ in range(top + 2)]
    cards: dict[int, Piece] = {}
    pyramids: dict[int, list[Piece]] = {}
    for p in tower.pieces:
        m = _mass(p)
        mass[p.level] += m
        moment[p.level] = moment[p.level] + m * _com(p)
        if p.kind == "card":
            cards.setdefault(p.level, p)
        else:
            pyramids.setdefault(p.level, []).append(p)
    out = []
    above_mass, above_moment = 0.0, np.zeros(2)
    loads: dict[int, tuple[float, np.ndarray]] = {}
    for j in range(top, 0, -1):
        card = cards.get(j)
        if card is not None:
            m = _mass(card)
            loads[j] = (above_mass + m, above_moment + m * _com(card))
        above_mass += mass[j]
        above_moment = above_moment + moment[j]
    for j in range(1, level):
        card = cards.get(j)
        mates = pyramids.get(j, [])
        if card is None or len(mates) != 3:
            continue
        load_mass, load_moment = loads[j]
        out.append(Support.of(np.array([tip_xy(p) for p in mates]), load_mass, load_moment))
    return out


def margins(tower: Tower) -> dict[int, float]:
    """For each card resting on three tips: how far (mm) the centre of mass of the card and
    everything on it is inside the tips' triangle (< 0: outside, the card tips over)."""
    top = max((p.level for p in tower.pieces), default=0)
    levels = [j for j in range(1, top + 1) if tower.card_of(j) and len(tower.pyramids_of(j)) == 3]
    sups = supports(tower, top + 1)
    return {j: float(s.margin(s.moment / s.mass)) for j, s in zip(levels, sups, strict=True)}


def _mass(p: Piece) -> float:
    return CARD_G if p.kind == "card" else PYRAMIDS[p.kind].mass * 1e3


def _com(p: Piece) -> np.ndarray:
    return np.array(_com_xy(p.kind, p.pose))


@lru_cache(maxsize=4096)
def _com_xy(kind: str, pose: tuple[float, ...]) -> tuple[float, float]:
    if kind == "card":
        return (pose[0] / MM, pose[1] / MM)
    com, _ = shell_inertia(kind)
    w = to_world(pose, com)  # type: ignore[arg-type]
    return (w[0] / MM, w[1] / MM)


def tip_xy(p: Piece) -> np.ndarray:
    return np.array(_tip_xy(p.kind, p.pose))


@lru_cache(maxsize=8192)
def _tip_xy(kind: str, pose: tuple[float, ...]) -> tuple[float, float]:
    a = apex(kind, pose)  # type: ignore[arg-type]
    return (a[0] / MM, a[1] / MM)


def base_xy(p: Piece) -> np.ndarray:
    return np.array([p.pose[0] / MM, p.pose[1] / MM])


def _ccw(pts: np.ndarray) -> np.ndarray:
    c = pts.mean(axis=0)
    order = np.argsort(np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0]), kind="stable")
    return np.asarray(pts[order])


def inradius(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    ab, bc, ca = b - a, c - b, a - c
    area = np.abs(ab[..., 0] * (-ca[..., 1]) - ab[..., 1] * (-ca[..., 0])) / 2
    per = np.hypot(*np.moveaxis(ab, -1, 0)) + np.hypot(*np.moveaxis(bc, -1, 0))
    per = per + np.hypot(*np.moveaxis(ca, -1, 0))
    return np.asarray(2 * area / np.maximum(per, 1e-9))


def incentre(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    la = np.hypot(*np.moveaxis(b - c, -1, 0))[..., None]
    lb = np.hypot(*np.moveaxis(c - a, -1, 0))[..., None]
    lc = np.hypot(*np.moveaxis(a - b, -1, 0))[..., None]
    return np.asarray((la * a + lb * b + lc * c) / np.maximum(la + lb + lc, 1e-9))


def rotate(v: np.ndarray, deg: float) -> np.ndarray:
    t = math.radians(deg)
    c, s = math.cos(t), math.sin(t)
    return np.stack([c * v[:, 0] - s * v[:, 1], s * v[:, 0] + c * v[:, 1]], axis=-1)

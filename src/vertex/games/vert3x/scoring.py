"""Vert3x scoring per rule set (RULES.md §2.1–2.3).

Points are kept as integers in a rule set's own unit: GYØ counts quarter-squares (two make a
triangular unit, i.e. a point), so claims that cut a unit in half stay exact.
"""

from __future__ import annotations

from dataclasses import dataclass

from vertex.lattice.geometry import Geometry, Triangle
from vertex.lattice.quarters import quarter_mask


@dataclass(frozen=True)
class Scoring:
    rules: str
    multiplier: bool
    across: int  # unit squares across (GYØ claims); 0 elsewhere

    @property
    def line_points(self) -> int:
        """Classic: 1 point per line drawn; the other rule sets give nothing for lines."""
        return 1 if self.rules == "classic" else 0

    @property
    def scale(self) -> int:
        """Kept units per point."""
        return 2 if self.rules == "gyo" else 1

    def triangle(
        self, geo: Geometry, tri: Triangle, seat: int, claims: tuple[int, ...]
    ) -> tuple[int, int]:
        """(points in kept units, quarters the seat claims) for a triangle `seat` completed.

        `claims` are every seat's quarters before the move, so several triangles completed by
        one move score the same in any order.
        """
        if self.rules == "classic":
            k = tri.sides[0]  # equilateral: every side has k lines
            return (3 * k * k if self.multiplier else 3 * k), 0
        if self.rules == "trianguliche":
            # n small triangles score ⌊log2 n⌋ + 1 (a 9× one scores like the 8×)
            return tri.small.bit_length(), 0
        others = 0
        for s, mask in enumerate(claims):
            if s != seat:
                others |= mask
        counted = quarter_mask(geo, tri, self.across) & ~others
        return counted.bit_count(), counted


def shown(points: int, scale: int) -> int | float:
    """Kept units as points: a whole number when it is one."""
    whole, part = divmod(points, scale)
    return whole if part == 0 else points / scale

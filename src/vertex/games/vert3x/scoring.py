"""Vert3x scoring (RULES.md §2.1–2.3), by the options in force, whatever the rule set.

Points are kept as integers in the scoring's own unit: with units scoring on a square grid
they count quarter-squares (two make a triangular unit, i.e. a point), so claims that cut a
unit in half stay exact.
"""

from __future__ import annotations

from dataclasses import dataclass

from vertex.games.vert3x.options import ScoringRule
from vertex.lattice.geometry import Triangle
from vertex.lattice.units import Units


@dataclass(frozen=True)
class Scoring:
    rule: ScoringRule
    multiplier: bool  # outline: times the shortest side
    line_points: bool  # 1 point per line drawn
    claims: bool  # units: scored units become the scorer's
    units: Units | None  # the board's units (units scoring only)

    @property
    def scale(self) -> int:
        """Kept units per point."""
        return self.units.per_unit if self.units is not None else 1

    @property
    def per_line(self) -> int:
        """Kept units a line drawn earns."""
        return self.scale if self.line_points else 0

    def triangle(self, tri: Triangle, seat: int, claims: tuple[int, ...]) -> tuple[int, int]:
        """(points in kept units, units the seat claims) for a triangle `seat` completed.

        `claims` are every seat's units before the move, so several triangles completed by
        one move score the same in any order.
        """
        if self.rule == "outline":
            # its sides in lines: 3k for an equilateral triangle of side k
            outline = sum(tri.sides)
            return outline * min(tri.sides) if self.multiplier else outline, 0
        if self.rule == "powers":
            # n small triangles score ⌊log2 n⌋ + 1 (a 9× one scores like the 8×)
            return tri.small.bit_length(), 0
        assert self.units is not None
        inside = self.units.mask(tri)
        if not self.claims:
            return inside.bit_count(), 0
        others = 0
        for s, mask in enumerate(claims):
            if s != seat:
                others |= mask
        counted = inside & ~others
        return counted.bit_count(), counted


def shown(points: int, scale: int) -> int | float:
    """Kept units as points: a whole number when it is one."""
    whole, part = divmod(points, scale)
    return whole if part == 0 else points / scale

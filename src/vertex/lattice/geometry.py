"""Straight-line geometry on a board of unit steps: crossings, triangles, insides, outlines.

Every dot has integer lattice coordinates (the `(column, row)` of its name): axial `(q, r)` on
the triangular lattice, `(x, y)` on square grids. Crossing, "strictly inside" and ratios of
areas survive any affine map, so all of it is done on those integers, never on floats.

Triangles are found from the line just drawn: walk the mover's lines straight back and ahead
of it to get the possible corners on that side, then each possible third corner is reached by
two straight walks. Nothing ever scans every triangle of the board.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import atan2, tau

from vertex.lattice.board import Dot, LineBoard

Vec = tuple[int, int]

#: Masks remembered per board (inside lines, quarters of scored triangles) before starting over.
MEMO_LIMIT = 4096

#: The three line directions of the triangular lattice (axial), and the four of a square grid
#: with diagonals; `unit_steps` adds the opposite of each.
TRIANGULAR_DIRECTIONS: tuple[Vec, ...] = ((1, 0), (0, 1), (1, 1))
SQUARE_DIAGONAL_DIRECTIONS: tuple[Vec, ...] = ((1, 0), (0, 1), (1, 1), (1, -1))


def unit_steps(directions: Sequence[Vec]) -> tuple[Vec, ...]:
    return tuple(directions) + tuple((-dx, -dy) for dx, dy in directions)


def cross(o: Vec, a: Vec, b: Vec) -> int:
    """Twice the signed area of triangle o, a, b."""
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


@dataclass(frozen=True)
class Corner:
    """One way to close a triangle on a side of direction d and length k.

    The third corner is `s·k/den` steps from the side's first corner along `d1` and `t·k/den`
    steps from its last corner along `d2`.
    """

    d1: int
    d2: int
    s: int
    t: int
    den: int


@dataclass(frozen=True)
class Triangle:
    """A triangle found on the board: corner dots (sorted) and side lengths in lines."""

    corners: tuple[int, int, int]
    sides: tuple[int, int, int]
    small: int  # how many smallest cells it covers (|cross| in lattice units)


@dataclass(frozen=True)
class Geometry:
    """A LineBoard plus its step directions, with the tables the rules need."""

    board: LineBoard
    directions: tuple[Vec, ...]  # unit steps, both signs
    outline: tuple[int, ...]  # dots of the board's outline, clockwise from the top-left
    # derived
    nbr: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    step: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    line_dir: tuple[int, ...] = field(init=False, repr=False, compare=False)
    crossing: tuple[int, ...] = field(init=False, repr=False, compare=False)
    line_dots: tuple[int, ...] = field(init=False, repr=False, compare=False)
    corner_rules: tuple[tuple[Corner, ...], ...] = field(init=False, repr=False, compare=False)
    probes: tuple[tuple[Vec, Vec, Vec], ...] = field(init=False, repr=False, compare=False)
    _memo: dict[tuple[str, tuple[int, int, int]], int] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        s = object.__setattr__
        board = self.board
        dirs = self.directions
        index = board.dot_index
        nbr: list[tuple[int, ...]] = []
        step: list[tuple[int, ...]] = []
        for x, y in board.dots:
            here = index[(x, y)]
            row_n, row_s = [], []
            for dx, dy in dirs:
                there = index.get((x + dx, y + dy), -1)
                found = board.line_between(here, there) if there >= 0 else None
                line = -1 if found is None else found
                row_n.append(there if line >= 0 else -1)
                row_s.append(line)
            nbr.append(tuple(row_n))
            step.append(tuple(row_s))
        s(self, "nbr", tuple(nbr))
        s(self, "step", tuple(step))
        line_dir = []
        for a, b in board.lines:
            (xa, ya), (xb, yb) = board.dots[a], board.dots[b]
            line_dir.append(dirs.index((xb - xa, yb - ya)))
        s(self, "line_dir", tuple(line_dir))
        s(self, "crossing", tuple(_crossings(board)))
        s(self, "line_dots", tuple((1 << a) | (1 << b) for a, b in board.lines))
        s(self, "corner_rules", tuple(_corner_rules(dirs, d) for d in range(len(dirs))))
        probes = []
        for a, b in board.lines:
            (xa, ya), (xb, yb) = board.dots[a], board.dots[b]
            p1, p2, p3 = ((xa * (4 - f) + xb * f, ya * (4 - f) + yb * f) for f in (1, 2, 3))
            probes.append((p1, p2, p3))
        s(self, "probes", tuple(probes))
        s(self, "_memo", {})

    # ---- lines --------------------------------------------------------------------------
    def coords(self, dot: int) -> Dot:
        return self.board.dots[dot]

    def opposite(self, d: int) -> int:
        half = len(self.directions) // 2
        return d + half if d < half else d - half

    # ---- triangles ----------------------------------------------------------------------
    def completed_triangles(self, line: int, mine: int) -> list[Triangle]:
        """Triangles with every side in `mine` (a line bitmask holding `line`) that use `line`.

        A triangle uses the new line on exactly one side; that side runs from a corner behind
        the line to a corner ahead of it, both on the mover's straight chain through the line.
        """
        step, nbr = self.step, self.nbr
        a, b = self.board.lines[line]
        d = self.line_dir[line]
        back = self.opposite(d)
        behind = _chain(a, back, step, nbr, mine)
        ahead = _chain(b, d, step, nbr, mine)
        runs: dict[tuple[int, int], list[int]] = {}

        def run(p: int, direction: int) -> list[int]:
            # the dots reached from p along the mover's straight chain in `direction`
            key = (p, direction)
            got = runs.get(key)
            if got is None:
                got = runs[key] = _chain(p, direction, step, nbr, mine)
            return got

        found: dict[tuple[int, int, int], Triangle] = {}
        for i, first in enumerate(behind):
            for j, last in enumerate(ahead):
                k = i + j + 1
                for rule in self.corner_rules[d]:
                    if k * rule.s % rule.den or k * rule.t % rule.den:
                        continue
                    s, t = k * rule.s // rule.den, k * rule.t // rule.den
                    from_first = run(first, rule.d1)
                    if len(from_first) <= s:
                        continue
                    from_last = run(last, rule.d2)
                    if len(from_last) <= t:
                        continue
                    third = from_first[s]
                    if from_last[t] != third:  # both walks must meet (they do on a lattice)
                        continue
                    corners = tuple(sorted((first, last, third)))
                    assert len(corners) == 3
                    key3 = (corners[0], corners[1], corners[2])
                    if key3 not in found:
                        small = abs(
                            cross(self.coords(first), self.coords(last), self.coords(third))
                        )
                        found[key3] = Triangle(key3, (k, s, t), small)
        return list(found.values())

    # ---- insides ------------------------------------------------------------------------
    def lines_inside(self, tri: Triangle) -> int:
        """Bitmask of the lines with some part strictly inside the triangle.

        Two lines meet away from dots only at a unit square's centre (the middle of both), so
        a line is partly inside iff its point at 1/4, 1/2 or 3/4 of the way (`probes`) is
        strictly inside.
        """
        key = ("lines", tri.corners)
        got = self._memo.get(key)
        if got is not None:
            return got
        pts = [self.coords(c) for c in tri.corners]
        (a1, b1, c1), (a2, b2, c2), (a3, b3, c3) = _half_planes(pts)
        x0, x1 = min(p[0] for p in pts), max(p[0] for p in pts)
        y0, y1 = min(p[1] for p in pts), max(p[1] for p in pts)
        index = self.board.dot_index
        forward = len(self.directions) // 2
        probes = self.probes
        mask = 0
        for y in range(y0, y1 + 1):
            for x in range(x0, x1 + 1):
                p = index.get((x, y))
                if p is None:
                    continue
                for line in self.step[p][:forward]:
                    if line < 0:
                        continue
                    for px, py in probes[line]:
                        if (
                            a1 * px + b1 * py > c1
                            and a2 * px + b2 * py > c2
                            and a3 * px + b3 * py > c3
                        ):
                            mask |= 1 << line
                            break
        self._remember(key, mask)
        return mask

    def memo(self, kind: str, corners: tuple[int, int, int], make: Callable[[], int]) -> int:
        """A per-board cache for masks derived from a triangle (its quarters, say)."""
        key = (kind, corners)
        got = self._memo.get(key)
        if got is None:
            got = make()
            self._remember(key, got)
        return got

    def _remember(self, key: tuple[str, tuple[int, int, int]], mask: int) -> None:
        # a board lives as long as the server; keep the cache bounded (a big GYØ board has
        # far more triangles than any game scores)
        if len(self._memo) >= MEMO_LIMIT:
            self._memo.clear()
        self._memo[key] = mask


def strictly_inside(pts: Sequence[Vec], x: int, y: int) -> bool:
    """Whether lattice point (x, y) lies strictly inside the triangle `pts`."""
    return _strict_inside_test(pts, scale=1)(x, y)


def strictly_inside_scaled(pts: Sequence[Vec], scale: int, x: int, y: int) -> bool:
    """Whether the point (x/scale, y/scale) lies strictly inside the triangle `pts` (exact:
    a cell's centroid is the sum of its corners over their count)."""
    return _strict_inside_test(pts, scale)(x, y)


def _half_planes(pts: Sequence[Vec]) -> list[tuple[int, int, int]]:
    """(a, b, c) per side with a·x + b·y > c exactly on the inner side, in coordinates ×4."""
    (ax, ay), (bx, by), (cx, cy) = ((4 * x, 4 * y) for x, y in pts)
    sign = 1 if cross((ax, ay), (bx, by), (cx, cy)) > 0 else -1
    out = []
    for (px, py), (qx, qy) in (((ax, ay), (bx, by)), ((bx, by), (cx, cy)), ((cx, cy), (ax, ay))):
        # cross(p, q, (x, y)) = (qx − px)(y − py) − (qy − py)(x − px) > 0, times sign
        a = -sign * (qy - py)
        b = sign * (qx - px)
        out.append((a, b, -sign * ((qy - py) * px - (qx - px) * py)))
    return out


def _strict_inside_test(pts: Sequence[Vec], scale: int) -> Callable[[int, int], bool]:
    """A test for points given in coordinates multiplied by `scale`."""
    (ax, ay), (bx, by), (cx, cy) = ((x * scale, y * scale) for x, y in pts)
    sign = 1 if cross((ax, ay), (bx, by), (cx, cy)) > 0 else -1

    def test(x: int, y: int) -> bool:
        return (
            sign * ((bx - ax) * (y - ay) - (by - ay) * (x - ax)) > 0
            and sign * ((cx - bx) * (y - by) - (cy - by) * (x - bx)) > 0
            and sign * ((ax - cx) * (y - cy) - (ay - cy) * (x - cx)) > 0
        )

    return test


def _chain(
    start: int,
    d: int,
    step: tuple[tuple[int, ...], ...],
    nbr: tuple[tuple[int, ...], ...],
    mine: int,
) -> list[int]:
    """`start` and the dots after it along direction d while the lines are in `mine`."""
    out = [start]
    p = start
    while True:
        line = step[p][d]
        if line < 0 or not mine >> line & 1:
            return out
        p = nbr[p][d]
        out.append(p)


def _corner_rules(dirs: tuple[Vec, ...], d: int) -> tuple[Corner, ...]:
    """Every way to put a third corner on a side of unit direction dirs[d] (length 1).

    Solve s·d1 − t·d2 = d for s, t > 0: the corner is s steps from the first corner along d1
    and t steps from the last corner along d2. Scaled by the side length k, s and t scale too.
    """
    vx, vy = dirs[d]
    out = []
    for i1, (ax, ay) in enumerate(dirs):
        if ax * vy - ay * vx == 0:
            continue
        for i2, (bx, by) in enumerate(dirs):
            if bx * vy - by * vx == 0 or ax * by - ay * bx == 0:
                continue
            det = ax * (-by) - (-bx) * ay
            s = Fraction(vx * (-by) - (-bx) * vy, det)
            t = Fraction(ax * vy - ay * vx, det)
            if s <= 0 or t <= 0:
                continue
            den = s.denominator * t.denominator
            out.append(Corner(i1, i2, int(s * den), int(t * den), den))
    return tuple(out)


def _crossings(board: LineBoard) -> list[int]:
    """For each line, a bitmask of the lines that cross it away from dots.

    On these lattices two unit steps meet away from a dot only where both have their middle
    (the two diagonals of a unit square), so lines are grouped by midpoint.
    """
    by_mid: dict[tuple[int, int], list[int]] = {}
    for i, (a, b) in enumerate(board.lines):
        (xa, ya), (xb, yb) = board.dots[a], board.dots[b]
        by_mid.setdefault((xa + xb, ya + yb), []).append(i)
    out = [0] * len(board.lines)
    for group in by_mid.values():
        for i in group:
            for j in group:
                if i != j:
                    out[i] |= 1 << j
    return out


def outline_by_angle(board: LineBoard, dots: Sequence[int]) -> tuple[int, ...]:
    """Outline dots ordered clockwise on screen (y down) from the top-left one.

    Sorting by angle around the centre of the drawing walks the outline of any board that
    is star-shaped from its centre (every shape offered, and most custom ones).
    """
    pos = board.positions
    cx = sum(x for x, _ in pos) / len(pos)
    cy = sum(y for _, y in pos) / len(pos)
    first = min(dots, key=lambda i: (round(pos[i][1], 6), round(pos[i][0], 6)))
    a0 = atan2(pos[first][1] - cy, pos[first][0] - cx)

    def angle(i: int) -> tuple[float, float]:
        a = atan2(pos[i][1] - cy, pos[i][0] - cx) - a0
        while a < -1e-9:
            a += tau
        return (round(a, 9), -((pos[i][0] - cx) ** 2 + (pos[i][1] - cy) ** 2))

    return tuple(sorted(set(dots), key=angle))


def rim_dots(board: LineBoard) -> list[int]:
    """Dots on the board's rim lines (lines with a cell on one side only)."""
    out: set[int] = set()
    for i, (a, b) in enumerate(board.lines):
        if board.rim >> i & 1:
            out.update((a, b))
    return sorted(out)


def spread(outline: Sequence[int], n: int) -> tuple[int, ...]:
    """n dots spread evenly around the outline, the first at its start."""
    m = len(outline)
    return tuple(outline[(i * m) // n] for i in range(n))

"""Board symmetries as permutations of lines, and a canonical key per set of drawn lines.

The symmetries are found from the dots' drawing positions: every rotation by a multiple of
30° about the centre, with and without a mirror, that maps dots onto dots, lines onto lines
and the pre-drawn lines onto themselves. Squares get up to 8, the big triangle 6.
"""

from __future__ import annotations

import math

from vertex.lattice.board import LineBoard


def line_symmetries(board: LineBoard, predrawn: int = 0) -> list[tuple[int, ...]]:
    """Every non-identity symmetry, as `perm[line] = image line`."""
    pos = board.positions
    cx = sum(x for x, _ in pos) / len(pos)
    cy = sum(y for _, y in pos) / len(pos)
    where = {(round(x - cx, 6), round(y - cy, 6)): i for i, (x, y) in enumerate(pos)}
    found: list[tuple[int, ...]] = []
    for mirror in (False, True):
        for k in range(12):
            if k == 0 and not mirror:
                continue
            a = math.radians(30 * k)
            ca, sa = math.cos(a), math.sin(a)
            image: list[int] = []
            for x, y in pos:
                dx, dy = x - cx, y - cy
                if mirror:
                    dx = -dx
                key = (round(ca * dx - sa * dy, 6), round(sa * dx + ca * dy, 6))
                key = (key[0] + 0.0, key[1] + 0.0)  # -0.0 and 0.0 alike
                if key not in where:
                    break
                image.append(where[key])
            else:
                perm = _line_perm(board, image)
                if perm is not None and _mask_image(perm, predrawn) == predrawn:
                    found.append(perm)
    return found


def _line_perm(board: LineBoard, dot_image: list[int]) -> tuple[int, ...] | None:
    out = []
    for a, b in board.lines:
        image = board.line_between(dot_image[a], dot_image[b])
        if image is None:
            return None
        out.append(image)
    return tuple(out)


def _mask_image(perm: tuple[int, ...], mask: int) -> int:
    out = 0
    for i, j in enumerate(perm):
        if mask >> i & 1:
            out |= 1 << j
    return out


class Canonizer:
    """`key(drawn)`: the smallest image of `drawn` under the symmetries, by lookup tables on
    12-bit chunks (a few table reads per symmetry instead of a loop over every line)."""

    BITS = 12

    def __init__(self, perms: list[tuple[int, ...]], lines: int) -> None:
        bits = self.BITS
        self.chunks = (lines + bits - 1) // bits
        # tables[s][j][chunk] = image of `chunk` placed at chunk j under symmetry s
        self.tables: list[list[list[int]]] = []
        for perm in perms:
            per_chunk = []
            for j in range(self.chunks):
                singles = [
                    1 << perm[bits * j + b] if bits * j + b < lines else 0 for b in range(bits)
                ]
                table = [0] * (1 << bits)
                for value in range(1, 1 << bits):
                    low = value & -value
                    table[value] = table[value ^ low] | singles[low.bit_length() - 1]
                per_chunk.append(table)
            self.tables.append(per_chunk)
        self.shifts = [bits * j for j in range(self.chunks)]
        self.mask = (1 << bits) - 1

    def key(self, drawn: int) -> int:
        best = drawn
        mask = self.mask
        parts = [(j, (drawn >> shift) & mask) for j, shift in enumerate(self.shifts)]
        for tables in self.tables:
            image = 0
            for j, chunk in parts:
                image |= tables[j][chunk]
            if image < best:
                best = image
        return best

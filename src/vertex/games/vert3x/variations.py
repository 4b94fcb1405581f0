"""The seed's other variations (RULES.md §2.0): the board tables they need, built once a game.

- `shape_bonus`: the shapes whose outline scores (rhombi and hexagons on the triangular
  lattice; unit and 2×2 squares on square grids), each an outline mask and its length;
- `overrules`, `steal`, `cover_bonus`, `box_in`: the lines along a triangle's sides and
  whether one triangle lies within another, on the dots' integer coordinates (exact).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from vertex.core.errors import IllegalMove
from vertex.core.outcome import seat_label
from vertex.lattice.geometry import Geometry, Triangle, cross

if TYPE_CHECKING:
    from vertex.games.vert3x.engine import Vert3xState


@dataclass(frozen=True)
class Shape:
    """A shape that scores its outline when it is all one player's (`shape_bonus`)."""

    kind: str  # "rhombus", "hexagon", "square", "square-2"
    outline: int  # its outline lines, as a mask
    length: int  # lines in the outline: its points


class Variations:
    """Per-board tables for the variations, computed on first use."""

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = geometry

    # ---- shapes -----------------------------------------------------------------------------
    @cached_property
    def shapes(self) -> tuple[Shape, ...]:
        geo = self.geometry
        if len(geo.directions) == 6:
            return _triangular_shapes(geo)
        return _square_shapes(geo)

    @cached_property
    def shapes_at(self) -> tuple[tuple[int, ...], ...]:
        """Per line, the shapes whose outline it is on."""
        out: list[list[int]] = [[] for _ in self.geometry.board.lines]
        for i, shape in enumerate(self.shapes):
            for line in _mask_bits(shape.outline):
                out[line].append(i)
        return tuple(tuple(x) for x in out)

    # ---- triangles --------------------------------------------------------------------------
    def side_lines(self, tri: Triangle) -> int:
        """The lines along the triangle's three sides, as a mask."""
        a, b, c = tri.corners
        return self._segment(a, b) | self._segment(b, c) | self._segment(a, c)

    def _segment(self, p: int, q: int) -> int:
        geo = self.geometry
        (xp, yp), (xq, yq) = geo.coords(p), geo.coords(q)
        dx, dy = xq - xp, yq - yp
        for d, (ux, uy) in enumerate(geo.directions):
            # q = p + k·u for a whole k > 0
            k = dx // ux if ux else dy // uy if uy else 0
            if k > 0 and (k * ux, k * uy) == (dx, dy):
                mask, at = 0, p
                for _ in range(k):
                    mask |= 1 << geo.step[at][d]
                    at = geo.nbr[at][d]
                return mask
        raise AssertionError("a triangle's side runs along one line direction")

    def within(self, outer: Triangle, inner: Triangle) -> bool:
        """Whether `inner` lies in `outer` (corners inside or on its sides) and is not it."""
        if inner.corners == outer.corners:
            return False
        geo = self.geometry
        a, b, c = (geo.coords(p) for p in outer.corners)
        sign = 1 if cross(a, b, c) > 0 else -1
        for p in inner.corners:
            pt = geo.coords(p)
            if (
                sign * cross(a, b, pt) < 0
                or sign * cross(b, c, pt) < 0
                or sign * cross(c, a, pt) < 0
            ):
                return False
        return True


def _triangular_shapes(geo: Geometry) -> tuple[Shape, ...]:
    board = geo.board
    out = []
    # a rhombus: two small triangles sharing a side; its outline is their four other sides
    for line, cells in enumerate(board.line_cells):
        if len(cells) == 2:
            mask = (board.cell_masks[cells[0]] | board.cell_masks[cells[1]]) & ~(1 << line)
            out.append(Shape("rhombus", mask, 4))
    # a regular hexagon: the six small triangles around a dot; its outline is their far sides
    around: list[list[int]] = [[] for _ in board.dots]
    for c, corners in enumerate(board.cell_dots):
        for d in corners:
            around[d].append(c)
    for dot, ring in enumerate(around):
        if len(ring) == 6:
            mask = 0
            for c in ring:
                mask |= board.cell_masks[c]
            out.append(Shape("hexagon", mask & ~board.dot_lines[dot], 6))
    return tuple(out)


def _square_shapes(geo: Geometry) -> tuple[Shape, ...]:
    board = geo.board
    index = board.dot_index
    out = []

    def unit(a: tuple[int, int], b: tuple[int, int]) -> int | None:
        ia, ib = index.get(a), index.get(b)
        if ia is None or ib is None:
            return None
        return board.line_between(ia, ib)

    for size, kind in ((1, "square"), (2, "square-2")):
        for x, y in board.dots:
            # the square's outline, a unit step at a time, clockwise from (x, y)
            ring = (
                [(x + i, y) for i in range(size)]
                + [(x + size, y + i) for i in range(size)]
                + [(x + size - i, y + size) for i in range(size)]
                + [(x, y + size - i) for i in range(size)]
            )
            mask = 0
            for k, here in enumerate(ring):
                line = unit(here, ring[(k + 1) % len(ring)])
                if line is None:
                    break
                mask |= 1 << line
            else:
                out.append(Shape(kind, mask, 4 * size))
    return tuple(out)


def why_not_overrule(state: Vert3xState, line: int, seat: int) -> IllegalMove:
    """The rule an overrule of `line` by `seat` breaks: in words, and its code and names."""
    game = state.game
    opts = game.options
    board = game.geometry.board
    name = board.line_names[line]
    if not opts.overrules:
        return IllegalMove(
            "overrules are off at this table (option 'overrules')", "overrules-off", {}
        )
    if state.spent[seat] >= opts.overrules:
        msg = f"{seat_label(seat)} has used all {opts.overrules} overrules"
        return IllegalMove(msg, "overrules-spent", {"limit": opts.overrules})
    owner = state.line_owner(line)
    if owner is None:
        msg = f"line {name} is not drawn yet: draw it instead of overruling it"
        return IllegalMove(msg, "overrule-undrawn", {"line": name})
    if owner == seat:
        return IllegalMove(f"line {name} is already yours", "overrule-own", {"line": name})
    if state.locked >> line & 1:
        msg = f"line {name} is a side of a scored triangle and cannot be overruled"
        return IllegalMove(msg, "overrule-locked", {"line": name})
    if state.inside >> line & 1:
        msg = f"line {name} lies inside a scored triangle: no line may be drawn there"
        return IllegalMove(msg, "inside-scored", {"line": name})
    if opts.connected and not (state.near[seat] | game.start_lines[seat]) >> line & 1:
        msg = f"line {name} shares no dot with your lines (connected)"
        return IllegalMove(msg, "not-connected", {"line": name})
    if opts.no_cross:
        msg = (
            f"line {name} crosses another player's line (no_cross), or touches a dot held "
            "by another player (vertex_block)"
            if opts.vertex_block
            else f"line {name} crosses another player's line (no_cross)"
        )
    else:
        msg = f"line {name} touches a dot held by another player (vertex_block)"
    return IllegalMove(msg, "overrule-blocked", {"line": name})


def variation_view(state: Vert3xState) -> dict[str, Any]:
    """What the board view shows of the variations in force: overrules left per seat, and
    the shapes whose outline scored (`shape_bonus`)."""
    game = state.game
    opts = game.options
    out: dict[str, Any] = {}
    if opts.overrules:
        out["overrules"] = [opts.overrules - n for n in state.spent]
    if opts.shape_bonus:
        board = game.geometry.board
        shapes = game.variations.shapes
        out["shapes"] = [
            {
                "owner": seat,
                "kind": shapes[i].kind,
                "points": shapes[i].length,
                "lines": [board.line_names[ln] for ln in _mask_bits(shapes[i].outline)],
            }
            for seat, i in state.shapes
        ]
    return out


def _mask_bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out

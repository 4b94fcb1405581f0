"""A board of dots, lines and cells, with bitmasks for fast play.

Lines are numbered 0..L-1 in canonical-name order; a set of lines is a Python int used as a
bitmask, so "is this cell complete" is one AND and one compare.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from vertex.core.errors import IllegalMove
from vertex.lattice.names import column_name, dot_name, line_name, parse_line

Dot = tuple[int, int]  # (column, row), 0-based

#: Boards (and their geometries) kept per builder. Builders are keyed by a table's options,
#: which come from clients: a bounded cache keeps memory flat however many distinct boards
#: (custom ones above all) are asked for, and still serves the popular ones from memory. A
#: game keeps its own board, so dropping one from here never touches a game in play.
BOARDS_KEPT = 64


def whole(x: float) -> float:
    """A coordinate that is a whole number as an int (`2.0` -> `2`, `-0.0` -> `0`): the same
    JSON number, written shorter (every move's full state carries the board's positions)."""
    return int(x) if x.is_integer() else x


def plain(x: float) -> float:
    """A drawing coordinate as the board's views give it: rounded to 4 places, `whole`."""
    return whole(round(x, 4))


@dataclass(frozen=True)
class LineBoard:
    """Dots, the lines between neighbours, and the cells those lines bound."""

    kind: str
    dots: tuple[Dot, ...]
    positions: tuple[tuple[float, float], ...]  # drawing coordinates per dot, y downward
    lines: tuple[tuple[int, int], ...]  # dot indices, canonical order inside each pair
    cells: tuple[tuple[int, ...], ...]  # line indices of each cell
    cell_dots: tuple[tuple[int, ...], ...]  # corner dots of each cell, in drawing order
    rim: int = 0  # lines bounding the board's outline (pre-drawn in some games)
    # derived
    dot_index: dict[Dot, int] = field(init=False, repr=False, compare=False)
    line_index: dict[tuple[int, int], int] = field(init=False, repr=False, compare=False)
    line_names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    line_cells: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    cell_masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    dot_lines: tuple[int, ...] = field(init=False, repr=False, compare=False)
    all_lines: int = field(init=False, repr=False, compare=False)
    #: Each dot's name, and the dots as a board view draws them (name, x, y rounded): the
    #: same on every view of the board, so worked out once, not on every message.
    dot_names: tuple[str, ...] = field(init=False, repr=False, compare=False)
    dot_views: tuple[tuple[str, float, float], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        s = object.__setattr__
        s(self, "dot_index", {d: i for i, d in enumerate(self.dots)})
        s(self, "line_index", {pair: i for i, pair in enumerate(self.lines)})
        s(self, "line_names", tuple(line_name(self.dots[a], self.dots[b]) for a, b in self.lines))
        owners: list[list[int]] = [[] for _ in self.lines]
        for c, cell in enumerate(self.cells):
            for ln in cell:
                owners[ln].append(c)
        s(self, "line_cells", tuple(tuple(o) for o in owners))
        s(self, "cell_masks", tuple(sum(1 << ln for ln in cell) for cell in self.cells))
        incident = [0] * len(self.dots)
        for i, (a, b) in enumerate(self.lines):
            incident[a] |= 1 << i
            incident[b] |= 1 << i
        s(self, "dot_lines", tuple(incident))
        s(self, "all_lines", (1 << len(self.lines)) - 1)
        names = tuple(dot_name(*d) for d in self.dots)
        s(self, "dot_names", names)
        s(
            self,
            "dot_views",
            tuple((n, plain(x), plain(y)) for n, (x, y) in zip(names, self.positions, strict=True)),
        )

    def dots_view(self) -> list[dict[str, Any]]:
        """The dots for a board view: name and drawing position (fresh dicts each call)."""
        return [{"name": n, "x": x, "y": y} for n, x, y in self.dot_views]

    @cached_property
    def axes(self) -> dict[str, Any]:
        """Where the page writes the coordinates (the notation's own letters and numbers, so
        the page knows no naming rule): `columns` and `rows`, each [label, x, y] at the first
        dot of its column (the top one) and row (the left one) in drawing coordinates, and
        `away`: {column, row} the step [dx, dy] outward from that dot along the lattice's own
        column and row directions (a triangular lattice's columns slant), where the label
        goes (the page decides how far). Worked out once per board (shared and frozen)."""
        at = dict(zip(self.dots, self.positions, strict=True))

        def direction(step: Dot) -> tuple[float, float]:
            for (c, r), (x, y) in at.items():
                nxt = at.get((c + step[0], r + step[1]))
                if nxt is not None:
                    return nxt[0] - x, nxt[1] - y
            return float(step[0]), float(step[1])

        def firsts(first: dict[int, Dot], label: Any) -> list[list[Any]]:
            return [[label(k), *map(whole, at[d])] for k, d in sorted(first.items())]

        def away(step: Dot) -> list[float]:
            dx, dy = direction(step)
            return [plain(-dx), plain(-dy)]

        top: dict[int, Dot] = {}
        left: dict[int, Dot] = {}
        for d in self.dots:  # canonical order: by row, then column
            top.setdefault(d[0], d)
            if d[1] not in left or d[0] < left[d[1]][0]:
                left[d[1]] = d
        return {
            "columns": firsts(top, column_name),
            "rows": firsts(left, lambda r: str(r + 1)),
            "away": {"column": away((0, 1)), "row": away((1, 0))},
        }

    def axes_view(self) -> dict[str, Any]:
        """`axes` for a board view: fresh lists each call (views are the callers' to change)."""
        axes = self.axes
        return {
            "columns": [list(c) for c in axes["columns"]],
            "rows": [list(r) for r in axes["rows"]],
            "away": {k: list(v) for k, v in axes["away"].items()},
        }

    def line_between(self, a: int, b: int) -> int | None:
        """The line joining dots `a` and `b` (dot indices, either order), or None when they
        are not neighbours on this board."""
        return self.line_index.get((a, b) if a < b else (b, a))

    def find_line(self, text: str) -> int:
        """The index of a line written in notation; NotationError / IllegalMove if not here."""
        a, b = parse_line(text)
        ia, ib = self.dot_index.get(a), self.dot_index.get(b)
        for name, idx in ((dot_name(*a), ia), (dot_name(*b), ib)):
            if idx is None:
                raise IllegalMove(
                    f"there is no dot {name} on this board", "no-such-dot", {"dot": name}
                )
        assert ia is not None and ib is not None
        line = self.line_between(ia, ib)
        if line is None:
            raise IllegalMove(
                f"{dot_name(*a)} and {dot_name(*b)} are not neighbouring dots",
                "not-neighbouring",
                {"a": dot_name(*a), "b": dot_name(*b)},
            )
        return line


def build_board(
    kind: str,
    dots: Iterable[Dot],
    position: dict[Dot, tuple[float, float]],
    cells: Sequence[Sequence[Dot]],
) -> LineBoard:
    """A board from its cells, each given as a cycle of corner dots.

    Lines are the cell sides; rim lines are those with exactly one cell on them.
    """
    used = sorted({d for cell in cells for d in cell} | set(dots), key=lambda d: (d[1], d[0]))
    dot_idx = {d: i for i, d in enumerate(used)}
    pairs: set[tuple[int, int]] = set()
    cell_pairs: list[list[tuple[int, int]]] = []
    for cell in cells:
        sides = []
        for k in range(len(cell)):
            a, b = cell[k], cell[(k + 1) % len(cell)]
            pair = tuple(sorted((dot_idx[a], dot_idx[b])))
            sides.append((pair[0], pair[1]))
            pairs.add((pair[0], pair[1]))
        cell_pairs.append(sides)
    # dot indices follow canonical (row, column) order, so sorting pairs sorts line names
    lines = tuple(sorted(pairs))
    lidx = {p: i for i, p in enumerate(lines)}
    cell_lines = tuple(tuple(sorted(lidx[p] for p in sides)) for sides in cell_pairs)
    count = [0] * len(lines)
    for cl in cell_lines:
        for ln in cl:
            count[ln] += 1
    rim = sum(1 << i for i, n in enumerate(count) if n == 1)
    return LineBoard(
        kind=kind,
        dots=tuple(used),
        positions=tuple(position[d] for d in used),
        lines=lines,
        cells=cell_lines,
        cell_dots=tuple(tuple(dot_idx[d] for d in cell) for cell in cells),
        rim=rim,
    )

"""Text boards for the line games, one per lattice, drawn from the board view the page gets
(`state.to_dict()["board"]`): dots with their drawing positions, lines, and what the game adds
(cells with owners, scored triangles, start dots, symbols). Nothing here knows a game.

A drawn line shows its owner's symbol where lines have owners (Vert3x), a plain stroke where
they do not (the Dots family); a claimed cell shows its owner's symbol; a start dot is ○.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from vertex.core.game import State
from vertex.lattice.names import column_name
from vertex.terminal.registry import text_board

Board = dict[str, Any]
XY = tuple[int, int]

#: Lattices of unit squares (with or without diagonals) and of the triangular lattice.
SQUARE_KINDS = ("square-rectangle", "square-rhombus", "windows", "diagonal-grid")
TRIANGULAR_KINDS = ("triangle", "strip", "hexagon", "parallelogram", "custom")

#: Columns per unit step on the triangular lattice: room for a dot's name and a symbol on
#: each side of a slanted line.
UNIT = 8


class View:
    """Lookups on a board view: dots by place, lines by their two dots, who drew what."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self.symbols: list[str] = board.get("symbols") or []
        self.pos: dict[str, tuple[float, float]] = {
            d["name"]: (d["x"], d["y"]) for d in board["dots"]
        }
        self.lines = {frozenset(ln["dots"]): ln for ln in board["lines"]}
        self.starts = set(board.get("start") or ())

    def stroke(self, a: str | None, b: str | None) -> str | None:
        """The line a–b as drawn: its owner's symbol, "" if drawn by nobody in particular,
        None if it is not drawn (or not on the board)."""
        if a is None or b is None:
            return None
        line = self.lines.get(frozenset((a, b)))
        if line is None:
            return None
        owner = line.get("owner")
        if owner is not None:
            return str(self.symbols[owner])
        return "" if line.get("drawn") else None

    def symbol(self, seat: int | None) -> str:
        return "" if seat is None else str(self.symbols[seat])


def _footer(board: Board) -> str:
    """Scored triangles, where the game scores them."""
    tris = board.get("triangles") or []
    if not tris:
        return ""
    symbols = board.get("symbols") or []
    parts = [f"{symbols[t['owner']]} {'-'.join(t['corners'])} +{t['points']:g}" for t in tris]
    return "\ntriangles: " + ", ".join(parts)


@text_board(*SQUARE_KINDS)
def square_text(state: State) -> str:
    """Dots 4 columns and 2 rows apart; a unit square's diagonals (or its owner's symbol) in
    the row between its dots."""
    board = state.to_dict()["board"]
    view = View(board)
    at: dict[XY, str] = {(round(x), round(y)): n for n, (x, y) in view.pos.items()}
    cols = max(x for x, _ in at) + 1
    rows = max(y for _, y in at) + 1
    cells = board.get("cells")
    owner_at: dict[XY, int | None] = {}
    for cell in cells or ():  # a cell is a unit square, known by its top-left dot
        xs, ys = zip(*(view.pos[n] for n in cell["dots"]), strict=True)
        owner_at[(round(min(xs)), round(min(ys)))] = cell["owner"]
    out = ["    " + "".join(f"{column_name(c):<4}" for c in range(cols)).rstrip()]
    for y in range(rows):
        text = f"{y + 1:>3} "
        for x in range(cols):
            name = at.get((x, y))
            text += " " if name is None else "○" if name in view.starts else "•"
            if x + 1 < cols:
                across = view.stroke(name, at.get((x + 1, y)))
                text += "   " if across is None else f"─{across or '─'}─"
        out.append(text.rstrip())
        if y + 1 == rows:
            break
        text = "    "
        for x in range(cols):
            down = view.stroke(at.get((x, y)), at.get((x, y + 1)))
            text += " " if down is None else down or "│"
            if x + 1 < cols:
                fall = view.stroke(at.get((x, y)), at.get((x + 1, y + 1)))
                rise = view.stroke(at.get((x + 1, y)), at.get((x, y + 1)))
                if fall is not None or rise is not None:
                    if fall is not None and rise is not None:
                        mark = "X"
                    else:
                        mark = "\\" if fall is not None else "/"
                    text += f"{fall or ' '}{mark}{rise or ' '}"
                elif cells is not None:  # a square not on the board is shaded
                    mark = view.symbol(owner_at[(x, y)]) if (x, y) in owner_at else "░"
                    text += f" {mark:1} "
                else:
                    text += "   "
        out.append(text.rstrip())
    return "\n".join(out) + _footer(board)


@text_board(*TRIANGULAR_KINDS)
def triangular_text(state: State) -> str:
    """Dots named in place, UNIT columns apart, rows shifted half a step as on the lattice;
    a slanted line is `/` or `\\` between the rows with its owner's symbol beside it, and a
    claimed cell shows its owner's symbol at its centre."""
    board = state.to_dict()["board"]
    view = View(board)
    left = min(x for x, _ in view.pos.values())

    def col(name: str) -> int:
        return round((view.pos[name][0] - left) * UNIT)

    rows: dict[float, list[str]] = {}
    for name, (_, y) in view.pos.items():
        rows.setdefault(round(y, 4), []).append(name)
    levels = sorted(rows)
    width = max(col(n) for n in view.pos) + UNIT + 4
    out = []
    for i, y in enumerate(levels):
        canvas = [" "] * width
        here = sorted(rows[y], key=col)
        for name in here:
            label = name + ("○" if name in view.starts else "")
            c = col(name)
            canvas[c : c + len(label)] = list(label)
        for a, b in pairwise(here):
            across = view.stroke(a, b)
            if across is None:
                continue
            start = col(a) + len(a) + (1 if a in view.starts else 0)
            end = col(b)
            for x in range(start, end):
                canvas[x] = "─"
            if across:
                canvas[(start + end) // 2] = across
        out.append("".join(canvas).rstrip())
        if i + 1 == len(levels):
            break
        canvas = [" "] * width
        below = rows[levels[i + 1]]
        for a in here:
            for b in below:
                drawn = view.stroke(a, b)
                if drawn is None:
                    continue
                mid = (col(a) + col(b)) // 2 + 1
                if col(b) < col(a):
                    canvas[mid] = "/"
                    if drawn:
                        canvas[mid - 1] = drawn
                else:
                    canvas[mid] = "\\"
                    if drawn:
                        canvas[mid + 1] = drawn
        for cell in board.get("cells") or ():
            if cell["owner"] is None or not set(cell["dots"]) <= set(here) | set(below):
                continue
            cx = sum(col(n) for n in cell["dots"]) / len(cell["dots"])
            canvas[round(cx) + 1] = view.symbol(cell["owner"])
        out.append("".join(canvas).rstrip())
    return "\n".join(out) + _footer(board)

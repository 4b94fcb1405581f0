"""Text boards for Vert3x: the triangular lattice and the two square grids.

A drawn line shows its owner's letter (A for seat 0, B for seat 1, …) on the line; undrawn
lines are blank. Start dots are ○. Scored triangles are listed under the board.
"""

from __future__ import annotations

from vertex.core.game import State
from vertex.games.vert3x.engine import SYMBOLS, Vert3xState
from vertex.games.vert3x.scoring import shown
from vertex.lattice.names import column_name, dot_name
from vertex.terminal.registry import text_board


@text_board("vert3x")
def vert3x_text(state: State) -> str:
    assert isinstance(state, Vert3xState)
    classic = state.game.options.rules == "classic"
    return (_triangular(state) if classic else _square(state)) + _triangles(state)


def _owner_char(state: Vert3xState, a: tuple[int, int], b: tuple[int, int]) -> str | None:
    board = state.game.geometry.board
    ia, ib = board.dot_index.get(a), board.dot_index.get(b)
    if ia is None or ib is None:
        return None
    line = board.line_index.get((min(ia, ib), max(ia, ib)))
    if line is None:
        return None
    owner = state.line_owner(line)
    return None if owner is None else SYMBOLS[owner]


def _starts(state: Vert3xState) -> set[tuple[int, int]]:
    geo = state.game.geometry
    return {geo.board.dots[d] for d in state.game.start_dots or ()}


def _square(state: Vert3xState) -> str:
    """Dots 4 columns and 2 rows apart; a square's diagonals in the row between its dots."""
    board = state.game.geometry.board
    cols = max(x for x, _ in board.dots) + 1
    rows = max(y for _, y in board.dots) + 1
    starts = _starts(state)
    out = ["    " + "".join(f"{column_name(c):<4}" for c in range(cols)).rstrip()]
    for y in range(rows):
        text = f"{y + 1:>3} "
        for x in range(cols):
            text += "○" if (x, y) in starts else "•"
            if x + 1 < cols:
                who = _owner_char(state, (x, y), (x + 1, y))
                text += f"─{who}─" if who else "   "
        out.append(text.rstrip())
        if y + 1 == rows:
            break
        text = "    "
        for x in range(cols):
            text += _owner_char(state, (x, y), (x, y + 1)) or " "
            if x + 1 < cols:
                fall = _owner_char(state, (x, y), (x + 1, y + 1))
                rise = _owner_char(state, (x + 1, y), (x, y + 1))
                mark = "X" if fall and rise else "\\" if fall else "/" if rise else " "
                text += f"{fall or ' '}{mark}{rise or ' '}"
        out.append(text.rstrip())
    return "\n".join(out)


def _triangular(state: Vert3xState) -> str:
    """Dots named in place, 6 columns apart, rows shifted half a step as on the lattice."""
    board = state.game.geometry.board
    starts = _starts(state)
    left = min(2 * q - r for q, r in board.dots)  # x = q − r/2, doubled
    rows: dict[int, list[int]] = {}
    for q, r in board.dots:
        rows.setdefault(r, []).append(q)
    width = 3 * (max(2 * q - r for q, r in board.dots) - left) + 8

    def col(q: int, r: int) -> int:
        return 3 * (2 * q - r - left)

    out = []
    for r in sorted(rows):
        canvas = [" "] * width
        for q in sorted(rows[r]):
            label = dot_name(q, r) + ("○" if (q, r) in starts else "")
            c = col(q, r)
            canvas[c : c + len(label)] = list(label)
            who = _owner_char(state, (q, r), (q + 1, r))
            if who:
                end = col(q + 1, r)
                for i in range(c + len(label), end):
                    canvas[i] = "─"
                canvas[(c + len(label) + end) // 2] = who
        out.append("".join(canvas).rstrip())
        if r + 1 not in rows:
            break
        canvas = [" "] * width
        for q in rows[r]:
            c = col(q, r)
            down_left = _owner_char(state, (q, r), (q, r + 1))
            if down_left:
                canvas[c - 2 : c] = [down_left, "/"]
            down_right = _owner_char(state, (q, r), (q + 1, r + 1))
            if down_right:
                canvas[c + 1 : c + 3] = ["\\", down_right]
        out.append("".join(canvas).rstrip())
    return "\n".join(out)


def _triangles(state: Vert3xState) -> str:
    if not state.triangles:
        return ""
    geo = state.game.geometry
    scale = state.game.scoring.scale
    parts = []
    for owner, tri, got in state.triangles:
        corners = "-".join(dot_name(*geo.board.dots[c]) for c in tri.corners)
        parts.append(f"{SYMBOLS[owner]} {corners} +{shown(got, scale):g}")
    return "\ntriangles: " + ", ".join(parts)

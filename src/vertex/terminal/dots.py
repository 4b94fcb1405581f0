"""Text boards for the Dots family: square grids and the triangular lattice."""

from __future__ import annotations

from vertex.core.game import State
from vertex.games.dots.engine import DotsState
from vertex.lattice.names import column_name
from vertex.terminal.registry import text_board


@text_board("dots-and-boxes", "figures")
def square_text(state: State) -> str:
    assert isinstance(state, DotsState)
    board = state.game.board
    symbols = state.game.seat_symbols(state.seed)
    cols = max(c for c, _ in board.dots)
    rows = max(r for _, r in board.dots)
    drawn = {board.lines[i] for i in range(len(board.lines)) if state.drawn >> i & 1}
    owner_at = {}
    for c, corners in enumerate(board.cell_dots):
        col, row = board.dots[corners[0]]
        owner_at[(col, row)] = state.cell_owner(c)
    cells = {board.dots[corners[0]] for corners in board.cell_dots}

    def has(a: tuple[int, int], b: tuple[int, int]) -> bool:
        ia, ib = board.dot_index.get(a), board.dot_index.get(b)
        if ia is None or ib is None:
            return False
        return (min(ia, ib), max(ia, ib)) in drawn

    out = ["    " + "".join(f"{column_name(c):<4}" for c in range(cols + 1)).rstrip()]
    for r in range(rows + 1):
        line = f"{r + 1:>3} "
        for c in range(cols + 1):
            line += "•" if (c, r) in board.dot_index else " "
            if c < cols:
                line += "───" if has((c, r), (c + 1, r)) else "   "
        out.append(line.rstrip())
        if r == rows:
            break
        line = "    "
        for c in range(cols + 1):
            line += "│" if has((c, r), (c, r + 1)) else " "
            if c < cols:
                owner = owner_at.get((c, r))
                mark = symbols[owner] if owner is not None else ("" if (c, r) in cells else "░")
                line += f" {mark:1} "
        out.append(line.rstrip())
    return "\n".join(out)


@text_board("dots-and-triangles")
def triangle_text(state: State) -> str:
    """Rows centred like the lattice; lines listed under the picture by cell owner."""
    assert isinstance(state, DotsState)
    board = state.game.board
    symbols = state.game.seat_symbols(state.seed)
    xs = [x for x, _ in board.positions]
    left = min(xs)
    rows: dict[int, list[int]] = {}
    for i, (_, r) in enumerate(board.dots):
        rows.setdefault(r, []).append(i)
    drawn = [i for i in range(len(board.lines)) if state.drawn >> i & 1]
    drawn_pairs = {board.lines[i] for i in drawn}
    width = round((max(xs) - left) * 8) + 8
    out = []
    for r in sorted(rows):
        canvas = [" "] * width
        for i in rows[r]:
            x = round((board.positions[i][0] - left) * 8)
            label = board.dot_names[i]
            canvas[x : x + len(label)] = list(label)
        for a, b in drawn_pairs:
            if board.dots[a][1] == r and board.dots[b][1] == r:
                xa = round((board.positions[a][0] - left) * 8) + 3
                xb = round((board.positions[b][0] - left) * 8)
                for x in range(xa, xb):
                    canvas[x] = "─"
        out.append("".join(canvas).rstrip())
        if r + 1 in rows:
            canvas = [" "] * width
            for a, b in drawn_pairs:
                if board.dots[a][1] == r and board.dots[b][1] == r + 1:
                    fa = board.positions[a][0] - left
                    fb = board.positions[b][0] - left
                    x = round((fa + fb) / 2 * 8) + 1
                    canvas[x] = "/" if fb < fa else "\\"
            for c, corners in enumerate(board.cell_dots):
                owner = state.cell_owner(c)
                if owner is None:
                    continue
                ys = {board.dots[d][1] for d in corners}
                if ys == {r, r + 1}:
                    cx = sum(board.positions[d][0] - left for d in corners) / 3
                    canvas[round(cx * 8) + 1] = symbols[owner]
            out.append("".join(canvas).rstrip())
    return "\n".join(out)

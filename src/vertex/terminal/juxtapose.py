"""Text board for a board of squares with pyramids (Juxtapose), from the board view: the grid,
the stash and what may not slide."""

from __future__ import annotations

from vertex.core.game import State
from vertex.terminal.registry import text_board


# The board kind is spelled like the game: it is the view's `board.kind`, as the page's board
# modules are picked by it, not a test of which game this is.
@text_board("juxtapose")
def squares_text(state: State) -> str:
    """Pyramids as `R1`..`P3`, `·` for empty; `*` marks a winning line, `'` a moved-last one."""
    view = state.to_dict()
    board = view["board"]
    size = board["size"]
    squares = board["squares"]
    on_line = {sq for line in board["winning_lines"] for sq in line}
    moved = {m["square"] for m in board["moved_last"]}
    out = ["     " + "   ".join(sq["name"][0] for sq in squares[:size])]
    for r in range(size):
        row = f"{r + 1:>3} "
        for sq in squares[r * size : (r + 1) * size]:
            name = sq["name"]
            mark = "*" if name in on_line else "'" if name in moved else " "
            row += f" {sq['pyramid'] or '· '}{mark}"
        out.append(row.rstrip())
    stash = board["stash"]
    if stash:
        out.append(f"stash ({len(stash)}): " + " ".join(stash))
        if not view["is_over"]:
            out.append("drop phase: drop a pyramid on an empty square, like R1@b3")
    else:
        out.append(f"slide phase: {board['slide_moves']} of {board['move_limit']} moves played")
        if not view["is_over"]:
            out.append("swap neighbours (b3<>c4) or slide into the empty square (b3>b4)")
            out.append("moved last, may not slide: " + " ".join(sorted(moved)))
    if board["winning_lines"]:
        out.append("winning line: " + ", ".join("-".join(line) for line in board["winning_lines"]))
    if board["draw"] is not None:
        out.append(f"drawn by {board['draw']}")
    return "\n".join(out)

"""Text board for Juxtapose: the 4×4 grid of pyramids, the stash and what may not slide."""

from __future__ import annotations

from vertex.core.game import State
from vertex.games.juxtapose import (
    EMPTY,
    PYRAMID_NAMES,
    PYRAMIDS,
    SIZE,
    SQUARE_NAMES,
    JuxtaposeState,
)
from vertex.terminal.registry import text_board


@text_board("juxtapose")
def juxtapose_text(state: State) -> str:
    """Pyramids as `R1`..`P3`, `·` for empty; `*` marks a winning line, `'` a moved-last one."""
    assert isinstance(state, JuxtaposeState)
    on_line = {sq for line in state.lines for sq in line}
    moved = {state.where[p] for p in range(PYRAMIDS) if state.moved_last >> p & 1}
    out = ["     a   b   c   d"]
    for r in range(SIZE):
        row = f"{r + 1:>3} "
        for c in range(SIZE):
            sq = r * SIZE + c
            p = state.squares[sq]
            mark = "*" if sq in on_line else "'" if sq in moved else " "
            row += f" {'· ' if p == EMPTY else PYRAMID_NAMES[p]}{mark}"
        out.append(row.rstrip())
    stash = [PYRAMID_NAMES[p] for p in range(PYRAMIDS) if state.stash >> p & 1]
    if stash:
        out.append(f"stash ({len(stash)}): " + " ".join(stash))
        if not state.is_over:
            out.append("drop phase: drop a pyramid on an empty square, like R1@b3")
    else:
        locked = [SQUARE_NAMES[sq] for sq in sorted(moved)]
        limit = state.game.options.move_limit
        out.append(f"slide phase: {state.slides} of {limit} moves played")
        if not state.is_over:
            out.append("swap neighbours (b3<>c4) or slide into the empty square (b3>b4)")
            out.append("moved last, may not slide: " + " ".join(locked))
    if state.lines:
        out.append(
            "winning line: "
            + ", ".join("-".join(SQUARE_NAMES[s] for s in ln) for ln in state.lines)
        )
    if state.draw is not None:
        out.append(f"drawn by {state.draw}")
    return "\n".join(out)

"""Exact Juxtapose search to a depth: a forced win or loss within a few plies, or unknown.

A line wins at once, so a game's turning points are short: a win in 1 left on the board, a
move that hands the other player a win in 1 or 2. The review (RULES.md §5) marks exactly
those, so it needs proof, not an estimate: plain negamax over the engine's integer moves,
iterative deepening until the time is up, keeping the deepest finished answer. Values are
counted in plies from the position: `WIN - p` for a win p plies away (p odd: the mover's own
move), `-(WIN - p)` for a loss p plies away, 0 for a known draw, None beyond the depth.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from vertex.games.juxtapose.game import MOVE_NAMES, JuxtaposeState

WIN = 1000
#: Deepest search tried (plies): a win in 3 of the mover's own moves.
MAX_DEPTH = 5


class _OutOfTime(Exception):
    pass


@dataclass(frozen=True)
class Verdict:
    """`value`: +N a win in N of the mover's moves, -N a loss at the other's N-th move, 0 a
    known draw, None unknown within `depth` plies; `best`: the moves that keep it."""

    value: int | None
    best: list[str]
    depth: int


def _up(child: int | None) -> int | None:
    """A child's value (its mover's) as the parent mover's, one ply further."""
    if child is None or child == 0:
        return child
    return -child + 1 if child > 0 else -child - 1


def _search(pos: JuxtaposeState, depth: int, deadline: float) -> int | None:
    if pos.winner is not None:
        return -WIN  # the player who just moved made a line
    if pos.draw is not None:
        return 0
    if depth <= 0:
        return None
    codes = pos.move_codes()
    for code in codes:
        if pos.wins_at_once(code):
            return WIN - 1
    if depth == 1:
        return None
    if time.monotonic() > deadline:
        raise _OutOfTime
    best: int | None = None
    unknown = False
    for code in codes:
        ours = _up(_search(pos.apply(code), depth - 1, deadline))
        if ours is None:
            unknown = True
            if depth < 3:  # a win needs a child lost for its mover: none is, this shallow
                return None
        elif best is None or ours > best:
            best = ours
            if best == WIN - 3:  # nothing quicker is left (a win in 1 was ruled out)
                return best
    if best is not None and best > 0:
        return best
    return None if unknown else best


def _moves_for(value: int) -> int:
    """Plies to the mover's moves (a win) or the other's (a loss)."""
    plies = WIN - abs(value)
    return (plies + 1) // 2 if value > 0 else plies // 2


def judge(pos: JuxtaposeState, budget_s: float, max_depth: int = MAX_DEPTH) -> Verdict:
    """The deepest verdict on `pos` found within `budget_s` (depth 1 always finishes)."""
    if pos.winner is not None or pos.draw is not None:
        return Verdict(None if pos.draw is None else 0, [], 0)
    deadline = time.monotonic() + budget_s
    found = Verdict(None, [], 0)
    for depth in range(1, max_depth + 1):
        try:
            values = [
                (code, _up(_search(pos.apply(code), depth - 1, deadline)))
                for code in pos.move_codes()
            ]
        except _OutOfTime:
            break
        known = [v for _, v in values if v is not None]
        top = max(known) if known else None
        if top is not None and (top > 0 or len(known) == len(values)):
            best = sorted(MOVE_NAMES[c] for c, v in values if v == top)
            value = 0 if top == 0 else (_moves_for(top) if top > 0 else -_moves_for(top))
            return Verdict(value, best, depth)
        found = Verdict(None, [], depth)
        if time.monotonic() > deadline:
            break
    return found

"""Marks of a reviewed game (RULES.md §5): each move's mark from the mover's values before and
after it, and each seat's accuracy and cells given away. Pure: the review's driver
(reviewer.py) and the tests use it; nothing here knows of workers or storage.

Dots family: values are the mover's final cell difference under perfect play (their cells
minus the other's, cells already claimed included); in misère the mover wants it low, so
the comparison is made on the value turned round. Juxtapose: +N a forced win in N of the
mover's moves, -N a forced loss at the other's N-th, 0 a known draw, None unknown within the
searched depth; only a win let slip or a loss allowed is marked (a blunder), the rest `best`
where the value before is known.
"""

from __future__ import annotations

from typing import Any

MARKS = ("best", "inaccuracy", "mistake", "blunder")


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def dots_mark(before: int, after: int, misere: bool) -> tuple[str, int]:
    """The mark of a move and the cells it gave away (both values exact)."""
    turn = -1 if misere else 1
    good_before, good_after = before * turn, after * turn
    lost = max(0, good_before - good_after)  # an exact best move never gains
    if lost == 0:
        return "best", 0
    if _sign(good_after) < _sign(good_before) or lost >= 3:
        return "blunder", lost
    return ("mistake" if lost == 2 else "inaccuracy"), lost


def juxtapose_mark(before: int | None, after: int | None) -> str | None:
    """A blunder lets a forced win slip or allows a forced loss; None: not judged."""
    won_before = before is not None and before > 0
    won_after = after is not None and after > 0
    if won_before and not won_after:
        return "blunder"
    if after is not None and after < 0 and not (before is not None and before < 0):
        return "blunder"
    return "best" if before is not None else None


def seat_summary(moves: list[dict[str, Any]], seats: int, cells: bool) -> list[dict[str, Any]]:
    """Per seat: `accuracy` (share of its judged moves marked best, in %, one decimal; None
    with none judged), `lost` (cells given away; None where values are not cells),
    `judged` and the count of each mark."""
    out = []
    for seat in range(seats):
        mine = [m for m in moves if m["seat"] == seat and m.get("mark") is not None]
        counts = {mark: sum(1 for m in mine if m["mark"] == mark) for mark in MARKS}
        accuracy = round(100.0 * counts["best"] / len(mine), 1) if mine else None
        lost = sum(int(m.get("lost") or 0) for m in mine) if cells else None
        out.append(
            {"seat": seat, "accuracy": accuracy, "lost": lost, "judged": len(mine), **counts}
        )
    return out

"""A table's clocks: when a due seat's time runs out, and what each seat has left.

Read-only views of the state the log folds into (events.Folded); the folds that charge the
clocks (`clock_step`) are in events.py with every other change, and the timeout command that
acts on a deadline is the table's (table.py).
"""

from __future__ import annotations

from vertex.server.table.events import Folded

#: A slow table's day (`per_move_days`), in the seconds every clock counts in.
DAY_S = 86_400.0
#: A slow table waits this long for its players (its link may take days to reach them)
#: before the ordinary idle expiry may end it (storage/repository.py keeps the time).
SLOW_WAIT_S = 14 * DAY_S


def per_move_s(clock: dict[str, float]) -> float | None:
    """Seconds a move (None: a clock of time per player)."""
    if clock.get("per_move_days"):
        return clock["per_move_days"] * DAY_S
    return clock.get("per_move") or None


def deadline(t: Folded, seat: int) -> float | None:
    """When the seat's clock runs out (None: no clock, or not its turn)."""
    if t.clock is None or seat not in t.due_since:
        return None
    allowed = per_move_s(t.clock) or t.bank[seat]
    return t.due_since[seat] + allowed


def next_deadline(t: Folded) -> float | None:
    """The earliest deadline of the seats due now (None: no clock running)."""
    if t.clock is None or t.result is not None or t.started_at is None:
        return None
    found = [d for s in t.state.to_move if (d := deadline(t, s)) is not None]
    return min(found) if found else None


def left(t: Folded, now: float) -> list[float | None] | None:
    """Seconds left per seat (None: not counting down), for the view."""
    if t.clock is None:
        return None
    out: list[float | None] = []
    for s in range(len(t.seats)):
        d = deadline(t, s)
        if d is not None:
            out.append(round(max(0.0, d - now), 3))
        elif "total" in t.clock:
            out.append(round(t.bank[s], 3))
        else:
            out.append(None)
    return out

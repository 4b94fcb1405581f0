"""Scores to winners, and the names of seats in messages."""

from __future__ import annotations

from collections.abc import Sequence


def seat_label(seat: int) -> str:
    return f"seat {seat}"


def best_seats(scores: Sequence[float], lowest: bool = False) -> tuple[int, ...]:
    """Seats with the highest score (lowest for misère). Every seat = a draw."""
    if not scores:
        return ()
    target = min(scores) if lowest else max(scores)
    return tuple(s for s, v in enumerate(scores) if v == target)

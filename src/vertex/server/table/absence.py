"""Absent players: a seat whose player left may be handed to the computer only after a grace.

A page reload, a phone that drops its connection for a moment: the player is back within
seconds, and must not find their seat taken by the computer. So each process notes when it
first saw a seated player with no socket open anywhere (presence.py), and another player's
hand-over of that seat is refused until `Settings.hand_over_grace_s` has passed since then
(`not-allowed`, why `grace`, with the seconds left). A process that only just loaded the
table starts the grace then: it is never shorter, only sometimes longer. Every view and
presence message carries the seconds left per seat (`hand_over_in`), for the page's
countdown. A slow table (days a move) has no grace and no hand-over of an absent player.
"""

from __future__ import annotations

import math

from vertex.server.table.table import Table


def note(table: Table, here: list[bool], now: float) -> None:
    """Who is here now: start the grace of players just gone, end it for those back."""
    for n, seat in enumerate(table.seats):
        if n < len(here) and not here[n] and seat.kind == "human" and seat.token is not None:
            table.away_since.setdefault(n, now)
        else:
            table.away_since.pop(n, None)


def left(table: Table, here: list[bool], now: float, grace_s: float) -> list[float | None]:
    """Per seat: seconds before its absent player may be handed over (0: now); None for a
    player who is here, a computer seat or a free seat (nothing to wait for), and for every
    seat of a slow table (never handed over for an absence: days away is its normal pace)."""
    if table.slow:
        return [None for _ in table.seats]
    note(table, here, now)
    out: list[float | None] = []
    for n in range(len(table.seats)):
        since = table.away_since.get(n)
        out.append(None if since is None else round(max(0.0, since + grace_s - now), 1))
    return out


def refusal_seconds(seconds: float) -> int:
    """The whole seconds to say in a refusal (never 0 while some grace is left)."""
    return max(1, math.ceil(seconds))

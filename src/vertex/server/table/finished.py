"""A finished table as the players' records take it: who sat where, who came where, and
whether it may count for ratings (storage/results.py writes it once).

Everything here is read from the table, which its log decides: every process, and a
process replaying the log after a crash, makes the same facts of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vertex.server.table import ratings
from vertex.server.table.pools import pool_of
from vertex.server.table.table import Table

#: Results that are no game: nothing to record.
NO_GAME = frozenset({"expired", "cancelled"})


@dataclass(frozen=True)
class SeatFacts:
    seat: int
    player: str | None  # None: a guest or a computer
    name: str | None
    kind: str


@dataclass(frozen=True)
class Finished:
    table_id: str
    game: str
    pool: str | None
    options: dict[str, Any]
    ended_at: float
    scores: list[float]
    ranks: list[int]
    seats: list[SeatFacts]
    #: Rated and counting so far; `unrated`: a rated table's reason not to (`aborted`,
    #: `same-address`; the store may add `daily-limit`).
    rated: bool
    unrated: str | None

    def outcome(self, seat: int) -> str:
        return ratings.outcome(len(self.seats), seat, self.ranks)

    @property
    def players(self) -> list[SeatFacts]:
        return [s for s in self.seats if s.player is not None]


def facts(t: Table) -> Finished | None:
    """The facts of a finished table with at least one player seat, else None."""
    if t.result is None or t.result.get("reason") in NO_GAME:
        return None
    if not any(s.player is not None for s in t.seats):
        return None
    options = t.game.options_dict()
    pool = pool_of(t.game.id, options)
    scores = [float(x) for x in t.state.scores]
    ranks = ratings.ranks(
        len(t.seats), t.result, scores, t.game.score_decides, t.game.lowest_score_wins
    )
    unrated = None
    if t.rated:
        addresses = [s.address for s in t.seats if s.address is not None]
        if t.result.get("aborted"):
            unrated = "aborted"
        elif len(set(addresses)) < len(addresses):
            unrated = "same-address"  # two keys from one address: one person, most likely
    seats = [SeatFacts(n, s.player, s.name, s.kind) for n, s in enumerate(t.seats)]
    return Finished(
        t.id,
        t.game.id,
        pool.id if pool is not None else None,
        options,
        t.last_at,
        scores,
        ranks,
        seats,
        rated=t.rated and pool is not None and unrated is None,
        unrated=unrated,
    )

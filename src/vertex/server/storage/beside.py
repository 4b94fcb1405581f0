"""What a table's changes write beside its log: its players' records (the result once,
their seats' turns, forgotten players shown as former on a load: players.py, results.py),
a solo best, its status, and a slow table's next deadline (deadlines.py). The repository
(repository.py) calls these on its one write path.
"""

from __future__ import annotations

import logging
import time

from vertex.server.site.faults import log_failure
from vertex.server.storage.store import Store
from vertex.server.table import clocks, finished, views
from vertex.server.table.events import StoredEvent
from vertex.server.table.table import Table

log = logging.getLogger("vertex.server")


class Beside:
    def __init__(self, store: Store) -> None:
        self.store = store

    async def keep_deadline(self, table: Table) -> None:
        """A slow table's next deadline into the store, as of its version (deadlines.py),
        for the sweeper that wakes it while nobody holds it. A failure is logged, not
        raised: the event is stored already, and the table writes it again when it leaves
        memory (upkeep.py). Before its start, the row holds the end of its wait for
        players instead (clocks.SLOW_WAIT_S): no idle expiry until then."""
        deadline = clocks.next_deadline(table)
        if deadline is None and not table.started and not table.is_over:
            wait = table.created_at + clocks.SLOW_WAIT_S
            deadline = wait if wait > time.time() else None
        try:
            await self.store.deadlines.set(table.id, table.v, deadline)
        except Exception as exc:
            log_failure(log, exc, "the deadline of table %s was not stored", table.id)

    async def status_changed(self, table: Table) -> None:
        # The result before the status: a table marked over has its solo best kept already,
        # and its players' records (results.py: once, whoever gets here first).
        best = views.solo_best(table)
        if best is not None:
            await self.store.bests.add(best)
        facts = finished.facts(table)
        if facts is not None:  # its players' seats leave their open tables in it too
            # the status in the records' transaction: one commit, and no status without them
            outcome = await self.store.results.record(facts, table.status)
            if table.result is not None:
                table.result.update(outcome.result_fields())
            return
        if table.is_over and any(s.player is not None for s in table.seats):
            await self.store.players.table_over(table.id)  # no game: cancelled, expired
        await self.store.tables.set_status(table.id, table.status)

    async def turns(self, table: Table, ev: StoredEvent) -> None:
        """The players' seats' turns after this event (the writing process's job)."""
        if table.is_over:
            return
        status, due = seat_turns(table)
        await self.store.players.turns(table.id, ev.seq, status, due, ev.at)

    async def players_loaded(self, table: Table) -> None:
        """Seats of players forgotten since show as former players."""
        ids = [s.player for s in table.seats if s.player is not None]
        if not ids:
            return
        names = await self.store.players.names(ids)
        for seat in table.seats:
            if seat.player is not None and names.get(seat.player, "") is None:
                seat.former = True


def seat_turns(table: Table) -> tuple[str, set[int]]:
    """A table's status for its players' seats (`open`: waiting for players, `playing`)
    and the seats whose turn it is."""
    if not table.started:
        return "open", set()
    return "playing", set(table.state.to_move)

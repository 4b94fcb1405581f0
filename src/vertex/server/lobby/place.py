"""The lobby: listed tables, their live list on every process, and housekeeping.

The process that writes a listed table's event makes its summary (summary.py), applies it
to its own list (index.py), tells its lobby sockets, publishes it to the other processes
(shared.py) and saves it in the table's lobby row (rows.py, in batches: saving.py).
Processes that start later read the rows. Private tables never enter any of it: only a
socket that names a table's id ("Your tables") hears about that one table. Play now and
unlisting are play.py.

The hub calls in at four places: a table made listed (`listing` + `created`), every table
event (`changed`), spectators coming and going (`watchers`: watchers.py) and the sweep
(`sweep`).
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any, Protocol

from vertex.core import game_ids
from vertex.server.errors import ApiError
from vertex.server.live.sockets import dumps
from vertex.server.lobby.conns import FOLLOW_MOST, LobbyConn, LobbyConns
from vertex.server.lobby.index import LobbyIndex
from vertex.server.lobby.rows import LobbyRows
from vertex.server.lobby.saving import Saving
from vertex.server.lobby.shared import LocalShared, RedisShared
from vertex.server.lobby.summary import LIVE, OPEN, quick, summary
from vertex.server.lobby.watchers import Watchers
from vertex.server.table.table import Table

if TYPE_CHECKING:
    from vertex.server.compute.autoplay import Autoplay
    from vertex.server.live.sockets import Sockets
    from vertex.server.play.new_tables import NewTables
    from vertex.server.players.identity import Me
    from vertex.server.settings import Settings
    from vertex.server.storage.repository import Repository
from vertex.server.storage.store import Store


class Hub(Protocol):
    """What the lobby uses of the hub (which imports the lobby, so the lobby names only
    this)."""

    settings: Settings
    worker: str
    store: Store
    scaled: bool
    repo: Repository
    sockets: Sockets
    autoplay: Autoplay
    new_tables: NewTables

    async def get(self, tid: str) -> Table: ...

    async def take_seat(
        self, tid: str, n: int, name: str, me: Me | None = None, address: str = ""
    ) -> tuple[str, int]: ...


log = logging.getLogger("vertex.server")

#: A listed table leaves the list when nobody holding a seat has been connected for this
#: long, or when nobody sat down for this long.
CREATOR_GONE_S = 600.0
NOBODY_SAT_S = 1800.0


class Lobby:
    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        settings = hub.settings
        self.listed_most = settings.limits.listed_per_address
        self.shared: LocalShared | RedisShared
        if settings.redis_url is not None:
            self.shared = RedisShared(settings.redis_url, settings.site + ":", hub.worker)
        else:
            self.shared = LocalShared()
        self.rows = LobbyRows(hub.store)
        self.index = LobbyIndex()
        self.conns = LobbyConns()
        self.v = 0  # bumps with every change this process sends its lobby sockets
        self.present_at: dict[str, float] = {}  # a seat holder was last seen here then
        self.saving = Saving(self.rows)  # the summaries, saved in batches
        #: The views a lobby socket may ask for: every game, or one.
        self.filters: list[str | None] = [None, *game_ids()]
        self.counts = Watchers(self.index, self.shared, hub, self._send, lambda: self.filters)

    # ---- lifecycle --------------------------------------------------------------------------
    async def start(self) -> None:
        await self.reload()
        await self.shared.start(self._on_shared, self.reload)
        self.saving.start()

    async def reload(self) -> None:
        """The list from the rows: at the start, and after every (re)subscribe to the lobby's
        channel (what it carried while this process was cut off from Redis is in the rows:
        tables listed or changed elsewhere come in, ones that left the list go)."""
        filters = self.filters
        now = time.time()
        before = set(self.index.where)  # a table listed here during the load stays
        entries = await self.rows.load()
        for entry in entries:
            self.present_at.setdefault(entry["id"], now)
            self._send(self.index.put(entry, filters))  # an older summary changes nothing
        listed = {e["id"] for e in entries}
        for section in (OPEN, LIVE):
            for tid in [t for t in self.index.sections[section] if t in before - listed]:
                self.present_at.pop(tid, None)
                self._send(self.index.remove(tid, filters))

    async def stop(self) -> None:
        await self.saving.stop()
        self.conns.close()
        await self.shared.close()

    # ---- the hub's seams --------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def listing(self, creator: str) -> AsyncIterator[None]:
        """Around making a listed table: refuses an address with too many listed open
        tables (one lock per address, across processes, so two at once cannot both pass)."""
        async with self.shared.lock("listing:" + creator):
            if await self.rows.count_open(creator) >= self.listed_most:
                raise ApiError(
                    "too-many-listed",
                    f"at most {self.listed_most} listed tables waiting for players from one "
                    "address; make this one private or wait until yours start",
                    429,
                )
            yield

    async def created(self, table: Table, creator: str) -> None:
        entry = self._summary(table)
        await self.rows.insert(entry, creator, table.created_at)
        self.present_at[table.id] = time.time()
        await self._put(entry, publish=True)

    async def changed(self, table: Table, own: bool) -> None:
        """A table had an event (`own`: this process wrote it)."""
        if self.conns.followers.get(table.id):
            self.conns.send_followers(table.id, dumps({"t": "mine", "tables": [summary(table)]}))
        if not table.spec.listed or not own:
            return  # the writer tells everyone else
        old = self.index.get(table.id)
        if old is None:
            return  # not (or no longer) listed
        entry = self._summary(table)
        if entry["free_seats"] < old["free_seats"]:
            self.present_at[table.id] = time.time()  # someone just sat down
        self.saving.later(entry)
        await self._put(entry, publish=True)

    def watchers(self, tid: str, n: int) -> None:
        """This process's share of table `tid`'s spectators is `n` now (live/watching.py:
        addresses, each counted by one process)."""
        self.counts.local(tid, n)

    def follows(self, tid: str) -> bool:
        return tid in self.conns.followers

    def _summary(self, table: Table) -> dict[str, Any]:
        entry = summary(table)
        entry["quick"] = quick(table.spec)
        if table.spec.rated:
            entry["rated"] = True
        return entry

    # ---- changes in, changes out ------------------------------------------------------------
    async def _put(self, entry: dict[str, Any], publish: bool) -> None:
        self._send(self.index.put(entry, self.filters))
        if publish:
            await self.shared.publish({"put": entry})

    async def _on_shared(self, msg: dict[str, Any]) -> None:
        filters = self.filters
        if "put" in msg:
            entry = msg["put"]
            if entry["id"] not in self.present_at:
                self.present_at[entry["id"]] = time.time()
            self._send(self.index.put(entry, filters))
        elif "gone" in msg:
            self.present_at.pop(msg["gone"], None)
            self._send(self.index.remove(msg["gone"], filters))
        elif "watch" in msg or "watching" in msg:
            self.counts.heard(msg)

    def _send(self, changes: dict[str | None, dict[str, Any]]) -> None:
        if not changes:
            return
        self.v += 1
        for game, change in changes.items():
            self.conns.send(game, dumps({"t": "change", "v": self.v, **change}))

    async def leave(self, tid: str, now: float) -> bool:
        """Take a table off the list, everywhere; False if it was not on it."""
        self.saving.drop(tid)
        left = await self.rows.leave(tid, now)
        self.present_at.pop(tid, None)
        self._send(self.index.remove(tid, self.filters))
        if left:
            await self.shared.publish({"gone": tid})
        return left

    # ---- what players do --------------------------------------------------------------------
    def snapshot(self, game: str | None) -> dict[str, Any]:
        return self.index.snapshot(game)

    async def attach(self, conn: LobbyConn) -> None:
        self.conns.add(conn)
        conn.send(dumps({"t": "lobby", "v": self.v, **self.index.snapshot(conn.game)}))

    def detach(self, conn: LobbyConn) -> None:
        conn.close()
        self.conns.remove(conn)

    async def follow(self, conn: LobbyConn, tids: list[str]) -> dict[str, Any]:
        """Follow these tables (they replace the ones followed before): their summaries now,
        and every change after. Unknown ids come back as `missing`."""
        wanted = set(tids[:FOLLOW_MOST])
        self.conns.unfollow(conn, conn.follows - wanted)
        found, missing = [], []
        for tid in sorted(wanted):
            try:
                table = await self.hub.get(tid)
            except ApiError:
                missing.append(tid)
                continue
            found.append(summary(table))
        self.conns.follow(conn, {e["id"] for e in found})
        return {"t": "mine", "tables": found, "missing": missing}

    # ---- housekeeping -----------------------------------------------------------------------
    async def sweep(self, now: float) -> None:
        """Listed tables still waiting whose seat holders left (none connected for 10
        minutes) or where nobody sat down (30 minutes) leave the list."""
        for entry in list(self.index.sections[OPEN].values()):
            tid = entry["id"]
            seated = [n for n, s in enumerate(entry["seats"]) if s["kind"] == "human"]
            seated = [n for n in seated if not entry["seats"][n]["free"]]
            if not seated:
                if now - entry["listed_at"] > NOBODY_SAT_S:
                    await self.leave(tid, now)
                continue
            connected = await self.hub.sockets.connected(tid, len(entry["seats"]))
            if any(connected[n] for n in seated):
                self.present_at[tid] = now
            elif now - self.present_at.get(tid, float(entry["listed_at"])) > CREATOR_GONE_S:
                await self.leave(tid, now)
        await self.counts.sweep()

    def health(self) -> dict[str, Any]:
        return {"listed": len(self.index), **self.conns.counts()}

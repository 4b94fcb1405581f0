"""The lobby's list in memory: the listed tables by section, and what changed for whom.

Pure, no IO. Each section shows its newest `SHOWN` entries and counts the rest. A change
to one table yields, per filter (all games, or one game), the message that brings a page
showing that filter up to date: the entries that changed or came into view (`up`), those
that left it (`gone`) and the counts. A filter whose view did not change gets nothing.
"""

from __future__ import annotations

import heapq
from typing import Any

from vertex.server.lobby.summary import FINISHED, LIVE, OPEN, SECTIONS

#: Entries a section shows (the rest are counted).
SHOWN = 50
#: Finished tables kept in memory, newest first (more than one page's worth per game).
FINISHED_KEPT = 300

_SINCE = {OPEN: "listed_at", LIVE: "started_at", FINISHED: "finished_at"}

Summary = dict[str, Any]
View = dict[str, list[str]]  # section -> ids shown, newest first


def _key(entry: Summary) -> float:
    return float(entry.get(_SINCE[entry["section"]]) or 0.0)


class LobbyIndex:
    def __init__(self) -> None:
        self.sections: dict[str, dict[str, Summary]] = {s: {} for s in SECTIONS}
        self.where: dict[str, str] = {}  # table id -> its section
        #: Spectators per table, per process (the sum is what the lobby shows).
        self.watch: dict[str, dict[str, int]] = {}
        #: At which of this process's sweeps each other process last told its counts.
        self.heard: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self.where)

    def get(self, tid: str) -> Summary | None:
        section = self.where.get(tid)
        return None if section is None else self.sections[section][tid]

    # ---- views ------------------------------------------------------------------------------
    def _shown(self, section: str, game: str | None) -> list[Summary]:
        entries = self.sections[section].values()
        if game is not None:
            entries = [e for e in entries if e["game"] == game]  # type: ignore[assignment]
        return heapq.nlargest(SHOWN, entries, key=_key)

    def counts(self, game: str | None) -> dict[str, int]:
        if game is None:
            return {s: len(self.sections[s]) for s in SECTIONS}
        return {s: sum(e["game"] == game for e in self.sections[s].values()) for s in SECTIONS}

    def snapshot(self, game: str | None) -> dict[str, Any]:
        """The three sections as a page shows them (newest first) and their full counts."""
        out: dict[str, Any] = {s: self._shown(s, game) for s in SECTIONS}
        out["counts"] = self.counts(game)
        return out

    def _view(self, game: str | None) -> tuple[View, dict[str, int]]:
        return {s: [e["id"] for e in self._shown(s, game)] for s in SECTIONS}, self.counts(game)

    # ---- changes ----------------------------------------------------------------------------
    def put(self, entry: Summary, filters: list[str | None]) -> dict[str | None, Summary]:
        """Add or update a listed table (an entry whose `section` is None leaves the list);
        the change message per filter of `filters` whose view changed."""
        tid = entry["id"]
        old = self.get(tid)
        if old is not None and old.get("v", 0) > entry.get("v", 0):
            return {}  # an older summary that arrived late
        return self._change(tid, entry, filters)

    def remove(self, tid: str, filters: list[str | None]) -> dict[str | None, Summary]:
        if tid not in self.where:
            return {}
        return self._change(tid, None, filters)

    def set_watching(
        self, tid: str, worker: str, n: int, filters: list[str | None]
    ) -> dict[str | None, Summary]:
        counts = self.watch.setdefault(tid, {})
        if n:
            counts[worker] = n
        else:
            counts.pop(worker, None)
        if not counts:
            del self.watch[tid]
        entry = self.get(tid)
        if entry is None or entry.get("watching") == self.watching(tid):
            return {}
        return self._change(tid, dict(entry), filters)

    def watching(self, tid: str) -> int:
        return sum(self.watch.get(tid, {}).values())

    def counts_of(self, worker: str) -> dict[str, int]:
        """One process's spectators, per table where it has any."""
        return {tid: c[worker] for tid, c in self.watch.items() if worker in c}

    def silent(self, sweep: int, after: int, keep: str) -> list[str]:
        """The processes not heard from in the last `after` sweeps (never `keep`, this
        one), forgotten as they are named."""
        gone = [w for w, at in self.heard.items() if w != keep and sweep - at > after]
        for worker in gone:
            del self.heard[worker]
        return gone

    def _change(
        self, tid: str, entry: Summary | None, filters: list[str | None]
    ) -> dict[str | None, Summary]:
        old = self.get(tid)
        games = {e["game"] for e in (old, entry) if e is not None}
        wanted = [f for f in filters if f is None or f in games]
        before = {f: self._view(f) for f in wanted}
        self._drop(tid)
        if entry is not None and entry.get("section") is not None:
            entry["watching"] = self.watching(tid)
            self.sections[entry["section"]][tid] = entry
            self.where[tid] = entry["section"]
            if entry["section"] == FINISHED:
                self._trim_finished()
        else:
            self.watch.pop(tid, None)
        out: dict[str | None, Summary] = {}
        for f in wanted:
            (was, was_counts), (now, counts) = before[f], self._view(f)
            shown_before = {i for ids in was.values() for i in ids}
            shown_now = {i for ids in now.values() for i in ids}
            up = [i for i in shown_now if i not in shown_before or i == tid]
            gone = sorted(shown_before - shown_now)
            if tid in shown_before and tid not in shown_now and tid not in gone:
                gone.append(tid)
            if not up and not gone and counts == was_counts:
                continue
            entries = [self.get(i) for i in up]
            out[f] = {"up": [e for e in entries if e is not None], "gone": gone, "counts": counts}
        return out

    def _drop(self, tid: str) -> None:
        section = self.where.pop(tid, None)
        if section is not None:
            del self.sections[section][tid]

    def _trim_finished(self) -> None:
        finished = self.sections[FINISHED]
        if len(finished) <= FINISHED_KEPT:
            return
        for entry in heapq.nsmallest(len(finished) - FINISHED_KEPT, finished.values(), key=_key):
            self._drop(entry["id"])
            self.watch.pop(entry["id"], None)

    def oldest_quick(self, game: str) -> list[Summary]:
        """Open tables of `game` waiting for one more player, oldest first (Play now)."""
        found = [
            e
            for e in self.sections[OPEN].values()
            if e["game"] == game and e.get("quick") and e["free_seats"] == 1 and not e.get("pool")
        ]
        return sorted(found, key=_key)

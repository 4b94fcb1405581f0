"""A finished table's players' records, written exactly once: the result row, the ratings
of a rated table, the counts and each player's history row, and the table's status, in ONE
transaction whose last statement inserts the result keyed by the table's id.

The key decides everything: a second writer (another process that saw the same end, or
this one replaying the log after a crash) finds the row, rolls back all it wrote and reads
what the first wrote. On PostgreSQL the ratings a writer reads are locked (an upsert, the
players in a fixed order: no deadlock), so a second writer of the same table waits for the
first's commit, and two tables ending at once for the same player both count.

Anti-farming (the report's NOTES): a rated table does not count when two of its players
sat from one address (finished.py), when it was aborted, or past `PAIR_PER_DAY` rated
games between the same two players in a day (any order, any pool).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import case, delete, literal, select, true, union_all, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection

from vertex.server.storage.database import Database
from vertex.server.storage.schema import (
    player_games_t,
    player_seats_t,
    players_t,
    ratings_t,
    results_t,
    stored_json,
    tables_t,
)
from vertex.server.table import ratings
from vertex.server.table.finished import Finished

#: Rated games a day between the same two players that count.
PAIR_PER_DAY = 3
DAY_S = 86_400.0


@dataclass(frozen=True)
class Outcome:
    """What the result row says: the rating changes of a rated table ([{seat, before,
    after}]) or why a rated one did not count."""

    rated: bool
    ratings: list[dict[str, int]] | None
    unrated: str | None

    def result_fields(self) -> dict[str, Any]:
        """What a table's public result shows of it."""
        out: dict[str, Any] = {}
        if self.ratings is not None:
            out["ratings"] = self.ratings
        if self.unrated is not None:
            out["unrated"] = self.unrated
        return out


def _outcome(row: Any) -> Outcome:
    return Outcome(
        bool(row.rated), None if row.ratings is None else json.loads(row.ratings), row.unrated
    )


class Results:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def record(self, f: Finished, status: str) -> Outcome:
        """Write a finished table's records once, and its `status` in the same transaction
        (one commit: a guest's ending has that one too); what the result row says. The
        status is what says the records are done: a crash before the commit leaves the
        old one, and the table's next load writes them (repository.py)."""
        return await self.db.writing(self._record, f, status)

    async def of(self, tid: str) -> Outcome | None:
        def run() -> Outcome | None:
            with self.db.engine.connect() as conn:
                row = conn.execute(select(results_t).where(results_t.c.table_id == tid)).first()
            return None if row is None else _outcome(row)

        return await self.db.reading(run)

    def _insert(self, table: Any) -> Any:
        return (sqlite_insert if self.db.sqlite else pg_insert)(table)

    def _rows(self, table: Any, rows: list[dict[str, Any]]) -> Any:
        """An insert of `rows` as a SELECT of typed parameters: unlike `.values([...])`,
        SQLAlchemy caches its compiled form (compiling it took more than the round trip)."""
        names = list(rows[0])
        each = [
            # (WHERE true: SQLite's upsert after INSERT … SELECT needs one, to parse)
            select(*(literal(r[n], table.c[n].type).label(n) for n in names)).where(true())
            for r in rows
        ]
        return self._insert(table).from_select(
            names, each[0] if len(each) == 1 else union_all(*each)
        )

    def _record(self, f: Finished, status: str) -> Outcome:
        try:
            with self.db.engine.begin() as conn:
                return self._write(conn, f, status)
        except _Taken:
            # written already (another process, or before a crash): what it wrote
            with self.db.engine.begin() as conn:
                conn.execute(_status(f.table_id, status))
                row = conn.execute(
                    select(results_t).where(results_t.c.table_id == f.table_id)
                ).one()
            return _outcome(row)

    def _write(self, conn: Connection, f: Finished, status: str) -> Outcome:
        """Read what the records need (a rated table's ratings, locked), then write them
        all, the result row last: the key. Its insert finds the row of a writer that got
        there first (on PostgreSQL it waits for that writer's commit), and then the whole
        transaction rolls back (_Taken).

        On PostgreSQL the writes go in ONE statement (each a data-modifying WITH of the
        result's insert): the ending move's path waits for one round trip, not six."""
        unrated = f.unrated
        changes: dict[int, tuple[float, float, float, float]] = {}
        if f.rated and f.pool is not None:
            if self._pair_limit(conn, f):
                unrated = "daily-limit"
            else:
                changes = self._rate(conn, f, f.pool)
        shown = [
            {"seat": s, "before": round(b[0]), "after": round(b[2])}
            for s, b in sorted(changes.items())
        ]
        out = Outcome(bool(changes), shown if changes else None, unrated)
        writes: list[Any] = [
            _status(f.table_id, status),
            # the table's seats leave the players' open tables
            delete(player_seats_t).where(player_seats_t.c.table_id == f.table_id),
            *self._history(f, changes),
        ]
        if changes and f.pool is not None:
            writes.append(_new_ratings(f, f.pool, changes))
        row = self._insert(results_t).values(
            table_id=f.table_id,
            ended_at=f.ended_at,
            rated=int(out.rated),
            ratings=None if out.ratings is None else stored_json(out.ratings),
            unrated=unrated,
        )
        # RETURNING says whether this insert made the row (psycopg's rowcount is -1)
        last = row.on_conflict_do_nothing().returning(results_t.c.table_id)
        if self.db.sqlite:  # (a file in this process: a statement costs no round trip)
            for w in writes:
                conn.execute(w)
        else:
            last = last.add_cte(*(w.cte(f"w{n}") for n, w in enumerate(writes)))
        if conn.execute(last).first() is None:
            raise _Taken
        return out

    def _pair_limit(self, conn: Connection, f: Finished) -> bool:
        """Have two of the players played `PAIR_PER_DAY` rated games together in the day
        before this one?"""
        c = player_games_t.c
        ids = [s.player for s in f.players if s.player is not None]
        rows = conn.execute(  # one query for all the players (a statement fewer a player)
            select(c.player_id, c.summary).where(
                c.player_id.in_(ids), c.rated == 1, c.ended_at > f.ended_at - DAY_S
            )
        )
        met: dict[tuple[str, str], int] = {}
        for row in rows:
            for o in json.loads(row.summary).get("opponents", []):
                if o.get("player") in ids:
                    pair = (row.player_id, o["player"])
                    met[pair] = met.get(pair, 0) + 1
        return any(n >= PAIR_PER_DAY for n in met.values())

    def _rate(
        self, conn: Connection, f: Finished, pool: str
    ) -> dict[int, tuple[float, float, float, float]]:
        """Per seat: (mu, sigma) before and after (written with the other records)."""
        seats = f.players
        ids = sorted({s.player for s in seats if s.player is not None})
        c = ratings_t.c
        # one statement locks every row (a newcomer's made first) and reads it: the players
        # in a fixed order, so two tables ending at once for one player cannot deadlock
        fresh: dict[str, Any] = {"mu": ratings.MU, "sigma": ratings.SIGMA, "pool": pool}
        fresh.update(games=0, wins=0, draws=0, losses=0, last_at=f.ended_at)
        rows = self._rows(ratings_t, [{**fresh, "player_id": pid} for pid in ids])
        lock = rows.on_conflict_do_update(
            index_elements=[c.player_id, c.pool], set_={"mu": c.mu}
        ).returning(c.player_id, c.mu, c.sigma)
        now = {r.player_id: (r.mu, r.sigma) for r in conn.execute(lock)}
        before = [now[s.player] for s in seats if s.player is not None]
        after = ratings.rate(before, [f.ranks[s.seat] for s in seats])
        return {
            s.seat: (b[0], b[1], a[0], a[1]) for s, b, a in zip(seats, before, after, strict=True)
        }

    def _history(
        self, f: Finished, changes: dict[int, tuple[float, float, float, float]]
    ) -> list[Any]:
        """Each player's row of this game (one statement for all), and their counts."""
        rows = []
        for s in f.players:
            opponents = [
                {"seat": o.seat, "player": o.player, "name": o.name, "kind": o.kind}
                for o in f.seats
                if o.seat != s.seat
            ]
            change = changes.get(s.seat)
            summary = {
                "options": f.options,
                "scores": f.scores,
                "opponents": opponents,
                "unrated": None if change else (f.unrated or ("daily-limit" if f.rated else None)),
            }
            rows.append(
                {
                    "player_id": s.player,
                    "table_id": f.table_id,
                    "seat": s.seat,
                    "game": f.game,
                    "pool": f.pool,
                    "rated": int(change is not None),
                    "ended_at": f.ended_at,
                    "result": f.outcome(s.seat),
                    "before": None if change is None else round(change[0]),
                    "after": None if change is None else round(change[2]),
                    "summary": stored_json(summary),
                }
            )
        p = players_t.c
        results = {str(r["player_id"]): str(r["result"]) for r in rows}
        return [
            self._rows(player_games_t, rows).on_conflict_do_nothing(),
            update(players_t)
            .where(p.id.in_(list(results)))
            .values(
                games=p.games + 1,
                wins=p.wins + _per_player(p.id, results, "win"),
                draws=p.draws + _per_player(p.id, results, "draw"),
                losses=p.losses + _per_player(p.id, results, "loss"),
            ),
        ]


def _status(tid: str, status: str) -> Any:
    return update(tables_t).where(tables_t.c.id == tid).values(status=status)


def _per_player(key: Any, values: dict[str, Any], result: str | None = None) -> Any:
    """One value a player in one statement: each player's, or, given `result`, 1 for the
    players whose game ended so, else 0."""
    if result is not None:
        values = {pid: int(r == result) for pid, r in values.items()}
    return case(values, value=key)


def _new_ratings(
    f: Finished, pool: str, changes: dict[int, tuple[float, float, float, float]]
) -> Any:
    """The players' ratings after the game, and their counts, in one statement."""
    c = ratings_t.c
    players = {s.seat: str(s.player) for s in f.players}
    mu = {players[seat]: a[2] for seat, a in changes.items()}
    sigma = {players[seat]: a[3] for seat, a in changes.items()}
    results = {players[seat]: f.outcome(seat) for seat in changes}
    return (
        update(ratings_t)
        .where(c.pool == pool, c.player_id.in_(list(results)))
        .values(
            mu=_per_player(c.player_id, mu),
            sigma=_per_player(c.player_id, sigma),
            games=c.games + 1,
            wins=c.wins + _per_player(c.player_id, results, "win"),
            draws=c.draws + _per_player(c.player_id, results, "draw"),
            losses=c.losses + _per_player(c.player_id, results, "loss"),
            last_at=f.ended_at,
        )
    )


class _Taken(Exception):
    """Another writer recorded this table first: roll back what this one wrote."""

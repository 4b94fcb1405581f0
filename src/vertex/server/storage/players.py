"""Players in the store: names and key hashes, the seats they hold, their finished games,
ratings and the leaderboards (the tables: schema.py; written once a table: results.py).

A key is never here, only its sha256 (players/keys.py). Every read a page makes is one
indexed query: a profile's games are a range of (player, ended_at, table), a leaderboard
one of (pool, mu).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, or_, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from vertex.server.storage.player_seats import PlayerSeats, SeatRow
from vertex.server.storage.schema import (
    player_games_t,
    player_seats_t,
    players_t,
    ratings_t,
)

__all__ = ["PAGE", "PlayerRow", "Players", "RatingRow", "SeatRow"]

#: Games on a profile's page.
PAGE = 50
#: A leaderboard: at most this many, with at least `BOARD_GAMES` games in the pool, played
#: in the last `BOARD_DAYS` days.
BOARD = 100
BOARD_GAMES = 10
BOARD_DAYS = 60


@dataclass(frozen=True)
class PlayerRow:
    id: str
    name: str
    since: float
    games: int
    wins: int
    draws: int
    losses: int


@dataclass(frozen=True)
class RatingRow:
    player_id: str
    pool: str
    mu: float
    sigma: float
    games: int
    wins: int
    draws: int
    losses: int
    last_at: float


def _player(row: Any) -> PlayerRow:
    return PlayerRow(row.id, row.name, row.since, row.games, row.wins, row.draws, row.losses)


def _rating(row: Any) -> RatingRow:
    return RatingRow(
        row.player_id,
        row.pool,
        row.mu,
        row.sigma,
        row.games,
        row.wins,
        row.draws,
        row.losses,
        row.last_at,
    )


class Players(PlayerSeats):
    """Names, keys, ratings and histories; the seats' rows come from PlayerSeats."""

    # ---- identity -------------------------------------------------------------------------
    async def create(
        self, pid: str, name: str, name_key: str, skeleton: str, key_hash: str, now: float
    ) -> bool:
        """A new player; False when the name (or one that looks like it) is taken — the
        unique indexes decide, whichever process asks."""
        return await self.db.writing(
            self._create,
            dict(
                id=pid,
                name=name,
                name_key=name_key,
                skeleton=skeleton,
                key_hash=key_hash,
                since=now,
            ),
        )

    def _create(self, values: dict[str, Any]) -> bool:
        try:
            with self.db.engine.begin() as conn:
                conn.execute(players_t.insert().values(**values))
        except IntegrityError:
            return False
        return True

    async def by_key_hash(self, key_hash: str) -> PlayerRow | None:
        return await self.db.reading(self._one, players_t.c.key_hash == key_hash)

    async def by_name(self, name_key: str) -> PlayerRow | None:
        return await self.db.reading(self._one, players_t.c.name_key == name_key)

    def _one(self, where: Any) -> PlayerRow | None:
        with self.db.engine.connect() as conn:
            row = conn.execute(select(players_t).where(where, players_t.c.name.is_not(None)))
            found = row.first()
        return None if found is None else _player(found)

    async def replace_key(self, pid: str, old_hash: str, new_hash: str) -> bool:
        """The new key's hash in place of the old one; False if the old one is no longer
        the player's (replaced or forgotten meanwhile)."""

        def run(conn: Connection) -> bool:
            c = players_t.c
            done = conn.execute(
                update(players_t)
                .where(c.id == pid, c.key_hash == old_hash)
                .values(key_hash=new_hash)
            )
            return bool(done.rowcount)

        return await self.db.writing(self._tx, run)

    async def forget(self, pid: str, key_hash: str, now: float) -> bool:
        """Free the name, drop the key and the seats' list; the games stay, under "former
        player"."""

        def run(conn: Connection) -> bool:
            c = players_t.c
            done = conn.execute(
                update(players_t)
                .where(c.id == pid, c.key_hash == key_hash)
                .values(name=None, name_key=None, skeleton=None, key_hash=None, forgotten=now)
            )
            conn.execute(delete(player_seats_t).where(player_seats_t.c.player_id == pid))
            return bool(done.rowcount)

        return await self.db.writing(self._tx, run)

    async def names(self, ids: list[str]) -> dict[str, str | None]:
        """Each player's name now (None: forgotten)."""
        if not ids:
            return {}

        def run(conn: Connection) -> dict[str, str | None]:
            q = select(players_t.c.id, players_t.c.name).where(players_t.c.id.in_(sorted(set(ids))))
            return {r.id: r.name for r in conn.execute(q)}

        return await self.db.reading(self._conn, run)

    # ---- ratings and history -------------------------------------------------------------------
    async def ratings_of(self, pid: str) -> list[RatingRow]:
        def run(conn: Connection) -> list[RatingRow]:
            q = select(ratings_t).where(ratings_t.c.player_id == pid).order_by(ratings_t.c.pool)
            return [_rating(r) for r in conn.execute(q)]

        return await self.db.reading(self._conn, run)

    async def rating(self, pid: str, pool: str) -> RatingRow | None:
        def run(conn: Connection) -> RatingRow | None:
            c = ratings_t.c
            row = conn.execute(select(ratings_t).where(c.player_id == pid, c.pool == pool))
            found = row.first()
            return None if found is None else _rating(found)

        return await self.db.reading(self._conn, run)

    async def games(
        self, pid: str, game: str | None, cursor: tuple[float, str] | None, limit: int = PAGE
    ) -> list[dict[str, Any]]:
        """A page of the player's finished games, newest first, after `cursor` (the last
        one's (ended_at, table_id) of the page before)."""

        def run(conn: Connection) -> list[dict[str, Any]]:
            c = player_games_t.c
            q = select(player_games_t).where(c.player_id == pid)
            if game is not None:
                q = q.where(c.game == game)
            if cursor is not None:
                at, tid = cursor
                q = q.where(or_(c.ended_at < at, and_(c.ended_at == at, c.table_id < tid)))
            q = q.order_by(c.ended_at.desc(), c.table_id.desc()).limit(limit)
            out = []
            for r in conn.execute(q):
                row = dict(r._mapping)
                row["summary"] = json.loads(row["summary"])
                out.append(row)
            return out

        return await self.db.reading(self._conn, run)

    async def leaderboard(self, pool: str, now: float) -> list[tuple[str, RatingRow]]:
        """(name, rating) of the best players of a pool, best first."""

        def run(conn: Connection) -> list[tuple[str, RatingRow]]:
            r, p = ratings_t.c, players_t.c
            q = (
                select(ratings_t, p.name)
                .join(players_t, p.id == r.player_id)
                .where(
                    r.pool == pool,
                    r.last_at >= now - BOARD_DAYS * 86400,
                    r.games >= BOARD_GAMES,
                    p.name.is_not(None),
                )
                .order_by(r.mu.desc(), r.player_id)
                .limit(BOARD)
            )
            return [(row.name, _rating(row)) for row in conn.execute(q)]

        return await self.db.reading(self._conn, run)

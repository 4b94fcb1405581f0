"""The puzzles' tables and their reads and writes (SQLAlchemy Core, sync; run them through
`Database.reading`/`writing`).

The shipped set stays in the package (read at start, the same in every process); the store
keeps what changes or is found on the site: mined puzzles, every puzzle's rating, players'
puzzle ratings and their attempts. An attempt's key is (player, puzzle): a player's first
finished attempt at a puzzle rates both, in one transaction, and a replay of it — from any
process — hits the key and stores nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Float, Index, Integer, String, Table, Text, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from vertex.puzzles.model import Puzzle
from vertex.server.storage.schema import metadata
from vertex.server.table import ratings

puzzles_t = Table(
    "vertex_puzzles",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("pool", String(64), nullable=False),
    Column("data", Text, nullable=False),
    Column("source", String(16), nullable=False),
    Column("created_at", Float, nullable=False),
    Index("ix_vertex_puzzles_pool", "pool", "created_at"),
)

#: Every rated puzzle's rating (shipped or mined): the row appears at its first rated attempt.
puzzle_ratings_t = Table(
    "vertex_puzzle_ratings",
    metadata,
    Column("puzzle_id", String(16), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
)

#: A player's puzzle rating (one pool for every game: puzzles are puzzles).
puzzle_players_t = Table(
    "vertex_puzzle_players",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("attempts", Integer, nullable=False),
    Column("solved", Integer, nullable=False),
    Column("last_at", Float, nullable=False),
)

puzzle_attempts_t = Table(
    "vertex_puzzle_attempts",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("puzzle_id", String(16), primary_key=True),
    Column("solved", Integer, nullable=False),
    Column("before", Float, nullable=False),
    Column("after", Float, nullable=False),
    Column("at", Float, nullable=False),
)


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float
    attempts: int = 0
    solved: int = 0


def add_puzzle(conn: Connection, puzzle: Puzzle, pool: str, now: float) -> bool:
    """Store a mined puzzle; False when that position (its id) is there already."""
    try:
        with conn.begin_nested():
            conn.execute(
                puzzles_t.insert().values(
                    id=puzzle.id,
                    game=puzzle.game,
                    pool=pool,
                    data=puzzle.line(),
                    source=puzzle.source,
                    created_at=now,
                )
            )
    except IntegrityError:
        return False
    return True


def mined(conn: Connection, limit: int = 5000) -> list[Puzzle]:
    rows = conn.execute(select(puzzles_t.c.data).order_by(puzzles_t.c.created_at).limit(limit))
    return [Puzzle.from_json(json.loads(r.data)) for r in rows]


def one(conn: Connection, pid: str) -> Puzzle | None:
    row = conn.execute(select(puzzles_t.c.data).where(puzzles_t.c.id == pid)).first()
    return None if row is None else Puzzle.from_json(json.loads(row.data))


def puzzle_rating(conn: Connection, pid: str) -> Rating | None:
    t = puzzle_ratings_t.c
    row = conn.execute(select(puzzle_ratings_t).where(t.puzzle_id == pid)).first()
    return None if row is None else Rating(row.mu, row.sigma, row.attempts, row.solved)


def player_rating(conn: Connection, player: str) -> Rating | None:
    t = puzzle_players_t.c
    row = conn.execute(select(puzzle_players_t).where(t.player_id == player)).first()
    return None if row is None else Rating(row.mu, row.sigma, row.attempts, row.solved)


def attempted(conn: Connection, player: str, pid: str) -> dict[str, Any] | None:
    t = puzzle_attempts_t.c
    row = conn.execute(
        select(puzzle_attempts_t).where(t.player_id == player, t.puzzle_id == pid)
    ).first()
    if row is None:
        return None
    return {"solved": bool(row.solved), "before": row.before, "after": row.after}


def record_attempt(
    conn: Connection,
    player: str,
    pid: str,
    solved: bool,
    player_before: Rating,
    player_after: Rating,
    puzzle_after: Rating,
    puzzle_known: bool,
    player_known: bool,
    now: float,
) -> bool:
    """The attempt and both new ratings in one transaction; False (nothing written) when
    this player's attempt at this puzzle is stored already."""
    try:
        with conn.begin_nested():
            conn.execute(
                puzzle_attempts_t.insert().values(
                    player_id=player,
                    puzzle_id=pid,
                    solved=int(solved),
                    before=player_before.mu,
                    after=player_after.mu,
                    at=now,
                )
            )
    except IntegrityError:
        return False
    won = int(solved)
    p = puzzle_players_t.c
    if player_known:
        conn.execute(
            update(puzzle_players_t)
            .where(p.player_id == player)
            .values(
                mu=player_after.mu,
                sigma=player_after.sigma,
                attempts=p.attempts + 1,
                solved=p.solved + won,
                last_at=now,
            )
        )
    else:
        conn.execute(
            puzzle_players_t.insert().values(
                player_id=player,
                mu=player_after.mu,
                sigma=player_after.sigma,
                attempts=1,
                solved=won,
                last_at=now,
            )
        )
    q = puzzle_ratings_t.c
    if puzzle_known:
        conn.execute(
            update(puzzle_ratings_t)
            .where(q.puzzle_id == pid)
            .values(
                mu=puzzle_after.mu,
                sigma=puzzle_after.sigma,
                attempts=q.attempts + 1,
                solved=q.solved + won,
            )
        )
    else:
        conn.execute(
            puzzle_ratings_t.insert().values(
                puzzle_id=pid, mu=puzzle_after.mu, sigma=puzzle_after.sigma, attempts=1, solved=won
            )
        )
    return True


def rate_attempt(
    conn: Connection, puzzle: Puzzle, player: str, solved: bool, now: float
) -> dict[str, Any]:
    """A player's finished attempt, rated as a two-seat game (solved: the player wins) in the
    caller's transaction: `{rating, rating_change?, rated}`. A replay (an attempt of this
    player at this puzzle stored already) gives the first one's rating and writes nothing."""
    before = attempted(conn, player, puzzle.id)
    if before is not None:
        return {"rating": round(before["after"]), "rated": False}
    mine = player_rating(conn, player)
    theirs = puzzle_rating(conn, puzzle.id)
    p0 = mine or Rating(ratings.MU, ratings.SIGMA)
    q0 = theirs or Rating(puzzle.rating, ratings.SIGMA / 2)
    (pm, ps), (qm, qs) = ratings.rate(
        [(p0.mu, p0.sigma), (q0.mu, q0.sigma)], [1, 2] if solved else [2, 1]
    )
    wrote = record_attempt(
        conn,
        player,
        puzzle.id,
        solved,
        p0,
        Rating(pm, ps),
        Rating(qm, qs),
        theirs is not None,
        mine is not None,
        now,
    )
    if not wrote:
        return {"rating": round(p0.mu), "rated": False}
    return {"rating": round(pm), "rating_change": round(pm - p0.mu), "rated": True}

"""Which puzzle comes next, from the store's index (issue 35): one row per puzzle and
choice it answers, and one query to pick.

A choice is a scope — a pool (`dots-and-boxes-4x4`: the game and its board) or a game id
(any board of it) — and a theme (`""`: any). Every puzzle, shipped or mined, has a row per
scope and theme it belongs to, each with a random `pick` key in [0, 1); the index
(scope, theme, pick) lets `next` walk from a random point: `pick >= r ORDER BY pick LIMIT
n`, and from the start when fewer follow (a second query). A player's pick leaves out the
puzzles they tried (their attempts joined on the key) and carries each puzzle's rating, so
the nearest to theirs is chosen from the few read; nothing reads the pool whole.

The shipped set's rows are written by the first process that asks (`seed_shipped`: those
missing added, those no longer shipped dropped); a mined puzzle's with the puzzle.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Column, Float, Index, Integer, String, Table, and_, delete, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection

from vertex.puzzles.model import Puzzle, pool_name
from vertex.server.puzzles.rows import puzzle_attempts_t, puzzle_ratings_t, puzzles_t
from vertex.server.storage.schema import metadata

#: The theme of the rows that answer "any theme".
ANY = ""

picks_t = Table(
    "vertex_puzzle_picks",
    metadata,
    Column("scope", String(64), primary_key=True),  # a pool, or a game id (any board)
    Column("theme", String(32), primary_key=True),  # a theme, or "" (any)
    Column("puzzle_id", String(16), primary_key=True),
    Column("pick", Float, nullable=False),  # random in [0, 1): the order `next` walks
    Column("shipped", Integer, nullable=False),  # 1: a puzzle of the package's set
    Index("ix_vertex_puzzle_picks_pick", "scope", "theme", "pick"),
)


@dataclass(frozen=True)
class Picked:
    """A puzzle picked: its id, its stored JSON (mined ones; None for a shipped one, which
    the process has) and its rating where attempts have moved it."""

    puzzle_id: str
    data: str | None
    mu: float | None

    def puzzle(self) -> Puzzle | None:
        return None if self.data is None else Puzzle.from_json(json.loads(self.data))


def scopes(puzzle: Puzzle) -> tuple[str, ...]:
    """The choices' scopes a puzzle answers: its pool and its game (one for Juxtapose)."""
    return tuple(dict.fromkeys((pool_name(puzzle.game, puzzle.options), puzzle.game)))


def pick_rows(puzzle: Puzzle, shipped: bool, rng: random.Random) -> list[dict[str, Any]]:
    themes = (ANY, *dict.fromkeys(t for t in puzzle.themes if t))
    return [
        {
            "scope": scope,
            "theme": theme,
            "puzzle_id": puzzle.id,
            "pick": rng.random(),
            "shipped": int(shipped),
        }
        for scope in scopes(puzzle)
        for theme in themes
    ]


def add_rows(conn: Connection, rows: list[dict[str, Any]], sqlite: bool) -> None:
    """Insert pick rows; those there already (another process's) are kept as they are."""
    if rows:
        insert = sqlite_insert if sqlite else pg_insert
        conn.execute(insert(picks_t).on_conflict_do_nothing(), rows)


def seed_shipped(conn: Connection, shipped: Iterable[Puzzle], sqlite: bool) -> int:
    """The shipped set's rows brought up to date (a process's first pick; every process may
    do it at once): missing ones added, those of puzzles no longer shipped dropped. The
    count of puzzles added."""
    k = picks_t.c
    known = {
        r.puzzle_id
        for r in conn.execute(select(k.puzzle_id).distinct().where(k.shipped == 1, k.theme == ANY))
    }
    every = {p.id: p for p in shipped}
    gone = known - every.keys()
    if gone:
        conn.execute(delete(picks_t).where(k.shipped == 1, k.puzzle_id.in_(sorted(gone))))
    rng = random.Random()
    fresh = [p for pid, p in every.items() if pid not in known]
    add_rows(conn, [r for p in fresh for r in pick_rows(p, True, rng)], sqlite)
    return len(fresh)


def pick(
    conn: Connection,
    scope: str,
    theme: str,
    at: float,
    n: int = 1,
    after: str | None = None,
    player: str | None = None,
) -> list[Picked]:
    """Up to `n` puzzles of the scope and theme from the random point `at` on (wrapping to
    the start): one query, two when fewer than `n` follow `at`. With `player`, only those
    the player has not tried; `after` (the one just played) is left out."""
    k = picks_t.c
    joined = picks_t.outerjoin(puzzles_t, puzzles_t.c.id == k.puzzle_id).outerjoin(
        puzzle_ratings_t, puzzle_ratings_t.c.puzzle_id == k.puzzle_id
    )
    where = [k.scope == scope, k.theme == theme]
    if after:
        where.append(k.puzzle_id != after)
    if player is not None:
        a = puzzle_attempts_t.c
        joined = joined.outerjoin(
            puzzle_attempts_t, and_(a.puzzle_id == k.puzzle_id, a.player_id == player)
        )
        where.append(a.puzzle_id.is_(None))
    query = select(k.puzzle_id, puzzles_t.c.data, puzzle_ratings_t.c.mu).select_from(joined)
    got = list(conn.execute(query.where(*where, k.pick >= at).order_by(k.pick).limit(n)))
    if len(got) < n:
        got += conn.execute(query.where(*where, k.pick < at).order_by(k.pick).limit(n - len(got)))
    return [Picked(r.puzzle_id, r.data, r.mu) for r in got]

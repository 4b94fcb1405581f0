"""What a player's pages show: the profile, the games (by cursor), the tables they sit at,
a pool's leaderboard. Names of players forgotten since show as `name: null, former: true`.
"""

from __future__ import annotations

import base64
import binascii
import json
import time
from typing import Any

from vertex.server.errors import ApiError
from vertex.server.players.names import fold
from vertex.server.storage.players import PAGE, PlayerRow, RatingRow
from vertex.server.storage.store import Store
from vertex.server.table import ratings
from vertex.server.table.pools import BY_ID


def no_player(name: str) -> ApiError:
    return ApiError("no-player", "there is no player of that name", 404)


def rating_view(r: RatingRow) -> dict[str, Any]:
    return {
        "rating": round(r.mu),
        "deviation": round(r.sigma),
        "games": r.games,
        "provisional": ratings.provisional(r.sigma),
    }


async def find(store: Store, name: str) -> PlayerRow:
    if not 1 <= len(name) <= 200:
        raise no_player(name)
    row = await store.players.by_name(fold(name))
    if row is None:
        raise no_player(name)
    return row


async def profile(store: Store, row: PlayerRow) -> dict[str, Any]:
    rated = await store.players.ratings_of(row.id)
    seats = await store.players.seats_of(row.id)
    return {
        "name": row.name,
        "since": row.since,
        "ratings": {r.pool: rating_view(r) for r in rated},
        "counts": {
            "games": row.games,
            "wins": row.wins,
            "draws": row.draws,
            "losses": row.losses,
        },
        # whose turn a table is and a slow one's deadline are public at the table too
        "playing": [
            {
                "id": s.table_id,
                "game": s.game,
                "url": f"/tables/{s.table_id}",
                "their_turn": s.my_turn,
                "slow": s.slow,
                "deadline": s.deadline,
            }
            for s in seats
            if s.status == "playing"
        ],
    }


async def own_tables(store: Store, pid: str) -> dict[str, Any]:
    """`GET /api/players/me`'s additions: the open and playing tables, whose turn; `slow`
    (days a move) and, while a slow table plays, its `deadline` (epoch seconds: when the
    days of the seat to move run out)."""
    seats = await store.players.seats_of(pid)
    tables = [
        {
            "id": s.table_id,
            "game": s.game,
            "seat": s.seat,
            "status": s.status,
            "my_turn": s.my_turn,
            "url": f"/tables/{s.table_id}",
            "pool": s.pool,
            "slow": s.slow,
            "deadline": s.deadline,
        }
        for s in seats
    ]
    return {"tables": tables, "turns": [s.table_id for s in seats if s.my_turn]}


def _cursor(raw: str | None) -> tuple[float, str] | None:
    if raw is None or raw == "":
        return None
    try:
        at, tid = json.loads(base64.urlsafe_b64decode(raw.encode() + b"==").decode())
        if not isinstance(tid, str) or len(tid) > 40 or not isinstance(at, int | float):
            raise ValueError
    except (ValueError, TypeError, binascii.Error, UnicodeDecodeError):
        raise ApiError("bad-cursor", "that cursor is not one a page of games gave", 422) from None
    return float(at), tid


def _next(row: dict[str, Any]) -> str:
    raw = json.dumps([row["ended_at"], row["table_id"]], separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


async def games(
    store: Store, row: PlayerRow, game: str | None, cursor: str | None
) -> dict[str, Any]:
    if game is not None and len(game) > 64:
        raise ApiError("no-such-game", "there is no such game", 404)
    rows = await store.players.games(row.id, game or None, _cursor(cursor), PAGE + 1)
    more = len(rows) > PAGE
    rows = rows[:PAGE]
    ids = [o["player"] for r in rows for o in r["summary"]["opponents"] if o.get("player")]
    names = await store.players.names(ids)
    out = []
    for r in rows:
        s = r["summary"]
        opponents = []
        for o in s["opponents"]:
            view: dict[str, Any] = {"seat": o["seat"], "name": o["name"], "kind": o["kind"]}
            if o.get("player"):
                view["player"] = True
                now = names.get(o["player"])
                if now is None:
                    view["name"], view["former"] = None, True
                else:
                    view["name"] = now
            opponents.append(view)
        out.append(
            {
                "id": r["table_id"],
                "game": r["game"],
                "options": s["options"],
                "pool": r["pool"],
                "rated": bool(r["rated"]),
                "ended_at": r["ended_at"],
                "seat": r["seat"],
                "result": r["result"],
                "scores": s["scores"],
                "opponents": opponents,
                "rating": None
                if r["before"] is None
                else {"before": r["before"], "after": r["after"]},
                "url": f"/tables/{r['table_id']}",
            }
        )
    return {"games": out, "next": _next(rows[-1]) if more and rows else None}


async def leaderboard(store: Store, pool_id: str) -> dict[str, Any]:
    pool = BY_ID.get(pool_id)
    if pool is None:
        raise ApiError("no-pool", "there is no such rating pool", 404)
    rows = await store.players.leaderboard(pool.id, time.time())
    return {
        "pool": pool.id,
        "game": pool.game,
        "options": pool.options,
        "players": [
            {
                "rank": i + 1,
                "name": name,
                "rating": round(r.mu),
                "deviation": round(r.sigma),
                "games": r.games,
                "provisional": ratings.provisional(r.sigma),
            }
            for i, (name, r) in enumerate(rows)
        ],
    }

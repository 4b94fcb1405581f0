"""Rated Play now: a player key and a pool; players of similar rating meet first, the range
widening the longer one waits; never one's own address."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from tests.server.players.helpers import claim, from_, site
from vertex.server.lobby.rows import lobby_t
from vertex.server.storage.schema import make_engine, ratings_t

pytestmark = pytest.mark.timeout(120)

POOL = "dots-and-boxes-3x3"


def play_now(c: TestClient, key: str | None, address: str) -> Any:
    body = {"game": "dots-and-boxes", "pool": POOL}
    return c.post("/api/lobby/play-now", json=body, headers=from_(address, key))


def set_rating(tmp_path: Path, name_key: str, mu: float) -> None:
    """A player's rating in the pool, as if they had played."""
    from vertex.server.storage.schema import players_t

    engine = make_engine(f"sqlite:///{tmp_path / 'vertex.db'}")
    with engine.begin() as conn:
        pid = conn.execute(players_t.select().where(players_t.c.name_key == name_key)).one().id
        conn.execute(
            ratings_t.insert().values(
                player_id=pid,
                pool=POOL,
                mu=mu,
                sigma=200.0,
                games=20,
                wins=10,
                draws=0,
                losses=10,
                last_at=0.0,
            )
        )
    engine.dispose()


def test_rated_play_now_needs_a_key_and_a_pool(tmp_path: Path) -> None:
    with site(tmp_path) as c:
        r = play_now(c, None, "192.0.2.1")
        assert (r.status_code, r.json()["error"]["code"]) == (401, "no-key")
        key = claim(c, "Ann")
        body = {"game": "figures", "pool": POOL}
        r = c.post("/api/lobby/play-now", json=body, headers=from_("192.0.2.1", key))
        assert (r.status_code, r.json()["error"]["code"]) == (404, "no-pool")


def test_similar_ratings_meet_first_and_the_range_widens(tmp_path: Path) -> None:
    with site(tmp_path) as c:
        keys = {n: claim(c, n, f"192.0.2.{i + 1}") for i, n in enumerate(["Ann", "Bob", "Cid"])}
        set_rating(tmp_path, "ann", 1500)
        set_rating(tmp_path, "bob", 2100)
        set_rating(tmp_path, "cid", 1550)
        a = play_now(c, keys["Ann"], "192.0.2.1").json()
        assert a["waiting"] is True
        view = c.get(f"/api/tables/{a['id']}").json()
        assert view["rated"] is True and view["seats"][0]["rating"]["value"] == 1500
        b = play_now(c, keys["Bob"], "192.0.2.2").json()
        assert b["waiting"] is True and b["id"] != a["id"]  # 600 apart: not yet
        cid = play_now(c, keys["Cid"], "192.0.2.3").json()
        assert (cid["id"], cid["waiting"]) == (a["id"], False)  # 50 apart: at once
        # Bob has waited long: his range has widened to anyone
        engine = make_engine(f"sqlite:///{tmp_path / 'vertex.db'}")
        with engine.begin() as conn:
            conn.execute(update(lobby_t).where(lobby_t.c.table_id == b["id"]).values(listed_at=0.0))
        engine.dispose()
        dan = claim(c, "Dan", "192.0.2.4")
        d = play_now(c, dan, "192.0.2.4").json()
        assert (d["id"], d["waiting"]) == (b["id"], False)


def test_never_against_the_same_address(tmp_path: Path) -> None:
    with site(tmp_path) as c:
        ann, alt = claim(c, "Ann", "192.0.2.1"), claim(c, "Annalt", "192.0.2.1")
        first = play_now(c, ann, "192.0.2.1").json()
        second = play_now(c, alt, "192.0.2.1").json()
        assert second["waiting"] is True and second["id"] != first["id"]


def test_each_pool_of_a_game_matches_within_itself(tmp_path: Path) -> None:
    with site(tmp_path) as c:
        keys = [claim(c, n, f"192.0.2.{i + 1}") for i, n in enumerate(["Ann", "Bob", "Cid"])]

        def rated(key: str, address: str, pool: str) -> Any:
            body = {"game": "dots-and-boxes", "pool": pool}
            r = c.post("/api/lobby/play-now", json=body, headers=from_(address, key))
            assert r.status_code == 200, r.text
            return r.json()

        ann = rated(keys[0], "192.0.2.1", "dots-and-boxes-5x5")
        assert ann["waiting"] is True
        view = c.get(f"/api/tables/{ann['id']}").json()
        assert view["options"] == {**view["options"], "rows": 5, "cols": 5}
        assert view["rated"] is True
        bob = rated(keys[1], "192.0.2.2", "dots-and-boxes-3x3")  # another pool: not Ann's
        assert bob["waiting"] is True and bob["id"] != ann["id"]
        cid = rated(keys[2], "192.0.2.3", "dots-and-boxes-5x5")
        assert (cid["id"], cid["waiting"]) == (ann["id"], False)
        me = c.get("/api/players/me", headers=from_("192.0.2.3", keys[2])).json()
        assert [(t["id"], t["pool"]) for t in me["tables"]] == [(ann["id"], "dots-and-boxes-5x5")]

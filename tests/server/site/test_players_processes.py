"""Players on a site of two real `vertex serve` processes (PostgreSQL + Redis): a rated
game played on process A is rated exactly once, and B shows it at once — the players'
profiles, games and the pool's leaderboard — as does A.

Skipped (with the reason) when PostgreSQL or Redis is not reachable.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select, update

from tests.server.pg import another_database, drop_database
from tests.server.serve import ServeProcess
from tests.server.site.test_scaleout import REDIS, _reachable
from vertex.core.rng import Rng
from vertex.server.storage.schema import make_engine, ratings_t, results_t

pytestmark = [
    pytest.mark.skipif(bool(_reachable()), reason=_reachable() or ""),
    pytest.mark.timeout(240),
]

POOL = "dots-and-boxes-3x3"


@pytest.fixture
def two(tmp_path: Path) -> Iterator[tuple[ServeProcess, ServeProcess, str]]:
    url = another_database()  # a database of its own: names and boards start empty
    env = {
        "VERTEX_DATABASE_URL": url,
        "VERTEX_REDIS_URL": REDIS,
        "VERTEX_SITE": "players-" + secrets.token_hex(4),  # Redis keys of its own
        "VERTEX_TRUSTED_PROXIES": "127.0.0.1",  # the players' addresses: X-Forwarded-For
        "VERTEX_TABLES_PER_HOUR": "1000",
    }
    procs = [ServeProcess(tmp_path / f"p{i}.log", env=env) for i in range(2)]
    try:
        for p in procs:
            p.launch()
        for p in procs:
            p.wait_up()
        yield procs[0], procs[1], url
    finally:
        for p in procs:
            p.stop()
        drop_database(url)


def _h(address: str, key: str | None = None) -> dict[str, str]:
    out = {"X-Forwarded-For": address}
    if key is not None:
        out["Authorization"] = f"Bearer {key}"
    return out


def test_a_rated_game_on_a_is_rated_once_and_shows_on_b(
    two: tuple[ServeProcess, ServeProcess, str],
) -> None:
    a, b, url = two
    with httpx.Client(timeout=10) as http:
        keys = []
        for name, addr in (("Ann", "192.0.2.1"), ("Bob", "192.0.2.2")):
            r = http.post(a.url + "/api/players", json={"name": name}, headers=_h(addr))
            assert r.status_code == 201, r.text
            keys.append(r.json()["key"])
        r = http.post(b.url + "/api/players", json={"name": "ANN"}, headers=_h("192.0.2.3"))
        assert r.status_code == 409  # taken on A: taken on B
        body = {"game": "dots-and-boxes", "options": {"rows": 3, "cols": 3}, "rated": True}
        tid = http.post(a.url + "/api/tables", json=body, headers=_h("192.0.2.9")).json()["id"]
        tokens = []
        for n, (key, addr) in enumerate(zip(keys, ("192.0.2.1", "192.0.2.2"), strict=True)):
            r = http.post(f"{a.url}/api/tables/{tid}/seats/{n}", json={}, headers=_h(addr, key))
            assert r.status_code == 200, r.text
            tokens.append(r.json()["token"])
        rng = Rng.from_seed(7, "players-processes")
        view: dict[str, Any] = {}
        for _ in range(100):
            view = http.get(f"{a.url}/api/tables/{tid}").json()
            if view["state"]["is_over"]:
                break
            legal = view["state"]["legal_moves"]
            i, rng = rng.below(len(legal))
            move = {"token": tokens[view["state"]["to_move"][0]], "move": legal[i]}
            r = http.post(f"{a.url}/api/tables/{tid}/moves", json=move)
            assert r.status_code == 200, r.text
        assert view["state"]["is_over"]
        winner = view["result"]["winners"][0]
        on_a = view["result"]["ratings"]
        assert len(on_a) == 2
        # B: the table's result, the profiles and games, all at once (the store is shared)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            seen = http.get(f"{b.url}/api/tables/{tid}").json()
            if seen["result"] and seen["result"].get("ratings"):
                break
            time.sleep(0.1)
        assert seen["result"]["ratings"] == on_a
        names = ["Ann", "Bob"]
        for proc in (b, a):
            prof = http.get(f"{proc.url}/api/players/{names[winner]}").json()
            assert prof["ratings"][POOL]["rating"] == on_a[winner]["after"]
            assert prof["counts"]["games"] == 1
            games = http.get(f"{proc.url}/api/players/{names[1 - winner]}/games").json()
            assert [g["id"] for g in games["games"]] == [tid]
    # exactly once, whatever both processes did when they saw the end
    engine = make_engine(url)
    try:
        with engine.begin() as conn:
            assert conn.execute(select(func.count()).select_from(results_t)).scalar_one() == 1
            assert conn.execute(select(func.sum(ratings_t.c.games))).scalar_one() == 2
            # the leaderboard wants 10 games: as if nine more had been played (the
            # rating path is the one above; ten HTTP games would cost a minute)
            conn.execute(update(ratings_t).values(games=10))
    finally:
        engine.dispose()
    with httpx.Client(timeout=10) as http:
        board = http.get(f"{b.url}/api/leaderboard/{POOL}").json()
    expected = sorted(((r["after"], names[r["seat"]]) for r in on_a), reverse=True)
    assert [(p["rating"], p["name"]) for p in board["players"]] == expected

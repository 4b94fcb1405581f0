"""Scale-out mode: two workers on one PostgreSQL store and one Redis bus.

The workers are two app instances in this process, each with its own event loop, exactly as
two uvicorn workers would run them. Skipped (with the reason) when PostgreSQL or Redis is
not reachable.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

import vertex
from tests.eventually import eventually
from tests.server.conftest import recv_until
from tests.server.pg import PG
from tests.server.table.test_verticality import run_out
from vertex.server import Limits, Settings, create_app
from vertex.server.table import turns

REDIS = os.environ.get("VERTEX_TEST_REDIS", "redis://127.0.0.1:6379/0")


def _reachable() -> str | None:
    try:
        import psycopg

        psycopg.connect(PG.replace("+psycopg", ""), connect_timeout=2).close()
    except Exception as exc:
        return f"PostgreSQL at {PG} is not reachable: {exc}"
    try:
        import redis

        redis.Redis.from_url(REDIS, socket_connect_timeout=2).ping()
    except Exception as exc:
        return f"Redis at {REDIS} is not reachable: {exc}"
    return None


pytestmark = pytest.mark.skipif(bool(_reachable()), reason=_reachable() or "")


@pytest.fixture
def workers() -> Iterator[tuple[TestClient, TestClient]]:
    settings = Settings(
        database_url=PG,
        redis_url=REDIS,
        ai_executor="thread",
        ai_budget_s=0.02,
        limits=Limits(tables_per_hour=1_000_000),
        hand_over_grace_s=0.0,
    )
    with TestClient(create_app(settings)) as a, TestClient(create_app(settings)) as b:
        assert a.get("/healthz").json()["bus"] == "redis"
        yield a, b
    _forget_test_tables()


def _forget_test_tables() -> None:
    """Remove this test's tables from the shared database, so no later server restores them."""
    import redis
    from sqlalchemy import create_engine, delete, select

    from vertex.server.storage.schema import events_t, tables_t

    engine = create_engine(PG)
    with engine.begin() as conn:
        ids = select(tables_t.c.id).where(tables_t.c.creator == "testclient")
        gone = [r.id for r in conn.execute(ids)]
        conn.execute(delete(events_t).where(events_t.c.table_id.in_(ids)))
        conn.execute(delete(tables_t).where(tables_t.c.creator == "testclient"))
    engine.dispose()
    r = redis.Redis.from_url(REDIS)  # and their leases, so no process looks for them
    for tid in gone:
        r.zrem("vertex:leases", tid)
        r.delete(f"vertex:lease:{tid}", f"vertex:presence:{tid}")
    r.close()


def table(a: TestClient, b: TestClient, **body: Any) -> tuple[str, str, str]:
    r = a.post(
        "/api/tables", json={"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}, **body}
    )
    tid = r.json()["id"]
    ann = a.post(f"/api/tables/{tid}/seats/0", json={"name": "Ann"}).json()["token"]
    bob = b.post(f"/api/tables/{tid}/seats/1", json={"name": "Bob"}).json()["token"]
    return tid, ann, bob


def test_a_socket_on_one_worker_sees_moves_made_on_another(
    workers: tuple[TestClient, TestClient],
) -> None:
    a, b = workers
    tid, ann, bob = table(a, b)
    with b.websocket_connect(f"/ws/tables/{tid}?token={bob}") as ws:
        assert recv_until(ws, lambda m: m["t"] == "snapshot")["v"] == 2
        state = vertex.replay(a.get(f"/api/tables/{tid}/record").json())
        tokens = [ann, bob]
        for v in range(2, 6):
            seat = state.to_move[0]
            move = state.legal_moves()[0]  # type: ignore[index]
            web = a if v % 2 else b  # alternate the workers that take the moves
            r = web.post(
                f"/api/tables/{tid}/moves", json={"token": tokens[seat], "move": move, "version": v}
            )
            assert r.status_code == 200, r.text
            state = state.play(move, seat=seat)
            ev = recv_until(ws, lambda m, v=v: m["t"] == "event" and m["v"] == v + 1)
            assert ev["move"] == move and ev["state"] == state.to_dict()
    for web in (a, b):
        assert web.get(f"/api/tables/{tid}").json()["version"] == 6


def test_the_log_key_decides_races_between_workers(workers: tuple[TestClient, TestClient]) -> None:
    a, b = workers
    for _ in range(5):
        tid, ann, _bob = table(a, b)
        b.get(f"/api/tables/{tid}")  # both workers hold a copy at version 2
        results: list[int] = []
        start = threading.Barrier(2)

        def play(
            web: TestClient,
            move: str,
            tid: str = tid,
            ann: str = ann,
            start: threading.Barrier = start,
            results: list[int] = results,
        ) -> None:
            start.wait()
            body = {"token": ann, "move": move, "version": 2}
            results.append(web.post(f"/api/tables/{tid}/moves", json=body).status_code)

        threads = [
            threading.Thread(target=play, args=(a, "a1-b1")),
            threading.Thread(target=play, args=(b, "a3-b3")),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == [200, 409]
        moves = a.get(f"/api/tables/{tid}/record").json()["moves"]
        assert len(moves) == 1
        assert b.get(f"/api/tables/{tid}/record").json()["moves"] == moves


def test_a_computer_table_on_two_workers_finishes_once(
    workers: tuple[TestClient, TestClient],
) -> None:
    a, b = workers
    seats = [{"kind": "ai", "level": 1}, {"kind": "ai", "level": 1}]
    tid = a.post("/api/tables", json={"game": "dots-and-boxes", "seats": seats}).json()["id"]
    with b.websocket_connect(f"/ws/tables/{tid}") as ws:
        recv_until(ws, lambda m: m["t"] == "snapshot")
        view = b.get(f"/api/tables/{tid}").json()
        if view["result"] is None:
            recv_until(ws, lambda m: m.get("t") == "event" and bool(m.get("result")), limit=1000)
    rec = b.get(f"/api/tables/{tid}/record").json()
    assert vertex.replay(rec).is_over and len(rec["moves"]) == 24
    # one process owns the table and thinks for it: one think per computer move in all. On
    # a loaded machine a lease can lapse and the other process take over: the moves are
    # still each stored once (above), and the owner that lost its lease may have thought
    # once more for a move the store then refused (fencing), but no more than that.
    hubs = [web.app.state.hub for web in (a, b)]  # type: ignore[attr-defined]
    thinks = sorted(h.autoplay.thinks for h in hubs)
    assert thinks == [0, 24] or 24 <= sum(thinks) <= 26, thinks


def test_an_aim_taken_by_one_worker_drops_on_the_worker_with_the_clock(
    workers: tuple[TestClient, TestClient],
) -> None:
    a, b = workers
    body = {"game": "verticality", "options": {"players": 2, "step_seconds": 60}}
    tid = a.post("/api/tables", json=body).json()["id"]
    ann = a.post(f"/api/tables/{tid}/seats/0", json={"name": "Ann"}).json()["token"]
    a.post(f"/api/tables/{tid}/seats/1", json={"name": "Bob"})  # a wrote last: a has the clock
    assert b.get(f"/api/tables/{tid}").json()["version"] == 2  # b holds a copy too
    r = b.post(f"/api/tables/{tid}/aims", json={"token": ann, "move": "pyramid x=-7 y=4 rot=15"})
    assert r.status_code == 200, r.text
    held = a.app.state.hub.tables[tid]  # type: ignore[attr-defined]
    eventually(
        lambda: turns.held_aim(held, 0) is not None
    )  # the aim crosses over the bus, privately
    run_out(a, tid, (0, 1))
    # b learns of a's events over the bus, a moment later
    rec = eventually(
        lambda: b.get(f"/api/tables/{tid}/record").json(), until=lambda r: len(r["moves"]) == 2
    )
    assert rec["moves"][0]["seat"] == 0 and rec["moves"][0]["move"] == "pyramid x=-7 y=4 rot=15"
    assert len(rec["moves"]) == 2


def test_presence_is_one_for_the_site(workers: tuple[TestClient, TestClient]) -> None:
    a, b = workers
    tid, ann, bob = table(a, b)
    with a.websocket_connect(f"/ws/tables/{tid}?token={ann}") as ws:
        recv_until(ws, lambda m: m["t"] == "snapshot")
        # Ann is connected to a: b shows her there, and will not let Bob hand her seat over
        seats = eventually(
            lambda: b.get(f"/api/tables/{tid}").json()["seats"], until=lambda s: s[0]["connected"]
        )
        assert [s["connected"] for s in seats] == [True, False]
        body = {"token": bob, "action": "hand-over", "seat": 0, "level": 1}
        r = b.post(f"/api/tables/{tid}/actions", json=body)
        assert r.status_code == 409 and r.json()["error"]["code"] == "not-allowed"
        with b.websocket_connect(f"/ws/tables/{tid}?token={bob}") as ws_b:
            recv_until(ws_b, lambda m: m["t"] == "snapshot")
            # Bob on b: Ann's socket on a hears that he came
            recv_until(ws, lambda m: m["t"] == "presence" and m["connected"] == [True, True])
    seats = eventually(  # both gone
        lambda: a.get(f"/api/tables/{tid}").json()["seats"],
        until=lambda seats: not any(s["connected"] for s in seats),
    )
    assert [s["connected"] for s in seats] == [False, False]
    # now Ann is away, Bob may hand her seat to a computer
    r = b.post(f"/api/tables/{tid}/actions", json={**body})
    assert r.status_code == 200, r.text

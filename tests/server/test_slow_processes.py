"""Slow tables (days a move) on a site of two real `vertex serve` processes (PostgreSQL +
Redis): out of memory on both soon after their last request, woken by a move on either,
and, when their deadline comes, taken up by exactly one process from the stored deadline
(deadlines.py, upkeep.py): the seat loses once, and no computer moves for it. Skipped
(with the reason) when PostgreSQL or Redis is not reachable."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import create_engine, text

from tests.eventually import eventually
from tests.server.pg import PG
from tests.server.serve import ServeProcess
from tests.server.site.test_scaleout import REDIS, _reachable
from tests.server.test_slow_unload import days_pass
from vertex.server.table.clocks import DAY_S

pytestmark = pytest.mark.skipif(bool(_reachable()), reason=_reachable() or "")

#: This module's own Redis names (no other run's leases are taken up here).
SITE = "slow" + secrets.token_hex(4)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServeProcess, ...]]:
    logs = tmp_path_factory.mktemp("slow")
    env = {
        "VERTEX_DATABASE_URL": PG,
        "VERTEX_REDIS_URL": REDIS,
        "VERTEX_SITE": SITE,
        "VERTEX_SLOW_UNLOAD_AFTER_S": "0.5",
        "VERTEX_SWEEP_INTERVAL_S": "0.2",
        "VERTEX_AI_WORKERS": "1",
    }
    procs = (ServeProcess(logs / "a.log", env), ServeProcess(logs / "b.log", env))
    for p in procs:
        p.launch()
    try:
        for p in procs:
            p.wait_up()
        yield procs
    finally:
        for p in procs:
            p.stop()
        _forget_site()


def _forget_site() -> None:
    import redis

    r = redis.Redis.from_url(REDIS)
    keys = list(r.scan_iter(match=f"{SITE}:*", count=500))
    if keys:
        r.delete(*keys)
    r.close()


@pytest.fixture(scope="module")
def engine() -> Iterator[Any]:
    made = create_engine(PG)
    yield made
    made.dispose()


def get(p: ServeProcess, path: str) -> Any:
    r = p.http.get(p.url + path, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def post(p: ServeProcess, path: str, body: dict[str, Any]) -> Any:
    r = p.http.post(p.url + path, json=body, timeout=10)
    assert r.status_code in (200, 201), r.text
    return r.json()


def held(p: ServeProcess) -> int:
    return int(p.health()["tables"])


def _log(engine: Any, tid: str) -> list[str]:
    with engine.connect() as conn:
        q = text("SELECT kind FROM vertex_events WHERE table_id = :t ORDER BY seq")
        return [r.kind for r in conn.execute(q, {"t": tid})]


def _deadline(engine: Any, tid: str) -> tuple[int, float | None] | None:
    with engine.connect() as conn:
        q = text("SELECT v, deadline FROM vertex_deadlines WHERE table_id = :t")
        r = conn.execute(q, {"t": tid}).first()
    return None if r is None else (int(r.v), r.deadline)


def _slow_table(p: ServeProcess, days: int) -> tuple[str, str, str]:
    body = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}}
    tid = post(p, "/api/tables", {**body, "clock": {"per_move_days": days}})["id"]
    ann = post(p, f"/api/tables/{tid}/seats/0", {"name": "Ann"})["token"]
    bob = post(p, f"/api/tables/{tid}/seats/1", {"name": "Bob"})["token"]
    return tid, ann, bob


def _nobody_holds(procs: tuple[ServeProcess, ...]) -> None:
    eventually(
        lambda: all(held(p) == 0 and p.health()["owned"] == 0 for p in procs),
        what="the slow table leaving memory on both processes",
    )


def test_a_slow_table_moved_on_the_other_process_wakes_there(
    site: tuple[ServeProcess, ...], engine: Any
) -> None:
    a, b = site
    tid, ann, _bob = _slow_table(a, days=3)
    move = get(a, f"/api/tables/{tid}")["state"]["legal_moves"][0]
    _nobody_holds(site)
    reply = post(b, f"/api/tables/{tid}/moves", {"token": ann, "move": move})
    stored = _deadline(engine, tid)
    assert stored is not None and stored[0] == reply["version"]  # B wrote it, with the move
    view = get(a, f"/api/tables/{tid}")
    assert view["slow"] is True and view["state"]["ply"] == 1 and view["result"] is None
    _nobody_holds(site)


def test_a_due_deadline_on_two_processes_makes_the_seat_lose_exactly_once(
    site: tuple[ServeProcess, ...], engine: Any
) -> None:
    tid, _ann, _bob = _slow_table(site[0], days=1)
    _nobody_holds(site)
    loaded = sum(p.health()["loaded"] for p in site)
    days_pass(engine, tid, 2 * DAY_S)  # Ann's day is up; both processes sweep for it
    eventually(lambda: _log(engine, tid), until=lambda k: "timeout" in k, what="the timeout")
    # nothing is left to wake it for: then no sweep of either process can act again
    eventually(lambda: _deadline(engine, tid), until=lambda d: d is not None and d[1] is None)
    _nobody_holds(site)
    assert _log(engine, tid) == ["seat", "seat", "timeout"]  # lost once, no move for Ann
    assert sum(p.health()["loaded"] for p in site) >= loaded + 1
    view = get(site[1], f"/api/tables/{tid}")
    assert view["result"]["reason"] == "timeout" and view["result"]["seat"] == 0
    assert "auto" not in view["result"] and view["state"]["ply"] == 0

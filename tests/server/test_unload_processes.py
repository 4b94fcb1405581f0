"""Idle tables leave memory with their lease on a site of two real `vertex serve` processes
(PostgreSQL + Redis), computer seats and clocks too: unloaded on one process, the next move
on the other loads the table there and its computer seat moves; a clock that runs while
nobody holds the table is taken up by a process shortly before its deadline. Nothing is
lost or stored twice. Skipped (with the reason) when PostgreSQL or Redis is not reachable.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import vertex
from tests.eventually import eventually
from tests.server.serve import ServeProcess
from tests.server.site.test_scaleout import PG, REDIS, _reachable

pytestmark = pytest.mark.skipif(bool(_reachable()), reason=_reachable() or "")

#: This module's own Redis names (no other run's leases are taken up here).
SITE = "unload" + secrets.token_hex(4)


class Site(ServeProcess):
    def __init__(self, log: Path) -> None:
        super().__init__(
            log,
            env={
                "VERTEX_DATABASE_URL": PG,
                "VERTEX_REDIS_URL": REDIS,
                "VERTEX_SITE": SITE,
                "VERTEX_UNLOAD_AFTER_S": "1",
                "VERTEX_SWEEP_INTERVAL_S": "0.3",
                "VERTEX_AI_WORKERS": "1",
            },
        )

    def lines(self, event: str, tid: str) -> int:
        """How many `event` lines this process logged for table `tid`."""
        n = 0
        for line in self.log.read_text(errors="replace").splitlines():
            if line.startswith("{") and f'"event":"{event}"' in line:
                n += json.loads(line).get("table") == tid
        return n


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Site, Site]]:
    logs = tmp_path_factory.mktemp("unload")
    a, b = Site(logs / "a.log"), Site(logs / "b.log")
    a.launch()
    b.launch()
    try:
        a.wait_up()
        b.wait_up()
        yield a, b
    finally:
        a.stop()
        b.stop()
        _forget_site()


def _forget_site() -> None:
    import redis

    r = redis.Redis.from_url(REDIS)
    keys = list(r.scan_iter(match=f"{SITE}:*", count=500))
    if keys:
        r.delete(*keys)
    r.close()


def get(p: Site, path: str) -> Any:
    r = p.http.get(p.url + path, timeout=10)
    assert r.status_code == 200, r.text
    return r.json()


def post(p: Site, path: str, body: dict[str, Any]) -> Any:
    r = p.http.post(p.url + path, json=body, timeout=10)
    assert r.status_code in (200, 201), r.text
    return r.json()


def held(p: Site) -> int:
    tables: int = p.health()["tables"]
    return tables


def test_unloaded_on_one_process_the_next_move_on_the_other_plays_on(
    site: tuple[Site, Site],
) -> None:
    a, b = site
    seats = [{"kind": "human"}, {"kind": "ai", "level": 1}]
    body = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}, "seats": seats}
    tid = post(a, "/api/tables", body)["id"]
    ann = post(a, f"/api/tables/{tid}/seats/0", {"name": "Ann"})["token"]
    ply = 0
    for p in (a, b, a):  # each move on a process that does not hold the table now
        view = get(p, f"/api/tables/{tid}")
        move = view["state"]["legal_moves"][0]
        ply = view["state"]["ply"]
        post(p, f"/api/tables/{tid}/moves", {"token": ann, "move": move})
        # the computer answers (it may close a box and go on: at least one move)
        eventually(
            lambda p=p: get(p, f"/api/tables/{tid}")["state"],
            until=lambda s, ply=ply: s["ply"] >= ply + 2 and s["to_move"] == [0],
            what="the computer's reply",
        )
        # then idle: both processes let it go (its owner with its lease)
        eventually(lambda: held(a) == 0 and held(b) == 0, what="the table leaving memory")
        assert a.health()["owned"] == 0 and b.health()["owned"] == 0
    assert a.lines("unload", tid) >= 1 and b.lines("unload", tid) >= 1  # each ran it once
    assert a.lines("think", tid) >= 1 and b.lines("think", tid) >= 1
    rec = get(b, f"/api/tables/{tid}/record")
    state = vertex.replay(rec)  # every move once, in order: a game that replays
    assert len(state.history) == len(rec["moves"]) >= 6
    thinks = a.lines("think", tid) + b.lines("think", tid)
    computer = sum(1 for m in rec["moves"] if m["seat"] == 1)
    assert computer <= thinks <= computer + 1  # (one think may be dropped by a fence)


def test_a_clock_running_while_nobody_holds_the_table_still_runs_out(
    site: tuple[Site, Site],
) -> None:
    a, b = site
    body = {
        "game": "dots-and-boxes",
        "options": {"rows": 2, "cols": 2},
        "clock": {"per_move": 8},
        "on_timeout": "lose",
    }
    tid = post(a, "/api/tables", body)["id"]
    post(a, f"/api/tables/{tid}/seats/0", {"name": "Ann"})
    post(a, f"/api/tables/{tid}/seats/1", {"name": "Bob"})  # Ann's 8 s run from here
    loaded = a.health()["loaded"] + b.health()["loaded"]
    eventually(lambda: held(a) == 0 and held(b) == 0, what="the table leaving memory")
    assert a.lines("unload", tid) == 1
    # nobody asks for it: a process takes it up before the deadline, by itself
    eventually(
        lambda: a.health()["loaded"] + b.health()["loaded"] > loaded,
        what="a process taking the table up for its deadline",
    )
    view = eventually(
        lambda: get(b, f"/api/tables/{tid}"),
        until=lambda v: v["result"] is not None,
        what="the clock running out",
    )
    assert view["result"]["reason"] == "timeout" and view["result"]["seat"] == 0
    rec = get(a, f"/api/tables/{tid}/record")
    assert rec["moves"] == [] and rec["result"]["reason"] == "timeout"

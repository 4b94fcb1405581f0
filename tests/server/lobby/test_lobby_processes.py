"""The lobby across two real `vertex serve` processes on one PostgreSQL and one Redis:
a listed table made through one shows on the other's lobby socket, two Play now
requests racing through the two make one table, and the spectators of a process killed
with SIGKILL leave the others' lobby within a few sweeps.

Skipped (with the reason) when PostgreSQL or Redis is not reachable.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.eventually import eventually
from tests.server.site.test_processes import Proc, _forget
from tests.server.site.test_scaleout import PG, _reachable

pytestmark = pytest.mark.skipif(bool(_reachable()), reason=_reachable() or "")

_made: list[str] = []
#: The processes sweep this often here (60 s by default): a silent one is dropped sooner.
SWEEP_S = 1.0


def _forget_rows(ids: list[str]) -> None:
    from sqlalchemy import create_engine, delete, inspect, update

    from vertex.server.lobby.rows import lobby_t

    engine = create_engine(PG)
    if not inspect(engine).has_table(lobby_t.name):
        # A new database: the processes create the schema (a lobby table made here would
        # make it look like one from before migrations, and they would refuse it).
        engine.dispose()
        return
    with engine.begin() as conn:
        if ids:
            conn.execute(delete(lobby_t).where(lobby_t.c.table_id.in_(ids)))
        # earlier runs' Play now tables still waiting would meet this run's players
        conn.execute(
            update(lobby_t)
            .where(lobby_t.c.status == "open", lobby_t.c.game == "juxtapose")
            .values(status="gone")
        )
    engine.dispose()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Proc, Proc]]:
    _forget_rows([])
    logs = tmp_path_factory.mktemp("lobby-site")
    site = f"vertex-test-{secrets.token_hex(4)}"  # this run's Redis names (channels, locks)
    a, b = Proc(logs / "a.log"), Proc(logs / "b.log")
    for p in (a, b):
        p.env.update(VERTEX_SITE=site, VERTEX_LISTED_PER_ADDRESS="50")
        p.env["VERTEX_TABLES_PER_HOUR"] = "1000"
        p.env["VERTEX_SWEEP_INTERVAL_S"] = str(SWEEP_S)
        p.start()
    try:
        a.wait_up()
        b.wait_up()
        yield a, b
    finally:
        a.stop()
        b.stop()
        _forget(_made)
        _forget_rows(_made)


def recv(ws: Any, pred: Any, limit: int = 100, timeout: float = 30.0) -> dict[str, Any]:
    """The first message that satisfies `pred`, within `timeout` s in all."""
    deadline = time.monotonic() + timeout
    for _ in range(limit):
        msg: dict[str, Any] = json.loads(ws.recv(timeout=max(0.0, deadline - time.monotonic())))
        if pred(msg):
            return msg
    raise AssertionError("the message never came")


def test_a_listed_table_made_on_one_process_shows_on_the_others_socket(
    site: tuple[Proc, Proc],
) -> None:
    a, b = site
    with connect(b.ws + "/ws/lobby") as ws:
        assert json.loads(ws.recv(timeout=10))["t"] == "lobby"
        body = {"game": "dots-and-boxes", "options": {"rows": 3, "cols": 3}, "listed": True}
        r = a.http.post(a.url + "/api/tables", json=body, timeout=10)
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        _made.append(tid)
        change = recv(ws, lambda m: m["t"] == "change" and any(e["id"] == tid for e in m["up"]))
        assert change["up"][0]["section"] == "open"
        private = a.http.post(a.url + "/api/tables", json={**body, "listed": False}, timeout=10)
        _made.append(private.json()["id"])
        # someone sits through process 2: process 1's list shows it too
        r = b.http.post(f"{b.url}/api/tables/{tid}/seats/0", json={"name": "Ann"}, timeout=10)
        assert r.status_code == 200
        change = recv(ws, lambda m: m["t"] == "change" and m["up"])
        assert change["up"][0]["seats"][0]["name"] == "Ann"
    for p in (a, b):
        view = p.http.get(p.url + "/api/lobby", timeout=10).json()
        assert tid in [e["id"] for e in view["open"]]
        assert private.json()["id"] not in json.dumps(view)


def test_play_now_racing_through_two_processes_makes_one_table(site: tuple[Proc, Proc]) -> None:
    got: list[dict[str, Any]] = []
    start = threading.Barrier(2)

    def press(p: Proc, name: str) -> None:
        start.wait()
        body = {"game": "juxtapose", "name": name}
        r = httpx.post(p.url + "/api/lobby/play-now", json=body, timeout=30)
        assert r.status_code == 200, r.text
        got.append(r.json())

    for _round in range(3):
        got.clear()
        threads = [
            threading.Thread(target=press, args=pn) for pn in zip(site, ("Ann", "Bob"), strict=True)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert len(got) == 2
        _made.extend(g["id"] for g in got)
        assert got[0]["id"] == got[1]["id"]
        assert sorted(g["seat"] for g in got) == [0, 1]
        view = site[1].http.get(f"{site[1].url}/api/tables/{got[0]['id']}", timeout=10).json()
        assert view["started"]


def test_the_spectators_of_a_killed_process_leave_the_lobby(
    site: tuple[Proc, Proc], tmp_path_factory: pytest.TempPathFactory
) -> None:
    a, _b = site
    body = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}, "listed": True}
    tid = a.http.post(a.url + "/api/tables", json=body, timeout=10).json()["id"]
    _made.append(tid)
    for seat, name in ((0, "Ann"), (1, "Bob")):
        r = a.http.post(f"{a.url}/api/tables/{tid}/seats/{seat}", json={"name": name}, timeout=10)
        assert r.status_code == 200, r.text

    def watching() -> int:
        view = a.http.get(a.url + "/api/lobby", timeout=10).json()
        return int(next(e["watching"] for e in view["live"] if e["id"] == tid))

    c = Proc(tmp_path_factory.mktemp("lobby-c") / "c.log")
    c.env.update({k: v for k, v in a.env.items() if k.startswith("VERTEX_")})
    c.start()
    try:
        c.wait_up()
        with connect(f"{c.ws}/ws/tables/{tid}") as spectator:
            spectator.recv(timeout=10)
            eventually(lambda: watching() == 1, what="process 1 counting c's spectator")
            c.kill9()  # says nothing more: neither "left" nor its sweep's list
        eventually(lambda: watching() == 0, timeout=60, what="the dead process's count dropped")
    finally:
        c.stop()

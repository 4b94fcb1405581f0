"""A game's review runs once for the whole site: two real `vertex serve` processes
(PostgreSQL + Redis) are both asked at once; one computes it (their metrics say so), the other
waits and reads it, and a spectator's socket on the other process hears the progress.
Skipped (with the reason) when PostgreSQL or Redis is not reachable."""

from __future__ import annotations

import json
import re
import secrets
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

import vertex
from tests.server.pages.test_review import BLUNDER_GAME
from tests.server.pg import another_database, drop_database
from tests.server.serve import ServeProcess, free_port
from tests.server.site.test_scaleout import REDIS, _reachable

pytestmark = pytest.mark.skipif(bool(_reachable()), reason=_reachable() or "")

SITE = "review" + secrets.token_hex(4)


class Site(ServeProcess):
    def __init__(self, log: Path, db: str) -> None:
        self.metrics_port = free_port()
        super().__init__(
            log,
            env={
                "VERTEX_DATABASE_URL": db,
                "VERTEX_REDIS_URL": REDIS,
                "VERTEX_SITE": SITE,
                "VERTEX_AI_WORKERS": "1",
                "VERTEX_ANALYSIS_WORKERS": "1",
            },
            args=["--metrics-port", str(self.metrics_port)],
        )

    def reviews(self, outcome: str) -> float:
        text = httpx.get(f"http://127.0.0.1:{self.metrics_port}/metrics", timeout=5).text
        found = re.search(rf'^vertex_reviews_total{{outcome="{outcome}"}} (\S+)$', text, re.M)
        return float(found.group(1)) if found else 0.0


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Site, Site]]:
    logs = tmp_path_factory.mktemp("review")
    db = another_database()
    a, b = Site(logs / "a.log", db), Site(logs / "b.log", db)
    a.start()  # the first makes the schema
    b.start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()
        drop_database(db)


def test_both_ask_one_computes_the_other_reads_it(site: tuple[Site, Site]) -> None:
    a, b = site
    r = a.http.post(
        a.url + "/api/tables", json={"game": "dots-and-boxes", "options": {"rows": 3, "cols": 3}}
    )
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    tokens = [
        a.http.post(f"{a.url}/api/tables/{tid}/seats/{n}", json={"name": f"P{n}"}).json()["token"]
        for n in range(2)
    ]
    state = vertex.create_game("dots-and-boxes", rows=3, cols=3).initial_state()
    for move in BLUNDER_GAME:
        seat = state.to_move[0]
        r = a.http.post(
            f"{a.url}/api/tables/{tid}/moves", json={"token": tokens[seat], "move": move}
        )
        assert r.status_code == 200, r.text
        state = state.play(move, seat)
    heard: list[dict[str, Any]] = []
    with connect(f"{b.ws}/ws/tables/{tid}") as ws:  # a spectator: no hello
        assert json.loads(ws.recv(timeout=10))["t"] == "snapshot"
        answers: list[httpx.Response] = []

        def ask(p: Site) -> None:
            answers.append(httpx.post(f"{p.url}/api/tables/{tid}/review", timeout=10))

        threads = [threading.Thread(target=ask, args=(p,)) for p in (a, b)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert [x.status_code for x in answers] == [200, 200], [x.text for x in answers]
        deadline = time.monotonic() + 30
        while not heard or heard[-1]["status"] != "done":
            assert time.monotonic() < deadline, heard
            msg = json.loads(ws.recv(timeout=30))
            if msg.get("t") == "review":
                heard.append(msg)
    assert heard[-1]["done"] == heard[-1]["total"] == 24
    bodies = [p.http.get(f"{p.url}/api/tables/{tid}/review").json() for p in (a, b)]
    assert bodies[0] == bodies[1] and bodies[0]["status"] == "done"
    assert bodies[0]["moves"][8]["mark"] == "blunder"
    # once: one computation on the whole site, the other process joined it
    assert a.reviews("computed") + b.reviews("computed") == 1
    assert a.reviews("joined") + b.reviews("joined") == 1
    # asked again later: read from the store, computed no more
    assert b.http.post(f"{b.url}/api/tables/{tid}/review").json()["status"] == "done"
    assert a.reviews("computed") + b.reviews("computed") == 1
    assert b.reviews("stored") == 1

"""A review's work is bounded by the asking address's fair share (issue 35 on issue 24's
shares, compute/fair.py): a review runs a position at a time in its address's turn on the
analysis workers, one turn at a time per address; a second review from the same address
waits for those turns (its positions are told `busy` and ask again), never a second worker,
while another address's analysis gets a free worker at once; and a review started beyond
the address's analysis rate is refused (429 `rate-limited`), another address's is not."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import vertex
from tests.server.conftest import make_settings, new_table, take
from tests.server.pages.test_review import wait_done
from tests.server.players.helpers import PROXY, from_
from vertex.server import Limits, create_app
from vertex.server.compute import reviewing

A, B = "192.0.2.10", "192.0.2.20"
#: A 2×2 game (12 lines) played in order: 12 positions to review.
LINES = [
    "a1-b1", "b1-c1", "a2-b2", "b2-c2", "a3-b3", "b3-c3",
    "a1-a2", "a2-a3", "b1-b2", "b2-b3", "c1-c2", "c2-c3",
]  # fmt: skip


class Watch:
    """The positions' work as the workers see it: how many of each address's run at once."""

    def __init__(self, share: Any) -> None:
        self.share = share
        self.lock = threading.Lock()
        self.running: dict[str, int] = {}
        self.most: dict[str, int] = {}
        self.calls = 0

    def review_position(self, *args: Any) -> dict[str, Any]:
        held = dict(self.share.running)  # the scheduler's turns, while this one runs
        with self.lock:
            self.calls += 1
            for key, n in held.items():
                self.most[key] = max(self.most.get(key, 0), n)
        time.sleep(0.08)  # a position that takes a while
        return ORIGINAL(*args)


ORIGINAL = reviewing.review_position


@pytest.fixture
def client(tmp_path: Path) -> Any:
    settings = make_settings(
        tmp_path,
        trusted_proxies="10.9.9.9",
        limits=Limits(tables_per_hour=10_000),
        analysis_workers=2,
        analysis_burst=2,
        analysis_per_minute=1.0,
        review_depth_s=0.3,
    )
    with TestClient(create_app(settings), client=PROXY) as c:
        yield c


def _finished(client: TestClient) -> str:
    tid = new_table(client)["id"]
    tokens = [take(client, tid, 0, "Ann"), take(client, tid, 1, "Bob")]
    state = vertex.create_game("dots-and-boxes", rows=2, cols=2).initial_state()
    for move in LINES:
        seat = state.to_move[0]
        r = client.post(f"/api/tables/{tid}/moves", json={"token": tokens[seat], "move": move})
        assert r.status_code == 200, r.text
        state = state.play(move, seat)
    assert state.is_over
    return tid


def test_one_address_reviews_in_its_turn(client: TestClient, monkeypatch: Any) -> None:
    analyst = client.app.state.analyst  # type: ignore[attr-defined]
    assert analyst.share.slots == 2 and analyst.share.per_key == 1
    watch = Watch(analyst.share)
    monkeypatch.setattr(reviewing, "review_position", watch.review_position)
    first, second, third, other = (_finished(client) for _ in range(4))
    for tid in (first, second):
        r = client.post(f"/api/tables/{tid}/review", headers=from_(A))
        assert r.status_code == 200, r.text
    # the address's rate (a burst of 2) is spent: a third review is refused, with a code
    r = client.post(f"/api/tables/{third}/review", headers=from_(A))
    assert r.status_code == 429 and r.json()["error"]["code"] == "rate-limited", r.text
    # another address asks while A's reviews run: a worker is free for it at once
    time.sleep(0.2)
    assert client.get(f"/api/tables/{first}/review").json()["status"] != "done"
    started = time.monotonic()
    r = client.post(f"/api/tables/{other}/analysis", json={"ply": 4}, headers=from_(B))
    assert r.status_code == 200, r.text
    assert time.monotonic() - started < 1.0  # not after the reviews' 24 positions (2 s+)
    for tid in (first, second):
        body = wait_done(client, tid)
        assert len(body["moves"]) == len(LINES) and all(m["exact"] for m in body["moves"])
    # every position of both reviews ran, never two of A's at once on the two workers
    assert watch.calls == 2 * len(LINES)  # a position before each move
    assert watch.most[A] == 1, watch.most
    # a review from B is not held back by A's spent rate
    r = client.post(f"/api/tables/{third}/review", headers=from_(B))
    assert r.status_code == 200, r.text
    wait_done(client, third)

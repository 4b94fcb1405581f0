"""The bests board (`vertex.server.pages.bests`): the best solo towers, best first, with their
replays; the computer's best per level; bounded and cached."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.server.table.test_verticality import solo
from vertex.server.pages import bests
from vertex.server.pages.bests import BOARD_SIZE


def test_the_board_lists_solo_towers_best_first_with_replays(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [1000.0]  # the cache's clock, moved by hand
    monkeypatch.setattr(bests.time, "monotonic", lambda: clock[0])
    low = solo(client, "Bo", 0)
    high = solo(client, "Ann", 2)
    mid = solo(client, "Cy", 1)
    r = client.get("/api/verticality/board")
    assert r.status_code == 200 and r.headers["cache-control"] == "public, max-age=10"
    board = r.json()
    rows = [(t["name"], t["levels"], t["table"], t["replay"]) for t in board["towers"]]
    assert rows == [
        ("Ann", 2, high, f"/tables/{high}#replay"),
        ("Cy", 1, mid, f"/tables/{mid}#replay"),
        ("Bo", 0, low, f"/tables/{low}#replay"),
    ]
    assert board["towers"][0]["height_mm"] > board["towers"][1]["height_mm"] > 0
    assert [c["level"] for c in board["computer"]] == [1, 2, 3, 4, 5]
    assert board["supply_levels"] == 30
    # Cached: a tower finished now shows once the answer is 10 s old, not at once.
    solo(client, "Di", 3)
    clock[0] += 9.0
    names = [t["name"] for t in client.get("/api/verticality/board").json()["towers"]]
    assert names == ["Ann", "Cy", "Bo"]
    clock[0] += 1.0
    names = [t["name"] for t in client.get("/api/verticality/board").json()["towers"]]
    assert names == ["Di", "Ann", "Cy", "Bo"]
    assert BOARD_SIZE == 20  # bounded: at most this many rows, whatever is asked
    assert "/api/verticality/board" in client.get("/openapi.json").json()["paths"]

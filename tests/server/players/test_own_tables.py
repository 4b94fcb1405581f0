"""A player's own tables (`GET /api/players/me` `tables`): slow tables say so, with their
deadline while they play."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.players.helpers import claim, from_, sit, site

pytestmark = pytest.mark.timeout(120)


def _mine(c: TestClient, key: str, tid: str, address: str = "192.0.2.1") -> dict[str, Any]:
    me = c.get("/api/players/me", headers=from_(address, key)).json()
    rows: list[dict[str, Any]] = [t for t in me["tables"] if t["id"] == tid]
    assert len(rows) == 1, me["tables"]
    return rows[0]


def test_slow_tables_are_marked_with_their_deadline(tmp_path: Path) -> None:
    with site(tmp_path) as c:
        ann = claim(c, "Ann", "192.0.2.1")
        body = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}}
        slow = c.post("/api/tables", json={**body, "clock": {"per_move_days": 2}}).json()["id"]
        quick = c.post("/api/tables", json={**body, "clock": {"per_move": 60}}).json()["id"]
        plain = c.post("/api/tables", json=body).json()["id"]
        for tid in (slow, quick, plain):
            sit(c, tid, 0, ann, "192.0.2.1")
        waiting = _mine(c, ann, slow)
        assert (waiting["status"], waiting["slow"], waiting["deadline"]) == ("open", True, None)
        for tid in (quick, plain):
            assert {k: _mine(c, ann, tid)[k] for k in ("slow", "deadline")} == {
                "slow": False,
                "deadline": None,
            }
        before = time.time()
        c.post(f"/api/tables/{slow}/seats/1", json={"name": "Guest"})
        until = time.monotonic() + 10
        row = _mine(c, ann, slow)
        while row["status"] != "playing" and time.monotonic() < until:
            time.sleep(0.05)
            row = _mine(c, ann, slow)
        assert row["slow"] is True and isinstance(row["deadline"], float)
        assert before + 2 * 86400 - 5 <= row["deadline"] <= time.time() + 2 * 86400 + 5


def test_the_profile_lists_a_slow_table_being_played_with_its_turn_and_deadline(
    tmp_path: Path,
) -> None:
    with site(tmp_path) as c:
        ann = claim(c, "Ann", "192.0.2.1")
        body = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}}
        slow = c.post("/api/tables", json={**body, "clock": {"per_move_days": 3}}).json()["id"]
        sit(c, slow, 0, ann, "192.0.2.1")
        c.post(f"/api/tables/{slow}/seats/1", json={"name": "Guest"}, headers=from_("192.0.2.9"))
        until = time.monotonic() + 10
        playing: list[dict[str, Any]] = []
        while not playing and time.monotonic() < until:
            playing = c.get("/api/players/Ann").json()["playing"]
            time.sleep(0.05)
        assert [p["id"] for p in playing] == [slow]
        entry = playing[0]
        to_move = c.get(f"/api/tables/{slow}").json()["state"]["to_move"]
        assert entry["their_turn"] is (to_move == [0])
        assert entry["slow"] is True and isinstance(entry["deadline"], float)
        assert entry["deadline"] > time.time() + 3 * 86400 - 60

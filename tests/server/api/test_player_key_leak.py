"""A player key never reaches anyone else: a rated game played with keys (one seat proven
over the socket with the key), and every public answer — table views, the lobby, records,
profiles, games, leaderboards, spectators' socket frames — and the server's log are
searched for either key (and its hash)."""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import receive_json, recv_until
from tests.server.players.helpers import claim, from_, play_out, sit, site
from vertex.server.storage import players as stored_players

pytestmark = pytest.mark.timeout(180)


def test_no_key_in_anything_public(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stored_players, "BOARD_GAMES", 1)
    caplog.set_level(logging.DEBUG)
    seen: list[str] = []
    with site(tmp_path) as c:
        ann, bob = claim(c, "Ann", "192.0.2.1"), claim(c, "Bob", "192.0.2.2")
        secrets_ = [ann, bob, *(hashlib.sha256(k.encode()).hexdigest() for k in (ann, bob))]
        body: dict[str, Any] = {
            "game": "dots-and-boxes",
            "options": {"rows": 3, "cols": 3},
            "rated": True,
            "listed": True,
        }
        tid = c.post("/api/tables", json=body, headers=from_("192.0.2.50")).json()["id"]
        with c.websocket_connect(f"/ws/tables/{tid}") as spectator:
            seen.append(json.dumps(receive_json(spectator)))
            a = sit(c, tid, 0, ann, "192.0.2.1")
            # Bob's seat: taken with his key, then proven on a socket by the key alone
            b = sit(c, tid, 1, bob, "192.0.2.2")
            with c.websocket_connect(
                f"/ws/tables/{tid}?hello=1", headers=from_("192.0.2.2")
            ) as player:
                player.send_text(json.dumps({"t": "hello", "key": bob}))
                snap = recv_until(player, lambda m: m["t"] == "snapshot")
                assert snap["seat"] == 1
            seen.append(c.get("/api/lobby").text)
            view = play_out(c, tid, [a, b])
            assert len(view["result"]["ratings"]) == 2
            for _ in range(200):
                msg = receive_json(spectator)
                seen.append(json.dumps(msg))
                if msg.get("t") == "event" and (msg.get("result") or {}).get("ratings"):
                    break
        for path in (
            f"/api/tables/{tid}",
            f"/api/tables/{tid}/record",
            f"/api/tables/{tid}/record?format=text",
            "/api/lobby",
            "/api/players/Ann",
            "/api/players/Bob",
            "/api/players/Ann/games",
            "/api/players/Bob/games",
            "/api/leaderboard/dots-and-boxes-3x3",
        ):
            r = c.get(path)
            assert r.status_code == 200, path
            seen.append(r.text)
        board = c.get("/api/leaderboard/dots-and-boxes-3x3").json()
        assert {p["name"] for p in board["players"]} == {"Ann", "Bob"}
        # the player's own page holds no key either (it is shown once, at the claim)
        seen.append(c.get("/api/players/me", headers=from_("192.0.2.1", ann)).text)
    seen.append("\n".join(r.getMessage() for r in caplog.records))
    everything = "\n".join(seen)
    assert "Ann" in everything and tid in everything  # the search does see the answers
    for secret in secrets_:
        assert secret not in everything

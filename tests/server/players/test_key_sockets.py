"""One process: a socket opened with a player's key is let go (told `bad-key`) when that
key stops, by a new key or by forgetting the player; a token's socket stays, and hears at
once that a forgotten player's seat is a former player's."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.server.players.helpers import claim, from_, sit, site

pytestmark = pytest.mark.timeout(120)


@pytest.mark.parametrize("how", ["new-key", "forget"])
def test_a_keys_socket_is_let_go_when_the_key_stops(tmp_path: Path, how: str) -> None:
    with site(tmp_path) as c:
        key = claim(c, "Ann", "192.0.2.1")
        body = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}}
        tid = c.post("/api/tables", json=body).json()["id"]
        token = sit(c, tid, 0, key, "192.0.2.1")
        with (
            c.websocket_connect(f"/ws/tables/{tid}?hello=1") as by_key,
            c.websocket_connect(f"/ws/tables/{tid}?hello=1") as by_token,
        ):
            by_key.send_json({"t": "hello", "key": key})
            by_token.send_json({"t": "hello", "token": token})
            assert by_key.receive_json()["seat"] == 0 and by_token.receive_json()["seat"] == 0
            if how == "new-key":
                r = c.post("/api/players/me/key", headers=from_("192.0.2.1", key))
            else:
                r = c.delete("/api/players/me", headers=from_("192.0.2.1", key))
            assert r.status_code in (200, 204), r.text
            msg = by_key.receive_json()
            while msg["t"] != "error":
                msg = by_key.receive_json()
            assert msg["code"] == "bad-key"
            assert by_key.receive()["type"] == "websocket.close"
            # the token's socket is the seat's: it stays, told of a former player at once
            by_token.send_json({"t": "ping"})
            heard = [by_token.receive_json()]
            while heard[-1]["t"] != "pong":
                heard.append(by_token.receive_json())
            former = [m for m in heard if m["t"] == "former"]
            assert former == ([{"t": "former", "seats": [0]}] if how == "forget" else [])

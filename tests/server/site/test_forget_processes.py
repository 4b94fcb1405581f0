"""A player's key stops on every process at once (DESIGN.md §5a), on a site of two real
`vertex serve` processes (PostgreSQL + Redis): a new key asked for on A, or the player
forgotten on A, lets go at once the socket B holds for that player's key (it is told
`bad-key`), B refuses the old key, and once forgotten B's copy of the table shows a former
player without loading it again (its sockets are told so).

Skipped (with the reason) when PostgreSQL or Redis is not reachable.
"""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tests.server.serve import ServeProcess
from tests.server.site.test_players_processes import _h, two
from tests.server.site.test_scaleout import _reachable

pytestmark = [
    pytest.mark.skipif(bool(_reachable()), reason=_reachable() or ""),
    pytest.mark.timeout(240),
]

__all__ = ["two"]  # the fixture

ANN = "192.0.2.1"


def _socket(proc: ServeProcess, tid: str, key: str) -> ClientConnection:
    """A socket on `proc` opened with the player's key: its snapshot says their seat."""
    ws = connect(f"{proc.ws}/ws/tables/{tid}?hello=1", additional_headers=_h(ANN), legacy=True)
    ws.send(json.dumps({"t": "hello", "key": key}))
    snap = json.loads(ws.recv(timeout=10))
    assert snap["t"] == "snapshot" and snap["seat"] == 0, snap
    return ws


def _told_bad_key(ws: ClientConnection, within: float = 5.0) -> float:
    """Read until the socket is told `bad-key` and closed: how long it took."""
    start = time.monotonic()
    told = False
    try:
        while True:
            msg: dict[str, Any] = json.loads(ws.recv(timeout=within))
            if msg.get("t") == "error":
                assert msg["code"] == "bad-key", msg
                told = True
    except ConnectionClosed:
        pass
    assert told, "the socket closed without bad-key"
    return time.monotonic() - start


def test_a_new_key_and_forget_me_reach_the_other_process_at_once(
    two: tuple[ServeProcess, ServeProcess, str],
) -> None:
    a, b, _url = two
    with httpx.Client(timeout=10) as http:
        r = http.post(a.url + "/api/players", json={"name": "Ann"}, headers=_h(ANN))
        assert r.status_code == 201, r.text
        old = r.json()["key"]
        body = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}}
        tid = http.post(a.url + "/api/tables", json=body, headers=_h(ANN)).json()["id"]
        r = http.post(f"{a.url}/api/tables/{tid}/seats/0", json={}, headers=_h(ANN, old))
        assert r.status_code == 200, r.text

        # a new key on A: B lets the old key's socket go and refuses the old key
        ws = _socket(b, tid, old)
        r = http.post(a.url + "/api/players/me/key", headers=_h(ANN, old))
        assert r.status_code == 200, r.text
        new = r.json()["key"]
        assert _told_bad_key(ws) < 3.0
        r = http.get(b.url + "/api/players/me", headers=_h(ANN, old))
        assert (r.status_code, r.json()["error"]["code"]) == (401, "bad-key")
        assert http.get(b.url + "/api/players/me", headers=_h(ANN, new)).status_code == 200

        # forgotten on A: B lets the socket go and its copy of the table (held: the
        # socket loaded it) shows a former player at once
        ws = _socket(b, tid, new)
        watcher = connect(
            f"{b.ws}/ws/tables/{tid}", additional_headers=_h("192.0.2.8"), legacy=True
        )
        assert json.loads(watcher.recv(timeout=10))["t"] == "snapshot"
        assert http.get(f"{b.url}/api/tables/{tid}").json()["seats"][0]["name"] == "Ann"
        r = http.delete(a.url + "/api/players/me", headers=_h(ANN, new))
        assert r.status_code == 204, r.text
        assert _told_bad_key(ws) < 3.0
        heard = json.loads(watcher.recv(timeout=3))  # a spectator on B is told at once
        while heard["t"] != "former":
            heard = json.loads(watcher.recv(timeout=3))
        assert heard == {"t": "former", "seats": [0]}
        watcher.close()
        seat = http.get(f"{b.url}/api/tables/{tid}").json()["seats"][0]
        assert seat == {**seat, "name": None, "former": True, "player": True}
        r = http.get(b.url + "/api/players/me", headers=_h(ANN, new))
        assert (r.status_code, r.json()["error"]["code"]) == (401, "bad-key")
        # the name is free on both
        r = http.post(b.url + "/api/players", json={"name": "Ann"}, headers=_h("192.0.2.7"))
        assert r.status_code == 201, r.text

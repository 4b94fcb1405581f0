"""Against a real `vertex serve` process: kill -9 mid-game, restart on the same database,
and the game goes on with every accepted move in place."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

import vertex
from tests.eventually import eventually
from tests.server.serve import ServeProcess


class Server(ServeProcess):
    """One `vertex serve` on an SQLite file."""

    def __init__(self, db: Path, log: Path) -> None:
        super().__init__(log, args=["--database", f"sqlite:///{db}"])
        self.db = db


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    srv = Server(tmp_path / "vertex.db", tmp_path / "server.log")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def post(srv: Server, path: str, body: dict[str, Any]) -> httpx.Response:
    return srv.http.post(srv.url + path, json=body, timeout=10)


def test_kill_9_mid_game_and_the_game_goes_on(server: Server) -> None:
    tid = post(
        server, "/api/tables", {"game": "dots-and-boxes", "options": {"rows": 3, "cols": 3}}
    ).json()["id"]
    tokens = [
        post(server, f"/api/tables/{tid}/seats/{n}", {"name": f"P{n}"}).json()["token"]
        for n in (0, 1)
    ]
    # a second table, against a computer, waiting for its human
    vs = post(
        server,
        "/api/tables",
        {"game": "dots-and-boxes", "seats": [{"kind": "human"}, {"kind": "ai", "level": 1}]},
    ).json()["id"]
    solo = post(server, f"/api/tables/{vs}/seats/0", {"name": "Solo"}).json()["token"]

    state = vertex.create_game("dots-and-boxes", rows=3, cols=3).initial_state(0)
    accepted: list[str] = []
    # half the moves over a socket, half over HTTP, every one acknowledged before the kill
    with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{tid}?token={tokens[0]}") as ws:
        snap = json.loads(ws.recv())
        assert snap["t"] == "snapshot"
        for i in range(8):
            view = server.http.get(f"{server.url}/api/tables/{tid}").json()
            seat = view["state"]["to_move"][0]
            move = view["state"]["legal_moves"][i % len(view["state"]["legal_moves"])]
            if seat == 0:
                ws.send(json.dumps({"t": "move", "move": move, "v": view["version"], "id": i}))
                while (reply := json.loads(ws.recv()))["t"] not in ("ack", "error"):
                    pass
                assert reply["t"] == "ack", reply
            else:
                r = post(server, f"/api/tables/{tid}/moves", {"token": tokens[1], "move": move})
                assert r.status_code == 200, r.text
            accepted.append(move)
            state = state.play(move, seat=seat)
    first = server.http.get(f"{server.url}/api/tables/{vs}").json()["state"]["legal_moves"][0]
    assert (
        post(server, f"/api/tables/{vs}/moves", {"token": solo, "move": first}).status_code == 200
    )
    server.kill9()

    server.start()  # same database, fresh process
    view = server.http.get(f"{server.url}/api/tables/{tid}").json()
    assert view["version"] == 2 + len(accepted)
    rec = server.http.get(f"{server.url}/api/tables/{tid}/record").json()
    assert [m["move"] for m in rec["moves"]] == [m for _s, m in state.history]
    # the same seat tokens still hold the seats; play on to the end
    while view["result"] is None:
        seat = view["state"]["to_move"][0]
        move = view["state"]["legal_moves"][0]
        body = {"token": tokens[seat], "move": move, "version": view["version"]}
        assert post(server, f"/api/tables/{tid}/moves", body).status_code == 200
        view = server.http.get(f"{server.url}/api/tables/{tid}").json()
    final = vertex.replay(server.http.get(f"{server.url}/api/tables/{tid}/record").json())
    assert final.is_over and final.history[: len(accepted)] == state.history
    # the computer seat came back too: it answers its human again
    v2 = eventually(
        lambda: server.http.get(f"{server.url}/api/tables/{vs}").json(),
        until=lambda v: v["state"]["to_move"] == [0],
    )
    assert v2["state"]["ply"] >= 2

"""The table socket's first frame (issue 37, DESIGN §5c): a player opens the socket with
`?hello=1` and proves the seat with `{"t": "hello", "token": …}`, so the token is never in a
URL; a spectator sends none. And one address holds a bounded number of sockets."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.server.conftest import make_settings, recv_until, two_player_table
from vertex.server import Limits, create_app


def test_a_player_proves_the_seat_in_the_first_frame(client: TestClient) -> None:
    tid, ann, _bob = two_player_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}?hello=1") as ws:
        ws.send_json({"t": "hello", "token": ann})
        snap = recv_until(ws, lambda m: m["t"] == "snapshot")
        assert snap["seat"] == 0
        move = snap["table"]["state"]["legal_moves"][0]
        ws.send_json({"t": "move", "move": move, "v": snap["v"], "id": 1})
        assert recv_until(ws, lambda m: m["t"] in ("ack", "error"))["t"] == "ack"
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:  # a spectator sends nothing
        assert recv_until(ws, lambda m: m["t"] == "snapshot")["seat"] is None


@pytest.mark.parametrize(
    "first",
    [
        {"t": "hello", "token": "x" * 43},  # a token that holds no seat
        {"t": "move", "move": "a1-b1", "v": 0},  # not a hello
        {"t": "hello"},
        {"t": "hello", "token": 7},
    ],
)
def test_a_bad_first_frame_is_refused_and_changes_nothing(
    client: TestClient, first: dict[str, object]
) -> None:
    tid, _ann, _bob = two_player_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}?hello=1") as ws:
        ws.send_json(first)
        reply = recv_until(ws, lambda m: m["t"] == "error")
        assert reply["code"] in ("bad-token", "bad-message"), reply
        if reply["code"] == "bad-message":
            assert reply["params"]["problem"] == "hello"
    assert client.get(f"/api/tables/{tid}").json()["version"] == 2  # two seats taken, no move


def test_one_address_holds_a_bounded_number_of_sockets(tmp_path: Path) -> None:
    limits = Limits(sockets_per_address=3)
    with TestClient(create_app(make_settings(tmp_path, limits=limits))) as client:
        tid, _ann, _bob = two_player_table(client)
        opened = [client.websocket_connect(f"/ws/tables/{tid}") for _ in range(2)]
        opened.append(client.websocket_connect("/ws/lobby"))
        socks = [cm.__enter__() for cm in opened]
        try:
            for ws in socks[:2]:
                recv_until(ws, lambda m: m["t"] == "snapshot")
            with client.websocket_connect(f"/ws/tables/{tid}") as extra:
                reply = recv_until(extra, lambda m: m["t"] == "error")
                assert reply["code"] == "too-many-sockets" and reply["params"]["limit"] == 3
                with pytest.raises(WebSocketDisconnect) as closed:
                    extra.receive_json()
                assert closed.value.code == 4429
        finally:
            for cm in opened:
                cm.__exit__(None, None, None)
        # closed sockets give their places back
        with client.websocket_connect(f"/ws/tables/{tid}") as again:
            assert recv_until(again, lambda m: m["t"] == "snapshot")["seat"] is None

"""The flow at a table (issue 21): declining a take-back, "take back" offered only to a
seat with a move to take back, and calling a table off before the first move."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import new_table, recv_until, take, two_player_table


def act(client: TestClient, tid: str, token: str, action: str) -> Any:
    return client.post(f"/api/tables/{tid}/actions", json={"token": token, "action": action})


def play(client: TestClient, tid: str, token: str, move: str) -> None:
    r = client.post(f"/api/tables/{tid}/moves", json={"token": token, "move": move})
    assert r.status_code == 200, r.text


def requests(client: TestClient, tid: str) -> dict[str, Any]:
    out: dict[str, Any] = client.get(f"/api/tables/{tid}").json()["requests"]
    return out


def test_a_declined_take_back_is_withdrawn_and_the_asker_is_told(client: TestClient) -> None:
    tid, ann, bob = two_player_table(client, undo=True)
    assert requests(client, tid)["undoable"] == []  # nobody has moved
    play(client, tid, ann, "a1-b1")
    assert requests(client, tid)["undoable"] == [0]  # only Ann has a move to take back
    assert act(client, tid, bob, "undo-decline").json()["error"]["code"] == "nothing-to-accept"
    with client.websocket_connect(f"/ws/tables/{tid}?token={ann}") as ws:
        recv_until(ws, lambda m: m["t"] == "snapshot")
        assert act(client, tid, ann, "undo-request").status_code == 200
        recv_until(ws, lambda m: m.get("kind") == "undo-request")
        assert act(client, tid, ann, "undo-decline").json()["error"]["code"] == "not-allowed"
        assert act(client, tid, bob, "undo-decline").status_code == 200
        ev = recv_until(ws, lambda m: m.get("kind") == "undo-decline")
        # Ann's page hears who declined whose request, and that nothing is open any more
        assert ev["seat"] == 1 and ev["asker"] == 0 and ev["requests"]["undo"] is None
    view = client.get(f"/api/tables/{tid}").json()
    assert view["state"]["ply"] == 1 and view["requests"]["undo"] is None  # nothing undone
    # asked again, the opponent moving on lapses it (the move event says so: requests)
    assert act(client, tid, ann, "undo-request").status_code == 200
    play(client, tid, bob, "a2-b2")
    assert requests(client, tid)["undo"] is None
    assert requests(client, tid)["undoable"] == [0, 1]


def test_a_table_is_cancelled_only_before_the_first_move(client: TestClient) -> None:
    tid = new_table(client)["id"]
    ann = take(client, tid, 0, "Ann")  # waiting for an opponent: Ann may call it off
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        recv_until(ws, lambda m: m["t"] == "snapshot")
        assert act(client, tid, ann, "cancel").status_code == 200
        ev = recv_until(ws, lambda m: m.get("kind") == "cancel")
        assert ev["result"] == {"reason": "cancelled", "winners": [], "seat": 0}
    r = client.post(f"/api/tables/{tid}/seats/1", json={"name": "Bob"})
    assert r.status_code == 409 and r.json()["error"]["code"] == "game-over"

    tid, ann, bob = two_player_table(client)  # both seated, nobody moved yet
    assert act(client, tid, bob, "cancel").status_code == 200
    assert client.get(f"/api/tables/{tid}").json()["result"]["reason"] == "cancelled"

    tid, ann, bob = two_player_table(client)
    play(client, tid, ann, "a1-b1")
    r = act(client, tid, bob, "cancel")
    assert r.status_code == 409 and r.json()["error"]["code"] == "too-late-to-cancel"
    assert client.get(f"/api/tables/{tid}").json()["result"] is None  # nothing changed

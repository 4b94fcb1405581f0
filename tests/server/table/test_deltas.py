"""Sockets that ask for deltas get each event's state as a patch on the one before, and
rebuild from it exactly the states everyone else is sent."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import receive_json, recv_until, two_player_table
from vertex.server.table.deltas import apply, diff


def test_a_patch_rebuilds_the_new_state() -> None:
    old = {"a": [1, 2, 3], "b": {"c": 1, "d": 2}, "e": [1], "g": ["x", "y", "z"], "h": []}
    new = {"a": [1, 5, 3], "b": {"c": 1, "f": 3}, "e": [1, 2], "g": ["x", "z"], "h": [[1]]}
    patch = diff(old, new)
    assert patch is not None and apply(old, patch) == new
    assert [1, 1, 1, ["x"]] not in patch and [["g"], 1, 1, []] in patch  # one splice
    assert old["a"] == [1, 2, 3]  # (a copy is patched)
    assert diff(new, new) == []
    many = {"x": list(range(1000))}
    assert diff(many, {"x": [i + 1 for i in range(1000)]}) is None  # too many: send it whole


def events(ws: Any, n: int) -> list[dict[str, Any]]:
    return [recv_until(ws, lambda m: m["t"] == "event") for _ in range(n)]


def test_delta_and_full_sockets_see_the_same_states(client: TestClient) -> None:
    tid, ann, bob = two_player_table(client, undo=True)
    with (
        client.websocket_connect(f"/ws/tables/{tid}?token={bob}&deltas=1") as delta,
        client.websocket_connect(f"/ws/tables/{tid}?token={bob}") as full,
    ):
        snapshot = recv_until(delta, lambda m: m["t"] == "snapshot")["table"]
        state = snapshot["state"]
        recv_until(full, lambda m: m["t"] == "snapshot")
        tokens = [ann, bob]
        for _ in range(5):
            view = client.get(f"/api/tables/{tid}").json()["state"]
            seat, move = view["to_move"][0], view["legal_moves"][-1]
            r = client.post(f"/api/tables/{tid}/moves", json={"token": tokens[seat], "move": move})
            assert r.status_code == 200, r.text
        r = client.post(f"/api/tables/{tid}/actions", json={"token": ann, "action": "resign"})
        assert r.status_code == 200
        got, sent = events(delta, 6), events(full, 6)
        # as a page folds them: from the snapshot, then from each message that says them
        kept = {k: snapshot[k] for k in ("requests", "rematch", "analysis")}
        for d, f in zip(got, sent, strict=True):
            assert d["v"] == f["v"] and "state" in f
            assert "patch" in d and "state" not in d
            assert len(str(d["patch"])) < len(str(f["state"]))
            state = apply(state, d["patch"])
            assert state == f["state"]
            assert d["result"] == f["result"]
            # what did not change since the message before is left out, like the state
            assert all(d[k] != kept[k] for k in kept if k in d)
            kept.update({k: d[k] for k in kept if k in d})
            assert kept == {k: f[k] for k in kept}
        # no move changed the rematch nor (before the end) the analysis gate
        assert not any(k in d for d in got[:5] for k in ("rematch", "analysis"))
        assert "rematch" not in got[5]
    # coming back with `since` gets the patches as they were sent
    with client.websocket_connect(f"/ws/tables/{tid}?token={bob}&since=2&deltas=1") as ws:
        assert receive_json(ws)["t"] == "resume"
        again = events(ws, 6)
    assert [m["patch"] for m in again] == [m["patch"] for m in got]

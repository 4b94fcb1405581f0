"""A rematch as a spectator sees it (issue 33, item 9): the socket's rematch event names the
new table, so the page can offer "Watch the next game"; no seat token ever reaches a
spectator, neither in that event nor in either table's view."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import recv_until, two_player_table


def test_a_spectator_hears_the_rematchs_table_and_no_token(client: TestClient) -> None:
    tid, ann, bob = two_player_table(client)
    heard: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/tables/{tid}") as watcher:
        heard.append(recv_until(watcher, lambda m: m["t"] == "snapshot"))
        assert heard[0]["seat"] is None  # a spectator holds no seat
        client.post(f"/api/tables/{tid}/actions", json={"token": bob, "action": "resign"})
        reply = client.post(f"/api/tables/{tid}/actions", json={"token": ann, "action": "rematch"})
        new = reply.json()["table"]
        heard.append(recv_until(watcher, lambda m: m.get("kind") == "rematch"))
    event = heard[-1]
    assert event["table"] == new != tid and event["rematch"] == new
    assert client.get(f"/api/tables/{tid}").json()["rematch"] == new
    seen = json.dumps(heard) + client.get(f"/api/tables/{tid}").text
    seen += client.get(f"/api/tables/{new}").text
    for token in (ann, bob):
        assert token not in seen

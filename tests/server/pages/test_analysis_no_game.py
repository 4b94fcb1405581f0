"""A table called off before its first move has no game to analyse (issue 33, item 10): the
view says so (`analysis: "no-game"`, so the page offers no analysis of a blank board) and the
route refuses with the same code."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.conftest import two_player_table
from vertex import create_game
from vertex.server.table.analysable import gate


def test_a_cancelled_table_offers_no_analysis(client: TestClient) -> None:
    tid, ann, _ = two_player_table(client)
    assert client.get(f"/api/tables/{tid}").json()["analysis"] == "analysis-closed"
    r = client.post(f"/api/tables/{tid}/actions", json={"token": ann, "action": "cancel"})
    assert r.status_code == 200, r.text
    view = client.get(f"/api/tables/{tid}").json()
    assert view["result"]["reason"] == "cancelled" and view["analysis"] == "no-game"
    r = client.post(f"/api/tables/{tid}/analysis", json={"ply": 0})
    assert r.status_code == 409 and r.json()["error"]["code"] == "no-game"


def test_a_game_over_after_moves_still_offers_it(client: TestClient) -> None:
    tid, ann, bob = two_player_table(client)
    r = client.post(f"/api/tables/{tid}/moves", json={"token": ann, "move": "a1-b1"})
    assert r.status_code == 200, r.text
    r = client.post(f"/api/tables/{tid}/actions", json={"token": bob, "action": "resign"})
    assert r.status_code == 200, r.text
    assert client.get(f"/api/tables/{tid}").json()["analysis"] is None


def test_the_gate() -> None:
    game = create_game("dots-and-boxes", rows=2, cols=2)
    assert gate(game, over=True, allowed=False, played=False) == "no-game"
    assert gate(game, over=True, allowed=False, played=True) is None
    assert gate(game, over=False, allowed=False, played=False) == "analysis-closed"
    assert gate(game, over=False, allowed=True, played=False) is None

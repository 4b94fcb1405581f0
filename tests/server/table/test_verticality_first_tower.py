"""Verticality for a newcomer (issue 33, items 14 and 15): the aim check says whether a card
would rest on its pyramids, the game suggests where each piece goes, and a solo game has no
winner, only the height reached."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

import vertex
from tests.server.conftest import new_table, take
from vertex.core.errors import IllegalMove
from vertex.games.verticality import VerticalityState
from vertex.games.verticality.plan import plan_aim


def replayed(client: TestClient, tid: str) -> VerticalityState:
    state = vertex.replay(client.get(f"/api/tables/{tid}/record").json())
    assert isinstance(state, VerticalityState)
    return state


def solo(client: TestClient) -> tuple[str, str]:
    options = {"players": 1, "tremor_mm": 0.0, "step_seconds": 0}
    tid = new_table(client, "verticality", options=options)["id"]
    return tid, take(client, tid, 0, "Ada")


def post(client: TestClient, tid: str, what: str, body: dict[str, Any]) -> Any:
    return client.post(f"/api/tables/{tid}/{what}", json=body)


def test_the_aim_check_refuses_a_card_off_its_pyramids_and_accepts_one_on_them(
    client: TestClient,
) -> None:
    tid, token = solo(client)
    for _ in range(3):  # the level's three pyramids, where the game suggests
        aim = post(client, tid, "suggestion", {"token": token}).json()["aim"]
        assert aim.startswith("pyramid ")
        assert post(client, tid, "moves", {"token": token, "move": aim}).status_code == 200
    good = plan_aim(replayed(client, tid), 0)
    assert good.piece == "card"
    # The issue's card: far from the pyramids' tips, it would slide off at once.
    off = f"card x={good.x:.2f} y={good.y - 46.4:.2f} rot={good.rot:.2f}"
    refused = post(client, tid, "aims", {"token": token, "move": off})
    assert refused.status_code == 422
    reason = refused.json()["error"]["reason"]
    assert reason["rule"] == "card-unsupported" and reason["tips"] == 3 and reason["under"] < 3
    assert reason["x"] == pytest.approx(good.x, abs=6) and reason["y"] == pytest.approx(
        good.y, abs=6
    )
    # The centre beside the tips' triangle, every tip under the card: still not resting.
    beside = f"card x={good.x + 15:.2f} y={good.y:.2f} rot={good.rot:.2f}"
    answer = post(client, tid, "aims", {"token": token, "move": beside}).json()
    assert answer["error"]["reason"]["rule"] == "card-unsupported"
    assert answer["error"]["reason"]["under"] == 3
    ok = post(client, tid, "aims", {"token": token, "move": str(good)})
    assert ok.status_code == 200 and ok.json()["aim"] == str(good)
    suggested = post(client, tid, "suggestion", {"token": token}).json()["aim"]
    assert suggested == str(good)


def test_a_card_played_off_its_pyramids_anyway_still_slides() -> None:
    """The aim check advises; a move sent anyway is dropped and judged, as the rules say (the
    mulligan), so recorded games replay as before."""
    state = vertex.create_game("verticality", players=1, tremor_mm=0.0).initial_state(seed=194)
    assert isinstance(state, VerticalityState)
    for _ in range(3):
        state = state.play(str(plan_aim(state, 0)), seat=0)  # type: ignore[assignment]
    good = plan_aim(state, 0)
    off = f"card x={good.x + 40:.2f} y={good.y:.2f} rot={good.rot:.2f}"
    with pytest.raises(IllegalMove, match="would not rest on your pyramids") as refusal:
        state.check_aim(off, 0)
    assert refusal.value.reason == "card-unsupported"
    assert state.check_aim(str(good), 0) == str(good)
    slid = state.play(off, seat=0)
    assert slid.towers[0].mulligan_used  # type: ignore[attr-defined]


def test_the_suggestion_is_for_the_seat_due_only(client: TestClient) -> None:
    tid = new_table(client, "verticality", options={"players": 2, "step_seconds": 0})["id"]
    ann = take(client, tid, 0, "Ann")
    early = post(client, tid, "suggestion", {"token": ann})
    assert early.status_code == 409 and early.json()["error"]["code"] == "not-started"
    bob = take(client, tid, 1, "Bob")
    first = post(client, tid, "suggestion", {"token": ann}).json()
    assert (
        first["aim"].startswith("pyramid ")
        and first == post(client, tid, "suggestion", {"token": ann}).json()
    )  # the same position: the same answer (kept, not searched again)
    assert post(client, tid, "suggestion", {"token": "nope"}).status_code == 403
    assert post(client, tid, "moves", {"token": ann, "move": first["aim"]}).status_code == 200
    placed = post(client, tid, "suggestion", {"token": ann})
    assert placed.status_code == 409  # Ann's piece is in: nothing of hers to aim
    assert post(client, tid, "suggestion", {"token": bob}).status_code == 200


def test_a_solo_game_has_no_winner_only_the_height_reached(client: TestClient) -> None:
    tid, token = solo(client)
    for _ in range(3):
        aim = post(client, tid, "suggestion", {"token": token}).json()["aim"]
        post(client, tid, "moves", {"token": token, "move": aim})
    good = plan_aim(replayed(client, tid), 0)
    off = f"card x={good.x + 40:.2f} y={good.y:.2f} rot={good.rot:.2f}"
    for _ in range(2):  # dropped anyway: it slides, then slides again and the tower is out
        assert post(client, tid, "moves", {"token": token, "move": off}).status_code == 200
    view = client.get(f"/api/tables/{tid}").json()
    assert view["result"] == {"reason": "game", "winners": []}
    assert view["state"]["winners"] == [] and view["state"]["is_over"]
    assert view["state"]["ending"]["code"] == "solo"

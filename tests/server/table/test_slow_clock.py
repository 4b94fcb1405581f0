"""Slow tables' clock (days a move, spec.py and api/bodies.py): whole days 1 to 14 or a
coded refusal with nothing made; such a table says `slow: true`, shows its clock as given,
counts days down, and its seats are never handed to the computer for an absence (the seat
whose days run out loses: on_timeout "lose", whatever the body said)."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import new_table, take
from vertex.server.table.clocks import DAY_S


def _tables(client: TestClient) -> int:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    return int(client.portal.call(hub.store.tables.count_created, "testclient", 0.0))


@pytest.mark.parametrize(
    "clock",
    [
        {"per_move_days": 0},
        {"per_move_days": 15},
        {"per_move_days": 1.5},
        {"per_move_days": "x"},
        {"per_move_days": "3"},
        {"per_move_days": True},
        {"per_move_days": None},
        {"per_move_days": 3, "increment": 5},
        {"per_move_days": 3, "per_move": 30},
        {"per_move_days": 3, "total": 600},
    ],
)
def test_days_a_move_other_than_a_whole_1_to_14_are_refused(
    client: TestClient, clock: dict[str, Any]
) -> None:
    before = _tables(client)
    body = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}, "clock": clock}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 422, r.text
    error = r.json()["error"]
    assert error["code"] == "bad-request"
    assert error["params"]["field"].startswith("clock")
    assert _tables(client) == before  # nothing made
    new_table(client, clock={"per_move_days": 1})
    assert _tables(client) == before + 1  # (what a table made looks like)


@pytest.mark.parametrize("days", [1, 3, 14])
def test_a_slow_table_says_so_and_counts_its_days(client: TestClient, days: int) -> None:
    # "computer" asked for: a slow table's seat loses all the same
    tid = new_table(client, clock={"per_move_days": days}, on_timeout="computer")["id"]
    view = client.get(f"/api/tables/{tid}").json()
    assert view["slow"] is True
    assert view["settings"]["clock"] == {"per_move_days": days}  # as given
    assert view["settings"]["on_timeout"] == "lose"
    assert view["clocks"] == [None, None]  # not started: nothing counts down
    take(client, tid, 0, "Ann")
    take(client, tid, 1, "Bob")
    left = client.get(f"/api/tables/{tid}").json()["clocks"]
    assert left[1] is None and days * DAY_S - 60 < left[0] <= days * DAY_S


def test_a_table_with_a_clock_in_seconds_is_not_slow(client: TestClient) -> None:
    tid = new_table(client, clock={"per_move": 30})["id"]
    view = client.get(f"/api/tables/{tid}").json()
    assert "slow" not in view and view["settings"]["on_timeout"] == "computer"


def test_an_absent_player_of_a_slow_table_is_never_handed_to_the_computer(
    client: TestClient,
) -> None:
    # (the test settings' grace is 0: on any other table Bob could hand Ann over at once)
    tid = new_table(client, clock={"per_move_days": 2})["id"]
    take(client, tid, 0, "Ann")
    bob = take(client, tid, 1, "Bob")
    view = client.get(f"/api/tables/{tid}").json()
    assert all("hand_over_in" not in s for s in view["seats"])  # no countdown to offer it
    r = client.post(
        f"/api/tables/{tid}/actions", json={"token": bob, "action": "hand-over", "seat": 0}
    )
    assert r.status_code == 409, r.text
    assert r.json()["error"]["code"] == "not-allowed"
    assert r.json()["error"]["params"] == {"why": "slow", "seat": 0}
    view = client.get(f"/api/tables/{tid}").json()
    assert [s["kind"] for s in view["seats"]] == ["human", "human"]
    # a player may still leave their own seat to the computer, by their own choice
    r = client.post(
        f"/api/tables/{tid}/actions", json={"token": bob, "action": "hand-over", "seat": 1}
    )
    assert r.status_code == 200, r.text


def test_a_free_seat_of_a_slow_table_may_still_go_to_the_computer(client: TestClient) -> None:
    tid = new_table(client, clock={"per_move_days": 2})["id"]
    ann = take(client, tid, 0, "Ann")
    r = client.post(
        f"/api/tables/{tid}/actions", json={"token": ann, "action": "hand-over", "seat": 1}
    )
    assert r.status_code == 200, r.text  # nobody sat there: nobody is away
    view = client.get(f"/api/tables/{tid}").json()
    assert [s["kind"] for s in view["seats"]] == ["human", "ai"]

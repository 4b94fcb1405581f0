"""Slow tables (days a move) out of memory (one process): forgotten soon after their last
socket leaves, in no timer meanwhile (their deadline is in the store, deadlines.py); woken
by a move over HTTP, or by their deadline, found by the sweep (upkeep.py), where the seat
whose days ran out loses — once, and never to a computer move."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import Engine, text

from tests.eventually import eventually
from tests.server.conftest import make_settings, new_table, recv_until, take
from vertex.server import create_app
from vertex.server.table.clocks import DAY_S, SLOW_WAIT_S

#: Short timings: a slow table is let go 0.3 s after its last socket, swept every 0.1 s.
QUICK = {"slow_unload_after_s": 0.3, "sweep_interval_s": 0.1}


def health(client: TestClient) -> dict[str, Any]:
    out: dict[str, Any] = client.get("/healthz").json()
    return out


def _hub(client: TestClient) -> Any:
    return client.app.state.hub  # type: ignore[attr-defined]


def _stored(client: TestClient, tid: str) -> tuple[int, float | None] | None:
    hub = _hub(client)
    out: tuple[int, float | None] | None = client.portal.call(hub.store.deadlines.get, tid)
    return out


def _out_of_memory(client: TestClient, tid: str) -> None:
    hub = _hub(client)
    eventually(lambda: tid not in hub.tables, what="the slow table leaving memory")
    assert not hub.leases.owns(tid) and not hub.leases.waking(tid)  # no wake-up timer
    assert tid not in hub.autoplay._timers  # and no clock timer


def _slow_table(client: TestClient, days: int = 2) -> tuple[str, str, str]:
    tid = new_table(client, clock={"per_move_days": days})["id"]
    return tid, take(client, tid, 0, "Ann"), take(client, tid, 1, "Bob")


def days_pass(engine: Engine, tid: str, seconds: float) -> None:
    """As if `seconds` had passed since the table's events (it must be out of memory):
    its log and its stored deadline moved back by that much."""
    with engine.begin() as conn:
        for sql in (
            "UPDATE vertex_events SET at = at - :s WHERE table_id = :t",
            "UPDATE vertex_deadlines SET deadline = deadline - :s WHERE table_id = :t",
            "UPDATE vertex_tables SET created_at = created_at - :s, "
            "updated_at = updated_at - :s WHERE id = :t",
        ):
            conn.execute(text(sql), {"s": seconds, "t": tid})


def _kinds(client: TestClient, tid: str) -> list[str]:
    hub = _hub(client)
    return [ev.kind for ev in client.portal.call(hub.store.log.events, tid)]


def test_a_slow_table_leaves_memory_after_its_sockets_and_a_move_wakes_it(
    tmp_path: Path,
) -> None:
    with TestClient(create_app(make_settings(tmp_path, **QUICK))) as client:
        hub = _hub(client)
        tid, ann, _bob = _slow_table(client)
        v, deadline = _stored(client, tid) or (0, None)
        assert v == 2 and deadline is not None  # Ann's two days, from Bob's seat on
        assert abs(deadline - (time.time() + 2 * DAY_S)) < 60
        move = client.get(f"/api/tables/{tid}").json()["state"]["legal_moves"][0]
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            ws.send_json({"t": "hello", "token": ann})
            recv_until(ws, lambda m: m.get("t") == "snapshot")
            swept = hub.upkeep.sweeps
            eventually(lambda: hub.upkeep.sweeps >= swept + 5, what="five sweeps")
            assert tid in hub.tables  # a socket is here: it stays
        _out_of_memory(client, tid)
        loaded = health(client)["loaded"]
        # a move over HTTP loads it from its log and plays
        r = client.post(f"/api/tables/{tid}/moves", json={"token": ann, "move": move})
        assert r.status_code == 200, r.text
        assert health(client)["loaded"] == loaded + 1
        view = client.get(f"/api/tables/{tid}").json()
        assert view["state"]["ply"] >= 1 and view["slow"] is True
        # the writer of the move wrote the next deadline: Bob's, two days from the move
        v, deadline = _stored(client, tid) or (0, None)
        assert v == r.json()["version"] and deadline is not None
        if view["state"]["to_move"] == [1]:
            assert abs(deadline - (time.time() + 2 * DAY_S)) < 60
        _out_of_memory(client, tid)  # and it leaves again


def test_a_due_deadline_makes_the_seat_lose_once_and_never_moves_for_it(
    tmp_path: Path,
) -> None:
    with TestClient(create_app(make_settings(tmp_path, **QUICK))) as client:
        hub = _hub(client)
        tid, _ann, _bob = _slow_table(client, days=1)
        _out_of_memory(client, tid)
        # two days pass (Ann's one day is up): the sweep finds the deadline in the store
        days_pass(hub.store.engine, tid, 2 * DAY_S)

        async def two_sweeps_at_once() -> None:
            now = time.time()
            await asyncio.gather(hub.upkeep.wake_due(now), hub.upkeep.wake_due(now))

        client.portal.call(two_sweeps_at_once)
        # (read from the store: asking for the view would load the table, which runs its
        # clock too — the sweep alone must do it)
        eventually(lambda: _kinds(client, tid), until=lambda k: "timeout" in k, what="the timeout")
        view = client.get(f"/api/tables/{tid}").json()
        assert view["result"]["reason"] == "timeout" and view["result"]["seat"] == 0
        assert view["result"]["winners"] == [1]
        assert "auto" not in view["result"] and "handed" not in view["result"]
        assert [s["kind"] for s in view["seats"]] == ["human", "human"]
        assert view["state"]["ply"] == 0  # no move was played for Ann
        # nothing left to wake it for (the row follows the event: deadlines.py)
        eventually(lambda: _stored(client, tid), until=lambda got: got == (3, None), what="its row")
        swept = hub.upkeep.sweeps
        eventually(lambda: hub.upkeep.sweeps >= swept + 3, what="three more sweeps")
        assert _kinds(client, tid) == ["seat", "seat", "timeout"]  # lost once


def test_a_slow_table_is_not_expired_for_a_pause_of_days(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, **QUICK)
    with TestClient(create_app(settings)) as client:
        hub = _hub(client)
        tid, _ann, _bob = _slow_table(client, days=14)
        _out_of_memory(client, tid)
        days_pass(hub.store.engine, tid, 3 * DAY_S)  # past the day of idle expiry
        swept = hub.upkeep.sweeps
        eventually(lambda: hub.upkeep.sweeps >= swept + 3, what="three sweeps")
        assert _kinds(client, tid) == ["seat", "seat"]
        assert client.get(f"/api/tables/{tid}").json()["result"] is None


def test_a_slow_table_waits_two_weeks_for_its_players_then_expires(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(tmp_path, **QUICK))) as client:
        hub = _hub(client)
        tid = new_table(client, clock={"per_move_days": 3})["id"]
        take(client, tid, 0, "Ann")  # Bob has not come yet
        stored = _stored(client, tid)
        assert stored is not None and stored[1] is not None
        assert abs(stored[1] - (time.time() + SLOW_WAIT_S)) < 60  # its wait for players
        _out_of_memory(client, tid)
        days_pass(hub.store.engine, tid, 3 * DAY_S)  # past the day of idle expiry
        swept = hub.upkeep.sweeps
        eventually(lambda: hub.upkeep.sweeps >= swept + 3, what="three sweeps")
        assert _kinds(client, tid) == ["seat"]  # still waiting for Bob
        days_pass(hub.store.engine, tid, 12 * DAY_S)  # fifteen days: the wait is over
        eventually(
            lambda: _kinds(client, tid), until=lambda k: k == ["seat", "expired"], what="expiry"
        )
        # the expiry's deadline row: written after its event (deadlines.py), so maybe a moment
        # after the event is seen
        eventually(lambda: _stored(client, tid), until=lambda got: got == (2, None), what="its row")

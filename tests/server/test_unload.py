"""Idle tables leave memory on a timer, computer seats and clocks too (one process): their
lease goes with them, and they come back when touched — a move, or their clock's deadline."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

import vertex
from tests.eventually import eventually
from tests.server.conftest import make_settings, new_table, take
from vertex.server import create_app

#: Short timings for the tests: idle after 0.3 s, looked for every 0.1 s.
QUICK = {"unload_after_s": 0.3, "sweep_interval_s": 0.1}


def health(client: TestClient) -> dict[str, Any]:
    out: dict[str, Any] = client.get("/healthz").json()
    return out


def test_an_idle_computer_table_leaves_memory_and_plays_on_when_moved_at(
    tmp_path: Path,
) -> None:
    settings = make_settings(tmp_path, **QUICK)
    with TestClient(create_app(settings)) as client:
        seats = [{"kind": "human"}, {"kind": "ai", "level": 1}]
        tid = new_table(client, seats=seats)["id"]
        ann = take(client, tid, 0, "Ann")
        for ply in (2, 4):
            view = client.get(f"/api/tables/{tid}").json()
            move = view["state"]["legal_moves"][0]
            r = client.post(f"/api/tables/{tid}/moves", json={"token": ann, "move": move})
            assert r.status_code == 200, r.text
            # the computer answers (it may close a box and move again: at least one reply)
            eventually(
                lambda: client.get(f"/api/tables/{tid}").json()["state"],
                until=lambda s, ply=ply: s["to_move"] == [0] and s["ply"] >= ply,
                what="the computer's reply",
            )
            # then idle: the table leaves memory, its lease with it, nothing left to wake
            eventually(
                lambda: health(client),
                until=lambda h: h["tables"] == 0 and h["owned"] == 0,
                what="the idle table leaving memory",
            )
            assert not client.app.state.hub.leases.waking(tid)  # type: ignore[attr-defined]
        assert health(client)["loaded"] == 1  # made here, then loaded from its log once
        rec = client.get(f"/api/tables/{tid}/record").json()
        state = vertex.replay(rec)  # every move once, in order, a game that replays
        assert len(state.history) == len(rec["moves"]) >= 4


def test_an_unloaded_table_whose_clock_runs_wakes_for_its_deadline(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, **QUICK)
    with TestClient(create_app(settings)) as client:
        tid = new_table(client, clock={"per_move": 6}, on_timeout="lose")["id"]
        take(client, tid, 0, "Ann")
        take(client, tid, 1, "Bob")  # Ann's clock runs: 6 s
        hub = client.app.state.hub  # type: ignore[attr-defined]
        eventually(lambda: health(client)["tables"] == 0, what="the idle table leaving memory")
        assert hub.leases.waking(tid) and health(client)["loaded"] == 0
        # nobody touches it: it is taken up again shortly before the deadline, by itself
        eventually(
            lambda: health(client),
            until=lambda h: h["loaded"] == 1 and h["tables"] == 1,
            what="the table taken up for its deadline",
        )
        view = eventually(
            lambda: client.get(f"/api/tables/{tid}").json(),
            until=lambda v: v["result"] is not None,
            what="the clock running out",
        )
        assert view["result"]["reason"] == "timeout" and view["result"]["seat"] == 0
        assert health(client)["loaded"] == 1  # (the view above found it in memory)


def test_a_computer_seat_to_move_is_not_let_go_before_it_moves(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, **QUICK)
    with TestClient(create_app(settings)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        go_on = client.portal.call(asyncio.Event)
        choose = hub.autoplay.thinker.choose

        async def slow_choose(*args: Any, **kwargs: Any) -> str:
            await go_on.wait()  # the computer thinks until the test lets it answer
            move: str = await choose(*args, **kwargs)
            return move

        hub.autoplay.thinker.choose = slow_choose
        seats = [{"kind": "ai", "level": 1}, {"kind": "human"}]
        tid = new_table(client, seats=seats)["id"]
        take(client, tid, 1, "Bob")  # the computer is due now, and thinks
        eventually(lambda: (tid, 0) in hub.autoplay._thinking, what="the computer thinking")
        table = hub.tables[tid]
        # idle long enough, and swept a few times since: it stays, and so does its lease
        eventually(lambda: time.time() - table.last_at > 2 * QUICK["unload_after_s"])
        swept = hub.upkeep.sweeps
        eventually(lambda: hub.upkeep.sweeps >= swept + 3, what="three sweeps")
        assert hub.tables.get(tid) is table and hub.leases.owns(tid)
        client.portal.call(go_on.set)
        eventually(lambda: table.state.to_move == (1,), what="the computer's move")
        eventually(lambda: tid not in hub.tables, what="the table leaving memory once idle")
        assert len(client.get(f"/api/tables/{tid}/record").json()["moves"]) == 1

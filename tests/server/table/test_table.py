"""The table as pure logic: events in, state out; clocks; the store's race rule."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from vertex.server.errors import ApiError
from vertex.server.storage.store import Store
from vertex.server.table import clocks, turns, views
from vertex.server.table.events import StoredEvent
from vertex.server.table.records import TableRow
from vertex.server.table.spec import TableSpec
from vertex.server.table.table import Table, rebuild, token_hash

SPEC: dict[str, Any] = {
    "game": "dots-and-boxes",
    "options": {"rows": 2, "cols": 2},
    "seed": 5,
    "seats": [{"kind": "human"}, {"kind": "human"}],
}


def seated(
    spec: dict[str, Any] | None = None, at: float = 100.0
) -> tuple[Table, list[StoredEvent]]:
    table = Table("table-0001", spec or SPEC, created_at=at)
    log = []
    for n, name in enumerate(("Ann", "Bob")):
        ev = table.take_seat(n, name, f"token-{n}", at)
        table.apply(ev)
        log.append(ev)
    return table, log


def test_a_table_starts_when_every_seat_is_taken_and_rebuilds_from_its_log() -> None:
    table = Table("table-0001", SPEC, created_at=100.0)
    with pytest.raises(ApiError, match="every seat is taken"):
        table.move(0, "a1-b1", 101.0)
    table, log = seated()
    assert table.started and turns.due(table) == (0,)
    for move, at in (("a1-b1", 101.0), ("a2-b2", 102.0), ("a1-a2", 103.0)):
        ev = table.move(turns.due(table)[0], move, at)
        table.apply(ev)
        log.append(ev)
    copy = rebuild(table.id, SPEC, 100.0, log)
    assert copy.state == table.state and copy.v == table.v == 5
    assert copy.times == [101.0, 102.0, 103.0]
    assert copy.seat_of("token-1") == 1 and copy.seat_of("token-2") is None
    assert copy.seats[0].token == token_hash("token-0")


def test_event_messages_never_carry_the_token_hash() -> None:
    table = Table("table-0001", SPEC, created_at=1.0)
    ev = table.take_seat(0, "Ann", "secret", 2.0)
    assert ev.data["_token"] == token_hash("secret")
    table.apply(ev)
    msg = views.message(table, ev)
    assert "_token" not in msg and token_hash("secret") not in str(msg)
    assert msg["seats"][0] == {"name": "Ann", "kind": "human", "level": None}


def test_a_total_clock_charges_thinking_time_and_adds_the_increment() -> None:
    spec = {**SPEC, "clock": {"total": 60.0, "increment": 5.0}}
    table, _log = seated(spec, at=100.0)
    assert clocks.deadline(table, 0) == 160.0 and clocks.deadline(table, 1) is None
    table.apply(table.move(0, "a1-b1", 110.0))  # Ann thought 10 s: 60 - 10 + 5 = 55
    assert table.bank == [55.0, 60.0]
    assert clocks.deadline(table, 1) == 170.0
    assert clocks.left(table, 130.0) == [55.0, 40.0]
    with pytest.raises(ApiError, match="has not run out"):
        table.timeout(1, 169.0)
    table.apply(table.timeout(1, 170.5))
    assert table.result == {"reason": "timeout", "winners": [0], "seat": 1}


def test_a_per_move_clock_restarts_each_move() -> None:
    table, _log = seated({**SPEC, "clock": {"per_move": 30.0}}, at=0.0)
    table.apply(table.move(0, "a1-b1", 20.0))
    assert clocks.deadline(table, 1) == 50.0 and clocks.deadline(table, 0) is None


def test_the_store_refuses_a_version_that_is_taken(tmp_path: Path) -> None:
    async def go() -> list[Any]:
        store = Store(f"sqlite:///{tmp_path / 's.db'}")
        await store.start()
        try:
            await store.tables.create(
                TableRow("table-0001", "g", TableSpec.load(SPEC), "open", "me", 1.0, 1.0)
            )
            first = await store.log.append("table-0001", StoredEvent(1, "chat", {"text": "a"}, 2.0))
            again = await store.log.append("table-0001", StoredEvent(1, "chat", {"text": "b"}, 3.0))
            events = await store.log.events("table-0001")
            await store.tables.set_status("table-0001", "over")
            row = await store.tables.get("table-0001")
            return [first, again, events, row, await store.tables.open_ids()]
        finally:
            await store.close()

    first, again, events, row, open_ids = asyncio.run(go())
    assert (first, again) == (True, False)
    assert events == [StoredEvent(1, "chat", {"text": "a"}, 2.0)]
    assert row.status == "over" and open_ids == []

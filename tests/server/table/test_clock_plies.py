"""The moves the computer made for a seat whose clock ran out are known by ply (issue 33,
item 6): the view's `clock_plies`, every state event's too, and `by: "clock"` in the record;
a take-back forgets the ones it takes back, and a rebuilt table knows them again."""

from __future__ import annotations

from typing import Any

from vertex.server.table import views
from vertex.server.table.events import StoredEvent
from vertex.server.table.table import Table, rebuild

SPEC: dict[str, Any] = {
    "game": "dots-and-boxes",
    "options": {"rows": 2, "cols": 2},
    "seed": 5,
    "seats": [{"kind": "human"}, {"kind": "human"}],
    "clock": {"per_move": 1},
    "on_timeout": "computer",
    "undo": True,
}


def test_the_clocks_moves_are_marked_in_the_view_the_events_and_the_record() -> None:
    table = Table("table-0001", SPEC, created_at=100.0)
    log: list[StoredEvent] = []

    def apply(ev: StoredEvent) -> StoredEvent:
        table.apply(ev)
        log.append(ev)
        return ev

    for n, name in enumerate(("Ann", "Bob")):
        apply(table.take_seat(n, name, f"token-{n}", 100.0))
    ev = apply(table.move(0, "a1-b1", 102.0, auto=True))  # Ann's time ran out
    assert views.message(table, ev)["clock_plies"] == [1]
    apply(table.move(1, "a2-b2", 102.5))
    assert views.view(table, 103.0)["clock_plies"] == [1]
    moves = views.record(table).model_dump(mode="json")["moves"]
    assert moves[0]["by"] == "clock" and "by" not in moves[1]
    assert "0 a1-b1" in views.record(table).to_text()  # the text form is unchanged
    assert rebuild(table.id, SPEC, 100.0, log).clock_plies == {1}
    # a take-back of both moves forgets the mark
    apply(table.event("undo", 104.0, ply=0))
    assert views.view(table, 105.0)["clock_plies"] == []
    assert views.record(table).moves == []

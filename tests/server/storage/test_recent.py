"""The recent events a table keeps for `since` are bounded in bytes, per table and for the
process; a socket asking for more than is kept gets a snapshot."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from tests.server.conftest import recv_until, two_player_table
from vertex.server.storage.recent import RecentEvents, Sent


class Msg:
    def __init__(self, v: int, kb: int) -> None:
        self.v = v
        self.bytes = kb * 1000

    def pack(self) -> int:
        return self.bytes


def test_a_kept_message_is_its_compressed_json_and_reads_back_the_same() -> None:
    before = {"cells": [[0, 1, 2, 3] * 50 for _ in range(50)], "last_move": None}
    after = {"cells": [[0, 1, 2, 3] * 50 for _ in range(50)], "last_move": {"seat": 0}}
    after["cells"][3][7] = 9
    msg = {"t": "event", "v": 7, "kind": "move", "seat": 0, "move": "a1", "state": after}
    sent = Sent(msg, frozenset(), before)
    text = json.dumps(msg, separators=(",", ":"))
    assert sent.text(False) == text  # what the broadcast sends to full-state sockets
    sent.text(True)  # ... and to sockets that take deltas: the patch is worked out
    unwatched = Sent(dict(msg), frozenset(), before)  # a message no socket took
    recent: RecentEvents[Sent] = RecentEvents(per_table=10**9, total=10**9)
    recent.add("a", sent)
    recent.add("a", unwatched)
    assert unwatched.for_deltas() == msg  # no patch worked out: the full form
    # packed: no dict left, and it counts its compressed bytes (a board of repeats: tiny)
    assert sent._msg is None and sent.size + unwatched.size == recent.total
    assert 0 < sent.size < len(text) // 10
    assert sent.v == 7 and sent.msg == msg  # decoded again, as it was
    patched = sent.for_deltas()
    assert "state" not in patched and patched["patch"] == [
        [["cells", 3, 7], 9],
        [["last_move"], {"seat": 0}],
    ]


def test_a_small_message_is_kept_as_it_is_and_reads_back_the_same() -> None:
    state = {"cells": [0, 1, 2], "last_move": {"seat": 0, "move": "a1"}}
    msg = {"t": "event", "v": 3, "kind": "move", "seat": 0, "move": "a1", "state": state}
    sent = Sent(msg, frozenset(), {"cells": [0, 0, 2], "last_move": None})
    text = sent.text(False)
    sent.text(True)
    unwatched = Sent(dict(msg, v=4), frozenset(), None)  # no text made: marshalled
    recent: RecentEvents[Sent] = RecentEvents(per_table=10**9, total=10**9)
    recent.add("a", sent)
    recent.add("a", unwatched)
    # under SMALL bytes zlib would cost more than it saves: the JSON itself, tagged
    assert sent._full == b"J" + text.encode() and sent.size > len(text)
    assert unwatched._full[:1] == b"M" and unwatched.msg == dict(msg, v=4)
    assert sent.msg == msg and sent.for_deltas()["patch"] == [
        [["cells", 1], 1],
        [["last_move"], state["last_move"]],
    ]


def test_a_table_keeps_its_latest_within_its_budget() -> None:
    recent: RecentEvents[Msg] = RecentEvents(per_table=50_500, total=10**9)
    for v in range(1, 41):
        recent.add("a", Msg(v, 10))  # 10 kB each
    kept = [m.v for m in recent.of("a")]
    assert kept == list(range(36, 41))  # the latest five: 50 kB
    assert recent.bytes_of("a") == 50_000 and recent.total == recent.bytes_of("a")


def test_the_process_budget_trims_the_biggest_table_first() -> None:
    recent: RecentEvents[Msg] = RecentEvents(per_table=10**9, total=100_500)
    for v in range(1, 6):
        recent.add("small", Msg(v, 1))
    for v in range(1, 20):
        recent.add("big", Msg(v, 10))
    assert recent.total <= 100_500
    assert len(list(recent.of("small"))) == 5  # untouched
    assert [m.v for m in recent.of("big")][-1] == 19  # the latest stays
    recent.forget("big")
    assert recent.total == recent.bytes_of("small") == 5_000


def test_more_than_is_kept_is_a_snapshot(client: TestClient) -> None:
    repo = client.app.state.hub.repo  # type: ignore[attr-defined]
    repo.recent.per_table = 1  # each table keeps only its latest message
    tid, ann, _bob = two_player_table(client)
    moves = ["a1-b1", "a2-b2"]
    for i, move in enumerate(moves):
        token = ann if i % 2 == 0 else _bob
        r = client.post(f"/api/tables/{tid}/moves", json={"token": token, "move": move})
        assert r.status_code == 200, r.text
    v = client.get(f"/api/tables/{tid}").json()["version"]
    with client.websocket_connect(f"/ws/tables/{tid}?since={v - 1}") as ws:
        got = recv_until(ws, lambda m: m["t"] in ("resume", "snapshot"))
        assert got["t"] == "resume"  # the latest one is kept
    with client.websocket_connect(f"/ws/tables/{tid}?since={v - 2}") as ws:
        got = recv_until(ws, lambda m: m["t"] in ("resume", "snapshot"))
        assert got["t"] == "snapshot" and got["v"] == v

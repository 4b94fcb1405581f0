"""What a socket connecting costs the others (issue 20): a thousand spectators coming must be
O(n) messages in all, not a broadcast to everyone already there at each connect; and the
snapshot each newcomer gets is the same bytes as before, with the state's JSON made once a
state."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import receive_json, two_player_table
from tests.server.table.test_table import seated
from tests.server.table.test_verticality_view import AIM, spec
from tests.server.table.test_verticality_view import seated as seated_verticality
from vertex.server.live.conn import Conn
from vertex.server.live.sockets import Sockets, dumps
from vertex.server.site.bus import LocalBus
from vertex.server.site.presence import LocalPresence
from vertex.server.site.rates import TokenBucket
from vertex.server.table import chat, turns, views
from vertex.server.table.table import Table


def old_snapshot(t: Table, viewer: int | None, here: list[bool], away: list[Any]) -> str:
    """The snapshot as hub.attach made it before the state's JSON was kept."""
    snap = {"t": "snapshot", "v": t.v, "seat": viewer}
    snap["table"] = views.view(t, 50.0, here, viewer, away)
    return dumps(snap)


def test_the_snapshot_text_is_the_view_byte_for_byte_and_follows_each_move() -> None:
    table, _ = seated()
    texts = views.StateTexts()
    here, away = [True, False], [None, 12.5]
    for move in ("a1-b1", "a2-b2", "a1-a2"):
        for viewer in (None, 0, 1):
            got = views.snapshot_text(table, 50.0, here, viewer, away, texts)
            assert got == old_snapshot(table, viewer, here, away)
            assert json.loads(got)["table"]["state"] == table.state.to_dict()
        table.apply(table.move(turns.due(table)[0], move, 101.0))
    # the chat's text cannot stand in for the state: a line with the marker stays a line
    for text in ("\x00state\x00", "\x00state\x00 hello"):
        table.apply(chat.line(table, 0, text, 102.0))
        got = views.snapshot_text(table, 50.0, here, None, away, texts)
        assert got == old_snapshot(table, None, here, away)
        assert json.loads(got)["table"]["chat"][-1]["text"] == text


def test_a_sealed_move_is_kept_from_others_in_the_snapshot_text() -> None:
    table = seated_verticality(spec(players=2))
    texts = views.StateTexts()
    table.apply(table.move(0, AIM, table.last_at + 3.0, cid="c0"))
    assert turns.sealed(table) == {0}
    for viewer in (None, 0, 1):
        got = views.snapshot_text(table, 50.0, [True, True], viewer, [None, None], texts)
        assert got == old_snapshot(table, viewer, [True, True], [None, None])
        last = json.loads(got)["table"]["state"]["last_move"]
        assert last["move"] == (AIM if viewer == 0 else None)


class FakeSocket:
    async def send_text(self, data: str) -> None:
        return None


def conn(tid: str, seat: int | None) -> Conn:
    return Conn(FakeSocket(), tid, seat, None, TokenBucket(10, 10))


def test_the_seats_here_are_counted_per_socket() -> None:
    sockets = Sockets(LocalPresence(), LocalBus(), 1.0, False)
    a, b, watcher = conn("t", 0), conn("t", 0), conn("t", None)
    for c in (a, b, watcher):
        sockets.add(c, 2, [False, False])
    sockets.add(a, 2, [False, False])  # the same socket twice counts once
    assert sockets.local_seats("t") == {0}
    assert sockets.remove(a) is False  # seat 0 has another socket here
    assert sockets.local_seats("t") == {0}
    assert sockets.remove(watcher) is False
    assert sockets.remove(b) is True  # its last socket: seat 0 has gone
    assert sockets.local_seats("t") == frozenset() and not sockets.has("t")
    assert sockets.remove(b) is False


@pytest.mark.parametrize("n", [40])
def test_spectators_connecting_cost_o_n_messages_in_all(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, n: int
) -> None:
    sent: list[tuple[int | None, str]] = []
    plain_send, plain_frame = Conn.send, Conn.send_frame

    def send(self: Conn, text: str) -> None:
        sent.append((self.seat, text[:24]))
        plain_send(self, text)

    def send_frame(self: Conn, text: str, frame: bytes) -> None:
        sent.append((self.seat, text[:24]))
        plain_frame(self, text, frame)

    monkeypatch.setattr(Conn, "send", send)
    monkeypatch.setattr(Conn, "send_frame", send_frame)
    tid, tok0, _ = two_player_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}?token={tok0}") as player:
        assert receive_json(player)["t"] == "snapshot"
        socks = []
        try:
            for _ in range(n):
                ws = client.websocket_connect(f"/ws/tables/{tid}").__enter__()
                socks.append(ws)
                assert receive_json(ws)["t"] == "snapshot"
            snapshots = sum(text.startswith('{"t":"snapshot"') for _, text in sent)
            assert snapshots == n + 1
            # each newcomer: its snapshot, and at most a couple more (a count of who
            # watches, coalesced); an O(n^2) broadcast would be >= n(n-1)/2 = 780
            assert len(sent) <= 3 * (n + 1) + 10, sent[-20:]
        finally:
            for ws in socks:
                ws.__exit__(None, None, None)

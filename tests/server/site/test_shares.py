"""Fair shares at a table (issue 24): rematches count as new tables, allowances are per seat
(across its sockets), and an absent player is handed over only after a grace period."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import make_settings, new_table, recv_until, take, two_player_table
from vertex.server import Limits, create_app


def act(client: TestClient, tid: str, token: str, action: str, **extra: Any) -> Any:
    return client.post(
        f"/api/tables/{tid}/actions", json={"token": token, "action": action, **extra}
    )


def test_a_rematch_counts_against_the_tables_an_hour(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, limits=Limits(tables_per_hour=3)))
    with TestClient(app) as client:
        tid, ann, bob = two_player_table(client)
        chain = [tid]
        for _ in range(2):  # resign, rematch: tables two and three of the hour
            assert act(client, chain[-1], bob, "resign").status_code == 200
            r = act(client, chain[-1], ann, "rematch")
            assert r.status_code == 200, r.text
            chain.append(r.json()["table"])
        assert act(client, chain[-1], bob, "resign").status_code == 200
        r = act(client, chain[-1], ann, "rematch")
        assert r.status_code == 429
        assert r.json()["error"]["code"] == "too-many-tables"
        assert r.json()["error"]["params"] == {"limit": 3}
        last = client.get(f"/api/tables/{chain[-1]}").json()
        assert last["rematch"] is None  # nothing changed at the table
        assert client.post("/api/tables", json={"game": "dots-and-boxes"}).status_code == 429


@pytest.fixture
def strict(tmp_path: Path) -> Iterator[TestClient]:
    limits = Limits(messages_per_second=0.01, message_burst=5, chat_per_minute=0.6, chat_burst=3)
    with TestClient(create_app(make_settings(tmp_path, limits=limits))) as c:
        yield c


def _replies(ws: Any, n: int) -> list[dict[str, Any]]:
    """The next `n` replies to commands (acks and errors), skipping broadcasts."""
    return [recv_until(ws, lambda m: m["t"] in ("ack", "error")) for _ in range(n)]


def test_ten_sockets_of_one_seat_share_its_chat_allowance(strict: TestClient) -> None:
    tid, ann, _bob = two_player_table(strict)
    url = f"/ws/tables/{tid}?token={ann}"
    sockets = [strict.websocket_connect(url) for _ in range(10)]
    try:
        opened = [s.__enter__() for s in sockets]
        got: list[dict[str, Any]] = []
        # one socket at a time: each socket's app runs on its own thread, so messages sent on
        # all of them at once reach the seat's allowances in no fixed order
        for ws in opened:
            ws.send_json({"t": "chat", "text": "hello"})
            ws.send_json({"t": "chat", "text": "again"})
            got += _replies(ws, 2)
    finally:
        for s in sockets:
            s.__exit__(None, None, None)
    acks = [r for r in got if r["t"] == "ack"]
    refused = [r for r in got if r["t"] == "error"]
    assert len(acks) == 3  # the seat's burst, not three a socket
    assert {r["code"] for r in refused} == {"rate-limited"}
    # chats four and five are within the seat's command burst (5), so the chat limit says no
    assert refused[0]["params"] == {"per_minute": 0.6}
    assert refused[2]["params"] == {"per_second": 0.01}
    chat = strict.get(f"/api/tables/{tid}").json()["chat"]
    assert len(chat) == 3
    # and over HTTP too: the same seat's allowance
    r = act(strict, tid, ann, "chat", text="one more")
    assert r.status_code == 429 and r.json()["error"]["code"] == "rate-limited"


def test_the_sockets_of_one_seat_share_its_command_allowance(strict: TestClient) -> None:
    tid, ann, _bob = two_player_table(strict)
    url = f"/ws/tables/{tid}?token={ann}"
    with strict.websocket_connect(url) as one, strict.websocket_connect(url) as two:
        for ws in (one, two):
            for _ in range(4):
                ws.send_json({"t": "move", "move": "a9-b9"})  # each one is refused anyway
        got = _replies(one, 4) + _replies(two, 4)
        # each socket alone is within its own allowance (5): together they are not
        codes = [r["code"] for r in got]
        assert codes.count("rate-limited") == 3
        assert codes.count("illegal-move") == 5
        one.send_json({"t": "ping", "id": 1})  # pings are the socket's own, not the seat's
        assert recv_until(one, lambda m: m["t"] in ("pong", "error"))["t"] == "pong"
    r = strict.post(f"/api/tables/{tid}/moves", json={"token": ann, "move": "a1-b1"})
    assert r.status_code == 429  # HTTP draws on the same allowance
    assert strict.get(f"/api/tables/{tid}").json()["version"] == 2  # nothing was played


class Clock:
    """The hub's time for the hand-over grace, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def graced(tmp_path: Path) -> Iterator[tuple[TestClient, Clock]]:
    clock = Clock()
    app = create_app(make_settings(tmp_path, hand_over_grace_s=60.0))
    with TestClient(app) as c:
        app.state.hub.clock = clock
        yield c, clock


def test_an_absent_player_is_handed_over_only_after_the_grace(
    graced: tuple[TestClient, Clock],
) -> None:
    client, clock = graced
    tid, ann, bob = two_player_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}?token={ann}") as ws:
        recv_until(ws, lambda m: m["t"] == "snapshot")
        with client.websocket_connect(f"/ws/tables/{tid}?token={bob}") as ws_b:
            recv_until(ws_b, lambda m: m["t"] == "snapshot")
            recv_until(ws, lambda m: m["t"] == "presence" and m["connected"] == [True, True])
        # Bob's page reloads: Ann is told how long until she may hand his seat over
        gone = recv_until(ws, lambda m: m["t"] == "presence" and m["connected"] == [True, False])
        assert gone["hand_over_in"] == [None, 60.0]
        seats = client.get(f"/api/tables/{tid}").json()["seats"]
        assert "hand_over_in" not in seats[0] and seats[1]["hand_over_in"] == 60.0

        ws.send_json({"t": "hand-over", "seat": 1, "level": 1})
        refused = recv_until(ws, lambda m: m["t"] in ("ack", "error"))
        assert refused["code"] == "not-allowed"
        assert refused["params"] == {"why": "grace", "seat": 1, "seconds": 60}
        clock.now += 59.5
        ws.send_json({"t": "hand-over", "seat": 1, "level": 1})
        refused = recv_until(ws, lambda m: m["t"] in ("ack", "error"))
        assert refused["params"] == {"why": "grace", "seat": 1, "seconds": 1}
        assert client.get(f"/api/tables/{tid}").json()["seats"][1]["kind"] == "human"

        clock.now += 0.5  # the grace is over
        assert client.get(f"/api/tables/{tid}").json()["seats"][1]["hand_over_in"] == 0.0
        ws.send_json({"t": "hand-over", "seat": 1, "level": 1})
        assert recv_until(ws, lambda m: m["t"] in ("ack", "error"))["t"] == "ack"
    seat = client.get(f"/api/tables/{tid}").json()["seats"][1]
    assert (seat["kind"], seat["level"]) == ("ai", 1) and "hand_over_in" not in seat


def test_a_player_who_comes_back_starts_a_new_grace_when_gone_again(
    graced: tuple[TestClient, Clock],
) -> None:
    client, clock = graced
    tid, ann, bob = two_player_table(client)

    def hand_over() -> Any:
        return act(client, tid, ann, "hand-over", seat=1, level=1)

    assert hand_over().json()["error"]["params"]["seconds"] == 60  # never seen here: 60 s
    clock.now += 50
    with client.websocket_connect(f"/ws/tables/{tid}?token={bob}") as ws_b:
        recv_until(ws_b, lambda m: m["t"] == "snapshot")
        r = hand_over()
        assert r.json()["error"]["params"]["why"] == "player-here"
        clock.now += 50
    assert hand_over().json()["error"]["params"]["seconds"] == 60  # gone again: from the start
    # a seat's own player may hand it over at once, and a free seat has nobody to wait for
    free = new_table(client)["id"]
    token = take(client, free, 0, "Cy")
    r = act(client, free, token, "hand-over", seat=1, level=1)
    assert r.status_code == 200
    clock.now += 59
    assert act(client, tid, bob, "hand-over", level=1).status_code == 200


def test_the_seat_allowances_hold_in_this_process_while_the_shared_quotas_are_away(
    strict: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from redis.exceptions import ConnectionError as RedisConnectionError

    async def away(*_a: Any) -> bool:
        raise RedisConnectionError("Redis is away")

    hub = strict.app.state.hub  # type: ignore[attr-defined]
    monkeypatch.setattr(hub.quotas, "take_rate", away)
    tid, ann, _bob = two_player_table(strict)
    r = strict.post(f"/api/tables/{tid}/moves", json={"token": ann, "move": "a1-b1"})
    assert r.status_code == 200, r.text  # play goes on
    codes = [act(strict, tid, ann, "chat", text="hi").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]  # and the seat's chat allowance still holds

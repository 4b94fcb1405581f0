"""Refusals: bad tokens, spectators, out-of-turn and stale moves, junk, floods and races.

Every refusal names the problem and changes nothing; no seat token ever reaches anyone else.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import (
    make_settings,
    new_table,
    receive_json,
    recv_until,
    take,
    two_player_table,
)
from vertex.server import Limits, create_app


def version(client: TestClient, tid: str) -> int:
    v: int = client.get(f"/api/tables/{tid}").json()["version"]
    return v


def reply(ws: Any) -> dict[str, Any]:
    msg: dict[str, Any] = recv_until(ws, lambda m: m["t"] in ("ack", "error", "pong"))
    return msg


def test_seat_tokens_never_reach_anyone_else(client: TestClient) -> None:
    tid = new_table(client)["id"]
    raw: list[str] = []
    with client.websocket_connect(f"/ws/tables/{tid}") as spectator:
        raw.append(spectator.receive_text())
        ann, bob = take(client, tid, 0, "Ann"), take(client, tid, 1, "Bob")
        secrets = [ann, bob, hashlib.sha256(ann.encode()).hexdigest()]
        secrets.append(hashlib.sha256(bob.encode()).hexdigest())
        with client.websocket_connect(f"/ws/tables/{tid}?token={bob}") as bob_ws:
            raw.append(bob_ws.receive_text())
            client.post(f"/api/tables/{tid}/moves", json={"token": ann, "move": "a1-b1"})
            chat = {"token": ann, "action": "chat", "text": "hello"}
            client.post(f"/api/tables/{tid}/actions", json=chat)
            for _ in range(3):
                raw.append(bob_ws.receive_text())
            client.post(f"/api/tables/{tid}/actions", json={"token": ann, "action": "resign"})
            while True:
                text = spectator.receive_text()
                raw.append(text)
                if '"resign"' in text:
                    break
        with client.websocket_connect(f"/ws/tables/{tid}?since=0") as late:
            raw.extend(late.receive_text() for _ in range(6))
    for path in ("", "/record", "/record?format=text"):
        raw.append(client.get(f"/api/tables/{tid}{path}").text)
    raw.append(client.get("/healthz").text)
    everything = "\n".join(raw)
    assert '"kind":"seat"' in everything and "hello" in everything
    for secret in secrets:
        assert secret not in everything


def test_bad_tokens_are_refused(client: TestClient) -> None:
    tid, ann, _bob = two_player_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}?token=not-a-token") as ws:
        assert receive_json(ws)["code"] == "bad-token"
    with client.websocket_connect("/ws/tables/nosuchtable00?token=x") as ws:
        assert receive_json(ws)["code"] == "no-such-table"
    r = client.post(f"/api/tables/{tid}/moves", json={"token": "x" * 32, "move": "a1-b1"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "bad-token"
    other = two_player_table(client)[0]  # a real token, but for another table
    r = client.post(f"/api/tables/{other}/moves", json={"token": ann, "move": "a1-b1"})
    assert r.json()["error"]["code"] == "bad-token"
    assert version(client, tid) == 2 and version(client, other) == 2


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"t": "move", "move": "a2-b2", "v": 2}, "not-your-turn"),  # Bob's socket, Ann's turn
        ("not json", "bad-json"),
        ("[1, 2]", "bad-message"),
        ({"t": "teleport"}, "bad-message"),
        ({"move": "a1-b1"}, "bad-message"),
        ({"t": "move"}, "bad-message"),
        ({"t": "move", "move": 7}, "bad-message"),
        ({"t": "move", "move": "a1-b1", "v": "2"}, "bad-message"),
        ({"t": "move", "move": "a1-b1", "v": -1}, "bad-message"),
        ({"t": "move", "move": "a1-b1", "sneaky": 1}, "bad-message"),
        ({"t": "move", "move": "a1-b1", "id": {"a": 1}}, "bad-message"),
        ({"t": "chat", "text": ["x"]}, "bad-message"),
        ({"t": "chat", "text": "x" * 5000}, "too-large"),
        ({"t": "hand-over", "level": 9}, "bad-message"),
        ({"t": "end-accept"}, "nothing-to-accept"),
    ],
)
def test_bad_messages_get_a_named_error_and_change_nothing(
    client: TestClient, message: Any, code: str
) -> None:
    tid, _ann, bob = two_player_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}?token={bob}") as ws:
        recv_until(ws, lambda m: m["t"] == "snapshot")
        ws.send_text(message if isinstance(message, str) else json.dumps(message))
        got = reply(ws)
        assert got["t"] == "error" and got["code"] == code, got
        assert got["message"]
    assert version(client, tid) == 2


def test_stale_and_illegal_moves_are_refused(client: TestClient) -> None:
    tid, ann, _bob = two_player_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}?token={ann}") as ws:
        recv_until(ws, lambda m: m["t"] == "snapshot")
        ws.send_json({"t": "move", "move": "a1-b1", "v": 1, "id": "s"})
        assert reply(ws) == {
            "t": "error",
            "code": "stale",
            "message": "the table is at version 2, not 1",
            "params": {"version": 2, "sent": 1},
            "id": "s",
        }
        ws.send_json({"t": "move", "move": "a1-a9", "v": 2})
        got = reply(ws)
        assert got["code"] == "illegal-move" and "a9" in got["message"]
        ws.send_json({"t": "move", "move": "a1-b1", "v": 2})
        assert reply(ws)["t"] == "ack"
        ws.send_json({"t": "move", "move": "a1-b1", "v": 3})
        assert reply(ws)["code"] == "not-your-turn"
    r = client.post(f"/api/tables/{tid}/moves", json={"token": ann, "move": "b1-a1", "version": 9})
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale"
    assert version(client, tid) == 3


def test_a_flood_of_http_commands_is_refused(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, limits=Limits(messages_per_second=2.0, message_burst=5))
    with TestClient(create_app(settings)) as client:
        tid, ann, _bob = two_player_table(client)
        body = {"token": ann, "action": "chat", "text": "spam"}
        codes = [
            client.post(f"/api/tables/{tid}/actions", json=body).status_code for _ in range(20)
        ]
        assert 5 <= codes.count(200) <= 9 and codes.count(429) >= 11
        refused = client.post(f"/api/tables/{tid}/moves", json={"token": ann, "move": "a1-b1"})
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "rate-limited"
        state = client.get(f"/api/tables/{tid}").json()["state"]
        assert state["ply"] == 0  # the refused move changed nothing


def test_a_flood_of_messages_is_refused(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, limits=Limits(messages_per_second=2.0, message_burst=5))
    with TestClient(create_app(settings)) as client:
        tid, ann, _bob = two_player_table(client)
        with client.websocket_connect(f"/ws/tables/{tid}?token={ann}") as ws:
            recv_until(ws, lambda m: m["t"] == "snapshot")
            for i in range(20):
                ws.send_json({"t": "chat", "text": f"spam {i}", "id": i})
            replies = [reply(ws) for _ in range(20)]
        codes = [r.get("code", r["t"]) for r in replies]
        # a burst of 5, then 2 a second: however slowly this box sends 20, most are refused
        assert 5 <= codes.count("ack") <= 9 and codes.count("rate-limited") >= 11
        assert set(codes) <= {"ack", "rate-limited"}
        assert version(client, tid) == 2 + codes.count("ack")


@contextlib.contextmanager
def two_sockets(client: TestClient, tid: str, token: str) -> Iterator[tuple[Any, Any]]:
    """Two sockets of the same seat, both past their snapshot."""
    with (
        client.websocket_connect(f"/ws/tables/{tid}?token={token}") as one,
        client.websocket_connect(f"/ws/tables/{tid}?token={token}") as two,
    ):
        recv_until(one, lambda m: m["t"] == "snapshot")
        recv_until(two, lambda m: m["t"] == "snapshot")
        yield one, two


def test_two_sockets_of_one_seat_racing_get_exactly_one_move_in(client: TestClient) -> None:
    tid, ann, _bob = two_player_table(client)
    with two_sockets(client, tid, ann) as (one, two):
        one.send_json({"t": "move", "move": "a1-b1", "v": 2, "id": "one"})
        two.send_json({"t": "move", "move": "a3-b3", "v": 2, "id": "two"})
        replies = [reply(one), reply(two)]
    assert sorted(r["t"] for r in replies) == ["ack", "error"]
    assert [r["code"] for r in replies if r["t"] == "error"] == ["stale"]
    assert version(client, tid) == 3
    assert len(client.get(f"/api/tables/{tid}/record").json()["moves"]) == 1


def test_the_same_move_sent_twice_is_applied_once(client: TestClient) -> None:
    tid, ann, _bob = two_player_table(client)
    with two_sockets(client, tid, ann) as (one, two):
        one.send_json({"t": "move", "move": "a1-b1", "id": "m-1"})
        two.send_json({"t": "move", "move": "a1-b1", "id": "m-1"})
        replies = [reply(one), reply(two)]
    assert [r["v"] for r in replies] == [3, 3]
    assert sorted(r.get("duplicate", False) for r in replies) == [False, True]
    body = {"token": ann, "move": "a1-b1", "id": "m-1"}  # a retried HTTP call too
    r = client.post(f"/api/tables/{tid}/moves", json=body)
    assert r.json() == {"version": 3, "duplicate": True}
    assert version(client, tid) == 3


def test_http_refusals_are_json_with_a_4xx(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, limits=Limits(tables_per_hour=3, body_bytes=2000))
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        cases: list[tuple[Any, int, str]] = [
            (client.post("/api/tables", json={"game": "chess"}), 422, "unknown-game"),
            (
                client.post(
                    "/api/tables", json={"game": "dots-and-boxes", "options": {"rows": 99}}
                ),
                422,
                "bad-options",
            ),
            (
                client.post("/api/tables", json={"game": "dots-and-boxes", "x": 1}),
                422,
                "bad-request",
            ),
            (
                client.post("/api/tables", json={"game": "dots-and-boxes", "seats": [{}]}),
                422,
                "bad-seats",
            ),
            (
                client.post(
                    "/api/tables", content=b"{", headers={"content-type": "application/json"}
                ),
                422,
                "bad-request",
            ),
            (client.post("/api/tables", json={"game": "x" * 5000}), 413, "too-large"),
            (client.get("/api/tables/nosuchtable00"), 404, "no-such-table"),
            (client.get("/api/nothing"), 404, "not-found"),
            (client.delete("/api/games"), 405, "method-not-allowed"),
        ]
        tid = new_table(client)["id"]
        take(client, tid, 0, "Ann")
        cases += [
            (client.post(f"/api/tables/{tid}/seats/0", json={"name": "Eve"}), 409, "seat-taken"),
            (client.post(f"/api/tables/{tid}/seats/5", json={"name": "Eve"}), 400, "no-such-seat"),
            (client.post(f"/api/tables/{tid}/seats/1", json={"name": "  "}), 400, "bad-name"),
            (
                client.post(f"/api/tables/{tid}/moves", json={"token": "x", "move": "a1-b1"}),
                403,
                "bad-token",
            ),
        ]
        new_table(client)
        new_table(client)
        cases.append(
            (client.post("/api/tables", json={"game": "dots-and-boxes"}), 429, "too-many-tables")
        )
        for response, status, code in cases:
            assert response.status_code == status, (code, response.text)
            body = response.json()
            assert body["error"]["code"] == code and body["error"]["message"]
            assert "Traceback" not in response.text
        assert "option 'rows'" in cases[1][0].json()["error"]["message"]
        assert version(client, tid) == 1


def test_index_health_and_openapi(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "data-lobby" in page.text
    assert client.get("/healthz").json()["ok"] is True
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/games", "/api/tables", "/api/tables/{table_id}/moves"):
        assert path in paths
    games = client.get("/api/games").json()
    boxes = next(g for g in games if g["id"] == "dots-and-boxes")
    assert boxes["defaults"]["rows"] == 3 and "properties" in boxes["options"]

"""Hypothesis fuzzes the table socket: whatever arrives, the server answers every message
once with a well-formed reply, keeps running, and its HTTP side never answers 500."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import vertex
from tests.server.conftest import make_settings, recv_until, two_player_table
from vertex.server import Limits, create_app
from vertex.server.live.protocol import CLIENT_MESSAGES

scalars = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30)
json_values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
moves = st.sampled_from(["a1-b1", "b1-c1", "a1-a2", "c3-c2", "b2-b3", "a1-b1 ", "A1-B1"]) | st.text(
    max_size=12
)
near_valid = st.fixed_dictionaries(
    {"t": st.sampled_from([*CLIENT_MESSAGES, "", "MOVE", "undo"])},
    optional={
        "move": moves | json_values,
        "v": st.integers(min_value=-2, max_value=40) | json_values,
        "id": st.integers() | st.text(max_size=70) | json_values,
        "text": st.text(max_size=600) | json_values,
        "seat": st.integers(min_value=-3, max_value=8) | json_values,
        "level": st.integers(min_value=-1, max_value=7) | json_values,
        "extra": json_values,
    },
).map(json.dumps)
frames = near_valid | json_values.map(json.dumps) | st.text(max_size=200) | st.binary(max_size=200)

REPLIES = {"ack", "error", "pong"}
#: What a spectator's line in the spectators' chat may be refused with.
SPECTATOR_CHAT_REFUSALS = {
    "bad-chat",
    "chat-too-long",
    "bad-name",
    "rate-limited",
    "bad-json",
    "bad-message",
    "too-large",
}


def kind(frame: str | bytes) -> object:
    """The `t` of a frame that is a JSON object, else None."""
    try:
        got = json.loads(frame)
    except ValueError:
        return None
    return got.get("t") if isinstance(got, dict) else None


def test_fuzzing_the_socket_never_breaks_the_server(tmp_path: Path) -> None:
    limits = Limits(messages_per_second=10_000.0, message_burst=10_000)
    app = create_app(make_settings(tmp_path, limits=limits))
    with TestClient(app, raise_server_exceptions=True) as client:
        tid, ann, bob = two_player_table(client, options={"rows": 3, "cols": 3}, undo=True)
        with (
            client.websocket_connect(f"/ws/tables/{tid}?token={ann}") as a,
            client.websocket_connect(f"/ws/tables/{tid}?token={bob}") as b,
            client.websocket_connect(f"/ws/tables/{tid}") as watcher,
        ):
            for ws in (a, b, watcher):
                recv_until(ws, lambda m: m["t"] == "snapshot")

            @settings(
                max_examples=300,
                deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture],
            )
            @given(frame=frames, who=st.sampled_from([0, 1, 2]))
            @example(frame='{"t": "spectator-chat", "text": "hello"}', who=2)  # a line: ack
            @example(frame='{"t": "spectator-chat", "text": ""}', who=2)  # bad-chat (found in CI)
            @example(frame='{"t": "spectator-chat", "text": "hi"}', who=0)  # spectators-only
            def one_message(frame: str | bytes, who: int) -> None:
                ws = (a, b, watcher)[who]
                if isinstance(frame, bytes):
                    ws.send_bytes(frame)
                else:
                    ws.send_text(frame)
                got: dict[str, Any] = recv_until(ws, lambda m: m["t"] in REPLIES)
                if got["t"] == "error":
                    assert isinstance(got["code"], str) and got["message"]
                    assert got["code"] != "internal"
                if who == 2 and kind(frame) == "spectator-chat":
                    # the spectators' own chat: a line, or a clear refusal of it
                    assert got["t"] == "ack" or got["code"] in SPECTATOR_CHAT_REFUSALS
                elif who == 2:
                    # a spectator acts on nothing else
                    assert got["t"] == "pong" or got["code"] in (
                        "spectator",
                        "bad-json",
                        "bad-message",
                        "too-large",
                    )

            one_message()
            for ws in (a, b, watcher):
                ws.send_json({"t": "ping", "id": "still-there"})
                assert recv_until(ws, lambda m: m["t"] == "pong")["id"] == "still-there"
        view = client.get(f"/api/tables/{tid}")
        assert view.status_code == 200
        rec = client.get(f"/api/tables/{tid}/record")
        assert rec.status_code == 200
        assert vertex.replay(rec.json()).to_dict() == view.json()["state"]


def test_fuzzing_the_http_api_never_answers_500(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, limits=Limits(tables_per_hour=10_000)))
    with TestClient(app, raise_server_exceptions=False) as client:
        tid, ann, _bob = two_player_table(client)
        targets = [
            "/api/tables",
            f"/api/tables/{tid}/moves",
            f"/api/tables/{tid}/actions",
            f"/api/tables/{tid}/seats/0",
            f"/api/tables/{tid}/seats/1",
        ]
        bodies = st.fixed_dictionaries(
            {},
            optional={
                "game": st.sampled_from(["dots-and-boxes", "juxtapose", "nope"]) | json_values,
                "options": st.dictionaries(
                    st.sampled_from(["rows", "cols", "players"]), json_values
                ),
                "seats": json_values,
                "clock": json_values,
                "token": st.sampled_from([ann, "x"]) | json_values,
                "move": moves | json_values,
                "action": st.sampled_from(["chat", "resign", "hand-over", "x"]) | json_values,
                "name": st.text(max_size=50) | json_values,
                "version": json_values,
            },
        ).map(json.dumps) | st.text(max_size=100)

        @settings(
            max_examples=200,
            deadline=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture],
        )
        @given(path=st.sampled_from(targets), body=bodies)
        def one_request(path: str, body: str) -> None:
            r = client.post(
                path, content=body.encode(), headers={"content-type": "application/json"}
            )
            assert r.status_code < 500, r.text
            assert "error" in r.json() or r.status_code in (200, 201)

        one_request()

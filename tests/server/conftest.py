"""Fixtures for the server tests: an app on a fresh SQLite file, driven in-process."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient

from tests.eventually import TIMEOUT
from vertex.server import Limits, Settings, create_app


def make_settings(tmp_path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": f"sqlite:///{tmp_path / 'vertex.db'}",
        "ai_executor": "thread",
        "ai_budget_s": 0.02,
        "sweep_interval_s": 3600.0,
        # absent players may be handed over at once, except where a test says otherwise
        "hand_over_grace_s": 0.0,
        # one analysis limit on every board unless a test says otherwise
        "analysis_exact_time_s": 0.0,
    }
    values.update(overrides)
    return Settings(**values)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as c:
        yield c


def new_table(client: TestClient, game: str = "dots-and-boxes", **body: Any) -> dict[str, Any]:
    body.setdefault("options", {"rows": 2, "cols": 2})
    r = client.post("/api/tables", json={"game": game, **body})
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def take(client: TestClient, tid: str, seat: int, name: str) -> str:
    r = client.post(f"/api/tables/{tid}/seats/{seat}", json={"name": name})
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def two_player_table(client: TestClient, **body: Any) -> tuple[str, str, str]:
    tid = new_table(client, **body)["id"]
    return tid, take(client, tid, 0, "Ann"), take(client, tid, 1, "Bob")


def receive_json(ws: Any, timeout: float = TIMEOUT) -> Any:
    """The next message of a test client's socket, or AssertionError after `timeout` s.

    Starlette's `receive_json` waits for ever; this waits on the same stream through the
    session's own portal, under a deadline, so a message that never comes fails the test.
    """

    async def next_message() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    try:
        message = ws.portal.call(next_message)
    except TimeoutError:
        raise AssertionError(f"no message on the socket within {timeout:g} s") from None
    ws._raise_on_close(message)
    text = message["text"] if message.get("text") is not None else message["bytes"].decode()
    return json.loads(text)


def recv_until(ws: Any, pred: Any, limit: int = 200, timeout: float = TIMEOUT) -> dict[str, Any]:
    """Read messages until one satisfies `pred` (skipping presence and the like), within
    `timeout` s in all."""
    deadline = time.monotonic() + timeout
    for _ in range(limit):
        try:
            msg: dict[str, Any] = receive_json(ws, max(0.0, deadline - time.monotonic()))
        except AssertionError:
            raise AssertionError(f"expected message never came within {timeout:g} s") from None
        if pred(msg):
            return msg
    raise AssertionError(f"expected message never came in {limit} messages")


__all__ = [
    "Limits",
    "make_settings",
    "new_table",
    "receive_json",
    "recv_until",
    "take",
    "two_player_table",
]

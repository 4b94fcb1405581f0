"""Fixtures for the server tests: an app on a fresh SQLite file, driven in-process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from vertex.server import Limits, Settings, create_app


def make_settings(tmp_path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "database_url": f"sqlite:///{tmp_path / 'vertex.db'}",
        "ai_executor": "thread",
        "ai_budget_s": 0.02,
        "sweep_interval_s": 3600.0,
        # absent players may be handed over at once, except where a test says otherwise
        "hand_over_grace_s": 0.0,
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


def recv_until(ws: Any, pred: Any, limit: int = 200) -> dict[str, Any]:
    """Read messages until one satisfies `pred` (skipping presence and the like)."""
    for _ in range(limit):
        msg: dict[str, Any] = ws.receive_json()
        if pred(msg):
            return msg
    raise AssertionError("expected message never came")


__all__ = ["Limits", "make_settings", "new_table", "recv_until", "take", "two_player_table"]

"""Players in tests: a site whose clients come from addresses of their choosing (through a
trusted proxy's X-Forwarded-For), claiming names and playing rated games out."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import make_settings
from vertex.core.rng import Rng
from vertex.server import Limits, create_app

PROXY = ("10.9.9.9", 40000)


@contextmanager
def site(tmp_path: Path, **limits: Any) -> Iterator[TestClient]:
    """A one-process site behind a trusted proxy: `from_(address)` headers pick the client."""
    settings = make_settings(
        tmp_path,
        trusted_proxies="10.9.9.9",
        limits=Limits(tables_per_hour=10_000, **limits),
    )
    with TestClient(create_app(settings), client=PROXY) as c:
        yield c


def from_(address: str, key: str | None = None) -> dict[str, str]:
    out = {"X-Forwarded-For": address}
    if key is not None:
        out["Authorization"] = f"Bearer {key}"
    return out


def claim(client: TestClient, name: str, address: str = "192.0.2.1") -> str:
    r = client.post("/api/players", json={"name": name}, headers=from_(address))
    assert r.status_code == 201, r.text
    key: str = r.json()["key"]
    return key


def rated_table(client: TestClient, pool_options: dict[str, Any] | None = None) -> str:
    body = {"game": "dots-and-boxes", "options": pool_options or {"rows": 3, "cols": 3}}
    r = client.post("/api/tables", json={**body, "rated": True}, headers=from_("192.0.2.50"))
    assert r.status_code == 201, r.text
    tid: str = r.json()["id"]
    return tid


def sit(client: TestClient, tid: str, seat: int, key: str, address: str) -> str:
    r = client.post(f"/api/tables/{tid}/seats/{seat}", json={}, headers=from_(address, key))
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def play_out(client: TestClient, tid: str, tokens: list[str], seed: int = 1) -> dict[str, Any]:
    """Random legal moves until the game is over; the final view."""
    rng = Rng.from_seed(seed, "players-test")
    for _ in range(1000):
        view: dict[str, Any] = client.get(f"/api/tables/{tid}").json()
        state = view["state"]
        if state["is_over"]:
            return view
        i, rng = rng.below(len(state["legal_moves"]))
        body = {"token": tokens[state["to_move"][0]], "move": state["legal_moves"][i]}
        r = client.post(f"/api/tables/{tid}/moves", json=body)
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


def rated_game(
    client: TestClient, keys: list[str], addresses: list[str], seed: int = 1
) -> dict[str, Any]:
    """A rated 3×3 Dots and Boxes game between two players, played out: its final view."""
    tid = rated_table(client)
    tokens = [sit(client, tid, n, keys[n], addresses[n]) for n in range(2)]
    return play_out(client, tid, tokens, seed)

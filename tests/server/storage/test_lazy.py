"""Tables load when first asked for: a start reads no log, whatever is open."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from tests.eventually import eventually
from tests.server.conftest import make_settings, new_table, take
from vertex.server import Limits, create_app


def test_a_start_with_many_open_tables_loads_none_of_them_until_asked(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, limits=Limits(tables_per_hour=1000))
    with TestClient(create_app(settings)) as client:
        ids = [new_table(client)["id"] for _ in range(120)]
        for tid in ids[:20]:  # some under way
            take(client, tid, 0, "Ann")
            take(client, tid, 1, "Bob")
        seats = [{"kind": "human"}, {"kind": "ai", "level": 1}]
        vs = new_table(client, seats=seats)["id"]  # a computer waiting for its human
        solo = take(client, vs, 0, "Solo")
        timed = new_table(client, clock={"per_move": 600})["id"]  # a clock running
        take(client, timed, 0, "Ann")
        take(client, timed, 1, "Bob")
    with TestClient(create_app(settings)) as client:
        health = client.get("/healthz").json()
        assert health["tables"] == 0 and health["loaded"] == 0
        view = client.get(f"/api/tables/{ids[3]}").json()
        assert view["version"] == 2 and view["seats"][1]["name"] == "Bob"
        health = client.get("/healthz").json()
        assert health["tables"] == 1 and health["loaded"] == 1
        # a table with a computer seat comes back when touched, and its computer plays on
        move = client.get(f"/api/tables/{vs}").json()["state"]["legal_moves"][0]
        r = client.post(f"/api/tables/{vs}/moves", json={"token": solo, "move": move})
        assert r.status_code == 200, r.text
        eventually(lambda: client.get(f"/api/tables/{vs}").json()["state"]["ply"] >= 2)
        assert client.get("/healthz").json()["loaded"] == 2  # and nothing else

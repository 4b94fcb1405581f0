"""A rematch of a rated table (DESIGN.md §5a): rated again in the same pool with the same
clock, each seat still its player's (listed in their "Your tables" and profile at once),
showing their rating now; the anti-farming rules judge it as the first; a player forgotten
meanwhile makes it unrated and shows as a former player."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.players.helpers import claim, from_, play_out, rated_table, sit, site

pytestmark = pytest.mark.timeout(120)

A, B = "192.0.2.1", "192.0.2.2"


def _game(c: TestClient, keys: list[str], addresses: list[str]) -> tuple[str, list[str]]:
    tid = rated_table(c)
    tokens = [sit(c, tid, n, keys[n], addresses[n]) for n in range(2)]
    play_out(c, tid, tokens)
    return tid, tokens


def _rematch(c: TestClient, tid: str, token: str) -> str:
    r = c.post(f"/api/tables/{tid}/actions", json={"token": token, "action": "rematch"})
    assert r.status_code == 200, r.text
    new: str = r.json()["table"]
    return new


def _mine(c: TestClient, key: str, address: str) -> list[dict[str, Any]]:
    me = c.get("/api/players/me", headers=from_(address, key)).json()
    tables: list[dict[str, Any]] = me["tables"]
    return tables


def test_a_rated_rematch_is_rated_and_its_seats_are_the_players(tmp_path: Path) -> None:
    with site(tmp_path) as c:
        ann, bob = claim(c, "Ann", A), claim(c, "Bob", B)
        tid, tokens = _game(c, [ann, bob], [A, B])
        first = c.get(f"/api/tables/{tid}").json()
        assert first["result"].get("ratings")
        new = _rematch(c, tid, tokens[1])
        view = c.get(f"/api/tables/{new}").json()
        assert view["rated"] is True and view["settings"] == first["settings"]
        assert view["settings"]["clock"] and view["settings"]["on_timeout"] == "lose"
        # seats rotated: Bob first; each shows its rating after the first game
        assert [s["name"] for s in view["seats"]] == ["Bob", "Ann"]
        after = {r["seat"]: r["after"] for r in first["result"]["ratings"]}
        assert [s["rating"]["value"] for s in view["seats"]] == [after[1], after[0]]
        assert all(s["player"] is True for s in view["seats"])
        # on every device: the players' own lists and profiles have it at once
        for key, address, name in ((ann, A, "Ann"), (bob, B, "Bob")):
            rows = {t["id"]: t for t in _mine(c, key, address)}
            assert new in rows and rows[new]["pool"] == "dots-and-boxes-3x3"
            assert rows[new]["seat"] == (1 if name == "Ann" else 0)
            playing = c.get(f"/api/players/{name}").json()["playing"]
            assert new in [p["id"] for p in playing]
        # played out, it is rated: both have two rated games
        view = play_out(c, new, [tokens[1], tokens[0]], seed=3)
        assert len(view["result"]["ratings"]) == 2 and "unrated" not in view["result"]
        for name in ("Ann", "Bob"):
            prof = c.get(f"/api/players/{name}").json()
            assert prof["ratings"]["dots-and-boxes-3x3"]["games"] == 2
        until = time.monotonic() + 10
        while new in [t["id"] for t in _mine(c, ann, A)] and time.monotonic() < until:
            time.sleep(0.05)
        assert new not in [t["id"] for t in _mine(c, ann, A)]


def test_the_anti_farming_rules_judge_a_rematch_too(tmp_path: Path) -> None:
    with site(tmp_path) as c:
        ann, alt = claim(c, "Ann", A), claim(c, "Annalt", A)
        tid, tokens = _game(c, [ann, alt], [A, A])
        assert c.get(f"/api/tables/{tid}").json()["result"]["unrated"] == "same-address"
        new = _rematch(c, tid, tokens[0])
        assert c.get(f"/api/tables/{new}").json()["rated"] is True
        view = play_out(c, new, [tokens[1], tokens[0]], seed=2)
        assert view["result"]["unrated"] == "same-address" and "ratings" not in view["result"]
        assert c.get("/api/players/Ann").json()["ratings"] == {}


def test_a_player_forgotten_meanwhile_makes_the_rematch_unrated(tmp_path: Path) -> None:
    with site(tmp_path) as c:
        ann, bob = claim(c, "Ann", A), claim(c, "Bob", B)
        tid, tokens = _game(c, [ann, bob], [A, B])
        assert c.delete("/api/players/me", headers=from_(B, bob)).status_code == 204
        new = _rematch(c, tid, tokens[0])
        view = c.get(f"/api/tables/{new}").json()
        assert "rated" not in view
        assert view["seats"][0] == {**view["seats"][0], "name": None, "former": True}
        assert view["seats"][1]["name"] == "Ann" and "rating" not in view["seats"][1]
        assert new in [t["id"] for t in _mine(c, ann, A)]

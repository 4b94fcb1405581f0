"""The players' API (DESIGN.md §5a): claiming names, keys, profiles, rated tables, games and
leaderboards; every refusal coded, changing nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.server.players.helpers import (
    claim,
    from_,
    play_out,
    rated_game,
    rated_table,
    sit,
    site,
)
from vertex.server.storage import players as stored_players
from vertex.server.table import ratings

pytestmark = pytest.mark.timeout(120)


def test_claim_a_name_and_use_the_key(tmp_path: Path) -> None:
    with site(tmp_path) as c:
        r = c.post("/api/players", json={"name": "  Ann  "}, headers=from_("192.0.2.1"))
        assert r.status_code == 201
        body = r.json()
        assert body["name"] == "Ann" and len(body["key"]) >= 43
        me = c.get("/api/players/me", headers=from_("192.0.2.1", body["key"])).json()
        assert me["name"] == "Ann" and me["tables"] == [] and me["turns"] == []
        assert me["counts"] == {"games": 0, "wins": 0, "draws": 0, "losses": 0}
        prof = c.get("/api/players/aNN").json()  # by the folded name
        assert prof["name"] == "Ann" and "key" not in prof and "tables" not in prof


@pytest.mark.parametrize(
    ("name", "reason", "why"),
    [
        ("A", "length", "too-short"),
        ("x" * 21, "length", "too-long"),
        ("   ", "length", "empty"),
        ("Ann\u202e", "characters", "control"),
        ("p\u0430ypal", "mixed-scripts", "mixed-scripts"),  # a Cyrillic а among Latin
    ],
)
def test_bad_names_are_refused_with_their_reason(
    tmp_path: Path, name: str, reason: str, why: str
) -> None:
    with site(tmp_path) as c:
        r = c.post("/api/players", json={"name": name}, headers=from_("192.0.2.1"))
        assert r.status_code == 422, r.text
        err = r.json()["error"]
        assert err["code"] == "bad-name"
        assert (err["params"]["reason"], err["params"]["why"]) == (reason, why)


@pytest.mark.parametrize("other", ["ann", "ANN", "Ａｎｎ", "Ann ", "AnN"])
def test_a_name_taken_in_any_case_or_width(tmp_path: Path, other: str) -> None:
    with site(tmp_path) as c:
        claim(c, "Ann")
        r = c.post("/api/players", json={"name": other}, headers=from_("192.0.2.2"))
        assert (r.status_code, r.json()["error"]["code"]) == (409, "name-taken")


@pytest.mark.parametrize(("first", "other"), [("Alice", "AIice"), ("Oscar", "0scar")])
def test_look_alikes_count_as_taken(tmp_path: Path, first: str, other: str) -> None:
    with site(tmp_path) as c:
        claim(c, first)
        r = c.post("/api/players", json={"name": other}, headers=from_("192.0.2.2"))
        assert (r.status_code, r.json()["error"]["code"]) == (409, "name-taken")


def test_keys_no_key_bad_key_replaced_key(tmp_path: Path) -> None:
    with site(tmp_path) as c:
        key = claim(c, "Ann")
        r = c.get("/api/players/me", headers=from_("192.0.2.1"))
        assert (r.status_code, r.json()["error"]["code"]) == (401, "no-key")
        for header in ("Bearer nope", "Basic " + key, "Bearer", "Bearer " + "x" * 500):
            h = {**from_("192.0.2.1"), "Authorization": header}
            r = c.get("/api/players/me", headers=h)
            assert (r.status_code, r.json()["error"]["code"]) == (401, "bad-key"), header
        new = c.post("/api/players/me/key", headers=from_("192.0.2.1", key)).json()["key"]
        assert new != key
        r = c.get("/api/players/me", headers=from_("192.0.2.1", key))  # the old one: stopped
        assert (r.status_code, r.json()["error"]["code"]) == (401, "bad-key")
        r = c.post("/api/players/me/key", headers=from_("192.0.2.1", key))
        assert r.status_code == 401
        assert c.get("/api/players/me", headers=from_("192.0.2.1", new)).status_code == 200


def test_forget_frees_the_name(tmp_path: Path) -> None:
    with site(tmp_path) as c:
        key = claim(c, "Ann")
        r = c.delete("/api/players/me", headers=from_("192.0.2.1", key))
        assert r.status_code == 204
        assert c.get("/api/players/me", headers=from_("192.0.2.1", key)).status_code == 401
        r = c.get("/api/players/Ann")
        assert (r.status_code, r.json()["error"]["code"]) == (404, "no-player")
        claim(c, "ann", "192.0.2.3")  # the name is free again


def test_claims_and_failed_keys_are_limited_per_address(tmp_path: Path) -> None:
    with site(tmp_path, names_per_hour=2, key_failures_per_hour=3) as c:
        key = claim(c, "Ann", "192.0.2.7")
        claim(c, "Bob", "192.0.2.7")
        r = c.post("/api/players", json={"name": "Cid"}, headers=from_("192.0.2.7"))
        assert (r.status_code, r.json()["error"]["code"]) == (429, "too-many-names")
        claim(c, "Cid", "192.0.2.8")  # another address: its own allowance
        bad = {**from_("192.0.2.7"), "Authorization": "Bearer wrong"}
        codes = [c.get("/api/players/me", headers=bad).status_code for _ in range(4)]
        assert codes == [401, 401, 401, 429]
        # now not even the right key is tried from there; elsewhere it works
        r = c.get("/api/players/me", headers=from_("192.0.2.7", key))
        assert (r.status_code, r.json()["error"]["code"]) == (429, "too-many-key-attempts")
        assert c.get("/api/players/me", headers=from_("192.0.2.9", key)).status_code == 200


def test_pools_are_listed_with_the_games(tmp_path: Path) -> None:
    with site(tmp_path) as c:
        games = {g["id"]: g for g in c.get("/api/games").json()}
        ids = [p["id"] for p in games["dots-and-boxes"]["pools"]]
        assert ids == ["dots-and-boxes-3x3", "dots-and-boxes-5x5"]
        assert games["verticality"]["pools"] == []
        assert games["dots-and-boxes"]["pools"][0]["options"]["rows"] == 3


def test_rated_tables_need_a_pool_people_and_keys(tmp_path: Path) -> None:
    with site(tmp_path) as c:
        body = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}, "rated": True}
        r = c.post("/api/tables", json=body)
        assert r.status_code == 422
        assert r.json()["error"]["params"] == {"reason": "not-a-pool"}
        body = {
            "game": "dots-and-boxes",
            "options": {"rows": 3, "cols": 3},
            "rated": True,
            "seats": [{"kind": "human"}, {"kind": "ai", "level": 1}],
        }
        r = c.post("/api/tables", json=body)
        assert r.json()["error"]["params"] == {"reason": "computer-seat"}
        tid = rated_table(c)
        view = c.get(f"/api/tables/{tid}").json()
        assert view["rated"] is True
        assert view["settings"]["on_timeout"] == "lose" and view["settings"]["clock"]
        r = c.post(f"/api/tables/{tid}/seats/0", json={"name": "Guest"})
        assert (r.status_code, r.json()["error"]["code"]) == (403, "key-needed")
        ann = claim(c, "Ann")
        sit(c, tid, 0, ann, "192.0.2.1")
        r = c.post(f"/api/tables/{tid}/seats/1", json={}, headers=from_("192.0.2.1", ann))
        assert (r.status_code, r.json()["error"]["code"]) == (409, "already-seated")
        r = c.post(f"/api/tables/{tid}/seats/1", json={}, headers=from_("192.0.2.1", "bad"))
        assert (r.status_code, r.json()["error"]["code"]) == (401, "bad-key")
        seat = c.get(f"/api/tables/{tid}").json()["seats"][0]
        assert seat["name"] == "Ann" and seat["player"] is True
        assert seat["rating"] == {"value": 1500, "provisional": True}
        assert c.get(f"/api/tables/{tid}").json()["seats"][1]["name"] is None


def test_a_rated_game_rates_both_and_shows_everywhere(tmp_path: Path) -> None:
    with site(tmp_path) as c:
        ann, bob = claim(c, "Ann", "192.0.2.1"), claim(c, "Bob", "192.0.2.2")
        view = rated_game(c, [ann, bob], ["192.0.2.1", "192.0.2.2"])
        result = view["result"]
        winner = result["winners"][0]
        got = {r["seat"]: r for r in result["ratings"]}
        assert set(got) == {0, 1}
        # the library's own numbers
        expected = ratings.model().rate(
            [[ratings.model().rating(mu=ratings.MU, sigma=ratings.SIGMA)] for _ in range(2)],
            ranks=[1.0 if s == winner else 2.0 for s in range(2)],
        )
        for s in range(2):
            assert got[s]["before"] == 1500
            assert got[s]["after"] == round(expected[s][0].mu)
        assert got[winner]["after"] > 1500 > got[1 - winner]["after"]
        names = ["Ann", "Bob"]
        prof = c.get(f"/api/players/{names[winner]}").json()
        pool = prof["ratings"]["dots-and-boxes-3x3"]
        assert pool["rating"] == got[winner]["after"] and pool["games"] == 1
        assert pool["provisional"] is True
        assert prof["counts"] == {"games": 1, "wins": 1, "draws": 0, "losses": 0}
        games = c.get(f"/api/players/{names[1 - winner]}/games").json()
        (g,) = games["games"]
        assert g["result"] == "loss" and g["rated"] is True and games["next"] is None
        assert g["opponents"] == [
            {"seat": winner, "name": names[winner], "kind": "human", "player": True}
        ]
        assert g["rating"] == {"before": 1500, "after": got[1 - winner]["after"]}
        me = c.get("/api/players/me", headers=from_("192.0.2.1", ann)).json()
        assert me["tables"] == []  # over: no longer among the tables they sit at


def test_the_leaderboard(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stored_players, "BOARD_GAMES", 2)
    with site(tmp_path) as c:
        ann, bob = claim(c, "Ann", "192.0.2.1"), claim(c, "Bob", "192.0.2.2")
        cid = claim(c, "Cid", "192.0.2.3")
        rated_game(c, [ann, bob], ["192.0.2.1", "192.0.2.2"], seed=1)
        board = c.get("/api/leaderboard/dots-and-boxes-3x3").json()
        assert board["players"] == []  # one game each: not yet
        rated_game(c, [bob, ann], ["192.0.2.2", "192.0.2.1"], seed=2)
        rated_game(c, [cid, ann], ["192.0.2.3", "192.0.2.1"], seed=3)
        board = c.get("/api/leaderboard/dots-and-boxes-3x3").json()
        assert board["pool"] == "dots-and-boxes-3x3" and board["game"] == "dots-and-boxes"
        rows = board["players"]
        assert {r["name"] for r in rows} == {"Ann", "Bob"}  # Cid has one game
        assert [r["rank"] for r in rows] == [1, 2]
        assert rows[0]["rating"] >= rows[1]["rating"]
        r = c.get("/api/leaderboard/nope")
        assert (r.status_code, r.json()["error"]["code"]) == (404, "no-pool")


def test_games_pages_by_cursor_and_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from vertex.server.players import profiles

    monkeypatch.setattr(profiles, "PAGE", 2)
    with site(tmp_path) as c:
        ann, bob = claim(c, "Ann", "192.0.2.1"), claim(c, "Bob", "192.0.2.2")
        ids = []
        for seed in range(3):
            ids.append(rated_game(c, [ann, bob], ["192.0.2.1", "192.0.2.2"], seed)["id"])
        first = c.get("/api/players/Ann/games").json()
        assert [g["id"] for g in first["games"]] == ids[::-1][:2]
        second = c.get("/api/players/Ann/games", params={"cursor": first["next"]}).json()
        assert [g["id"] for g in second["games"]] == ids[:1] and second["next"] is None
        none = c.get("/api/players/Ann/games", params={"game": "figures"}).json()
        assert none == {"games": [], "next": None}
        r = c.get("/api/players/Ann/games", params={"cursor": "!!"})
        assert (r.status_code, r.json()["error"]["code"]) == (422, "bad-cursor")


def test_anti_farming_same_address_and_daily_pairs(tmp_path: Path) -> None:
    with site(tmp_path) as c:
        ann, bob = claim(c, "Ann", "192.0.2.1"), claim(c, "Bob", "192.0.2.1")
        view = rated_game(c, [ann, bob], ["192.0.2.1", "192.0.2.1"])
        assert view["result"]["unrated"] == "same-address" and "ratings" not in view["result"]
        assert c.get("/api/players/Ann").json()["ratings"] == {}
        results = []
        for seed in range(4):
            v = rated_game(c, [ann, bob], ["192.0.2.1", "192.0.2.2"], seed)
            results.append(v["result"].get("unrated"))
        assert results == [None, None, None, "daily-limit"]
        assert c.get("/api/players/Ann").json()["ratings"]["dots-and-boxes-3x3"]["games"] == 3
        assert c.get("/api/players/Ann").json()["counts"]["games"] == 5  # all in the history


def test_an_abort_is_unrated_and_a_leaver_loses_on_time(tmp_path: Path) -> None:
    with site(tmp_path) as c:
        ann, bob = claim(c, "Ann", "192.0.2.1"), claim(c, "Bob", "192.0.2.2")
        tid = rated_table(c)
        a, _b = sit(c, tid, 0, ann, "192.0.2.1"), sit(c, tid, 1, bob, "192.0.2.2")
        state = c.get(f"/api/tables/{tid}").json()["state"]
        first = state["to_move"][0]
        r = c.post(f"/api/tables/{tid}/actions", json={"token": [a, _b][first], "action": "resign"})
        assert r.status_code == 200, r.text
        result = c.get(f"/api/tables/{tid}").json()["result"]
        assert result["aborted"] is True and result["unrated"] == "aborted"
        assert "ratings" not in result
        assert c.get("/api/players/Ann").json()["ratings"] == {}


def test_a_seat_taken_with_a_key_is_listed_with_its_turn(tmp_path: Path) -> None:
    import time

    with site(tmp_path) as c:
        ann, bob = claim(c, "Ann", "192.0.2.1"), claim(c, "Bob", "192.0.2.2")
        tid = rated_table(c)
        sit(c, tid, 0, ann, "192.0.2.1")
        me = c.get("/api/players/me", headers=from_("192.0.2.1", ann)).json()
        assert [(t["id"], t["status"], t["my_turn"]) for t in me["tables"]] == [
            (tid, "open", False)
        ]
        sit(c, tid, 1, bob, "192.0.2.2")
        first = c.get(f"/api/tables/{tid}").json()["state"]["to_move"][0]
        key = [ann, bob][first]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            me = c.get("/api/players/me", headers=from_("192.0.2.1", key)).json()
            if me["turns"] == [tid]:
                break
            time.sleep(0.05)
        assert me["turns"] == [tid] and me["tables"][0]["status"] == "playing"
        assert c.get(f"/api/players/{['Ann', 'Bob'][first]}").json()["playing"] == [
            {
                "id": tid,
                "game": "dots-and-boxes",
                "url": f"/tables/{tid}",
                "their_turn": True,  # (this player's: `first`)
                "slow": False,
                "deadline": None,
            }
        ]


def test_unrated_tables_with_players_keep_their_history(tmp_path: Path) -> None:
    with site(tmp_path) as c:
        ann = claim(c, "Ann", "192.0.2.1")
        r = c.post(
            "/api/tables", json={"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}}
        )
        tid = r.json()["id"]
        a = sit(c, tid, 0, ann, "192.0.2.1")
        g = c.post(f"/api/tables/{tid}/seats/1", json={"name": "Guest"}).json()["token"]
        view = play_out(c, tid, [a, g])
        assert "ratings" not in view["result"] and "rated" not in view
        (game,) = c.get("/api/players/Ann/games").json()["games"]
        assert game["rated"] is False and game["rating"] is None
        assert game["opponents"] == [{"seat": 1, "name": "Guest", "kind": "human"}]
        # the forgotten player's seat shows as a former player's
        c.delete("/api/players/me", headers=from_("192.0.2.1", ann))
        seat = c.get(f"/api/tables/{tid}").json()["seats"][0]
        assert seat == {**seat, "name": None, "former": True, "player": True}

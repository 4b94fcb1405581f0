"""The lobby as a place (lobby/): listed tables in three sections, live over /ws/lobby,
Play now, unlisting, the per-address bound and the sweep that takes left tables off."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.eventually import eventually
from tests.server.conftest import make_settings, receive_json, recv_until, take
from vertex.server import Limits, create_app

BOXES = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}}


def listed(client: TestClient, **body: Any) -> str:
    r = client.post("/api/tables", json={**BOXES, "listed": True, **body})
    assert r.status_code == 201, r.text
    tid: str = r.json()["id"]
    return tid


def lobby(client: TestClient, **params: str) -> dict[str, Any]:
    r = client.get("/api/lobby", params=params)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def ids(view: dict[str, Any], section: str) -> list[str]:
    return [e["id"] for e in view[section]]


def move(client: TestClient, tid: str, token: str) -> None:
    view = client.get(f"/api/tables/{tid}").json()
    legal = view["state"]["legal_moves"][0]
    r = client.post(f"/api/tables/{tid}/moves", json={"token": token, "move": legal})
    assert r.status_code == 200, r.text


def test_a_listed_table_goes_from_waiting_to_playing_to_finished(client: TestClient) -> None:
    tid = listed(client)
    private = client.post("/api/tables", json=BOXES).json()["id"]
    view = lobby(client)
    assert ids(view, "open") == [tid]
    entry = view["open"][0]
    assert entry["game"] == "dots-and-boxes" and entry["options"]["rows"] == 2
    assert entry["free_seats"] == 2 and [s["free"] for s in entry["seats"]] == [True, True]
    assert view["counts"] == {"open": 1, "live": 0, "finished": 0}
    ann = take(client, tid, 0, "Ann")
    assert lobby(client)["open"][0]["seats"][0]["name"] == "Ann"
    bob = take(client, tid, 1, "Bob")
    view = lobby(client)
    assert ids(view, "open") == [] and ids(view, "live") == [tid]
    assert view["live"][0]["scores"] == [0, 0] and view["live"][0]["to_move"] == [0]
    r = client.post(f"/api/tables/{tid}/actions", json={"token": bob, "action": "resign"})
    assert r.status_code == 200, r.text
    view = lobby(client)
    assert ids(view, "live") == [] and ids(view, "finished") == [tid]
    assert view["finished"][0]["result"] == {"winners": [0], "reason": "resign"}
    assert private not in str(view)
    assert ann not in str(view) and bob not in str(view)


def test_the_socket_sends_changes_and_never_a_private_table(client: TestClient) -> None:
    with client.websocket_connect("/ws/lobby") as ws:
        first = receive_json(ws)
        assert first["t"] == "lobby" and first["open"] == []
        client.post("/api/tables", json=BOXES)  # private: no event at all
        tid = listed(client)
        change = receive_json(ws)
        assert change["t"] == "change" and change["v"] > first["v"]
        assert [e["id"] for e in change["up"]] == [tid] and change["gone"] == []
        assert change["counts"] == {"open": 1, "live": 0, "finished": 0}
        take(client, tid, 0, "Ann")
        change = receive_json(ws)
        assert change["up"][0]["free_seats"] == 1
        take(client, tid, 1, "Bob")
        change = receive_json(ws)
        assert change["up"][0]["section"] == "live"
        assert change["counts"] == {"open": 0, "live": 1, "finished": 0}


def test_a_game_filter_shows_that_game_only(client: TestClient) -> None:
    boxes = listed(client)
    jux = listed(client, game="juxtapose", options={})
    assert ids(lobby(client, game="juxtapose"), "open") == [jux]
    assert ids(lobby(client, game="dots-and-boxes"), "open") == [boxes]
    assert lobby(client, game="juxtapose")["counts"]["open"] == 1
    r = client.get("/api/lobby", params={"game": "chess"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "unknown-game"
    with client.websocket_connect("/ws/lobby?game=juxtapose") as ws:
        assert [e["id"] for e in receive_json(ws)["open"]] == [jux]
        listed(client)  # another Dots table: not this socket's business
        other = listed(client, game="juxtapose", options={})
        assert [e["id"] for e in receive_json(ws)["up"]] == [other]


def test_each_section_shows_fifty_newest_and_counts_the_rest(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, limits=Limits(listed_per_address=100))
    with TestClient(create_app(settings)) as client:
        made = [listed(client) for _ in range(53)]
        view = lobby(client)
        assert ids(view, "open") == made[::-1][:50]
        assert view["counts"]["open"] == 53
        with client.websocket_connect("/ws/lobby") as ws:
            receive_json(ws)
            take(client, made[-1], 0, "Ann")  # the newest changes: nothing else moves
            assert [e["id"] for e in receive_json(ws)["up"]] == [made[-1]]
            r = client.post("/api/lobby/unlist", json={"table": made[-1], "token": "x" * 20})
            assert r.status_code == 403
            token = take(client, made[-2], 0, "Bob")
            receive_json(ws)
            r = client.post("/api/lobby/unlist", json={"table": made[-2], "token": token})
            assert r.status_code == 200 and r.json()["listed"] is False
            change = receive_json(ws)
            # the one that left goes, the 51st newest comes into view
            assert change["gone"] == [made[-2]] and [e["id"] for e in change["up"]] == [made[2]]
            assert change["counts"]["open"] == 52
        assert made[-2] not in ids(lobby(client), "open")


def test_listing_is_bounded_per_address(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, limits=Limits(listed_per_address=2))
    with TestClient(create_app(settings)) as client:
        listed(client)
        listed(client)
        r = client.post("/api/tables", json={**BOXES, "listed": True})
        assert r.status_code == 429 and r.json()["error"]["code"] == "too-many-listed"
        assert lobby(client)["counts"]["open"] == 2
        assert client.post("/api/tables", json=BOXES).status_code == 201  # private: fine


def test_names_are_data_not_markup(client: TestClient) -> None:
    tid = listed(client)
    take(client, tid, 0, "<img src=x onerror=alert(1)>")
    assert lobby(client)["open"][0]["seats"][0]["name"] == "<img src=x onerror=alert(1)>"


def test_a_table_whose_creator_left_leaves_the_list(client: TestClient) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    gone, staying, empty = listed(client), listed(client), listed(client)
    take(client, gone, 0, "Ann")
    token = take(client, staying, 0, "Bob")
    now = time.time()
    with client.websocket_connect(f"/ws/tables/{staying}?token={token}") as ws:
        receive_json(ws)
        client.portal.call(hub.sweep, now + 9 * 60)  # type: ignore[union-attr]
        assert set(ids(lobby(client), "open")) == {gone, staying, empty}
        client.portal.call(hub.sweep, now + 11 * 60)  # type: ignore[union-attr]
        # Ann left 11 minutes ago; Bob is still here; nobody sat at the empty one (yet)
        assert set(ids(lobby(client), "open")) == {staying, empty}
    client.portal.call(hub.sweep, now + 20 * 60)  # type: ignore[union-attr]
    # the last sweep saw Bob (at +11): 9 minutes since
    assert set(ids(lobby(client), "open")) == {staying, empty}
    client.portal.call(hub.sweep, now + 22 * 60)  # type: ignore[union-attr]
    assert ids(lobby(client), "open") == [empty]
    client.portal.call(hub.sweep, now + 31 * 60)  # type: ignore[union-attr]
    assert ids(lobby(client), "open") == []


def test_play_now_waits_then_seats_the_next_player_at_that_table(client: TestClient) -> None:
    body = {"game": "juxtapose", "name": "Ann"}
    first = client.post("/api/lobby/play-now", json=body)
    assert first.status_code == 200, first.text
    a = first.json()
    assert a["waiting"] is True and a["seat"] == 0 and a["url"] == f"/tables/{a['id']}"
    entry = lobby(client)["open"][0]
    assert entry["id"] == a["id"] and entry["quick"] and entry["free_seats"] == 1
    b = client.post("/api/lobby/play-now", json={**body, "name": "Bob"}).json()
    assert b["waiting"] is False and b["id"] == a["id"] and b["seat"] == 1
    view = client.get(f"/api/tables/{a['id']}").json()
    assert view["started"] and [s["name"] for s in view["seats"]] == ["Ann", "Bob"]
    # a table with other options is not for Play now
    other = listed(client, game="juxtapose", options={"players": 3})
    take(client, other, 0, "Cy")
    take(client, other, 1, "Di")
    c = client.post("/api/lobby/play-now", json={**body, "name": "Eve"}).json()
    assert c["waiting"] is True and c["id"] not in (a["id"], other)
    r = client.post("/api/lobby/play-now", json={"game": "chess", "name": "X"})
    assert r.status_code == 422


def test_play_now_racing_makes_one_table(client: TestClient) -> None:
    got: list[dict[str, Any]] = []
    start = threading.Barrier(2)

    def press(name: str) -> None:
        start.wait()
        r = client.post("/api/lobby/play-now", json={"game": "juxtapose", "name": name})
        assert r.status_code == 200, r.text
        got.append(r.json())

    threads = [threading.Thread(target=press, args=(n,)) for n in ("Ann", "Bob")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({g["id"] for g in got}) == 1
    assert sorted(g["waiting"] for g in got) == [False, True]


def test_cancelling_play_now_unlists_the_table(client: TestClient) -> None:
    a = client.post("/api/lobby/play-now", json={"game": "juxtapose", "name": "Ann"}).json()
    r = client.post("/api/lobby/unlist", json={"table": a["id"], "token": a["token"]})
    assert r.json() == {"id": a["id"], "listed": False, "started": False}
    assert lobby(client)["counts"]["open"] == 0
    b = client.post("/api/lobby/play-now", json={"game": "juxtapose", "name": "Bob"}).json()
    assert b["waiting"] is True and b["id"] != a["id"]


def test_following_your_tables_shows_each_change(client: TestClient) -> None:
    tid = client.post("/api/tables", json=BOXES).json()["id"]  # private: followed by id
    ann = take(client, tid, 0, "Ann")
    with client.websocket_connect("/ws/lobby") as ws:
        receive_json(ws)
        ws.send_json({"t": "follow", "tables": [tid, "nosuchtable1"]})
        mine = recv_until(ws, lambda m: m["t"] == "mine")
        assert [e["id"] for e in mine["tables"]] == [tid] and mine["missing"] == ["nosuchtable1"]
        bob = take(client, tid, 1, "Bob")
        mine = recv_until(ws, lambda m: m["t"] == "mine")
        assert mine["tables"][0]["to_move"] == [0] and mine["tables"][0]["section"] == "live"
        move(client, tid, ann)
        while True:  # a box can give the same seat another move: wait for Bob's turn
            mine = recv_until(ws, lambda m: m["t"] == "mine")
            if mine["tables"][0]["to_move"] == [1]:
                break
            move(client, tid, ann)
        assert bob not in str(mine) and ann not in str(mine)
        ws.send_json({"t": "follow", "tables": ["../etc"]})
        assert recv_until(ws, lambda m: m["t"] == "error")["code"] == "bad-message"
        ws.send_json({"t": "follow", "tables": ["a" * 12] * 51})
        assert recv_until(ws, lambda m: m["t"] == "error")["code"] == "bad-message"
    assert lobby(client)["counts"] == {"open": 0, "live": 0, "finished": 0}


def test_watchers_are_counted_on_a_playing_table(client: TestClient) -> None:
    tid = listed(client)
    take(client, tid, 0, "Ann")
    take(client, tid, 1, "Bob")
    with client.websocket_connect(f"/ws/tables/{tid}") as spectator:
        receive_json(spectator)
        # the count is coalesced (watching.py): it arrives within about a second
        eventually(lambda: lobby(client)["live"][0]["watching"] == 1, what="one watching")
    eventually(lambda: lobby(client)["live"][0]["watching"] == 0, what="nobody watching")


def test_the_lobby_is_in_the_openapi_schema(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert "/api/lobby" in schema["paths"] and "/api/lobby/play-now" in schema["paths"]
    props = schema["components"]["schemas"]["LobbyEntry"]["properties"]
    assert {"free_seats", "watching", "seats", "section"} <= set(props)
    create = schema["components"]["schemas"]["CreateTable"]["properties"]
    assert create["listed"]["default"] is False


def test_listed_tables_survive_a_restart(tmp_path: Path) -> None:
    settings = make_settings(tmp_path)
    with TestClient(create_app(settings)) as client:
        tid = listed(client)
        take(client, tid, 0, "Ann")
    with TestClient(create_app(settings)) as client:
        entry = lobby(client)["open"][0]
        assert entry["id"] == tid and entry["seats"][0]["name"] == "Ann"


def test_a_silent_process_loses_its_spectators_and_a_whole_list_mends_lost_counts(
    client: TestClient,
) -> None:
    """Other processes' spectator counts come over the bus (lobby/place.py). A process that
    dies says nothing more: after `SILENT_SWEEPS` sweeps without a word from it, its count
    goes. Each sweep every process sends its whole list, which mends a lost message."""
    from vertex.server.lobby.watchers import SILENT_SWEEPS

    hub = client.app.state.hub  # type: ignore[attr-defined]
    tid = listed(client)
    take(client, tid, 0, "Ann")
    take(client, tid, 1, "Bob")
    on_bus = hub.lobby._on_shared

    def shown() -> int:
        return int(lobby(client)["live"][0]["watching"])

    def sweep() -> None:
        client.portal.call(hub.sweep, time.time())

    client.portal.call(on_bus, {"watch": tid, "worker": "w-dead", "n": 3})
    client.portal.call(on_bus, {"watching": {tid: 2}, "worker": "w-alive"})
    assert shown() == 5
    # w-alive's spectators left and its message saying so was lost: its next list mends it
    client.portal.call(on_bus, {"watching": {}, "worker": "w-alive"})
    assert shown() == 3
    # w-dead never speaks again; w-alive sends its list between our sweeps, as it does
    for _ in range(SILENT_SWEEPS):
        sweep()
        client.portal.call(on_bus, {"watching": {tid: 1}, "worker": "w-alive"})
        assert shown() == 4  # w-dead not silent for long enough yet
    sweep()
    assert shown() == 1
    assert "w-dead" not in hub.lobby.index.heard
    # a list naming a table this process does not list is not kept
    client.portal.call(on_bus, {"watching": {"nosuchtable": 4}, "worker": "w-alive"})
    assert "nosuchtable" not in hub.lobby.index.watch

"""Whole games over the sockets, in-process: humans, computers, spectators, resuming."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

import vertex
from tests.eventually import eventually
from tests.server.conftest import new_table, receive_json, recv_until, take, two_player_table
from vertex.core import Rng, State, game_class, game_ids

SMALL: dict[str, dict[str, Any]] = {
    "dots-and-boxes": {"rows": 2, "cols": 2},
    "dots-and-triangles": {"size": 2},
    "figures": {"rows": 3, "cols": 3},
}


def small_options(gid: str) -> dict[str, Any]:
    if gid in SMALL:
        return SMALL[gid]
    cases = getattr(game_class(gid), "random_play_cases", None)
    options = dict(cases[0]) if cases else {}
    if "players" in game_class(gid).Options.model_fields:
        options["players"] = 2
    return options


def is_event(v: int) -> Any:
    return lambda m: m.get("t") == "event" and m["v"] == v


def table_state(client: TestClient, tid: str) -> State:
    return vertex.replay(client.get(f"/api/tables/{tid}/record").json())


@pytest.mark.parametrize("gid", game_ids())
def test_a_whole_game_of_each_kind_with_two_human_seats(client: TestClient, gid: str) -> None:
    tid = new_table(client, gid, options=small_options(gid))["id"]
    seats = client.get(f"/api/tables/{tid}").json()["state"]["seats"]
    tokens = [take(client, tid, n, f"P{n}") for n in range(seats)]
    state = table_state(client, tid)
    rng = Rng.from_seed(11, gid)
    with client.websocket_connect(f"/ws/tables/{tid}") as watcher:
        snap = receive_json(watcher)
        assert snap["t"] == "snapshot" and snap["seat"] is None
        socks = [client.websocket_connect(f"/ws/tables/{tid}?token={t}") for t in tokens]
        entered = [s.__enter__() for s in socks]
        try:
            for ws in entered:
                assert recv_until(ws, lambda m: m["t"] == "snapshot")["table"]["started"]
            v = seats
            moves = 0
            while not state.is_over and moves < 400:
                seat = state.to_move[0]
                move, rng = state.sample_move(seat, rng)
                entered[seat].send_json({"t": "move", "move": move, "v": v, "id": moves})
                # The mover hears the event before the ack; it carries the move as recorded
                # (Verticality adds the haste the server measured).
                ev = recv_until(entered[seat], lambda m: m["t"] in ("event", "error"))
                while ev["t"] == "event" and ev["v"] <= v:  # the others' moves, heard late
                    ev = recv_until(entered[seat], lambda m: m["t"] in ("event", "error"))
                assert ev["t"] == "event" and ev["v"] == v + 1 and ev["seat"] == seat, ev
                ack = recv_until(entered[seat], lambda m: m["t"] in ("ack", "error"))
                assert ack == {"t": "ack", "v": v + 1, "id": moves}, ack
                state = state.play(ev["move"], seat=seat)
                v += 1
                moves += 1
            if not state.is_over:  # a long random game: settle it
                entered[0].send_json({"t": "resign"})
                recv_until(entered[0], lambda m: m["t"] == "ack")
                v += 1
            # the spectator saw every move, in order, and the final state
            seen = []
            while True:
                msg = receive_json(watcher)
                if msg["t"] == "event":
                    seen.append(msg)
                    if msg["v"] == v:
                        break
            kinds = [m["kind"] for m in seen]
            assert kinds.count("move") == moves
            assert [m["v"] for m in seen] == list(range(seats + 1, v + 1))
            assert seen[-1]["result"] is not None
        finally:
            for s in socks:
                s.__exit__(None, None, None)
    view = client.get(f"/api/tables/{tid}").json()
    assert view["result"] is not None and view["version"] == v
    rec = client.get(f"/api/tables/{tid}/record").json()
    assert vertex.replay(rec) == state
    assert len(rec["moves"]) == len(state.history)


def test_a_table_of_computers_plays_itself_to_the_end(client: TestClient) -> None:
    seats = [{"kind": "ai", "level": 1}, {"kind": "ai", "level": 2}]
    tid = new_table(client, seats=seats)["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        recv_until(ws, lambda m: m["t"] in ("snapshot",))
        view = client.get(f"/api/tables/{tid}").json()
        while view["result"] is None:
            msg = receive_json(ws)
            if msg.get("t") == "event" and msg.get("result"):
                break
    view = client.get(f"/api/tables/{tid}").json()
    assert view["result"]["reason"] == "game"
    assert view["state"]["is_over"]
    assert len(view["state"]["scores"]) == 2 and sum(view["state"]["scores"]) == 4
    rec = client.get(f"/api/tables/{tid}/record").json()
    assert vertex.replay(rec).is_over
    assert [s["kind"] for s in rec["seats"]] == ["ai", "ai"]


def test_a_human_against_a_computer(client: TestClient) -> None:
    tid = new_table(client, seats=[{"kind": "human"}, {"kind": "ai", "level": 1}])["id"]
    token = take(client, tid, 0, "Ann")
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        snap = recv_until(ws, lambda m: m["t"] == "snapshot")
        assert snap["seat"] == 0 and snap["table"]["started"]
        while True:  # each round is a move of Ann's (or a stale one, the computer being quick)
            view = eventually(
                lambda: client.get(f"/api/tables/{tid}").json(),
                until=lambda v: v["result"] is not None or v["state"]["to_move"] == [0],
            )
            if view["result"] is not None:
                break
            move = view["state"]["legal_moves"][0]
            ws.send_json({"t": "move", "move": move, "v": view["version"]})
            reply = recv_until(ws, lambda m: m["t"] in ("ack", "error"))
            assert reply["t"] == "ack" or reply["code"] == "stale", reply
    assert vertex.replay(client.get(f"/api/tables/{tid}/record").json()).is_over


def test_spectators_see_every_move_and_cannot_act(client: TestClient) -> None:
    tid, ann, _bob = two_player_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as spec:
        snap = receive_json(spec)
        assert snap["t"] == "snapshot" and snap["v"] == 2 and snap["seat"] is None
        for msg in (
            {"t": "move", "move": "a1-b1", "v": 2},
            {"t": "resign"},
            {"t": "chat", "text": "hi"},
            {"t": "undo-request"},
            {"t": "rematch"},
        ):
            spec.send_json(msg)
            reply = recv_until(spec, lambda m: m["t"] == "error")
            assert reply["code"] == "spectator"
        assert client.get(f"/api/tables/{tid}").json()["version"] == 2
        r = client.post(f"/api/tables/{tid}/moves", json={"token": ann, "move": "a1-b1"})
        assert r.status_code == 200
        ev = recv_until(spec, is_event(3))
        assert ev["kind"] == "move" and ev["move"] == "a1-b1" and ev["seat"] == 0
        assert ev["state"]["to_move"] == [1]


def test_reconnecting_with_since_gets_exactly_the_missed_events(client: TestClient) -> None:
    tid, ann, bob = two_player_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}?token={bob}") as ws:
        assert recv_until(ws, lambda m: m["t"] == "snapshot")["v"] == 2
    state = table_state(client, tid)
    tokens = [ann, bob]
    for _ in range(4):  # Bob is away for four events (moves and a chat line)
        seat = state.to_move[0]
        move = state.legal_moves()[0]  # type: ignore[index]
        r = client.post(f"/api/tables/{tid}/moves", json={"token": tokens[seat], "move": move})
        assert r.status_code == 200, r.text
        state = state.play(move, seat=seat)
    chat = {"token": ann, "action": "chat", "text": "where did you go?"}
    assert client.post(f"/api/tables/{tid}/actions", json=chat).status_code == 200
    with client.websocket_connect(f"/ws/tables/{tid}?token={bob}&since=2") as ws:
        head = receive_json(ws)
        assert head == {"t": "resume", "since": 2, "v": 7, "seat": 1}
        got = [receive_json(ws) for _ in range(5)]
        assert [m["v"] for m in got] == [3, 4, 5, 6, 7]
        assert [m["kind"] for m in got] == ["move"] * 4 + ["chat"]
        assert [m["move"] for m in got[:4]] == [e[1] for e in state.history]
        assert got[3]["state"] == state.to_dict()
        assert got[4]["text"] == "where did you go?"
        ws.send_json({"t": "ping", "id": 1})
        assert recv_until(ws, lambda m: m["t"] == "pong") == {"t": "pong", "id": 1}
    with client.websocket_connect(f"/ws/tables/{tid}?since=7") as ws:
        assert receive_json(ws) == {"t": "resume", "since": 7, "v": 7, "seat": None}
        ws.send_json({"t": "ping"})
        assert recv_until(ws, lambda m: m["t"] not in ("presence", "watching")) == {"t": "pong"}


def test_presence_shows_who_is_connected(client: TestClient) -> None:
    tid, ann, _bob = two_player_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}?token={ann}") as ws:
        assert recv_until(ws, lambda m: m["t"] == "presence")["connected"] == [True, False]
        seats = client.get(f"/api/tables/{tid}").json()["seats"]
        assert [s["connected"] for s in seats] == [True, False]
    seats = client.get(f"/api/tables/{tid}").json()["seats"]
    assert [s["connected"] for s in seats] == [False, False]


def test_record_as_text_and_json(client: TestClient) -> None:
    tid, ann, _bob = two_player_table(client)
    client.post(f"/api/tables/{tid}/moves", json={"token": ann, "move": "b1-a1"})
    text = client.get(f"/api/tables/{tid}/record?format=text").text
    assert "# game: dots-and-boxes" in text and "# seat 0: Ann (human)" in text
    assert text.rstrip().endswith("0 a1-b1")  # recorded in canonical notation
    rec = client.get(f"/api/tables/{tid}/record").json()
    assert rec["moves"][0]["move"] == "a1-b1" and rec["moves"][0]["t"] > 0
    assert json.loads(vertex.Record.from_json(rec).to_json())["game"] == "dots-and-boxes"


def test_a_socket_read_that_gets_nothing_fails_at_its_deadline(client: TestClient) -> None:
    # the tests' socket reads have deadlines: a message that never comes fails the test
    # instead of hanging the run
    tid, _, _ = two_player_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        assert recv_until(ws, lambda m: m["t"] == "snapshot")["t"] == "snapshot"
        with pytest.raises(AssertionError, match=r"within 0\.3 s"):
            recv_until(ws, lambda m: m["t"] == "move", timeout=0.3)

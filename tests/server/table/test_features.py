"""Table features: resign, rematch, undo, ending by agreement, chat, hand-over, clocks, expiry."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

import vertex
from tests.eventually import eventually
from tests.server.conftest import new_table, recv_until, take, two_player_table


def act(client: TestClient, tid: str, token: str, action: str, **extra: Any) -> Any:
    return client.post(
        f"/api/tables/{tid}/actions", json={"token": token, "action": action, **extra}
    )


def play(client: TestClient, tid: str, token: str, move: str) -> Any:
    return client.post(f"/api/tables/{tid}/moves", json={"token": token, "move": move})


def view(client: TestClient, tid: str) -> dict[str, Any]:
    out: dict[str, Any] = client.get(f"/api/tables/{tid}").json()
    return out


def test_resign_ends_the_game_and_rematch_rotates_the_first_seat(client: TestClient) -> None:
    tid, ann, bob = two_player_table(client)
    assert play(client, tid, ann, "a1-b1").status_code == 200
    assert act(client, tid, bob, "rematch").json()["error"]["code"] == "not-over"
    assert act(client, tid, bob, "resign").status_code == 200
    v = view(client, tid)
    assert v["result"] == {"reason": "resign", "winners": [0], "seat": 1}
    r = play(client, tid, bob, "a2-b2")
    assert r.status_code == 409 and r.json()["error"]["code"] == "game-over"
    rec = client.get(f"/api/tables/{tid}/record").json()
    assert rec["result"]["reason"] == "resign" and rec["result"]["winners"] == [0]
    assert vertex.replay(rec).history == ((0, "a1-b1"),)

    new = act(client, tid, ann, "rematch").json()["table"]
    assert act(client, tid, bob, "rematch").json()["table"] == new  # one rematch, not two
    assert view(client, tid)["rematch"] == new
    nv = view(client, new)
    assert [s["name"] for s in nv["seats"]] == ["Bob", "Ann"]  # Bob moves first now
    assert nv["started"] and nv["options"] == v["options"]
    # each player keeps their token, which now holds their new seat
    assert play(client, new, ann, "a1-b1").json()["error"]["code"] == "not-your-turn"
    assert play(client, new, bob, "a1-b1").status_code == 200


def test_undo_needs_the_table_option_and_the_others_consent(client: TestClient) -> None:
    tid, ann, bob = two_player_table(client)
    play(client, tid, ann, "a1-b1")
    r = act(client, tid, ann, "undo-request")
    assert r.status_code == 409 and r.json()["error"]["code"] == "no-undo"

    tid, ann, bob = two_player_table(client, undo=True)
    assert act(client, tid, ann, "undo-request").json()["error"]["code"] == "nothing-to-undo"
    play(client, tid, ann, "a1-b1")
    play(client, tid, bob, "a2-b2")
    assert act(client, tid, bob, "undo-accept").json()["error"]["code"] == "nothing-to-accept"
    with client.websocket_connect(f"/ws/tables/{tid}?token={ann}") as ws:
        recv_until(ws, lambda m: m["t"] == "snapshot")
        act(client, tid, ann, "undo-request")  # back to before Ann's a1-b1
        ev = recv_until(ws, lambda m: m["t"] == "event")
        assert ev["kind"] == "undo-request" and ev["ply"] == 0
        assert act(client, tid, ann, "undo-accept").json()["error"]["code"] == "not-allowed"
        act(client, tid, bob, "undo-accept")
        ev = recv_until(ws, lambda m: m["t"] == "event")
        assert ev["kind"] == "undo" and ev["state"]["ply"] == 0
    v = view(client, tid)
    assert v["state"]["to_move"] == [0] and v["state"]["ply"] == 0
    assert client.get(f"/api/tables/{tid}/record").json()["moves"] == []


def test_undo_against_a_computer_takes_back_its_reply_too(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "ai", "level": 1}]
    tid = new_table(client, seats=seats, undo=True, options={"rows": 3, "cols": 3})["id"]
    ann = take(client, tid, 0, "Ann")
    play(client, tid, ann, "a1-b1")
    eventually(lambda: view(client, tid)["state"]["to_move"] == [0])
    assert act(client, tid, ann, "undo-request").status_code == 200  # nobody else to ask
    v = view(client, tid)
    assert v["state"]["ply"] == 0 and v["state"]["to_move"] == [0]


def test_ending_by_agreement_where_the_game_allows_it(client: TestClient) -> None:
    tid, ann, bob = two_player_table(client)
    r = act(client, tid, ann, "end-request")
    assert r.json()["error"]["code"] == "not-allowed" and "Dots and Boxes" in r.text

    tid = new_table(client, "vert3x", options={"radius": 1})["id"]
    ann, bob = take(client, tid, 0, "Ann"), take(client, tid, 1, "Bob")
    move = view(client, tid)["state"]["legal_moves"][0]
    play(client, tid, ann, move)
    assert act(client, tid, ann, "end-request").status_code == 200
    assert view(client, tid)["requests"]["end"] == [0] and view(client, tid)["result"] is None
    assert act(client, tid, bob, "end-accept").status_code == 200
    v = view(client, tid)
    assert v["result"]["reason"] == "agreed" and v["state"]["is_over"]
    rec = client.get(f"/api/tables/{tid}/record").json()
    assert rec["moves"][-1] == {"seat": None, "move": "end", "t": rec["moves"][-1]["t"]}
    assert vertex.replay(rec).is_over


def test_chat_is_length_limited_and_names_the_speaker(client: TestClient) -> None:
    tid, ann, _bob = two_player_table(client)
    limit = client.app.state.hub.limits.chat_chars  # type: ignore[attr-defined]
    r = act(client, tid, ann, "chat", text="x" * (limit + 1))
    assert r.status_code == 400 and r.json()["error"]["code"] == "chat-too-long"
    assert act(client, tid, ann, "chat", text="bad\x07bell").json()["error"]["code"] == "bad-chat"
    assert view(client, tid)["version"] == 2
    with client.websocket_connect(f"/ws/tables/{tid}?token={ann}") as ws:
        recv_until(ws, lambda m: m["t"] == "snapshot")
        ws.send_json({"t": "chat", "text": "  good luck  ", "id": "c1"})
        ev = recv_until(ws, lambda m: m["t"] == "event")
        assert (ev["kind"], ev["seat"], ev["name"], ev["text"]) == ("chat", 0, "Ann", "good luck")


def test_a_seat_left_by_a_player_goes_to_a_computer(client: TestClient) -> None:
    tid, ann, bob = two_player_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}?token={ann}") as ws:
        recv_until(ws, lambda m: m["t"] == "snapshot")
        r = act(client, tid, bob, "hand-over", seat=0, level=1)  # Ann is here: not Bob's call
        assert r.status_code == 409 and r.json()["error"]["code"] == "not-allowed"
    r = act(client, tid, bob, "hand-over", seat=0, level=1)  # Ann left: Bob may hand her seat
    assert r.status_code == 200
    seats = view(client, tid)["seats"]
    assert seats[0]["kind"] == "ai" and seats[0]["level"] == 1
    assert play(client, tid, ann, "a1-b1").json()["error"]["code"] == "bad-token"
    eventually(lambda: view(client, tid)["state"]["to_move"] == [1])  # the computer plays seat 0
    assert view(client, tid)["state"]["ply"] >= 1


def test_a_per_move_clock_that_runs_out_loses(client: TestClient) -> None:
    tid, ann, _bob = two_player_table(client, clock={"per_move": 0.5}, on_timeout="lose")
    with client.websocket_connect(f"/ws/tables/{tid}?token={ann}") as ws:
        snap = recv_until(ws, lambda m: m["t"] == "snapshot")
        if snap["table"]["result"] is None:  # (a slow box may connect after the timeout)
            assert 0 <= snap["table"]["clocks"][0] <= 0.5 and snap["table"]["clocks"][1] is None
            ev = recv_until(ws, lambda m: m["t"] == "event")
            assert ev["kind"] == "timeout" and ev["seat"] == 0
    assert view(client, tid)["result"] == {"reason": "timeout", "winners": [1], "seat": 0}


def test_a_clock_that_runs_out_can_let_the_computer_move(client: TestClient) -> None:
    tid, ann, _bob = two_player_table(client, clock={"total": 0.2, "increment": 0.0})
    with client.websocket_connect(f"/ws/tables/{tid}?token={ann}&since=2") as ws:
        ev = recv_until(ws, lambda m: m["t"] == "event")  # missed or live, it comes
    assert ev["kind"] == "move" and ev["seat"] == 0 and ev["auto"] is True
    assert view(client, tid)["settings"]["on_timeout"] == "computer"


def test_idle_tables_expire(client: TestClient) -> None:
    tid, ann, _bob = two_player_table(client)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    client.portal.call(hub.sweep, time.time() + 60)  # type: ignore[union-attr]
    assert view(client, tid)["result"] is None
    client.portal.call(hub.sweep, time.time() + hub.limits.idle_expiry_s + 1)  # type: ignore[union-attr]
    assert view(client, tid)["result"] == {"reason": "expired", "winners": []}
    r = play(client, tid, ann, "a1-b1")
    assert r.status_code == 409 and r.json()["error"]["code"] == "expired"


def test_two_players_asking_for_a_rematch_at_once_get_one(client: TestClient) -> None:
    tid, ann, bob = two_player_table(client)
    act(client, tid, ann, "resign")
    with (
        client.websocket_connect(f"/ws/tables/{tid}?token={ann}") as a,
        client.websocket_connect(f"/ws/tables/{tid}?token={bob}") as b,
    ):
        recv_until(a, lambda m: m["t"] == "snapshot")
        recv_until(b, lambda m: m["t"] == "snapshot")
        a.send_json({"t": "rematch"})
        b.send_json({"t": "rematch"})
        got = [recv_until(ws, lambda m: m["t"] in ("ack", "error")) for ws in (a, b)]
    assert got[0]["t"] == got[1]["t"] == "ack"
    assert got[0]["table"] == got[1]["table"] == view(client, tid)["rematch"]
    assert client.get(f"/api/tables/{tid}/record").json()["moves"] == []  # not moves


def test_a_game_step_clock_drops_the_pieces_nobody_placed(client: TestClient) -> None:
    options = {"players": 2, "step_seconds": 1}
    tid = new_table(client, "verticality", options=options)["id"]
    ann, _bob = take(client, tid, 0, "Ann"), take(client, tid, 1, "Bob")
    v = view(client, tid)
    assert v["settings"]["clock"] == {"per_move": 1.0} and v["state"]["to_move"] == [0, 1]
    with client.websocket_connect(f"/ws/tables/{tid}?token={ann}&since=2") as ws:
        auto = [recv_until(ws, lambda m: m["t"] == "event") for _ in range(2)]
    assert sorted(m["seat"] for m in auto) == [0, 1]
    assert all(m["kind"] == "move" and m["auto"] for m in auto)


def test_the_result_names_a_seat_handed_to_the_computer(client: TestClient) -> None:
    tid, _ann, bob = two_player_table(client)
    assert act(client, tid, bob, "hand-over", seat=0, level=1).status_code == 200
    while view(client, tid)["state"]["to_move"] != [1]:  # the computer plays seat 0
        time.sleep(0.01)
    assert act(client, tid, bob, "resign").status_code == 200
    result = view(client, tid)["result"]
    assert result == {"reason": "resign", "winners": [0], "seat": 1, "handed": [0]}


def test_the_result_names_a_seat_the_computer_moved_for_when_time_ran_out(
    client: TestClient,
) -> None:
    tid, ann, bob = two_player_table(client, clock={"total": 0.2, "increment": 0.0})
    with client.websocket_connect(f"/ws/tables/{tid}?token={ann}&since=2") as ws:
        ev = recv_until(ws, lambda m: m["t"] == "event")
    assert ev["kind"] == "move" and ev["auto"] is True
    assert act(client, tid, bob, "resign").status_code == 200
    result = view(client, tid)["result"]
    assert result["reason"] == "resign" and result["auto"] == [0] and "handed" not in result


def test_a_resignation_in_misere_leaves_the_win_to_the_fewest_points(client: TestClient) -> None:
    opts = {"rows": 2, "cols": 2, "players": 3, "misere": True}
    tid = new_table(client, options=opts)["id"]
    ann, bob, cid = (take(client, tid, s, n) for s, n in enumerate(["Ann", "Bob", "Cid"]))
    for token, move in [(ann, "a1-b1"), (bob, "a1-a2"), (cid, "b1-b2"), (ann, "a2-b2")]:
        assert play(client, tid, token, move).status_code == 200, move
    assert view(client, tid)["state"]["scores"] == [1, 0, 0]  # Ann closed a1
    assert act(client, tid, cid, "resign").status_code == 200
    # of the two left, Bob has fewer points: in misère he wins, not Ann
    assert view(client, tid)["result"]["winners"] == [1]

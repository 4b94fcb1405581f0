"""What the Verticality table view sends: the fields the 3-D view draws (keyframes, die,
supply, who has placed), and each seat's aim kept private until its step resolves — from the
other seats and spectators, in live events, snapshots, catch-ups, the public view and the
record."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

import vertex
from tests.server.conftest import new_table, recv_until, take
from vertex.server.table import turns, views
from vertex.server.table.table import Table

AIM = "pyramid x=3 y=-2 rot=30"


def spec(players: int = 2, **options: Any) -> dict[str, Any]:
    seats = [{"kind": "human"} for _ in range(players)]
    options = {"players": players, "tremor_mm": 0.0, "step_seconds": 0, **options}
    return {"game": "verticality", "options": options, "seed": 7, "seats": seats}


def seated(s: dict[str, Any], at: float = 100.0) -> Table:
    table = Table("table-0001", s, created_at=at)
    for n in range(len(table.seats)):
        table.apply(table.take_seat(n, f"P{n}", f"token-{n}", at))
    return table


def play(table: Table, seat: int, move: str) -> dict[str, Any]:
    ev = table.move(seat, move, table.last_at + 3.0, cid=f"c{seat}")
    table.apply(ev)
    return views.message(table, ev)


# ---- the table as pure logic ------------------------------------------------------------------
def test_an_aim_is_sealed_from_others_until_its_step_resolves() -> None:
    table = seated(spec(players=3))
    msg = play(table, 0, AIM)
    assert turns.sealed(table) == {0}
    assert msg["move"] == AIM and msg["cid"] == "c0"  # what the mover (and the log) keeps
    assert views.for_viewer(msg, 0, turns.sealed(table)) is msg
    for viewer in (1, 2, None):
        seen = views.for_viewer(msg, viewer, turns.sealed(table))
        assert seen["move"] is None and "cid" not in seen and seen["seat"] == 0
        assert seen["state"]["last_move"] == {"seat": 0, "move": None}
        assert seen["state"]["board"]["placed"] == [0]  # who has placed is no secret
    assert msg["move"] == AIM  # the message itself is left alone
    msg = play(table, 1, "pyramid x=-1 y=4 rot=0")
    assert turns.sealed(table) == {0, 1}
    assert views.for_viewer(msg, 1, turns.sealed(table))["move"] == "pyramid x=-1 y=4 rot=0"
    assert (
        views.for_viewer(msg, 0, turns.sealed(table))["move"] is None
    )  # seat 0 may not see seat 1's either
    assert views.for_viewer(views.view(table, 0.0, viewer=1), 1, turns.sealed(table))["state"][
        "last_move"
    ]["move"]
    assert views.view(table, 0.0)["state"]["last_move"] == {"seat": 1, "move": None}
    msg = play(table, 2, "pyramid x=0 y=0 rot=0")  # the step resolves: nothing is sealed
    assert turns.sealed(table) == frozenset()
    for viewer in (0, 1, 2, None):
        assert views.for_viewer(msg, viewer, turns.sealed(table)) is msg
    assert msg["state"]["board"]["placed"] == [] and msg["state"]["board"]["step"] == 1


def test_the_record_leaves_out_the_step_under_way_and_still_replays() -> None:
    table = seated(spec())
    play(table, 0, AIM)
    play(table, 1, AIM)
    play(table, 0, "pyramid x=20 y=0 rot=0")
    rec = views.record(table)
    assert [m.move for m in rec.moves] == [AIM, AIM]
    assert vertex.replay(rec).to_dict()["board"]["step"] == 1
    play(table, 1, "pyramid x=20 y=0 rot=0")
    assert len(views.record(table).moves) == 4


def test_a_finished_table_hides_nothing() -> None:
    table = seated(spec())
    play(table, 0, AIM)
    table.apply(table.resign(1, 200.0))  # the game ends with seat 0's aim still in
    assert table.is_over and turns.sealed(table) == frozenset()
    assert views.view(table, 0.0)["state"]["last_move"]["move"] == AIM


def test_games_without_sealed_moves_send_the_same_message_to_all() -> None:
    dots = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}, "seed": 1}
    table = seated({**dots, "seats": [{"kind": "human"}, {"kind": "human"}]})
    msg = play(table, 0, "a1-b1")
    assert (
        views.for_viewer(msg, 1, turns.sealed(table)) is msg
        and views.for_viewer(msg, None, turns.sealed(table)) is msg
    )


def test_the_board_has_what_the_3d_view_draws() -> None:
    table = seated(spec())
    board = table.state.to_dict()["board"]
    assert board["kind"] == "towers" and board["level"] == 1 and board["step_name"] == "pyramid 1"
    assert board["die"]["size"] in ("S", "M", "L") and board["die"]["rolls"]
    assert board["supply"] == {"S": 30, "M": 30, "L": 30}
    assert (board["due"], board["placed"], board["step_seconds"]) == ([0, 1], [], 0)
    play(table, 0, AIM)
    play(table, 1, "pyramid x=0 y=0 rot=0")
    board = table.state.to_dict()["board"]
    size = board["die"]["size"]
    assert board["supply"][size] == 28
    tower = board["towers"][0]
    assert [p["kind"] for p in tower["pieces"]] == [size] and tower["standing"]
    x, y, z = tower["pieces"][0]["position_mm"]
    assert (x, y) == (3.0, -2.0) and abs(z) < 0.5  # mm, on the table
    frames = tower["keyframes"]
    assert frames["pieces"] == [0] and frames["times"][0] == 0.0
    assert len(frames["frames"]) == len(frames["times"])
    assert frames["frames"][0][0][2] > frames["frames"][-1][0][2]  # it came down
    assert len(frames["frames"][-1][0]) == 7  # x, y, z mm and the quaternion w, x, y, z


# ---- through the server -----------------------------------------------------------------------
def test_sockets_and_the_api_keep_an_aim_private_until_the_step_resolves(
    client: TestClient,
) -> None:
    tid = new_table(client, "verticality", options={"players": 2, "step_seconds": 0})["id"]
    ann, bob = take(client, tid, 0, "Ann"), take(client, tid, 1, "Bob")
    with (
        client.websocket_connect(f"/ws/tables/{tid}?token={ann}") as a,
        client.websocket_connect(f"/ws/tables/{tid}?token={bob}") as b,
        client.websocket_connect(f"/ws/tables/{tid}") as watcher,
    ):
        for ws in (a, b, watcher):
            recv_until(ws, lambda m: m["t"] == "snapshot")
        a.send_json({"t": "move", "move": AIM, "v": 2, "id": "m1"})
        mine = recv_until(a, lambda m: m["t"] == "event")
        assert mine["move"].startswith(AIM) and mine["cid"] == "m1"
        for ws in (b, watcher):
            theirs = recv_until(ws, lambda m: m["t"] == "event")
            assert theirs["move"] is None and theirs["seat"] == 0 and "cid" not in theirs
            assert theirs["state"]["last_move"] == {"seat": 0, "move": None}
            assert theirs["state"]["board"]["placed"] == [0]
        public = client.get(f"/api/tables/{tid}").json()
        assert public["state"]["last_move"] == {"seat": 0, "move": None}
        assert client.get(f"/api/tables/{tid}/record").json()["moves"] == []
        # Coming back: a snapshot, or the events since, are sealed the same way.
        for token, sealed in ((ann, False), (bob, True)):
            with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
                snap = recv_until(ws, lambda m: m["t"] == "snapshot")
                assert (snap["table"]["state"]["last_move"]["move"] is None) is sealed
            with client.websocket_connect(f"/ws/tables/{tid}?token={token}&since=2") as ws:
                again = recv_until(ws, lambda m: m["t"] == "event")
                assert (again["move"] is None) is sealed
        b.send_json({"t": "move", "move": AIM, "v": 3, "id": "m2"})
        for ws in (a, b, watcher):
            done = recv_until(ws, lambda m: m["t"] == "event")
            assert done["move"].startswith(AIM) and done["state"]["board"]["step"] == 1
    moves = client.get(f"/api/tables/{tid}/record").json()["moves"]
    assert [m["seat"] for m in moves] == [0, 1] and moves[0]["move"] == mine["move"]

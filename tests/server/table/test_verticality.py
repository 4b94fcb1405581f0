"""Verticality at the table: aims kept for the step clock, haste measured by the server, solo
personal bests, and a whole game of computer players through the API."""

from __future__ import annotations

import asyncio
import secrets
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, delete, update

import vertex
from tests.server.conftest import new_table, receive_json, recv_until, take
from vertex.games.verticality.plan import plan_aim
from vertex.server import Settings, create_app
from vertex.server.errors import ApiError
from vertex.server.storage.schema import bests_t, tables_t
from vertex.server.storage.store import Store
from vertex.server.table import turns, views
from vertex.server.table.records import BestRow
from vertex.server.table.table import Table


def spec(players: int = 2, ai: tuple[int, ...] = (), **options: Any) -> dict[str, Any]:
    seats = [{"kind": "ai", "level": 3} if n in ai else {"kind": "human"} for n in range(players)]
    options = {"players": players, "tremor_mm": 0.0, "step_seconds": 0, **options}
    return {"game": "verticality", "options": options, "seed": 7, "seats": seats}


def seated(s: dict[str, Any], at: float = 100.0) -> Table:
    table = Table("table-0001", s, created_at=at)
    for n, seat in enumerate(table.seats):
        if seat.kind == "human":
            table.apply(table.take_seat(n, f"P{n}", f"token-{n}", at))
    assert table.started
    return table


def planned(table: Table, seat: int) -> str:
    return str(plan_aim(table.state, seat))  # type: ignore[arg-type]


# ---- the table as pure logic ------------------------------------------------------------------
def test_haste_is_measured_from_when_the_seat_s_step_began() -> None:
    table = seated(spec())
    first = "pyramid x=10 y=-5 rot=30"
    ev = table.move(0, first, 100.5)  # 0.5 s after the step began: haste 1 - 0.5/2
    assert ev.data["move"] == first + " haste=0.75"
    table.apply(ev)
    ev = table.move(1, first + " haste=0.9", 101.0)  # the client claimed more: kept
    assert ev.data["move"] == first + " haste=0.9"
    table.apply(ev)  # the step resolves at 101.0: the next one begins for both
    assert table.due_since == {0: 101.0, 1: 101.0}
    calm = table.move(0, planned(table, 0), 103.0)
    assert "haste" not in calm.data["move"]
    hasty = table.move(0, planned(table, 0), 101.4)
    assert hasty.data["move"].endswith(" haste=0.8")


def test_computer_seats_keep_the_haste_their_level_chose() -> None:
    table = seated(spec(ai=(1,)))
    assert table.move(1, "pyramid x=0 y=0 rot=0", 100.0).data["move"] == "pyramid x=0 y=0 rot=0"
    assert table.move(0, "pyramid x=0 y=0 rot=0", 100.0).data["move"].endswith("haste=1")


def test_a_haste_a_move_cannot_carry_leaves_the_refusal_to_the_game() -> None:
    table = seated(spec())
    with pytest.raises(ApiError, match="names the piece first"):
        table.move(0, "tower x=0 y=0", 100.0)
    assert table.v == 2 and table.state.history == ()


def test_an_aim_is_checked_held_for_its_step_and_forgotten_after() -> None:
    table = seated(spec())
    assert turns.aim_check(table, 0, "pyramid  x=10 y=-5 rot=390") == "pyramid x=10 y=-5 rot=30"
    for seat, move, code in [
        (0, "card x=0 y=0 rot=0", "illegal-move"),  # step 1 places a pyramid
        (0, "pyramid x=0 y=200", "illegal-move"),  # off the base
        (0, "tower", "illegal-move"),
    ]:
        with pytest.raises(ApiError) as err:
            turns.aim_check(table, seat, move)
        assert err.value.code == code
    turns.hold_aim(table, 0, turns.aim_tag(table, 0), "pyramid x=10 y=-5 rot=30")
    assert (
        turns.held_aim(table, 0) == "pyramid x=10 y=-5 rot=30" and turns.held_aim(table, 1) is None
    )
    turns.hold_aim(table, 1, (0, 5), "pyramid x=1 y=1 rot=0")  # for a step seat 1 is not in
    assert turns.held_aim(table, 1) is None
    table.apply(table.move(0, "pyramid x=10 y=-5 rot=30", 105.0))
    assert turns.held_aim(table, 0) is None  # placed: the aim belonged to that step
    with pytest.raises(ApiError) as err:
        turns.aim_check(table, 0, "pyramid x=10 y=-5 rot=30")
    assert err.value.code == "not-your-turn"


def test_a_refused_aim_names_the_rule_and_its_numbers_for_the_page() -> None:
    table = seated(spec())
    with pytest.raises(ApiError) as err:
        turns.aim_check(table, 0, "card x=0 y=0 rot=0")
    assert err.value.reason == {"rule": "pyramid-now", "pyramid": 1, "level": 1}
    table.apply(table.move(0, "pyramid x=10 y=-5 rot=30", 101.0))
    table.apply(table.move(1, "pyramid x=10 y=-5 rot=30", 102.0))
    with pytest.raises(ApiError) as err:
        turns.aim_check(table, 0, "pyramid x=70 y=-5 rot=30")
    assert err.value.code == "illegal-move" and "touching rule" in err.value.message
    reason = err.value.reason
    assert reason is not None and reason["rule"] == "touching" and reason["within_mm"] == 1.0
    assert reason["gap_mm"] > 30
    with pytest.raises(ApiError) as err:
        turns.aim_check(table, 0, "pyramid x=12 y=-5 rot=30")  # 2 mm into the first one
    assert err.value.reason is not None and err.value.reason["rule"] == "overlap"
    assert err.value.body()["error"]["reason"] == err.value.reason
    with pytest.raises(ApiError) as err:
        turns.aim_check(table, 0, "tower")  # unreadable: the message alone
    assert err.value.reason is None and "reason" not in err.value.body()["error"]


def test_other_games_have_no_aims() -> None:
    dots = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}, "seed": 1}
    table = seated({**dots, "seats": [{"kind": "human"}, {"kind": "human"}]})
    with pytest.raises(ApiError) as err:
        turns.aim_check(table, 0, "a1-b1")
    assert err.value.code == "no-aims" and "Dots and Boxes" in err.value.message


def test_a_solo_result_is_a_personal_best_and_other_tables_are_not() -> None:
    table = seated(spec(players=1))
    assert views.solo_best(table) is None  # not over
    for _ in range(4):  # level 1: three pyramids and the card, aimed calmly
        table.apply(table.move(0, planned(table, 0), table.last_at + 3.0))
    table.apply(table.resign(0, 130.0))
    best = views.solo_best(table)
    assert best is not None
    assert (best.name, best.levels, best.table_id, best.at) == ("P0", 1, "table-0001", 130.0)
    # seed 7 rolls small pyramids: 25.40 mm tall, and the 0.3 mm card on their tips
    assert table.state.to_dict()["board"]["towers"][0]["pieces"][0]["kind"] == "S"
    assert best.height_mm == table.state.to_dict()["board"]["towers"][0]["height_mm"]
    assert best.height_mm == pytest.approx(25.7, abs=0.1)
    assert views.solo_best(seated(spec())) is None  # two players
    expired = seated(spec(players=1))
    expired.apply(expired.expire(200.0))
    assert views.solo_best(expired) is None
    computer = seated(spec(players=1, ai=(0,)))
    computer.apply(computer.resign(0, 101.0))
    assert views.solo_best(computer) is None


def test_the_winner_building_on_alone_sets_a_personal_best() -> None:
    table = seated(spec(build_on=True))
    at = 103.0
    while table.state.step < 3:  # level 1: the three pyramids, both seats
        for seat in table.state.to_move:
            table.apply(table.move(seat, planned(table, seat), at))
            at += 3.0
    table.apply(table.move(0, planned(table, 0), at))  # seat 0's card
    for _ in range(2):  # seat 1's card slides off twice: its tower is out
        aim = plan_aim(table.state, 1)  # type: ignore[arg-type]
        off = f"card x={aim.x + 40:.2f} y={aim.y:.2f} rot={aim.rot:.2f}"
        table.apply(table.move(1, off, at))
        at += 3.0
    assert table.state.to_move == (0,) and table.result is None  # seat 0 builds on alone
    assert views.solo_best(table) is None
    table.apply(table.move(0, "stop", at))
    best = views.solo_best(table)
    assert table.result is not None and table.state.winners == (0,)
    assert best is not None and (best.name, best.levels) == ("P0", 1)
    assert best.height_mm == table.state.result()["height_mm"][0] > 0


# ---- over the API ----------------------------------------------------------------------------
def view(client: TestClient, tid: str) -> dict[str, Any]:
    out: dict[str, Any] = client.get(f"/api/tables/{tid}").json()
    return out


def aim(client: TestClient, tid: str, token: str, move: str) -> Any:
    return client.post(f"/api/tables/{tid}/aims", json={"token": token, "move": move})


def run_out(client: TestClient, tid: str, seats: tuple[int, ...]) -> None:
    """Run the step clock out for `seats` now, as the hub's timer would a minute in."""
    hub = client.app.state.hub  # type: ignore[attr-defined]

    async def go() -> None:
        table = hub.tables[tid]
        for seat in seats:
            table.due_since[seat] = time.time() - 61.0
            await hub.autoplay.timeout(tid, seat, table.v)

    client.portal.call(go)  # type: ignore[union-attr]


def test_aims_are_private_and_the_step_clock_drops_the_piece_there(client: TestClient) -> None:
    tid = new_table(client, "verticality", options={"players": 2, "step_seconds": 60})["id"]
    ann, bob = take(client, tid, 0, "Ann"), take(client, tid, 1, "Bob")
    with (
        client.websocket_connect(f"/ws/tables/{tid}?token={ann}") as a,
        client.websocket_connect(f"/ws/tables/{tid}?token={bob}") as b,
        client.websocket_connect(f"/ws/tables/{tid}") as watcher,
    ):
        for ws in (a, b, watcher):
            assert recv_until(ws, lambda m: m["t"] == "snapshot")["v"] == 2
        a.send_json({"t": "aim", "move": "pyramid x=10 y=-5 rot=30 haste=0", "id": "a1"})
        assert recv_until(a, lambda m: m["t"] in ("ack", "error")) == {
            "t": "ack",
            "v": 2,
            "id": "a1",
            "aim": "pyramid x=10 y=-5 rot=30",
        }
        for ws, message, code in [
            (a, {"t": "aim", "move": "card x=0 y=0 rot=0"}, "illegal-move"),
            (a, {"t": "aim", "move": ""}, "bad-message"),
            (a, {"t": "aim", "move": "pyramid x=0 y=0", "v": 2}, "bad-message"),
            (watcher, {"t": "aim", "move": "pyramid x=0 y=0"}, "spectator"),
        ]:
            ws.send_json(message)
            answer = recv_until(ws, lambda m: m["t"] in ("ack", "error"))
            assert answer["code"] == code
            if code == "illegal-move":  # the rule by name, for the page to say in its words
                assert answer["reason"] == {"rule": "pyramid-now", "pyramid": 1, "level": 1}
        refused = aim(client, tid, ann, "card x=0 y=0 rot=0")
        assert refused.status_code == 422 and refused.json()["error"]["reason"]["rule"] == (
            "pyramid-now"
        )
        for token, code, status in (("not-a-token", "bad-token", 403), (bob, None, 200)):
            r = aim(client, tid, token, "pyramid x=0 y=0 rot=0")
            assert r.status_code == status and (code is None or r.json()["error"]["code"] == code)
        assert r.json() == {"version": 2, "aim": "pyramid x=0 y=0 rot=0"}
        assert view(client, tid)["version"] == 2  # aims are no events
        hub = client.app.state.hub  # type: ignore[attr-defined]
        table = hub.tables[tid]
        turns.hold_aim(
            table, 1, turns.aim_tag(table, 1), "card x=0 y=0 rot=0"
        )  # one the game refuses
        run_out(client, tid, (0, 1))
        heard: dict[str, list[Any]] = {"b": [], "watcher": []}
        for name, ws in (("b", b), ("watcher", watcher)):
            while sum(m["t"] == "event" for m in heard[name]) < 2:
                heard[name].append(receive_json(ws))
        a_auto = recv_until(a, lambda m: m["t"] == "event" and m["seat"] == 0)
    # Nobody but Ann heard of her aim before her piece dropped: only events, presence and
    # the (public) count of who is watching.
    for messages in heard.values():
        assert {m["t"] for m in messages} <= {"event", "presence", "watching"}
        assert all("aim" not in m for m in messages)
    auto = {m["seat"]: m for m in heard["b"] if m["t"] == "event"}
    assert auto[0]["auto"] and auto[0]["aimed"] and a_auto["auto"] and a_auto["aimed"]
    assert a_auto["move"] == "pyramid x=10 y=-5 rot=30"  # a minute in: calm, no haste
    assert auto[0]["move"] is None  # sealed from Bob until his piece resolved the step
    assert auto[1]["auto"] and "aimed" not in auto[1]  # the refused aim: the game's own spot
    board = view(client, tid)["state"]["board"]
    assert board["step"] == 1 and [len(t["pieces"]) for t in board["towers"]] == [1, 1]
    rec = client.get(f"/api/tables/{tid}/record").json()
    assert [m["move"] for m in rec["moves"]] == [a_auto["move"], auto[1]["move"]]
    assert vertex.replay(rec).to_dict() == view(client, tid)["state"]


def test_the_server_measures_haste_over_the_api(client: TestClient) -> None:
    tid = new_table(client, "verticality", options={"players": 2, "step_seconds": 0})["id"]
    ann, bob = take(client, tid, 0, "Ann"), take(client, tid, 1, "Bob")
    table = client.app.state.hub.tables[tid]  # type: ignore[attr-defined]
    table.due_since[0] = time.time() + 3600.0  # as if released the instant the step began
    table.due_since[1] = time.time() - 3600.0  # an hour of calm
    move = "pyramid x=0 y=0 rot=0"
    for token, sent in ((ann, move), (bob, move + " haste=0.35")):
        r = client.post(f"/api/tables/{tid}/moves", json={"token": token, "move": sent})
        assert r.status_code == 200, r.text
    rec = client.get(f"/api/tables/{tid}/record").json()
    assert [m["move"] for m in rec["moves"]] == [move + " haste=1", move + " haste=0.35"]
    assert vertex.replay(rec).to_dict() == view(client, tid)["state"]


def test_three_computer_players_play_verticality_to_the_end(client: TestClient) -> None:
    seats = [{"kind": "ai", "level": level} for level in (1, 2, 3)]
    options = {"players": 3, "tremor_mm": 0.9}  # a shaky hand: the towers fall in a few levels
    tid = new_table(client, "verticality", options=options, seats=seats)["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        msg = recv_until(ws, lambda m: m["t"] == "snapshot")
        while (msg.get("table") or msg).get("result") is None:
            msg = receive_json(ws)
    v = view(client, tid)
    assert v["result"]["reason"] == "game" and v["state"]["is_over"]
    assert v["settings"]["clock"] == {"per_move": 60.0}  # the game's own step clock
    winners = v["result"]["winners"]
    towers = v["state"]["board"]["towers"]
    standing = [t["seat"] for t in towers if t["standing"]]
    assert len(winners) == 1 and winners == v["state"]["winners"]
    if standing:  # the last tower standing wins
        assert standing == winners
    else:  # all fell in one step: the tie-break picked one of them
        last = max(t["fell_at_step"] for t in towers)
        assert towers[winners[0]]["fell_at_step"] == last
    rec = client.get(f"/api/tables/{tid}/record").json()
    replayed = vertex.replay(rec)
    assert replayed.is_over and list(replayed.winners) == winners
    assert replayed.to_dict() == v["state"]
    assert rec["result"]["winners"] == winners and rec["result"]["reason"] == "game"
    assert [s["kind"] for s in rec["seats"]] == ["ai", "ai", "ai"]
    assert {m["seat"] for m in rec["moves"]} == {0, 1, 2}
    # computer seats keep their level's haste: level 1 rushes, level 3 is calm
    by_seat = {n: [m["move"] for m in rec["moves"] if m["seat"] == n] for n in (0, 2)}
    assert all(m.endswith("haste=1") for m in by_seat[0])
    assert not any("haste" in m for m in by_seat[2])


# ---- solo personal bests ----------------------------------------------------------------------
def solo(client: TestClient, name: str, levels: int) -> str:
    """A solo table where `name` completes `levels` levels calmly, then stops (resigns)."""
    options = {"players": 1, "tremor_mm": 0.0, "step_seconds": 0}
    tid = new_table(client, "verticality", options=options)["id"]
    token = take(client, tid, 0, name)
    for _ in range(4 * levels):
        state = vertex.replay(client.get(f"/api/tables/{tid}/record").json())
        move = str(plan_aim(state, 0))  # type: ignore[arg-type]
        r = client.post(f"/api/tables/{tid}/moves", json={"token": token, "move": move})
        assert r.status_code == 200, r.text
    r = client.post(f"/api/tables/{tid}/actions", json={"token": token, "action": "resign"})
    assert r.status_code == 200
    board = view(client, tid)["state"]["board"]
    assert board["result"]["levels"] == [levels]
    return tid


def bests(client: TestClient, query: str = "") -> dict[str, Any]:
    r = client.get(f"/api/verticality/bests{query}")
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def test_solo_tables_keep_personal_bests(client: TestClient) -> None:
    high = solo(client, "Ann", 1)
    low = solo(client, "Ann", 0)
    bob = solo(client, "Bob", 0)
    mine = bests(client, "?name=Ann")
    assert mine["name"] == "Ann"
    assert [(b["levels"], b["table"]) for b in mine["bests"]] == [(1, high), (0, low)]
    assert mine["bests"][0]["height_mm"] > 25 and mine["bests"][1]["height_mm"] == 0
    top = bests(client)
    assert top["name"] is None
    assert [(b["name"], b["table"]) for b in top["bests"]] == [("Ann", high), ("Bob", bob)]
    assert [b["table"] for b in bests(client, "?limit=1")["bests"]] == [high]
    assert bests(client, "?name=Nobody")["bests"] == []
    r = client.get("/api/verticality/bests?name=" + "x" * 41)
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad-name"
    assert client.get("/api/verticality/bests?limit=0").json()["error"]["code"] == "bad-request"
    two = new_table(client, "verticality", options={"players": 2, "step_seconds": 0})["id"]
    token = take(client, two, 0, "Ann")
    take(client, two, 1, "Cy")
    client.post(f"/api/tables/{two}/actions", json={"token": token, "action": "resign"})
    assert len(bests(client, "?name=Ann")["bests"]) == 2  # not a solo game
    paths = client.get("/openapi.json").json()["paths"]
    assert "/api/verticality/bests" in paths and "/api/tables/{table_id}/aims" in paths


def test_a_best_lost_in_a_crash_is_kept_when_the_table_comes_back(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        tid = solo(client, "Ann", 0)
        assert len(bests(client, "?name=Ann")["bests"]) == 1
    # As if the process died after logging the resign, before the result and the status.
    engine = create_engine(settings.database_url)
    with engine.begin() as conn:
        conn.execute(delete(bests_t))
        conn.execute(update(tables_t).where(tables_t.c.id == tid).values(status="open"))
    engine.dispose()
    with TestClient(create_app(settings)) as client:
        assert [b["table"] for b in bests(client, "?name=Ann")["bests"]] == [tid]
        assert view(client, tid)["result"]["reason"] == "resign"


def _postgres() -> str | None:
    """The scale-out tests' PostgreSQL, if one is reachable."""
    from tests.server.pg import PG as url

    try:
        import psycopg

        psycopg.connect(url.replace("+psycopg", ""), connect_timeout=2).close()
    except Exception:
        return None
    return url


@pytest.mark.parametrize("db", ["sqlite", "postgresql"])
def test_the_store_keeps_one_result_per_table_and_ranks_them(tmp_path: Path, db: str) -> None:
    url = f"sqlite:///{tmp_path / 's.db'}" if db == "sqlite" else _postgres()
    if url is None:
        pytest.skip("PostgreSQL is not reachable")
    run = secrets.token_hex(4)  # a shared database: this run's names and tables only
    ann, bob, cy = (f"{n}-{run}" for n in ("Ann", "Bob", "Cy"))
    rows = [
        BestRow(ann, 2, 80.0, f"{run}-a1", 10.0),
        BestRow(ann, 3, 70.0, f"{run}-a2", 11.0),
        BestRow(ann, 3, 75.5, f"{run}-a3", 12.0),
        BestRow(ann, 3, 75.5, f"{run}-a4", 13.0),  # a tie: the earlier ranks first
        BestRow(bob, 3, 90.0, f"{run}-b1", 14.0),
        BestRow(cy, 0, 0.0, f"{run}-c1", 15.0),
        BestRow(ann, 9, 999.0, f"{run}-a1", 16.0),  # the same table again: kept once
    ]

    async def go() -> tuple[list[BestRow], list[BestRow], list[BestRow]]:
        store = Store(url)
        await store.start()
        try:
            for row in rows:
                await store.bests.add(row)
            return (
                await store.bests.ranked(ann, 10),
                await store.bests.ranked(None, 100),
                await store.bests.ranked(cy, 1),
            )
        finally:
            await store.close()

    try:
        mine, top, one = asyncio.run(go())
    finally:
        if db == "postgresql":
            engine = create_engine(url)
            with engine.begin() as conn:
                conn.execute(delete(bests_t).where(bests_t.c.table_id.like(f"{run}-%")))
            engine.dispose()
    assert [r.table_id[-2:] for r in mine] == ["a3", "a4", "a2", "a1"]
    assert mine[-1] == rows[0] and one == [rows[5]]
    ours = [r for r in top if r.name.endswith(run)]  # each name's best, best first
    assert [(r.name, r.levels, r.height_mm, r.table_id[-2:]) for r in ours] == [
        (bob, 3, 90.0, "b1"),
        (ann, 3, 75.5, "a3"),
        (cy, 0, 0.0, "c1"),
    ]

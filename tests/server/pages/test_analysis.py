"""Analysis: perfect play for Dots-family positions, estimates when unsettled, clear refusals,
time limits, the per-address rate, and an event loop that keeps answering meanwhile."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import vertex
import vertex.server.compute.analyst as analyst_module
import vertex.server.compute.solving as solving
from tests.server.conftest import make_settings, new_table, recv_until, two_player_table
from vertex.ai import solve
from vertex.server import create_app
from vertex.server.pages.analysis import ClientGone
from vertex.server.table.spec import SeatSpec, TableSpec


def analyse(client: TestClient, tid: str, **body: Any) -> Any:
    return client.post(f"/api/tables/{tid}/analysis", json=body)


def play(client: TestClient, tid: str, token: str, move: str) -> None:
    r = client.post(f"/api/tables/{tid}/moves", json={"token": token, "move": move})
    assert r.status_code == 200, r.text


@pytest.fixture
def app_with(tmp_path: Path) -> Iterator[Any]:
    """app_with(**settings) -> a TestClient on an app with those settings."""
    made: list[TestClient] = []

    def make(**overrides: Any) -> TestClient:
        c = TestClient(create_app(make_settings(tmp_path, **overrides)))
        made.append(c.__enter__())
        return c

    yield make
    for c in made:
        c.__exit__(None, None, None)


def test_the_empty_2x2_board_is_won_by_2_and_every_best_move_keeps_it(
    client: TestClient,
) -> None:
    tid = new_table(client, analysis=True)[
        "id"
    ]  # 2×2 boxes, nobody seated yet: a spectator may ask
    r = analyse(client, tid)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["exact"] is True and body["value"] == "+2" and body["estimate"] is None
    assert body["outcome"] == "win" and body["margin"] == 2
    assert body["seat"] == 0 and body["ply"] == 0 and body["plies"] == 0
    # the 8 outer lines keep +2 (published: the first player wins 2×2 by 3 cells to 1)
    assert body["best"] == [
        "a1-a2", "a1-b1", "a2-a3", "a3-b3", "b1-c1", "b3-c3", "c1-c2", "c2-c3"
    ]  # fmt: skip
    start = vertex.create_game("dots-and-boxes", rows=2, cols=2).initial_state(0)
    for move in start.legal_moves() or []:
        after = start.play(move)
        # no line of the empty board completes a cell: the other seat moves next
        assert after.to_move == (1,)
        keeps = -solve(after).value
        assert (keeps == 2) == (move in body["best"]), move
        if move not in body["best"]:
            assert keeps < 2


def test_a_later_ply_and_a_finished_game(client: TestClient) -> None:
    tid, ann, bob = two_player_table(client, analysis=True)
    for token, move in ((ann, "a2-b2"), (bob, "b1-b2")):
        play(client, tid, token, move)
    # both centre lines drawn: seat 0 to move; check against the solver directly
    state = vertex.replay(client.get(f"/api/tables/{tid}/record").json())
    sol = solve(state)
    r = analyse(client, tid, ply=2)
    body = r.json()
    assert body["exact"] and body["seat"] == 0 and body["ply"] == 2
    assert body["value"] == (f"{sol.value:+d}" if sol.value else "0")
    assert body["best"] == sol.best_moves
    # the start of the same table still analyses as +2
    assert analyse(client, tid, ply=0).json()["value"] == "+2"


def test_an_unsettled_position_gets_a_legal_estimate(app_with: Any) -> None:
    client = app_with(analysis_time_s=0.3)
    tid = new_table(client, analysis=True, options={"rows": 5, "cols": 5})["id"]
    t0 = time.monotonic()
    r = analyse(client, tid)
    took = time.monotonic() - t0
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["exact"] is False and body["value"] is None and body["best"] == []
    state = client.get(f"/api/tables/{tid}").json()["state"]
    assert body["estimate"] in state["legal_moves"]
    assert took < 3.0  # the limit is kept (0.3 s + overheads on a shared machine)


def test_games_it_cannot_analyse_are_refused_by_name(client: TestClient) -> None:
    for game, options, names in (
        ("juxtapose", {}, "Juxtapose"),
        ("vert3x", {}, "Vert3x"),
        ("dots-and-boxes", {"rows": 2, "cols": 2, "players": 3}, "two players"),
    ):
        tid = new_table(client, game, options=options)["id"]
        r = analyse(client, tid)
        assert r.status_code == 422, r.text
        err = r.json()["error"]
        assert err["code"] == "not-analysable" and names in err["message"]


def test_the_view_says_whether_the_analysis_covers_the_game(client: TestClient) -> None:
    """`analysable` in the table view follows the route's own rule, so the page offers the
    button exactly where the route answers (and keeps no list of games)."""
    for game, options, covered in (
        ("dots-and-boxes", {"rows": 2, "cols": 2}, True),
        ("dots-and-triangles", {}, True),
        ("figures", {}, True),
        ("dots-and-boxes", {"rows": 2, "cols": 2, "players": 3}, False),
        ("juxtapose", {}, False),
        ("vert3x", {}, False),
    ):
        tid = new_table(client, game, options=options)["id"]
        view = client.get(f"/api/tables/{tid}").json()
        assert view["analysable"] is covered, (game, options)
        r = analyse(client, tid)
        assert (r.status_code != 422) is covered, (game, options, r.text)
        if not covered:
            assert r.json()["error"]["code"] == "not-analysable"


def test_bad_requests_are_clear_and_change_nothing(client: TestClient) -> None:
    tid, ann, _bob = two_player_table(client, analysis=True)
    play(client, tid, ann, "a1-b1")
    before = client.get(f"/api/tables/{tid}").json()
    cases = [
        (analyse(client, tid, ply=5), 404, "no-such-ply"),
        (analyse(client, tid, ply=-1), 404, "no-such-ply"),
        (analyse(client, "nosuchtable123"), 404, "no-such-table"),
        (analyse(client, tid, plies=3), 422, "bad-request"),
        (analyse(client, tid, token=ann), 422, "bad-request"),  # a token proves nothing here
    ]
    for r, status, code in cases:
        assert r.status_code == status, r.text
        assert r.json()["error"]["code"] == code
    assert client.get(f"/api/tables/{tid}").json() == before


def test_a_live_game_is_closed_to_everyone_until_it_ends(client: TestClient) -> None:
    """The share link in a private window: a spectator of a live 2-human table (who may be
    one of its players) gets no analysis, at any ply; once the game ends everyone does."""
    tid, ann, bob = two_player_table(client)  # analysis during play: off, the default
    play(client, tid, ann, "a1-b1")
    view = client.get(f"/api/tables/{tid}").json()
    assert view["analysis"] == "analysis-closed" and view["settings"]["analysis"] is False
    before = view["version"]
    for ply in (None, 0, 1):
        r = analyse(client, tid) if ply is None else analyse(client, tid, ply=ply)
        assert r.status_code == 403, r.text
        err = r.json()["error"]
        assert err["code"] == "analysis-closed" and "game is over" in err["message"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:  # a spectator's socket
        recv_until(ws, lambda m: m.get("t") == "snapshot")
        act = {"token": bob, "action": "resign"}
        assert client.post(f"/api/tables/{tid}/actions", json=act).status_code == 200
        ended = recv_until(ws, lambda m: m.get("kind") == "resign")
        assert ended["analysis"] is None  # the page learns it opened with the result
    assert client.get(f"/api/tables/{tid}").json()["analysis"] is None
    body = analyse(client, tid).json()  # the position where Bob resigned
    assert body["exact"] and body["seat"] == 1 and body["ply"] == 1
    assert analyse(client, tid, ply=0).json()["value"] == "+2"
    assert client.get(f"/api/tables/{tid}").json()["version"] == before + 1  # only the resign


def test_a_table_set_up_with_analysis_answers_during_play(client: TestClient) -> None:
    tid, ann, _bob = two_player_table(client, analysis=True)
    play(client, tid, ann, "a1-b1")
    view = client.get(f"/api/tables/{tid}").json()
    assert view["analysis"] is None and view["settings"]["analysis"] is True
    assert view["result"] is None
    assert analyse(client, tid, ply=0).json()["value"] == "+2"
    assert analyse(client, tid).json()["ply"] == 1
    # a game the analysis does not cover says so first, whatever the table allows
    other = new_table(client, "juxtapose", options={}, analysis=True)["id"]
    assert client.get(f"/api/tables/{other}").json()["analysis"] == "not-analysable"


def test_analysis_during_play_is_a_checked_setting_off_by_default(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "dots-and-boxes", "analysis": "yes"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad-request"
    spec = TableSpec(game="dots-and-boxes", seed=1, seats=[SeatSpec(), SeatSpec()])
    assert spec.analysis is False and "analysis" not in spec.stored()  # stored as before
    allowed = spec.model_copy(update={"analysis": True})
    assert TableSpec.load(allowed.stored()).analysis is True


def test_a_position_with_nothing_left_to_play(client: TestClient) -> None:
    tid, ann, bob = two_player_table(client, analysis=True, options={"rows": 1, "cols": 1})
    tokens = [ann, bob]
    for _ in range(4):
        state = client.get(f"/api/tables/{tid}").json()["state"]
        if state["is_over"]:
            break
        play(client, tid, tokens[state["to_move"][0]], state["legal_moves"][0])
    r = analyse(client, tid)
    assert r.status_code == 409 and r.json()["error"]["code"] == "position-over"
    assert analyse(client, tid, ply=3).json()["value"] == "+1"  # the last line takes the cell


def test_the_rate_per_address_is_kept(app_with: Any) -> None:
    client = app_with(analysis_burst=2, analysis_per_minute=1)
    tid = new_table(client, analysis=True)["id"]
    assert analyse(client, tid).status_code == 200
    assert analyse(client, tid).status_code == 200
    r = analyse(client, tid)
    assert r.status_code == 429
    err = r.json()["error"]
    assert err["code"] == "rate-limited" and "at most 1 a minute" in err["message"]
    # refusals that need no work are not counted, and the table did not change
    assert analyse(client, tid, ply=7).json()["error"]["code"] == "no-such-ply"
    assert client.get(f"/api/tables/{tid}").json()["version"] == 0


def test_the_event_loop_answers_while_an_analysis_runs(app_with: Any) -> None:
    client = app_with(analysis_time_s=1.5)
    tid = new_table(client, analysis=True, options={"rows": 5, "cols": 5})["id"]
    done: dict[str, Any] = {}

    def run() -> None:
        done["response"] = analyse(client, tid)
        done["at"] = time.monotonic()

    worker = threading.Thread(target=run)
    worker.start()
    answered: list[float] = []  # how long each view took while the analysis ran
    while worker.is_alive():
        t0 = time.monotonic()
        assert client.get(f"/api/tables/{tid}").status_code == 200
        if worker.is_alive():
            answered.append(time.monotonic() - t0)
    worker.join()
    assert done["response"].json()["exact"] is False
    assert len(answered) >= 3, answered
    assert sorted(answered)[len(answered) // 2] < 0.5, answered


def test_a_worker_that_overruns_is_abandoned(
    app_with: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()

    def stuck(state: Any, limit_s: float, table: str = "") -> dict[str, Any]:
        release.wait(10)
        return {"exact": True, "value": 0, "best": [], "estimate": None}

    monkeypatch.setattr(analyst_module, "GRACE_S", 0.2)
    monkeypatch.setattr(solving, "analyse_state", stuck)
    client = app_with(analysis_time_s=0.2)
    tid = new_table(client, analysis=True)["id"]
    r = analyse(client, tid)
    assert r.status_code == 503 and r.json()["error"]["code"] == "analysis-timeout"
    monkeypatch.undo()
    release.set()
    assert analyse(client, tid).json()["value"] == "+2"  # a fresh worker serves the next one


def test_in_a_worker_process(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path, ai_executor="process", analysis_time_s=2.0))
    with TestClient(app) as client:
        tid, ann, _bob = two_player_table(client, analysis=True)
        play(client, tid, ann, "a1-b1")
        body = analyse(client, tid).json()
        assert body["exact"] and body["value"] == "-2" and body["seat"] == 1
        assert any(w.pool is not None for w in app.state.analyst.workers)
    assert all(w.pool is None for w in app.state.analyst.workers)  # they stop with the server


#: A 4×4 game after 14 quiet lines (nothing offered yet): 26 lines still open.
FOURTEEN = [
    "d3-e3",
    "a4-b4",
    "b1-c1",
    "e2-e3",
    "c5-d5",
    "b5-c5",
    "c4-d4",
    "d4-e4",
    "a2-a3",
    "b3-c3",
    "c2-d2",
    "b4-c4",
    "d1-d2",
    "e1-e2",
]


def test_a_four_by_four_game_with_fourteen_lines_drawn_is_answered_exactly(
    app_with: Any,
) -> None:
    # the time limit is generous so the test asserts the answer, not the machine's speed
    client = app_with(analysis_time_s=120.0)
    tid, ann, bob = two_player_table(client, analysis=True, options={"rows": 4, "cols": 4})
    for i, move in enumerate(FOURTEEN):
        play(client, tid, (ann, bob)[i % 2], move)  # no cell is closed: turns alternate
    body = analyse(client, tid).json()  # a spectator's question (no token)
    assert body["exact"] is True and body["estimate"] is None
    assert body["ply"] == 14 and body["seat"] == 0
    # the compiled core's answer (its values agree with the Python solver's wherever that
    # one finishes: tests/ai/test_core_differential.py)
    assert body["value"] == "-2" and body["outcome"] == "loss" and body["margin"] == 2
    assert body["best"] == [
        "b1-b2", "b3-b4", "b4-b5", "c1-c2", "c1-d1", "c3-c4", "c4-c5", "d4-d5"
    ]  # fmt: skip


def test_asking_again_at_a_table_reuses_its_solver(app_with: Any) -> None:
    client = app_with(analysis_time_s=120.0)
    tid, ann, bob = two_player_table(client, analysis=True, options={"rows": 4, "cols": 4})
    for i, move in enumerate(FOURTEEN[:13]):
        play(client, tid, (ann, bob)[i % 2], move)
    first = analyse(client, tid).json()
    assert first["exact"] is True
    kept = [s for (table, _), s in solving._solvers.items() if table == tid]
    assert len(kept) == 1
    stored = kept[0].stored
    assert stored > 0
    play(client, tid, bob, FOURTEEN[13])  # one line later: most of the work is in the table
    second = analyse(client, tid).json()
    assert second["exact"] is True and second["value"] == "-2"
    again = [s for (table, _), s in solving._solvers.items() if table == tid]
    assert again == kept  # the same solver, its table grown
    assert again[0].stats()["hits"] > 0


def test_a_client_that_leaves_cancels_its_analysis(app_with: Any) -> None:
    client = app_with(analysis_time_s=600.0)
    analyst = client.app.state.analyst  # type: ignore[attr-defined]
    state = vertex.create_game("dots-and-boxes", rows=5, cols=5).initial_state()
    polls = 0

    async def gone() -> bool:
        nonlocal polls
        polls += 1
        return polls > 3  # the client leaves after a moment

    async def ask_then_leave() -> float:
        t0 = time.monotonic()
        with pytest.raises(ClientGone):
            await analyst.analyse(state, "t", gone)
        return time.monotonic() - t0

    took = client.portal.call(ask_then_leave)  # type: ignore[attr-defined]
    assert took < 300  # far below the 600 s limit: it stopped because the client left
    assert any(w.pool is not None for w in analyst.workers)  # it stopped by itself, no kill
    # and it is free again: the next question is answered
    assert analyse(client, new_table(client, analysis=True)["id"]).json()["value"] == "+2"

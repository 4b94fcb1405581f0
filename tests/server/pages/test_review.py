"""Review of a whole game: a planted blunder and the accuracy figures by hand, Juxtapose's
missed win in 1, the refusals, the progress on the sockets and the stored review."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

import vertex
from tests.server.conftest import make_settings, new_table, recv_until, take
from vertex.server import create_app

#: A 3×3 game where every move keeps the mover's value (the solver's first best move) but
#: seat 1's at ply 8: it turns a win by 3 (+3) into a loss by 1 (-1), giving 4 cells away.
BLUNDER_GAME = [
    "a1-a2", "a1-b1", "a2-a3", "a2-b2", "b1-b2", "a3-a4", "a4-b4", "a3-b3", "b1-c1",
    "b2-b3", "b3-b4", "b3-c3", "b4-c4", "c3-c4", "b2-c2", "c1-c2", "c2-c3", "c1-d1",
    "c3-d3", "c4-d4", "d3-d4", "c2-d2", "d1-d2", "d2-d3",
]  # fmt: skip


def play_all(client: TestClient, tid: str, tokens: list[str], moves: list[str]) -> None:
    state = vertex.create_game("dots-and-boxes", rows=3, cols=3).initial_state()
    for move in moves:
        seat = state.to_move[0]
        r = client.post(f"/api/tables/{tid}/moves", json={"token": tokens[seat], "move": move})
        assert r.status_code == 200, r.text
        state = state.play(move, seat)


def wait_done(client: TestClient, tid: str, limit_s: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        r = client.get(f"/api/tables/{tid}/review")
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        if body["status"] == "done":
            return body
        time.sleep(0.05)
    raise AssertionError("the review did not finish")


@pytest.fixture
def client(tmp_path: Any) -> Any:
    settings = make_settings(tmp_path, review_depth_s=0.3)
    with TestClient(create_app(settings)) as c:
        yield c


def three_by_three(client: TestClient, **body: Any) -> tuple[str, list[str]]:
    tid = new_table(client, options={"rows": 3, "cols": 3}, **body)["id"]
    return tid, [take(client, tid, 0, "Ann"), take(client, tid, 1, "Bob")]


def test_a_planted_blunder_is_marked_and_the_accuracy_is_as_counted_by_hand(
    client: TestClient,
) -> None:
    tid, tokens = three_by_three(client)
    play_all(client, tid, tokens, BLUNDER_GAME)
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        r = client.post(f"/api/tables/{tid}/review")
        assert r.status_code == 200, r.text
        assert r.json()["status"] in ("queued", "running", "done")
        end = recv_until(ws, lambda m: m.get("t") == "review" and m["status"] == "done")
        assert end["done"] == end["total"] == 24
    body = wait_done(client, tid)
    moves = body["moves"]
    assert [m["ply"] for m in moves] == list(range(24))
    assert all(m["exact"] for m in moves) and body["exact_from"] == 0
    blunder = moves[8]
    assert blunder["seat"] == 1 and blunder["move"] == "b1-c1"
    assert (blunder["before"], blunder["after"]) == (3, -1)
    assert blunder["mark"] == "blunder" and blunder["lost"] == 4
    assert "b1-c1" not in blunder["best"] and blunder["best"]
    assert all(m["mark"] == "best" for i, m in enumerate(moves) if i != 8)
    # by hand: seat 1 made 11 moves, one of them the blunder (10/11 = 90.9 %, 4 cells); seat
    # 0 made 13, every one best
    seats = {s["seat"]: s for s in body["seats"]}
    assert sum(1 for m in moves if m["seat"] == 1) == 11
    assert seats[1]["accuracy"] == 90.9 and seats[1]["lost"] == 4 and seats[1]["blunder"] == 1
    assert seats[0]["accuracy"] == 100.0 and seats[0]["lost"] == 0 and seats[0]["judged"] == 13
    # the final position: 5 cells to 4 for seat 0, and the last move's after says so
    assert moves[-1]["after"] == (-1 if moves[-1]["seat"] == 1 else 1)
    # stored and shared: asked again, the same review at once
    again = client.post(f"/api/tables/{tid}/review").json()
    assert again["status"] == "done" and again["moves"] == moves


def jx_state(moves: list[str]) -> Any:
    state = vertex.create_game("juxtapose").initial_state()
    for m in moves:
        state = state.play(m, state.to_move[0])
    return state


def test_juxtapose_a_missed_win_in_1_is_a_blunder(client: TestClient) -> None:
    """Random-ish play until the mover has a win at once, then a move that does not take it
    and leaves no win at once either; reviewed at a practice table during play."""
    import random

    rng = random.Random(7)
    moves: list[str] = []
    state = jx_state([])
    missed = None
    while missed is None:
        wins = state.winning_moves()
        legal = state.legal_moves()
        if wins:
            quiet = [m for m in legal if m not in wins]
            if quiet:
                missed = len(moves)
                moves.append(quiet[0])
                break
        safe = [m for m in legal if m not in wins]
        move = rng.choice(safe or legal)
        moves.append(move)
        state = state.play(move, state.to_move[0])
    tid = new_table(client, game="juxtapose", options={}, analysis=True)["id"]
    tokens = [take(client, tid, 0, "Ann"), take(client, tid, 1, "Bob")]
    state = jx_state([])
    for move in moves:
        seat = state.to_move[0]
        r = client.post(f"/api/tables/{tid}/moves", json={"token": tokens[seat], "move": move})
        assert r.status_code == 200, r.text
        state = state.play(move, seat)
    assert client.post(f"/api/tables/{tid}/review").status_code == 200
    body = wait_done(client, tid)
    assert body["unit"] == "moves"
    entry = body["moves"][missed]
    assert entry["before"] == "win-1" and entry["mark"] == "blunder"
    assert set(entry["best"]) == set(jx_state(moves[:missed]).winning_moves())
    assert not any(m.get("mark") == "blunder" for m in body["moves"][:missed] if
                   m["before"] is not None and not m["before"].startswith("win")
                   and m["after"] is None)  # fmt: skip


def test_refusals(client: TestClient) -> None:
    assert client.post("/api/tables/nope/review").json()["error"]["code"] == "no-such-table"
    tid, tokens = three_by_three(client)
    play_all(client, tid, tokens, BLUNDER_GAME[:3])
    r = client.post(f"/api/tables/{tid}/review")
    assert r.status_code == 403 and r.json()["error"]["code"] == "review-closed"
    assert client.get(f"/api/tables/{tid}/review").status_code == 403
    vt = new_table(client, game="verticality", options={})["id"]
    r = client.post(f"/api/tables/{vt}/review")
    assert r.status_code == 422 and r.json()["error"]["code"] == "not-reviewable"
    practice, _ = three_by_three(client, analysis=True)
    r = client.post(f"/api/tables/{practice}/review")
    assert r.status_code == 409 and r.json()["error"]["code"] == "no-game"
    finished, tokens = three_by_three(client)
    play_all(client, finished, tokens, BLUNDER_GAME)
    r = client.get(f"/api/tables/{finished}/review")
    assert r.status_code == 404 and r.json()["error"]["code"] == "no-review"

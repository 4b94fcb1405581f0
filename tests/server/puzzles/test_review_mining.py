"""A reviewed game's mistakes become puzzles (the review's hook, `Reviewer.on_done`): a 2×3
game with a mistake at a one-answer position, played at a table and reviewed through the API,
leaves that position stored as a puzzle from a review."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

import vertex
from tests.server.conftest import make_settings, new_table, take
from tests.server.pages.test_review import wait_done
from vertex.puzzles.mine import candidates_from_review
from vertex.server import create_app

OPTIONS = {"rows": 2, "cols": 3}


def a_game_with_a_puzzle() -> tuple[list[str], str]:
    """Random 2×3 games until one has a mistake at a position with one answer."""
    game = vertex.create_game("dots-and-boxes", **OPTIONS)
    rng = random.Random(11)
    while True:
        state = game.initial_state(seed=0)
        moves: list[str] = []
        while not state.is_over:
            moves.append(rng.choice(state.legal_moves()))
            state = state.play(moves[-1])
        rows = [{"ply": k, "seat": 0, "mark": "mistake"} for k in range(len(moves))]
        found = candidates_from_review("dots-and-boxes", OPTIONS, moves, rows)
        if found:
            return moves, found[0].puzzle.id


@pytest.fixture
def client(tmp_path: Any) -> Any:
    with TestClient(create_app(make_settings(tmp_path, review_depth_s=0.3))) as c:
        yield c


def test_a_reviewed_mistake_is_stored_as_a_puzzle(client: TestClient) -> None:
    moves, pid = a_game_with_a_puzzle()
    tid = new_table(client, options=OPTIONS)["id"]
    tokens = [take(client, tid, 0, "Ann"), take(client, tid, 1, "Bob")]
    state = vertex.create_game("dots-and-boxes", **OPTIONS).initial_state()
    for move in moves:
        seat = state.to_move[0]
        r = client.post(f"/api/tables/{tid}/moves", json={"token": tokens[seat], "move": move})
        assert r.status_code == 200, r.text
        state = state.play(move, seat)
    assert client.post(f"/api/tables/{tid}/review").status_code == 200
    wait_done(client, tid)
    deadline = time.monotonic() + 30
    while client.get(f"/api/puzzles/{pid}").status_code == 404:
        assert time.monotonic() < deadline, "the mistake was not mined"
        time.sleep(0.1)
    body = client.get(f"/api/puzzles/{pid}").json()
    assert body["pool"] == "dots-and-boxes-2x3" and body["goal"]["kind"] == "margin"

"""Reviews of the rest of the Dots family (issue 35): a Dots and Triangles game and a
two-player Figures game, played over the API, are reviewed, stored and served like Dots and
Boxes (test_review.py): every move's values checked against a fresh solver, every move
marked by RULES §5's decision, the seats' figures counted from the marks."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

import vertex
from tests.server.conftest import make_settings, new_table, take
from tests.server.pages.test_review import wait_done
from vertex.ai import Solver
from vertex.server import create_app
from vertex.server.compute.review_marks import dots_mark
from vertex.server.storage import reviews


@pytest.fixture
def client(tmp_path: Any) -> Any:
    settings = make_settings(tmp_path, review_depth_s=0.3)
    with TestClient(create_app(settings)) as c:
        yield c


def _play(client: TestClient, game: str, options: dict[str, Any], seed: int) -> tuple[str, Any]:
    """A finished game at a new table: the solver's first best move mostly, a random move
    one time in three (so there are moves to mark); the table id and the final state."""
    tid = new_table(client, game=game, options=options)["id"]
    tokens = [take(client, tid, 0, "Ann"), take(client, tid, 1, "Bob")]
    g = vertex.create_game(game, **options)
    solver = Solver(g, table_bytes=16 << 20)  # type: ignore[arg-type]
    rng = random.Random(seed)
    state = g.initial_state(int(client.get(f"/api/tables/{tid}/record").json()["seed"] or 0))
    while not state.is_over:
        seat = state.to_move[0]
        legal = state.legal_moves()
        move = rng.choice(legal) if rng.random() < 0.35 else solver.solve(state).best_moves[0]
        r = client.post(f"/api/tables/{tid}/moves", json={"token": tokens[seat], "move": move})
        assert r.status_code == 200, r.text
        state = state.play(move, seat)
    return tid, state


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("dots-and-triangles", {"size": 3}),
        ("figures", {"rows": 3, "cols": 4, "players": 2}),
    ],
)
def test_a_game_of_the_family_is_reviewed_stored_and_served(
    client: TestClient, game: str, options: dict[str, Any]
) -> None:
    tid, final = _play(client, game, options, seed=3)
    plies = len(final.history)
    r = client.post(f"/api/tables/{tid}/review")
    assert r.status_code == 200, r.text
    body = wait_done(client, tid)
    assert body["unit"] == "cells" and body["plies"] == plies
    moves = body["moves"]
    assert [m["ply"] for m in moves] == list(range(plies))
    assert all(m["exact"] for m in moves) and body["exact_from"] == 0  # the solver settles
    # each move against a fresh solver: the mover's values before and after, its mark
    g = final.game
    solver = Solver(g, table_bytes=16 << 20)  # type: ignore[arg-type]
    state = g.initial_state(final.seed)
    marks: dict[str, int] = {}
    for m in moves:
        seat, move = final.history[m["ply"]]
        assert (m["seat"], m["move"]) == (seat, move)
        sol = solver.solve(state)
        assert m["before"] == sol.value  # the mover is the one to move
        assert set(m["best"]) == set(sol.best_moves)
        state = state.play(move, seat)
        if state.is_over:
            sc = state.scores
            after = int(sc[seat] - sc[1 - seat])
        else:
            v = solver.solve(state).value
            after = v if state.to_move[0] == seat else -v
        assert m["after"] == after
        mark, lost = dots_mark(m["before"], after, False)
        assert (m["mark"], m["lost"]) == (mark, lost)
        marks[mark] = marks.get(mark, 0) + 1
    assert marks.get("best") and len(marks) > 1, marks  # best moves and some marked worse
    for s in body["seats"]:
        mine = [m for m in moves if m["seat"] == s["seat"]]
        best = sum(1 for m in mine if m["mark"] == "best")
        assert s["judged"] == len(mine) and s["accuracy"] == round(100 * best / len(mine), 1)
        assert s["lost"] == sum(m["lost"] for m in mine)
    # stored once: the row is done, and asked again (or read) it is served at once
    hub = client.app.state.hub  # type: ignore[attr-defined]
    row = client.portal.call(reviews.read, hub.store, tid, plies)
    assert row is not None and row.status == "done" and row.data is not None
    assert row.data["moves"] == moves
    again = client.post(f"/api/tables/{tid}/review").json()
    assert again["status"] == "done" and again["moves"] == moves
    assert client.get(f"/api/tables/{tid}/review").json()["moves"] == moves

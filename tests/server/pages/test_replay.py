"""Replay: the position after any ply of a table, matching its record, without disturbing it."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

import vertex
from tests.server.conftest import take, two_player_table
from vertex.core import Rng
from vertex.core.record import Record
from vertex.server.pages.replay import Positions


def play(client: TestClient, tid: str, token: str, move: str) -> None:
    r = client.post(f"/api/tables/{tid}/moves", json={"token": token, "move": move})
    assert r.status_code == 200, r.text


def play_out(client: TestClient, tid: str, tokens: list[str], seed: int, stop: int = 10_000) -> int:
    """Random legal moves until the game is over (or `stop` moves); the moves played."""
    rng = Rng.from_seed(seed, "replay-test")
    n = 0
    while n < stop:
        state = client.get(f"/api/tables/{tid}").json()["state"]
        if state["is_over"]:
            break
        i, rng = rng.below(len(state["legal_moves"]))
        play(client, tid, tokens[state["to_move"][0]], state["legal_moves"][i])
        n += 1
    return n


def position(client: TestClient, tid: str, ply: int) -> Any:
    return client.get(f"/api/tables/{tid}/positions/{ply}")


def test_every_ply_of_a_finished_game_matches_its_record(client: TestClient) -> None:
    tid, ann, bob = two_player_table(client)
    play_out(client, tid, [ann, bob], seed=3)
    rec = Record.model_validate(client.get(f"/api/tables/{tid}/record").json())
    plies = len(rec.moves)
    assert plies == 12  # 2×2 boxes: every one of the 12 lines gets drawn
    seen = []
    for k in range(plies + 1):
        r = position(client, tid, k)
        assert r.status_code == 200, r.text
        body = r.json()
        expected = vertex.replay(rec.model_copy(update={"moves": rec.moves[:k]}))
        assert body["ply"] == k and body["plies"] == plies
        assert body["state"] == expected.to_dict()
        seen.append(body)
        if k == 0:
            assert body["move"] is None
        else:
            assert body["move"] == {"seat": rec.moves[k - 1].seat, "move": rec.moves[k - 1].move}
    # stepping back down (served from the cache) gives the very same positions
    for k in range(plies, -1, -1):
        assert position(client, tid, k).json() == seen[k]
    last = position(client, tid, plies).json()["state"]
    assert last["is_over"] and sum(last["scores"]) == 4


def test_spectators_replay_a_running_game_without_disturbing_it(client: TestClient) -> None:
    tid, ann, bob = two_player_table(client)
    play_out(client, tid, [ann, bob], seed=5, stop=4)
    before = client.get(f"/api/tables/{tid}").json()
    for k in (0, 2, 4, 1):
        assert position(client, tid, k).json()["plies"] == 4
    after = client.get(f"/api/tables/{tid}").json()
    assert after == before
    # the game goes on, and the new ply is there too
    play_out(client, tid, [ann, bob], seed=6, stop=1)
    body = position(client, tid, 5).json()
    assert body["plies"] == 5 and body["state"] == client.get(f"/api/tables/{tid}").json()["state"]


def test_a_take_back_is_never_hidden_by_the_cache(client: TestClient) -> None:
    tid, ann, bob = two_player_table(client, undo=True)
    play(client, tid, ann, "a1-b1")
    play(client, tid, bob, "a3-b3")
    assert position(client, tid, 2).json()["move"] == {"seat": 1, "move": "a3-b3"}
    act = {"token": bob, "action": "undo-request"}
    assert client.post(f"/api/tables/{tid}/actions", json=act).status_code == 200
    act = {"token": ann, "action": "undo-accept"}
    assert client.post(f"/api/tables/{tid}/actions", json=act).status_code == 200
    play(client, tid, bob, "c1-c2")
    body = position(client, tid, 2).json()
    assert body["move"] == {"seat": 1, "move": "c1-c2"}
    drawn = {ln["name"] for ln in body["state"]["board"]["lines"] if ln["drawn"]}
    assert drawn == {"a1-b1", "c1-c2"}


def test_bad_plies_and_unknown_tables_are_clear_errors(client: TestClient) -> None:
    tid, ann, _bob = two_player_table(client)
    play(client, tid, ann, "a1-b1")
    for ply in (-1, 2, 99):
        r = position(client, tid, ply)
        assert r.status_code == 404
        err = r.json()["error"]
        assert err["code"] == "no-such-ply" and "0 (the start) to 1" in err["message"]
    r = client.get(f"/api/tables/{tid}/positions/first")
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad-request"
    r = position(client, "nosuchtable123", 0)
    assert r.status_code == 404 and r.json()["error"]["code"] == "no-such-table"
    assert client.get(f"/api/tables/{tid}").json()["version"] == 3  # two seats, one move


def test_an_unseated_table_replays_its_start(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "dots-and-triangles", "options": {"size": 2}})
    tid = r.json()["id"]
    body = position(client, tid, 0).json()
    assert body == {**body, "ply": 0, "plies": 0, "move": None}
    assert len(body["state"]["board"]["lines"]) == 9
    take(client, tid, 0, "Ann")  # taking a seat is not a move
    assert position(client, tid, 0).json()["plies"] == 0


def test_the_cache_stays_bounded() -> None:
    game = vertex.create_game("dots-and-boxes", rows=2, cols=2)
    state = game.initial_state(1)
    rng = Rng.from_seed(1, "cache")
    while not state.is_over:
        move, rng = state.sample_move(state.to_move[0], rng)
        state = state.play(move)
    cache = Positions(size=3)
    for k in range(13):
        assert cache.at("t", state, k).history == state.history[:k]
        assert len(cache) <= 3
    assert cache.at("t", state, 12) is state


def test_sealed_moves_of_a_step_under_way_are_not_replayed(client: TestClient) -> None:
    # Verticality: both seats place at once; a piece placed stays secret until the step ends
    r = client.post(
        "/api/tables", json={"game": "verticality", "options": {"players": 2, "step_seconds": 0}}
    )
    tid = r.json()["id"]
    ann, bob = take(client, tid, 0, "Ann"), take(client, tid, 1, "Bob")
    play(client, tid, ann, "pyramid x=0 y=0 rot=0")
    body = position(client, tid, 0).json()
    assert body["plies"] == 0 and body["move"] is None
    r = position(client, tid, 1)
    assert r.status_code == 404 and r.json()["error"]["code"] == "no-such-ply"
    play(client, tid, bob, "pyramid x=5 y=0 rot=0")
    body = position(client, tid, 1).json()  # the step is over: both moves are public now
    assert body["plies"] == 2 and body["move"]["seat"] == 0
    assert body["move"]["move"].startswith("pyramid x=0 y=0 rot=0")  # with the haste measured
    assert (
        position(client, tid, 2).json()["state"] == client.get(f"/api/tables/{tid}").json()["state"]
    )

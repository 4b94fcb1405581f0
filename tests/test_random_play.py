"""Random play over every registered game (OpenSpiel-style): the contract holds everywhere.

Each game is played to the end from several seeds with random legal moves. At every step the
state must round-trip through to_dict (JSON) and records, replay to an equal state, never
change when played from, and agree with itself on whose turn it is; at the end there are no
moves and there are winners (each game's own tests check who won).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import vertex
from vertex.core import Rng, State, game_class, game_ids
from vertex.core.errors import IllegalMove

# Small but real options per game, so every game finishes quickly; extra option sets cover
# variants. Games not listed here are played with their defaults.
CASES: dict[str, list[dict[str, Any]]] = {
    "dots-and-boxes": [
        {},
        {"rows": 2, "cols": 4, "players": 3, "misere": True},
        {"rows": 1, "cols": 1},
        {"border": True, "extra_turn": False},
    ],
    "dots-and-triangles": [
        {},
        {"size": 2, "misere": True, "players": 3},
        {"shape": "strip", "length": 5, "border": True},
    ],
    "figures": [
        {"rows": 4, "cols": 5, "players": 3},
        {"rows": 6, "cols": 6, "shape": "rhombus", "players": 6},
    ],
}
SEEDS = (1, 2, 3)
MAX_PLIES = 5000


def cases() -> list[tuple[str, dict[str, Any], int]]:
    out = []
    for gid in game_ids():
        extra = getattr(game_class(gid), "random_play_cases", None)
        option_sets = CASES.get(gid) or (list(extra) if extra else [{}])
        for options in option_sets:
            for seed in SEEDS:
                out.append((gid, options, seed))
    return out


def check_state(state: State) -> None:
    d = state.to_dict()
    assert json.loads(json.dumps(d)) == d, "to_dict() must be plain JSON"
    for key in ("game", "to_move", "legal_moves", "scores", "is_over", "winners", "board"):
        assert key in d
    assert d["game"] == state.game.id
    assert tuple(d["to_move"]) == state.to_move
    assert d["is_over"] == state.is_over == (not state.to_move)
    assert len(state.scores) == state.game.seats
    assert all(0 <= s < state.game.seats for s in state.to_move)


@pytest.mark.parametrize(("game_id", "options", "seed"), cases())
def test_random_game(game_id: str, options: dict[str, Any], seed: int) -> None:
    game = vertex.create_game(game_id, **options)
    state = game.initial_state(seed=seed)
    rng = Rng.from_seed(seed, "random-play")
    plies = 0
    while not state.is_over:
        check_state(state)
        assert plies < MAX_PLIES, "game does not end"
        moves = state.legal_moves()
        if game.discrete:
            assert moves, "a seat is due but has no legal move"
            assert len(set(moves)) == len(moves)
        for seat in state.to_move:
            before = state.to_dict()
            move, rng = state.sample_move(seat, rng)
            if moves is not None:
                assert move in moves
            new = state.play(move, seat=seat)
            assert state.to_dict() == before, "play() changed the state it was called on"
            state = new
            if state.is_over:
                break
        plies += 1
        if plies % 7 == 0:
            rec = state.record()
            assert vertex.replay(vertex.Record.from_json(rec.to_json())) == state
    check_state(state)
    assert state.legal_moves() in ([], None)
    with pytest.raises(IllegalMove):
        state.play("a1-b1")
    replayed = vertex.replay(state.record().to_json())
    assert replayed == state
    assert replayed.to_dict() == state.to_dict()
    assert replayed.scores == state.scores
    winners = state.winners
    assert winners, "a finished game has winners (all seats = a draw)"
    assert all(0 <= w < game.seats for w in winners)


def test_every_game_is_covered() -> None:
    assert {"dots-and-boxes", "dots-and-triangles", "figures"} <= set(game_ids())

"""Random play over every registered game (OpenSpiel-style): the contract holds everywhere.

Each game is played to the end from several seeds with random legal moves, for each of its
own option sets (`Game.random_play_cases`, else the defaults). At every ply the state must be
plain JSON, round-trip through its record (a replay of the record, kept in step, shows the
same `to_dict()`), never change when played from, agree with itself on whose turn it is and
keep its scores in range; at the end there are no moves, and the winners follow the game's
rule (the best scores, the lowest where `lowest_score_wins`, unless another rule decides).
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

import vertex
from vertex.core import Rng, State, game_class, game_ids
from vertex.core.errors import IllegalMove
from vertex.core.outcome import best_seats

SEEDS = (1, 2, 3)
MAX_PLIES = 5000


def cases() -> list[tuple[str, dict[str, Any], int]]:
    out = []
    for gid in game_ids():
        for options in game_class(gid).random_play_cases or ({},):
            for seed in SEEDS:
                out.append((gid, options, seed))
    return out


def check_state(state: State, before: tuple[float, ...] | None) -> None:
    d = state.to_dict()
    assert json.loads(json.dumps(d)) == d, "to_dict() must be plain JSON"
    for key in ("game", "to_move", "legal_moves", "scores", "is_over", "winners", "board"):
        assert key in d
    assert d["game"] == state.game.id
    assert tuple(d["to_move"]) == state.to_move
    assert d["is_over"] == state.is_over == (not state.to_move)
    assert all(0 <= s < state.game.seats for s in state.to_move)
    check_scores(state, d, before)


def check_scores(state: State, d: dict[str, Any], before: tuple[float, ...] | None) -> None:
    game = state.game
    scores = state.scores
    assert len(scores) == game.seats and list(scores) == d["scores"]
    assert all(math.isfinite(s) and s >= 0 for s in scores), scores
    if game.score_decides and before is not None:
        # points are won, never lost
        assert all(s >= b for s, b in zip(scores, before, strict=True)), (before, scores)
    if game.sudden_win:
        assert all(s <= 1 for s in scores) and sum(scores) <= 1 + 1e-9
    cells = d["board"].get("cells")
    if cells is not None:  # a board of cells: a point per cell claimed
        claimed = [sum(1 for c in cells if c["owner"] == s) for s in range(game.seats)]
        assert list(scores) == claimed


def check_end(state: State) -> None:
    game = state.game
    assert state.legal_moves() in ([], None)
    with pytest.raises(IllegalMove):
        state.play("a1-b1")
    winners = state.winners
    # A finished game has winners (all seats = a draw); a one-seat game (Verticality's solo
    # style) has none: its result is how far the player got.
    assert winners or game.seats == 1, "a finished game has winners (all seats = a draw)"
    assert all(0 <= w < game.seats for w in winners)
    assert list(winners) == sorted(set(winners))
    if game.score_decides:
        assert winners == best_seats(state.scores, lowest=game.lowest_score_wins)
    cells = state.to_dict()["board"].get("cells")
    if cells is not None and state.history[-1][1] != vertex.core.AGREED_END:
        # every cell is closed at the end; those closed before play belong to nobody
        lines = {ln["name"]: ln for ln in state.to_dict()["board"]["lines"]}
        for c in cells:
            assert all(lines[n]["drawn"] for n in c["lines"])
            dead = all(lines[n].get("predrawn") for n in c["lines"])
            assert (c["owner"] is None) == dead


def catch_up(shadow: State, state: State) -> State:
    """`shadow` (a replay of `state`'s record) advanced by the record's new moves, read back
    from the record's JSON: a replay kept in step, ply by ply."""
    rec = vertex.Record.from_json(state.record().to_json())
    for entry in rec.moves[len(shadow.history) :]:
        shadow = shadow.play(entry.move, seat=entry.seat)
    return shadow


@pytest.mark.parametrize(("game_id", "options", "seed"), cases())
def test_random_game(game_id: str, options: dict[str, Any], seed: int) -> None:
    game = vertex.create_game(game_id, **options)
    state = game.initial_state(seed=seed)
    shadow = vertex.replay(state.record().to_json())
    rng = Rng.from_seed(seed, "random-play")
    plies = 0
    before: tuple[float, ...] | None = None
    while not state.is_over:
        check_state(state, before)
        before = state.scores
        assert plies < MAX_PLIES, "game does not end"
        moves = state.legal_moves()
        if game.discrete:
            assert moves, "a seat is due but has no legal move"
            assert len(set(moves)) == len(moves)
        for seat in state.to_move:
            seen = state.to_dict()
            move, rng = state.sample_move(seat, rng)
            if moves is not None:
                assert move in moves
            new = state.play(move, seat=seat)
            assert state.to_dict() == seen, "play() changed the state it was called on"
            state = new
            if state.is_over:
                break
        plies += 1
        shadow = catch_up(shadow, state)
        assert shadow.to_dict() == state.to_dict(), f"the replay differs at ply {plies}"
        if plies % 7 == 0:
            assert vertex.replay(vertex.Record.from_json(state.record().to_json())) == state
    check_state(state, before)
    check_end(state)
    replayed = vertex.replay(state.record().to_json())
    assert replayed == state
    assert replayed.to_dict() == state.to_dict()
    assert replayed.scores == state.scores

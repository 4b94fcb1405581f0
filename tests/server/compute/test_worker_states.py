"""The computer's worker keeps its states between moves: the same state as a full replay,
built by playing only the new moves."""

from __future__ import annotations

import random

import pytest

from vertex.core import create_game
from vertex.core.record import replay
from vertex.server.compute import worker_states
from vertex.server.compute.worker_states import state_of


def game_record(moves: int, seed: int = 3) -> tuple[list[str], object]:
    state = create_game("vert3x", rules="gyo", size=9).initial_state(seed=seed)
    rng = random.Random(seed)
    records = []
    for _ in range(moves):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()), seat=state.to_move[0])
        records.append(state.record().to_json())
    return records, state


@pytest.fixture(autouse=True)
def fresh() -> None:
    worker_states.forget_all()


def test_playing_on_gives_the_replayed_state(monkeypatch: pytest.MonkeyPatch) -> None:
    records, _ = game_record(30)
    played: list[int] = []
    real = worker_states.play_on

    def counting(state, moves, first=1):  # type: ignore[no-untyped-def]
        played.append(len(moves))
        return real(state, moves, first)

    monkeypatch.setattr(worker_states, "play_on", counting)
    for rec in records:
        assert state_of(rec).to_dict() == replay(rec).to_dict()
    # the first was replayed; each one after it played only its one new move
    assert played == [1] * (len(records) - 1)


def test_a_record_that_does_not_extend_the_kept_one_is_replayed() -> None:
    records, _ = game_record(12)
    state_of(records[-1])
    # a take-back: a shorter record of the same table
    assert state_of(records[5]).to_dict() == replay(records[5]).to_dict()
    # another game with the same set-up but other moves
    others, _ = game_record(12, seed=4)
    assert state_of(others[-1]).to_dict() == replay(others[-1]).to_dict()


def test_a_worker_keeps_a_few_tables_at_most() -> None:
    for seed in range(worker_states.KEPT + 5):
        records, _ = game_record(2, seed=seed + 10)
        state_of(records[-1])
    assert len(worker_states._kept) == worker_states.KEPT

"""Shared set-ups for the Verticality tests."""

from __future__ import annotations

from typing import Any

import vertex
from vertex.games.verticality import VerticalityState
from vertex.games.verticality.notation import make_aim
from vertex.games.verticality.plan import plan_aim

#: Seed 194 rolls S+M, L, S+L, M, M+L: the sizes L, L, M, M, S for levels 1–5.
SEED_LLMMS = 194


def new(seed: int = SEED_LLMMS, **options: Any) -> VerticalityState:
    state = vertex.create_game("verticality", **options).initial_state(seed=seed)
    assert isinstance(state, VerticalityState)
    return state


def planned(state: VerticalityState, seat: int) -> str:
    return str(plan_aim(state, seat))


def play_planned_until(state: VerticalityState, level: int, step: int) -> VerticalityState:
    """Every due seat plays the plan until the game reaches `level`, `step`."""
    while not state.is_over and (state.level, state.step) < (level, step):
        for seat in state.to_move:
            new_state = state.play(planned(state, seat), seat=seat)
            assert isinstance(new_state, VerticalityState)
            state = new_state
    return state


def card_off(state: VerticalityState, seat: int, mm: float = 40.0) -> str:
    aim = plan_aim(state, seat)
    assert aim.piece == "card"
    return str(make_aim("card", aim.x + mm, aim.y, aim.rot))

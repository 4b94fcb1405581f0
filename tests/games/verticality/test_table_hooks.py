"""What the server asks of Verticality: checking an aim without playing it, and haste from the
time a piece was released."""

from __future__ import annotations

import pytest

from vertex.core.errors import IllegalMove, NotationError
from vertex.games.verticality.rules import CALM_AFTER_S, time_haste

from .helpers import new, planned, play_planned_until


def test_time_haste_falls_from_one_to_zero_over_two_seconds() -> None:
    assert CALM_AFTER_S == 2.0
    assert [time_haste(s) for s in (0.0, 0.5, 1.0, 1.5, 2.0, 7.0)] == [1, 0.75, 0.5, 0.25, 0, 0]
    assert time_haste(-1.0) == 1.0  # a clock a little behind is still "at once"


def test_hasten_keeps_the_larger_haste_in_canonical_spelling() -> None:
    state = new(players=1)
    assert state.hasten("pyramid x=1 y=2 rot=30", 0.5) == "pyramid x=1 y=2 rot=30 haste=0.75"
    assert state.hasten("pyramid x=1 y=2 rot=30 haste=0.9", 0.5) == (
        "pyramid x=1 y=2 rot=30 haste=0.9"
    )
    assert state.hasten("card  x=1.004 y=2 rot=390", 3.0) == "card x=1 y=2 rot=30"  # calm
    assert state.hasten("pyramid x=0 y=0", 1.993) == "pyramid x=0 y=0 rot=0"  # 0.0035 → 0
    with pytest.raises(NotationError):
        state.hasten("tower x=0 y=0", 0.0)


def test_check_aim_refuses_what_play_refuses_and_changes_nothing() -> None:
    state = play_planned_until(new(players=1, tremor_mm=0.0), 1, 1)
    before = state.to_dict()
    aim = planned(state, 0)
    assert state.check_aim(aim, 0) == aim and len(state.history) == 1
    with pytest.raises(IllegalMove, match="touching rule"):
        state.check_aim("pyramid x=60 y=0 rot=0", 0)
    with pytest.raises(IllegalMove, match="not a card"):
        state.check_aim("card x=0 y=0 rot=0", 0)
    with pytest.raises(NotationError, match="off your base"):
        state.check_aim("pyramid x=0 y=200", 0)
    with pytest.raises(IllegalMove, match="owes no piece"):
        state.check_aim("pyramid x=0 y=0", 1)
    assert state.to_dict() == before


def test_check_aim_of_a_seat_that_placed_this_step() -> None:
    state = new(players=2, tremor_mm=0.0)
    assert state.check_aim("pyramid x=10 y=-5 rot=30", 0) == "pyramid x=10 y=-5 rot=30"
    after = state.play("pyramid x=10 y=-5 rot=30", seat=0)
    with pytest.raises(IllegalMove, match="owes no piece"):
        after.check_aim("pyramid x=10 y=-5 rot=30", 0)  # type: ignore[attr-defined]
    assert after.check_aim("pyramid x=0 y=0 rot=0", 1) == "pyramid x=0 y=0 rot=0"  # type: ignore[attr-defined]

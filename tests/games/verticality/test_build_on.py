"""Building on alone (option build_on): the rulebook's Solo-style note for any game."""

from __future__ import annotations

from typing import Any

import pytest

import vertex
from vertex.ai.tower import TowerPlayer
from vertex.core.errors import IllegalMove
from vertex.games.verticality import VerticalityState

from .helpers import card_off, new, planned, play_planned_until


def seat_1_out(**options: Any) -> VerticalityState:
    """Level 1, card step: seat 0 places its card, seat 1's slides twice and its tower is out."""
    state = play_planned_until(new(players=2, tremor_mm=0.0, **options), 1, 3)
    state = state.play(planned(state, 0), seat=0)  # type: ignore[assignment]
    state = state.play(card_off(state, 1), seat=1)  # type: ignore[assignment]
    state = state.play(card_off(state, 1), seat=1)  # type: ignore[assignment]
    assert not state.towers[1].standing
    return state


def test_without_build_on_the_game_ends_at_once() -> None:
    state = seat_1_out()
    assert state.is_over and state.winners == (0,)
    board = state.to_dict()["board"]
    assert board["build_on"] is False and board["building_on"] is False
    assert board["winner"] is None
    assert state.result()["building_on"] is False


def test_the_winner_builds_on_then_stops() -> None:
    state = seat_1_out(build_on=True)
    assert not state.is_over and state.to_move == (0,)
    assert state.winners == ()  # the contract: () while the game is on
    assert (state.level, state.step) == (2, 0)
    board = state.to_dict()["board"]
    assert board["building_on"] is True and board["winner"] == 0 and board["due"] == [0]
    assert board["events"][-1] == "seat 0 wins and builds on alone"
    # Level 2 is built by seat 0 alone: four steps, three pyramids from the supply.
    supply = dict(state.supply)
    state = play_planned_until(state, 3, 0)
    assert state.to_move == (0,) and state.towers[0].levels == 2
    assert state.supply[state.size] >= 3
    assert sum(supply.values()) - sum(state.supply.values()) == 3
    with pytest.raises(IllegalMove, match="not seat 1's turn"):
        state.play("stop", seat=1)
    done = state.play("STOP", seat=0)
    assert done.is_over and done.winners == (0,) and done.history[-1] == (0, "stop")
    assert done.scores == (2.0, 0.0)
    result = done.result()
    assert result["building_on"] is True and result["solo"] is False
    assert result["levels"] == [2, 0]
    # two large levels of 44.45 mm and two 0.3 mm cards
    assert result["height_mm"][0] == pytest.approx(2 * 44.45 + 0.6, abs=0.3)
    board = done.to_dict()["board"]
    assert board["stopped"] is True and board["result"]["levels"] == [2, 0]
    assert vertex.replay(done.record()) == done
    assert vertex.replay(done.record().to_json()).to_dict() == done.to_dict()


def test_a_fall_while_building_on_keeps_the_win() -> None:
    state = play_planned_until(seat_1_out(build_on=True), 2, 3)
    state = state.play(card_off(state, 0), seat=0)  # type: ignore[assignment]
    assert state.to_move == (0,) and state.towers[0].mulligan_used  # the mulligan, alone
    state = state.play(card_off(state, 0), seat=0)  # type: ignore[assignment]
    assert not state.towers[0].standing
    assert state.is_over and state.winners == (0,)
    assert state.result()["levels"] == [1, 0]
    assert state.to_dict()["board"]["building_on"] is True
    assert vertex.replay(state.record()) == state


def test_stop_is_refused_outside_building_on() -> None:
    for options in ({}, {"build_on": True}):
        state = new(players=2, tremor_mm=0.0, **options)
        with pytest.raises(IllegalMove, match="only ends building on"):
            state.play("stop", seat=0)
    solo = new(players=1, build_on=True)
    with pytest.raises(IllegalMove, match="build_on is off"):
        solo.play("stop", seat=0)
    off = seat_1_out()
    with pytest.raises(IllegalMove, match="over"):
        off.play("stop", seat=0)


def test_the_schema_names_stop_only_with_build_on() -> None:
    on = vertex.create_game("verticality", build_on=True).move_schema()
    off = vertex.create_game("verticality").move_schema()
    assert "stop" in on["examples"] and on["pattern"].endswith("|stop)$")
    assert "stop" not in off["examples"] and "stop" not in off["pattern"]


def test_computer_players_and_the_step_clock_keep_building() -> None:
    state = seat_1_out(build_on=True)
    player = TowerPlayer(state.game, 3)
    aim = player.choose(state, 0, 1.0)
    assert aim.startswith("pyramid ")
    assert state.default_aim(0).startswith("pyramid ")
    after = state.play(aim, seat=0)
    assert len(after.towers[0].pieces) == 5 and after.to_move == (0,)  # type: ignore[attr-defined]
    with pytest.raises(IllegalMove, match="owes no piece"):
        state.default_aim(1)

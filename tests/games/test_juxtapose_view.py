"""Juxtapose's board view for the page: `blocked` names the slides into the empty square the
rules forbid and why, so the page can say the reason without knowing the rules."""

from __future__ import annotations

import json

from tests.games.test_juxtapose import BASE, drops, new, play
from vertex.games.juxtapose import JuxtaposeState


def blocked(state: JuxtaposeState) -> dict[str, str]:
    out: dict[str, str] = state.to_dict()["board"]["blocked"]
    return out


def test_drop_phase_blocks_nothing() -> None:
    assert blocked(new()) == {}
    assert blocked(play(new(), "R1@a1", "Y2@b1")) == {}


def test_last_drop_is_blocked_as_moved_last_and_corners_are_named() -> None:
    state = drops(BASE)  # d4 empty; Y2 on c4 was dropped last
    assert blocked(state) == {"c3>d4": "corner", "c4>d4": "moved-last"}
    # every blocked slide is refused by the engine, and no legal move is listed as blocked
    assert not set(blocked(state)) & set(state.legal_moves())
    assert "d3>d4" in state.legal_moves()


def test_after_a_swap_both_pyramids_are_blocked() -> None:
    state = play(drops(BASE), "c3<>c4")  # Y2 to c3, G1 to c4: both moved last
    assert blocked(state) == {"c3>d4": "corner", "c4>d4": "moved-last"}
    state = play(state, "d3>d4")  # R3 slides down: d3 empty, c3 (Y2) is free again
    assert blocked(state) == {
        "c2>d3": "corner",
        "c4>d3": "corner",
        "d4>d3": "moved-last",
    }
    assert {"c3>d3", "d2>d3"} <= set(state.legal_moves())


def test_a_finished_game_blocks_nothing_and_the_view_is_json() -> None:
    # d1 empty: B1 slides up from d2 and completes a row of small pyramids
    state = drops(
        """
        R1 Y1 G1 ..
        B2 R3 B3 B1
        P2 Y3 G2 G3
        R2 P1 P3 Y2
        """
    )
    assert blocked(state) == {"c2>d1": "corner"}
    won = play(state, "d2>d1")
    assert won.is_over
    assert blocked(won) == {}
    assert json.loads(json.dumps(won.to_dict()))["board"]["blocked"] == {}

"""The suggested aim (issue 33, item 14): the game's plan, which the page starts every aim on,
builds three levels at the normal hand tremor, released calmly or in a hurry."""

from __future__ import annotations

import pytest

from vertex.games.verticality import VerticalityState

from .helpers import new, planned


@pytest.mark.parametrize("haste", ["", " haste=1"])
def test_the_suggested_aims_build_three_levels_at_the_normal_tremor(haste: str) -> None:
    for seed in range(4):
        state = new(seed=seed, players=1)  # tremor 0.45 mm: the default
        assert state.game.options.tremor_mm == 0.45
        while not state.is_over and state.towers[0].levels < 3:
            move = planned(state, 0)
            assert state.check_aim(move, 0) == move  # the aim check approves it
            after = state.play(move + haste, seat=0)
            assert isinstance(after, VerticalityState)
            state = after
        assert state.towers[0].levels == 3 and state.towers[0].standing, seed

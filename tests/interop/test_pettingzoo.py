"""The PettingZoo AEC environments pass PettingZoo's own api_test, for every discrete game."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

from vertex.core import game_class, game_ids
from vertex.core.errors import VertexError
from vertex.interop.pettingzoo import action_catalogue, env, raw_env

CASES: list[tuple[str, dict[str, Any]]] = [
    ("dots-and-boxes", {"rows": 2, "cols": 2}),
    ("dots-and-boxes", {"rows": 2, "cols": 3, "players": 3}),
    ("dots-and-triangles", {"size": 2}),
    ("figures", {"rows": 2, "cols": 2}),
    ("juxtapose", {}),
    ("vert3x", {"radius": 1}),
]


def test_every_discrete_game_is_covered() -> None:
    covered = {gid for gid, _ in CASES}
    assert covered == {gid for gid in game_ids() if game_class(gid).discrete}


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_api_test(game_id: str, options: dict[str, Any]) -> None:
    api_test(env(game_id, **options), num_cycles=200)


def test_dots_actions_are_the_lines_and_the_winner_is_rewarded() -> None:
    e = raw_env("dots-and-boxes", rows=1, cols=1)
    assert e.actions == ["a1-b1", "a1-a2", "b1-b2", "a2-b2"]  # the engine's line order
    e.reset(seed=1)
    for action in range(4):
        e.step(action)
    # seat 0, seat 1, seat 0, seat 1: the fourth line takes the box for seat 1
    assert e.rewards == {"seat_0": -1, "seat_1": 1}
    obs = e.observe("seat_1")
    assert list(obs["observation"]) == [1, 1, 1, 1, 1]
    assert list(e.observe("seat_0")["observation"])[-1] == 2
    assert not obs["action_mask"].any()


def test_mask_lists_the_legal_moves_of_the_seat_to_move() -> None:
    e = raw_env("juxtapose")
    e.reset(seed=3)
    obs = e.observe("seat_0")
    legal = {e.actions[i] for i in np.flatnonzero(obs["action_mask"])}
    assert len(legal) == 15 * 16
    assert not e.observe("seat_1")["action_mask"].any()


def test_continuous_games_and_bad_actions_are_refused() -> None:
    with pytest.raises(VertexError, match="continuous"):
        raw_env("verticality")
    e = raw_env("dots-and-boxes", rows=1, cols=1)
    e.reset()
    with pytest.raises(VertexError, match="action"):
        e.step(99)
    assert len(action_catalogue(e.game)) == 4

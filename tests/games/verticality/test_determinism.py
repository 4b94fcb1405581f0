"""Same seed, same aims: bit-identical poses, in one process and in two separate processes."""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys

import vertex
from vertex.games.verticality import VerticalityState

from .helpers import new, planned


def scripted_game() -> VerticalityState:
    """Two players with normal tremor, the plan for two levels (seat 1 in a hurry)."""
    state = new(seed=11, players=2)
    while not state.is_over and state.level <= 2:
        for seat in state.to_move:
            move = planned(state, seat)
            if seat == 1:
                move += " haste=0.8"
            state = state.play(move, seat=seat)  # type: ignore[assignment]
    return state


def poses_hex(state: VerticalityState) -> list[list[list[str]]]:
    return [[[v.hex() for v in p.pose] for p in t.pieces] for t in state.towers]


SCRIPT = """
import json
from tests.games.verticality.test_determinism import poses_hex, scripted_game
print(json.dumps(poses_hex(scripted_game())))
"""


def test_same_moves_same_poses_in_one_process() -> None:
    first = scripted_game()
    assert sum(len(t.pieces) for t in first.towers) >= 8
    assert poses_hex(scripted_game()) == poses_hex(first)
    replayed = vertex.replay(first.record().to_json())
    assert isinstance(replayed, VerticalityState)
    assert poses_hex(replayed) == poses_hex(first)
    assert replayed.to_dict() == first.to_dict()


def test_same_moves_same_poses_across_processes() -> None:
    root = pathlib.Path(__file__).resolve().parents[3]
    runs = [
        subprocess.run(
            [sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=True, cwd=root
        ).stdout
        for _ in range(2)
    ]
    mine = poses_hex(scripted_game())
    assert json.loads(runs[0]) == json.loads(runs[1]) == mine


def test_tremor_moves_pieces_off_the_aim() -> None:
    steady = new(seed=11, players=1, tremor_mm=0.0)
    shaky = new(seed=11, players=1, tremor_mm=0.9)
    a = steady.play("pyramid x=0 y=0 rot=0", seat=0).towers[0].pieces[0].pose  # type: ignore[attr-defined]
    b = shaky.play("pyramid x=0 y=0 rot=0", seat=0).towers[0].pieces[0].pose  # type: ignore[attr-defined]
    assert abs(a[0]) < 1e-6 and abs(a[1]) < 1e-6
    assert 1e-5 < (b[0] ** 2 + b[1] ** 2) ** 0.5 < 5e-3  # microns to millimetres

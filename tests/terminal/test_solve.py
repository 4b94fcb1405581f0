"""`vertex solve`: the exact value of a position from the command line (terminal/solve.py)."""

from __future__ import annotations

import json

import pytest

from vertex.cli import main


def test_solve_prints_the_value_and_best_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "dots-and-boxes", "rows=2", "cols=2", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "Value for seat 0 (to move): +2" in out  # 2×2 is a first-player win by two
    assert "Best moves:" in out


def test_solve_json_after_moves(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "dots-and-boxes", "rows=1", "cols=2", "--moves", "a1-b1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["moves"] == ["a1-b1"] and data["to_move"] == 1
    assert isinstance(data["value"], int) and data["best_moves"]


def test_a_game_without_a_solver_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "juxtapose"]) == 2
    assert "exact solver" in capsys.readouterr().err
    assert main(["solve", "dots-and-boxes", "players=3"]) == 2
    assert "two players" in capsys.readouterr().err

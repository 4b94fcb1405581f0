"""The terminal game: a whole game typed in, bad input explained, records saved."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import vertex
from vertex.cli import build_parser, main
from vertex.terminal.play import play


def run(argv: list[str], typed: str) -> tuple[int, str]:
    args = build_parser().parse_args(["play", *argv])
    out = io.StringIO()
    code = play(args, io.StringIO(typed), out)
    return code, out.getvalue()


def test_whole_game_of_boxes_two_people() -> None:
    moves = ["a1-b1", "a2-b2", "a1-a2", "b1-b2"]  # seat 1 closes the only box
    code, out = run(["dots-and-boxes", "rows=1", "cols=1", "--seed", "1"], "\n".join(moves) + "\n")
    assert code == 0
    assert "game over — seat 1 wins" in out


def test_bad_input_is_explained_and_asked_again() -> None:
    code, out = run(["dots-and-boxes", "--seed", "1"], "hello\na1-z1\nhelp\nquit\n")
    assert code == 0
    assert "not played: 'hello' is not a line" in out
    assert "no dot z1" in out
    assert "legal moves: a1-b1" in out


def test_bad_options_are_reported() -> None:
    code, out = run(["dots-and-boxes", "rows=99"], "")
    assert code == 2 and "rows" in out
    code, out = run(["nope"], "")
    assert code == 2 and "unknown game" in out


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("dots-and-boxes", ["rows=2", "cols=2"]),
        ("dots-and-triangles", ["size=3"]),
        ("figures", ["rows=4", "cols=4", "players=3"]),
    ],
)
def test_against_random_to_the_end(game: str, options: list[str]) -> None:
    # a person who always types the first legal move, against the random player
    state = vertex.create_game(game, **{k: int(v) for k, v in (o.split("=") for o in options)})
    typed = "\n".join(state.initial_state().legal_moves() * 3) + "\n"
    code, out = run([game, *options, "--vs", "random", "--seed", "5"], typed)
    assert code == 0
    assert "game over" in out


def test_save_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    code, out = run(["dots-and-boxes", "--seed", "4"], f"a1-b1\nsave {path}\nquit\n")
    assert code == 0 and "saved" in out
    assert main(["replay", str(path)]) == 0
    final = json.loads(capsys.readouterr().out)
    assert final["ply"] == 1 and final["last_move"] == {"seat": 0, "move": "a1-b1"}
    (tmp_path / "bad.json").write_text('{"game": "dots-and-boxes", "moves": [{"seat": 0}]}')
    assert main(["replay", str(tmp_path / "bad.json")]) == 2
    assert "bad record" in capsys.readouterr().err


def test_triangle_board_draws_owners() -> None:
    state = vertex.create_game("dots-and-triangles", size=2).initial_state()
    for move in ["a1-a2", "a1-b2", "a2-b2"]:
        state = state.play(move)
    from vertex.terminal.registry import render

    text = render(state)
    assert "a1" in text and "b3" in text
    assert "seat 0 X: 1" in text and " X " in text

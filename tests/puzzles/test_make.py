"""`vertex puzzles make`: puzzles appended to a file, known ones skipped, bad input refused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vertex.cli import main
from vertex.puzzles.make import make


def test_make_appends_new_puzzles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "p.jsonl"
    args = ["puzzles", "make", "dots-and-boxes", "rows=3", "cols=3", "--count", "4", "--quiet"]
    assert main([*args, "--out", str(out), "--minutes", "2"]) == 0
    first = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(first) == 4
    assert "a minute" in capsys.readouterr().err
    assert main([*args, "--out", str(out), "--seed", "1", "--minutes", "2"]) == 0
    every = [json.loads(x)["id"] for x in out.read_text().splitlines()]
    assert len(every) == len(set(every)) == 8  # the second run skipped what the file had
    for p in first:
        assert p["keeps"] and p["solution"][0] in p["keeps"] and p["themes"]


def test_only_keeps_those_themes() -> None:
    got = list(make("dots-and-boxes", {"rows": 3, "cols": 3}, 3, minutes=2, only=("endgame",)))
    assert got and all("endgame" in p.themes for p in got)


@pytest.mark.parametrize(
    "args",
    [
        ["no-such-game", "--count", "1"],
        ["dots-and-boxes", "rows=x=1", "--count", "1"],
        ["dots-and-boxes", "--count", "0"],
        ["dots-and-boxes", "players=3", "--count", "1"],
        ["dots-and-boxes", "misere=true", "--count", "1"],
    ],
)
def test_bad_input_is_refused(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["puzzles", "make", *args]) == 2
    assert "vertex puzzles make:" in capsys.readouterr().err


def test_juxtapose_wins_in_2_by_the_command(tmp_path: Path) -> None:
    """`make juxtapose --only win-in-2` (issue 35): a win in 2 found late in the drop phase,
    exactly one first move (up to symmetry) keeps it by the exact search, and the stored
    line is judged solved while every other first move fails."""
    from vertex.games.juxtapose.game import MOVE_NAMES, move_code
    from vertex.puzzles.judge import judge, position
    from vertex.puzzles.jux import JuxSearch, position_key
    from vertex.puzzles.model import Puzzle

    out = tmp_path / "j.jsonl"
    args = ["puzzles", "make", "juxtapose", "--count", "1", "--only", "win-in-2", "--quiet"]
    assert main([*args, "--seed", "21", "--minutes", "3", "--out", str(out)]) == 0
    (line,) = out.read_text().splitlines()
    p = Puzzle.from_json(json.loads(line))
    assert p.themes == ("win-in-2",) and p.goal.kind == "win" and p.goal.depth == 2
    state = position(p)
    search = JuxSearch()
    assert search.distance(state, 3) == 2  # no win in 1, a win in 2
    good = [c for c in state.move_codes() if search.keeps(state, c, 2)]
    assert len({position_key(state.apply(c)) for c in good}) == 1
    assert move_code(p.solution[0]) in good and len(p.solution) == 3
    assert judge(p, list(p.solution)).status == "solved"
    first = judge(p, [p.solution[0]])
    assert first.status == "playing" and first.reply == [p.solution[1]]
    for c in state.move_codes():
        if c not in good:
            assert judge(p, [MOVE_NAMES[c]]).status == "failed"

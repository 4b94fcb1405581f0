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

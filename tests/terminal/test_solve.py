"""`vertex solve`: the exact value of a position from the command line (terminal/solve.py)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from vertex.ai.dots import tablefile
from vertex.ai.dots.core import Walk
from vertex.cli import main
from vertex.terminal.solve import _walk_words, parse_work


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


def test_a_kept_table_answers_the_same_command_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = str(tmp_path / "3x3.table")
    command = ["solve", "dots-and-boxes", "rows=3", "cols=3", "--memory", "16M", "--json"]
    assert main([*command, "--table", table]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["value"] == -3 and (tmp_path / "3x3.table").exists()
    assert main([*command[:-3], "--json", "--table", table]) == 0  # its size from the file
    captured = capsys.readouterr()
    again = json.loads(captured.out)
    assert "Going on from" in captured.err
    assert again["value"] == -3 and again["best_moves"] == first["best_moves"]
    assert again["positions"] < first["positions"] // 100


def test_a_kept_table_of_its_costly_entries_only_is_small_and_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "3x3.table"
    command = ["solve", "dots-and-boxes", "rows=3", "cols=3", "--memory", "16M", "--json"]
    assert main([*command, "--table", str(table), "--keep-above", "1K"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == -3
    header = tablefile.read_header(table)
    assert header.min_work == 11  # 1,000 positions: 2**10 = 1,024 or more
    assert table.stat().st_size < header.table_bytes // 100
    assert main([*command, "--table", str(table)]) == 0  # and whole again when saved
    captured = capsys.readouterr()
    assert "Going on from" in captured.err and json.loads(captured.out)["value"] == -3
    assert tablefile.read_header(table).min_work == 0
    assert table.stat().st_size > header.table_bytes


@pytest.mark.parametrize(
    ("words", "min_work"), [("1", 1), ("2", 2), ("1000", 11), ("16K", 15), ("2M", 22)]
)
def test_keep_above_is_a_count_of_positions(words: str, min_work: int) -> None:
    assert parse_work(words) == min_work


def test_keep_above_refuses_what_is_no_count_or_has_no_table(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for words in ("lots", "0", "1.5K", "-3"):
        assert main(["solve", "dots-and-boxes", "--table", "t", "--keep-above", words]) == 2
        assert "--keep-above" in capsys.readouterr().err
    assert main(["solve", "dots-and-boxes", "--keep-above", "16K"]) == 2
    assert "give --table too" in capsys.readouterr().err


def test_a_kept_table_that_does_not_fit_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = str(tmp_path / "3x3.table")
    assert (
        main(
            [
                "solve",
                "dots-and-boxes",
                "rows=3",
                "cols=3",
                "--memory",
                "16M",
                "--no-progress",
                "--table",
                table,
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert (
        main(["solve", "dots-and-boxes", "rows=3", "cols=3", "--memory", "32M", "--table", table])
        == 2
    )
    assert "--memory 16M" in capsys.readouterr().err
    assert main(["solve", "dots-and-boxes", "rows=2", "cols=3", "--table", table]) == 2
    assert "rows=3" in capsys.readouterr().err
    assert main(["solve", "dots-and-boxes", "rows=9", "cols=9", "--table", table]) == 2
    assert "only the compiled solver" in capsys.readouterr().err
    assert main(["solve", "dots-and-boxes", "--save-every", "0", "--table", table]) == 2
    assert "--save-every" in capsys.readouterr().err


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_a_long_solve_stopped_by_a_signal_saves_its_table(tmp_path: Path, sig: int) -> None:
    table = tmp_path / "4x4.table"
    command = [
        sys.executable,
        "-m",
        "vertex.cli",
        "solve",
        "dots-and-boxes",
        "rows=4",
        "cols=4",
        "--memory",
        "16M",
        "--threads",
        "1",
        "--table",
        str(table),
    ]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        assert "Solving; the table is kept in" in proc.stderr.readline()
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 128 + sig
    assert "the same command goes on from there" in err
    header = tablefile.read_header(table)
    assert header.positions > 0 and header.table_bytes == 16 << 20
    assert not (tmp_path / "4x4.table.part").exists()


def test_a_table_that_cannot_be_saved_is_said_plainly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = str(tmp_path / "no such folder" / "2x2.table")
    assert main(["solve", "dots-and-boxes", "rows=2", "cols=2", "--table", table]) == 1
    err = capsys.readouterr().err
    assert "cannot save the table" in err and "Traceback" not in err


def test_a_long_solves_progress_line_says_where_the_search_is() -> None:
    walk = Walk(
        2, True, False, [("b2-b3", 3, 36), ("a1-a2", 1, 35), ("c3-d3", 7, 34), ("d4-d5", 1, 33)]
    )
    assert _walk_words(walk, 6) == (
        "asking at least +2: line b2-b3 (3 of 36), reply a1-a2 (1 of 35); below 7/34 1/33"
    )
    assert _walk_words(walk, 1) == "asking at least +2: line b2-b3 (3 of 36)"
    misere = Walk(-1, False, False, [("b2-b3", 1, 36)])
    assert _walk_words(misere, 3) == "asking at most -1: line b2-b3 (1 of 36)"
    best = Walk(0, True, True, [("a1-b1", 4, 9), ("b2-c2", 1, 27)])
    assert (
        _walk_words(best, 3) == "the lines that keep +0: line a1-b1 (4 of 9), reply b2-c2 (1 of 27)"
    )

"""Vert3x in the terminal: `vertex play vert3x rules=… ` and the text boards."""

from __future__ import annotations

import io

import pytest

from tests.games.vert3x.util import alternate, new, play
from vertex.cli import build_parser
from vertex.terminal.play import play as play_cli
from vertex.terminal.registry import render


def run(argv: list[str], typed: str) -> str:
    args = build_parser().parse_args(["play", *argv])
    out = io.StringIO()
    assert play_cli(args, io.StringIO(typed), out) == 0
    return out.getvalue()


@pytest.mark.parametrize("rules", ["classic", "trianguliche", "gyo"])
def test_play_each_rule_set(rules: str) -> None:
    out = run(["vert3x", f"rules={rules}", "--seed", "1"], "a1-b1\nhelp\nquit\n")
    assert "Vert3x" in out and "seat 1>" in out and "legal moves:" in out


def test_play_gyo_size_seven_to_a_triangle() -> None:
    typed = "\n".join(["a1-b1", "g7-g6", "b1-b2", "g6-g5", "a1-b2", "c3-c1", "quit"]) + "\n"
    out = run(["vert3x", "rules=gyo", "size=7", "--seed", "2"], typed)
    assert "not played: 'c3-c1' is not" not in out
    assert "not played: c3 and c1 are not neighbouring dots" in out
    assert "triangles: A a1-b1-b2 +1" in out
    assert "seat 0 A: 1  seat 1 B: 0" in out


def test_gyo_text_board() -> None:
    state = alternate(new(rules="gyo", size=3), ["a1-b1", "b1-b2", "a1-b2"], ["b2-c3", "c2-b3"])
    assert render(state) == "\n".join(
        [
            "    a   b   c",
            "  1 •─A─•   •",
            "     A\\ A",
            "  2 •   •   •",
            "         BXB",
            "  3 •   •   •",
            "triangles: A a1-b1-b2 +1",
            "seat 0 A: 1  seat 1 B: 0",
            "to move: seat 1",
        ]
    )


def test_classic_text_board() -> None:
    state = play(new(radius=1), "a1-b1", "c3-b3", "a1-b2")
    # rows shifted half a step (4 columns); a slanted line's owner beside its stroke
    assert render(state).splitlines()[:5] == [
        "    a1○──A──b1",
        "       \\A",
        "a2      b2      c2",
        "",
        "    b3───B──c3○",
    ]

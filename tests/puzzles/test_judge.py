"""Judging attempts: any goal-keeping line counts, a move that lets the goal go fails, the
computer's replies are checked, bad lines are refused."""

from __future__ import annotations

import pytest

from vertex.core.registry import create_game
from vertex.games.dots.engine import DotsState
from vertex.puzzles.dots import DotsJudge
from vertex.puzzles.judge import Refused, check_line, dots_judge, judge, position
from vertex.puzzles.make import puzzle_at
from vertex.puzzles.model import pool_name
from vertex.puzzles.shipped import shipped


def test_a_symmetric_answer_is_accepted() -> None:
    """The empty 2×2 board's centre lines: four moves, one up to symmetry... a position
    with a mirror image answer is found among the shipped; its other answer is accepted."""
    for p in shipped():
        state = position(p)
        if not isinstance(state, DotsState) or p.turns != 1:
            continue
        j, _ = dots_judge(state.game)
        others = [m for m in j.best(state) if m != p.solution[0]]
        if others:
            assert judge(p, [others[0]]).status in ("solved", "playing")
            return
    pytest.fail("no shipped puzzle with two symmetric answers")


def test_multi_turn_puzzle_takes_the_computers_reply() -> None:
    p = next(p for p in shipped() if p.game == "dots-and-boxes" and p.turns >= 2)
    line: list[str] = []
    state = position(p)
    j, _ = dots_judge(state.game)
    while True:
        for m in line:
            state = state.play(m)
        v = judge(p, line)
        if v.done:
            assert v.status == "solved"
            break
        line += v.reply
        state = position(p)
        for m in line:
            state = state.play(m)
        assert isinstance(state, DotsState)
        line.append(j.best(state)[-1])  # another best move than the stored line's, if any
        state = position(p)
    # a reply the computer would not make is refused
    first_turn = []
    s = position(p)
    while s.to_move == (p.to_move,):
        first_turn.append(p.solution[len(first_turn)])
        s = s.play(first_turn[-1])
    best = set(j.best(s))
    bad = next((m for m in s.legal_moves() if m not in best), None)
    if bad is not None:
        with pytest.raises(Refused) as caught:
            judge(p, [*first_turn, bad])
        assert caught.value.code == "puzzle-reply"


def test_refusals() -> None:
    p = next(p for p in shipped() if p.game == "dots-and-boxes")
    for bad in ("a1-b1", [1, 2], ["x" * 40], ["m"] * 100):
        with pytest.raises(Refused) as caught:
            check_line(bad)
        assert caught.value.code == "puzzle-line"
    with pytest.raises(Refused) as caught:
        judge(p, ["nonsense"])
    assert caught.value.code == "puzzle-illegal"
    with pytest.raises(Refused) as caught:
        judge(p, [*p.solution, *position(p).legal_moves()[:1]])
    assert caught.value.code in ("puzzle-over", "puzzle-illegal", "puzzle-reply")


def test_a_juxtapose_win_in_1_and_a_wrong_move() -> None:
    p = next(p for p in shipped() if p.game == "juxtapose" and "win-in-1" in p.themes)
    assert judge(p, [p.solution[0]]).status == "solved"
    state = position(p)
    wrong = next(m for m in state.legal_moves() if m != p.solution[0] and not state.wins_at_once(m))  # type: ignore[attr-defined]
    assert judge(p, [wrong]).status == "failed"


def test_a_3x3_position_with_one_answer() -> None:
    """A known position: the finder's answer is the solver's only best move group."""
    game = create_game("dots-and-boxes", rows=3, cols=3)
    state = game.initial_state(seed=0)
    p = next(p for p in shipped() if pool_name(p.game, p.options) == "dots-and-boxes-3x3")
    for m in p.moves:
        state = state.play(m)
    found = puzzle_at(game, {"rows": 3, "cols": 3}, state, DotsJudge(game), None)
    assert found is not None and found.id == p.id

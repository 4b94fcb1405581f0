"""Mining a reviewed game: a planted mistake at a one-answer position becomes a candidate
(once, however often the position comes), and the site stores it once."""

from __future__ import annotations

from vertex.core.registry import create_game
from vertex.games.dots.engine import DotsState
from vertex.puzzles.judge import dots_judge, position
from vertex.puzzles.mine import candidates_from_review
from vertex.puzzles.model import pool_name
from vertex.puzzles.shipped import shipped


def planted_game() -> tuple[list[str], int, str]:
    """A 3×3 game through a shipped puzzle's position where the mover plays a losing move,
    then both play best to the end: its moves, the mistake's ply, the puzzle's id."""
    p = next(
        p
        for p in shipped()
        if pool_name(p.game, p.options) == "dots-and-boxes-3x3" and p.turns == 1
    )
    state = position(p)
    assert isinstance(state, DotsState)
    j, _ = dots_judge(state.game)
    wrong = next(m for m in state.legal_moves() if m not in j.best(state))
    moves = [*p.moves, wrong]
    state = state.play(wrong)
    while not state.is_over:
        m = j.best(state)[0]
        moves.append(m)
        state = state.play(m)
    return moves, len(p.moves), p.id


def test_a_planted_mistake_is_a_candidate() -> None:
    moves, ply, pid = planted_game()
    game = create_game("dots-and-boxes", rows=3, cols=3)
    state = game.initial_state(seed=0)
    rows = []
    for k, m in enumerate(moves):
        rows.append({"ply": k, "seat": state.to_move[0], "mark": "blunder" if k == ply else "best"})
        state = state.play(m)
    found = candidates_from_review("dots-and-boxes", {"rows": 3, "cols": 3}, moves, rows)
    assert [c.puzzle.id for c in found] == [pid]
    assert found[0].ply == ply and found[0].played == moves[ply]
    assert found[0].puzzle.source == "review"
    # estimates are never mined, and an unknown game yields nothing
    rows[ply]["exact"] = False
    assert candidates_from_review("dots-and-boxes", {"rows": 3, "cols": 3}, moves, rows) == []
    assert candidates_from_review("no-such-game", {}, moves, rows) == []

"""Puzzles mined from a reviewed game: where a player went wrong and exactly one move kept
the goal.

The review (issue 35's other half) judges every move; it calls `candidates_from_review`
with the game, its moves and the review's rows, and hands what comes back to the site's
store (`server/puzzles/service.Puzzles.store_mined`), which skips positions it has
(a puzzle's id is its canonical position under the board's symmetries).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from vertex.ai.dots.solver import SolveTimeout
from vertex.core.errors import VertexError
from vertex.core.registry import create_game
from vertex.games.dots.engine import DotsGame
from vertex.puzzles.dots import DotsJudge
from vertex.puzzles.jux import SearchTimeout
from vertex.puzzles.make import puzzle_at
from vertex.puzzles.model import Puzzle

#: The marks that make a position a candidate: a real loss of value.
WRONG = ("inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Candidate:
    """A mined puzzle, and where it came from: the ply (0-based index of the move that went
    wrong), the seat that played it and the move played."""

    puzzle: Puzzle
    ply: int
    seat: int
    played: str


def candidates_from_review(
    game: str,
    options: Mapping[str, Any],
    moves: Sequence[str],
    review: Sequence[Mapping[str, Any]],
    *,
    seed: int = 0,
    budget_s: float = 1.0,
    marks: Sequence[str] = WRONG,
) -> list[Candidate]:
    """The puzzles in a reviewed game.

    `moves`: the game's moves from the start; `review`: the review's rows, each with at
    least `ply` (the move's index in `moves`, 0-based), `seat` and `mark` (`before`, `after`
    and `exact` are read when present: a row with `exact` false is skipped). A row marked
    with one of `marks` whose position, judged afresh (at most `budget_s` seconds each), has
    exactly one goal-keeping first move up to symmetry, other than the move played, is a
    candidate. The game must replay the same from seed 0 (puzzles start from seed 0); a
    game that does not, or a game with no judge, yields nothing. Positions repeated (up to
    symmetry) come once.
    """
    opts = dict(options)
    try:
        g = create_game(game, **opts)
        start = g.initial_state(seed=0)
        if seed != 0 and g.initial_state(seed=seed).to_dict() != start.to_dict():
            return []
    except VertexError:
        return []
    if isinstance(g, DotsGame) and not DotsJudge.fits(g):
        return []
    judge = DotsJudge(g) if isinstance(g, DotsGame) else None
    wrong = {int(r["ply"]): r for r in review if r.get("mark") in marks and r.get("exact", True)}
    out: list[Candidate] = []
    seen: set[str] = set()
    state = start
    for ply, move in enumerate(moves):
        row = wrong.get(ply)
        if row is not None and not state.is_over:
            try:
                found = puzzle_at(g, opts, state, judge, time.monotonic() + budget_s, "review")
            except (SolveTimeout, SearchTimeout):
                found = None
            if found is not None and found.id not in seen and move not in found.solution[:1]:
                seen.add(found.id)
                out.append(Candidate(found, ply, int(row.get("seat", state.to_move[0])), move))
        try:
            state = state.play(move)
        except VertexError:
            break
    return out

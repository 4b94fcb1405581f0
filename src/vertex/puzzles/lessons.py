"""Lessons for the rules pages of Dots and Boxes and Dots and Triangles: four steps each,
every step a shipped puzzle (so judged by the solver like any puzzle) picked by a rule that
shows the idea:

- `safe`: only one line gives nothing away (every other one hands over a cell: the third
  side of a box, the second of a triangle);
- `chains`: every line opens something; one opening costs least;
- `double-cross`: cells are on offer and the answer declines the last two (all but two, or
  the double-dealing move);
- `long-chain`: quiet lines remain and one of them wins the fight for control (the long-chain
  rule; the theme `chain-control`).

The smallest such position of the board (fewest lines left) is taken, the same every time.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from vertex.games.dots.engine import DotsState
from vertex.puzzles.judge import dots_judge, position
from vertex.puzzles.model import Puzzle, pool_name
from vertex.puzzles.shipped import shipped

STEPS = ("safe", "chains", "double-cross", "long-chain")

#: The board of each game's lesson: small, so the lesson's positions read at a glance.
BOARDS: dict[str, str] = {
    "dots-and-boxes": "dots-and-boxes-3x3",
    "dots-and-triangles": "dots-and-triangles-4",
}


def _facts(p: Puzzle) -> tuple[int, int, bool, bool]:
    """(quiet groups, lines left, a capture on offer, the answer is quiet) at the puzzle."""
    state = position(p)
    assert isinstance(state, DotsState)
    j, _ = dots_judge(state.game)
    kit = j.kit
    rem = kit.remaining(state.drawn)
    free = [i for i in range(kit.lines) if (kit.all_lines & ~state.drawn) >> i & 1]
    quiet = [kit.names[i] for i in free if kit.safe(rem, i)]
    captures = any(1 in (rem[kit.line_pair[i][0]], rem[kit.line_pair[i][1]]) for i in free)
    groups = len(j.groups(state, quiet))
    return groups, len(free), captures, p.solution[0] in quiet


def _is(step: str) -> Callable[[Puzzle], bool]:
    def safe(p: Puzzle) -> bool:
        groups, _, captures, answer_quiet = _facts(p)
        return groups == 1 and answer_quiet and not captures

    def chains(p: Puzzle) -> bool:
        groups, _, captures, _ = _facts(p)
        return groups == 0 and not captures and "endgame" in p.themes

    def double_cross(p: Puzzle) -> bool:
        return bool({"all-but-two", "double-dealing"} & set(p.themes))

    def long_chain(p: Puzzle) -> bool:
        return "chain-control" in p.themes and _facts(p)[0] > 1

    return {"safe": safe, "chains": chains, "double-cross": double_cross, "long-chain": long_chain}[
        step
    ]


@functools.cache
def lesson(game: str) -> tuple[tuple[str, Puzzle], ...]:
    """The lesson's steps for `game`: (step, puzzle), in order; () for a game without one."""
    board = BOARDS.get(game)
    if board is None:
        return ()
    pool = [
        p
        for p in shipped()
        if p.game == game
        and pool_name(p.game, p.options) == board
        and p.turns == 1
        and p.goal.margin >= 0
    ]
    pool.sort(key=lambda p: (_facts(p)[1], p.id))
    out: list[tuple[str, Puzzle]] = []
    for step in STEPS:
        pick = next((p for p in pool if _is(step)(p)), None)
        if pick is not None:
            out.append((step, pick))
    return tuple(out)

"""Classic Vert3x (RULES.md §2.1): 1 per line, 3k per side-k triangle (3k·k with multiplier)."""

from __future__ import annotations

from typing import Any

from tests.games.vert3x.util import alternate, new

# Seat 1 starts at g7 (the corner opposite a1) and draws along the outline, far from seat 0.
SPARE = ["f7-g7", "e7-f7", "d7-e7", "g6-g7", "g5-g6", "g4-g5", "c6-d7", "b5-c6"]

SMALLEST = ["a1-b1", "b1-b2", "a1-b2"]
SIDE_TWO = ["a1-b1", "b1-c1", "c1-c2", "c2-c3", "a1-b2", "b2-c3"]
TWO_AT_ONCE = ["a1-b1", "b1-b2", "a1-a2", "a2-b2", "a1-b2"]
SIDE_TWO_FULL = [*SIDE_TWO, "b1-b2", "b2-c2", "b1-c2"]


def scored(lines: list[str], **options: Any) -> tuple[int | float, ...]:
    state = alternate(new(**options), lines, SPARE[: len(lines) - 1])
    assert state.to_move == (1,)
    return state.scores


def test_start_dots_are_opposite_corners() -> None:
    assert new().game.start_names() == ["a1", "g7"]


def test_smallest_triangle_scores_three_plus_its_lines() -> None:
    assert scored(SMALLEST) == (3 + 3, 2)


def test_side_two_triangle_scores_six() -> None:
    assert scored(SIDE_TWO) == (6 + 6, 5)


def test_side_two_with_multiplier_scores_twelve() -> None:
    assert scored(SIDE_TWO, multiplier=True) == (6 + 12, 5)


def test_one_line_completing_two_triangles_scores_both() -> None:
    state = alternate(new(), TWO_AT_ONCE, SPARE[:4])
    assert state.scores == (5 + 3 + 3, 4)
    assert sorted(t["corners"] for t in state.to_dict()["board"]["triangles"]) == [
        ["a1", "a2", "b2"],
        ["a1", "b1", "b2"],
    ]


def test_full_side_two_triangle_scores_four_small_and_the_big_one() -> None:
    assert scored(SIDE_TWO_FULL) == (9 + 4 * 3 + 6, 8)


def test_full_side_two_with_multiplier() -> None:
    assert scored(SIDE_TWO_FULL, multiplier=True)[0] == 9 + 4 * 3 + 12


def test_side_three_triangle() -> None:
    lines = ["a1-b1", "b1-c1", "c1-d1", "d1-d2", "d2-d3", "d3-d4", "a1-b2", "b2-c3", "c3-d4"]
    state = alternate(new(), lines, SPARE)
    assert state.scores[0] == 9 + 9
    state = alternate(new(multiplier=True), lines, SPARE)
    assert state.scores[0] == 9 + 27


def test_triangle_on_other_shapes() -> None:
    # the big triangle: apex a1, a side-2 up triangle a1, c3, a3
    lines = ["a1-b2", "b2-c3", "a1-a2", "a2-a3", "a3-b3", "b3-c3"]
    state = new(shape="triangle", size=4)
    assert state.game.start_names() == ["a1", "c5"]
    spare = ["b5-c5", "a5-b5", "a4-a5", "c5-d5", "d5-e5"]
    state = alternate(state, lines, spare)
    assert state.scores == (6 + 6, 5)

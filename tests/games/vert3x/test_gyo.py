"""GYØ (RULES.md §2.3): units not held by others, quarter claims, nothing inside a scored one."""

from __future__ import annotations

import pytest

from tests.games.vert3x.util import alternate, new, play
from vertex import IllegalMove

# D (seat 0) holds the middle unit b1-b2-a2 of the legs-2 triangle a1, c1, a3.
D_UNIT = ["b1-b2", "a2-b2", "a2-b1"]
T_BIG = ["a1-b1", "b1-c1", "a1-a2", "a2-a3", "b2-c1", "a3-b2"]
D_SPARE = ["d5-e5", "c5-d5", "b5-c5"]


def test_worked_example_legs_two_scores_three() -> None:
    state = new(rules="gyo", size=5)
    state = alternate(state, D_UNIT + D_SPARE, T_BIG)
    assert state.scores == (1, 3)
    big = state.to_dict()["board"]["triangles"][-1]
    assert big == {
        "owner": 1,
        "points": 3,
        "corners": ["a1", "c1", "a3"],
        "sides": [2, 2, 2],
        "small": 4,
    }
    claims = state.to_dict()["board"]["claims"]
    assert sum(1 for c in claims if c["owner"] == 0) == 2  # D's unit: two quarters
    assert sum(1 for c in claims if c["owner"] == 1) == 6  # T took the other three units


def test_no_line_inside_a_scored_triangle_for_anyone() -> None:
    state = alternate(new(rules="gyo", size=5), D_UNIT + D_SPARE, T_BIG)
    assert state.to_move == (0,)
    # a1-b2 runs from a corner into the triangle
    with pytest.raises(IllegalMove, match="inside a scored triangle"):
        state.play("a1-b2")
    state = play(state, "a5-b5")
    with pytest.raises(IllegalMove, match="inside a scored triangle"):
        state.play("a1-b2")
    # b1-c2 leaves the triangle through its side; half of it is inside, so T may not draw it
    # (own lines may cross, but not into a scored triangle)
    with pytest.raises(IllegalMove, match="inside a scored triangle"):
        state.play("b1-c2")
    # lines along the sides or outside are fine
    assert "c1-c2" in state.legal_moves()
    assert "b2-c2" in state.legal_moves()


def test_worked_example_legs_six_with_one_foreign_unit_scores_35() -> None:
    t_big = [f"{c}1-{d}1" for c, d in zip("abcdef", "bcdefg", strict=True)]
    t_big += [f"a{r}-a{r + 1}" for r in range(1, 7)]
    t_big += ["f2-g1", "e3-f2", "d4-e3", "c5-d4", "b6-c5", "a7-b6"]
    d_unit = ["b2-c2", "b2-b3", "b3-c2"]
    spare = [f"{c}8-{d}8" for c, d in zip("abcdefg", "bcdefgh", strict=True)]
    spare += [f"h{r}-h{r + 1}" for r in range(1, 8)] + ["g1-h1"]
    assert len(t_big) == 18 and len(d_unit + spare) == 18
    state = alternate(new(rules="gyo", size=8), d_unit + spare, t_big)
    assert state.is_over is False
    assert state.scores == (1, 35)
    big = state.to_dict()["board"]["triangles"][-1]
    assert big["corners"] == ["a1", "g1", "a7"] and big["small"] == 36 and big["points"] == 35


def test_units_already_owned_by_the_mover_count_again() -> None:
    # T scores the unit a1-b1-a2 first, then the legs-2 triangle around it: 1 + 4
    t_lines = ["a1-b1", "a1-a2", "a2-b1", "b1-c1", "a2-a3", "b2-c1", "a3-b2"]
    d_spare = ["c5-d5", "b5-c5", "a5-b5", "d5-e5", "e4-e5", "e3-e4", "e2-e3"]
    state = alternate(new(rules="gyo", size=5), d_spare, t_lines)
    assert state.scores == (0, 5)


def test_one_line_completing_two_triangles_scores_both() -> None:
    # seat 0 closes a1-b1-b2 and a1-a2-b2 with the diagonal a1-b2: a square's two halves
    mine = ["a1-b1", "b1-b2", "a1-a2", "a2-b2", "a1-b2"]
    spare = ["d5-e5", "c5-d5", "b5-c5", "a5-b5"]
    state = alternate(new(rules="gyo", size=5), mine, spare)
    assert state.scores == (2, 0)
    assert len(state.triangles) == 2


def test_crossing_a_rival_diagonal_is_refused_and_own_is_allowed() -> None:
    state = play(new(rules="gyo", size=5), "a1-b2")
    with pytest.raises(IllegalMove, match="crosses seat 0's line a1-b2"):
        state.play("a2-b1")
    state = play(state, "c3-d3", "a2-b1")  # seat 0 crosses its own diagonal
    assert state.line_owner(state.game.geometry.board.find_line("a2-b1")) == 0


def test_crossing_allowed_when_no_cross_is_off() -> None:
    state = play(new(rules="gyo", size=5, no_cross=False), "a1-b2", "a2-b1")
    assert state.history[-1] == (1, "b1-a2")


def test_half_units_stay_exact_without_no_cross() -> None:
    # seat 1 holds the unit b2-c2-b3 (quarters top and left of square b2); seat 0's legs-3
    # triangle a1, d1, d4 lies above the diagonal through b2, so it holds that square's top
    # and right quarters: the top one is seat 1's, leaving 17 quarters = 8.5 units
    s0 = ["a1-b2", "b2-c3", "c3-d4", "a1-b1", "b1-c1", "c1-d1", "d1-d2", "d2-d3", "d3-d4"]
    s1 = ["b2-c2", "b2-b3", "b3-c2", "e4-e5", "e3-e4", "e2-e3", "e1-e2", "d5-e5"]
    state = alternate(new(rules="gyo", size=5, no_cross=False), s0, s1)
    assert state.scores == (8.5, 1)
    assert state.to_dict()["board"]["triangles"][-1]["points"] == 8.5

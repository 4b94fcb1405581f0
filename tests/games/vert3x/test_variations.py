"""The seed's other variations (RULES.md §2.0), each by a worked example: a position, the move,
the scores before and after. Boards are the classic hexagon (start dots a1 and g7, 1 point a
line) unless a case says otherwise; seat 1 draws its spare lines far away."""

from __future__ import annotations

import pytest

from tests.games.vert3x.test_classic import SIDE_TWO, SPARE
from tests.games.vert3x.test_gyo import D_SPARE, D_UNIT, T_BIG
from tests.games.vert3x.util import alternate, new, play
from vertex import IllegalMove, OptionsError
from vertex.games.vert3x import Vert3xState

RHOMBUS = ["a1-b1", "b1-b2", "a2-b2", "a1-a2"]  # around the two small triangles on a1-b2
HEXAGON = ["a1-b1", "b1-c2", "c2-c3", "b3-c3", "a2-b3", "a1-a2"]  # the six around b2


def before_and_after(state: Vert3xState, move: str) -> tuple[tuple[float, ...], ...]:
    return tuple(state.scores), tuple(play(state, move).scores)


# ---- shape_bonus ----------------------------------------------------------------------------
def test_shape_bonus_rhombus_scores_its_outline() -> None:
    state = alternate(new(shape_bonus=True), RHOMBUS[:3], SPARE[:3])
    assert before_and_after(state, RHOMBUS[3]) == ((3, 3), (4 + 4, 3))
    # without the option the same lines score only themselves
    plain = alternate(new(), RHOMBUS[:3], SPARE[:3])
    assert before_and_after(plain, RHOMBUS[3]) == ((3, 3), (4, 3))


def test_shape_bonus_rhombus_then_its_diagonal_scores_two_triangles() -> None:
    state = alternate(new(shape_bonus=True), RHOMBUS, SPARE[:4])
    after = play(state, "a1-b2")
    # the diagonal: its line and two small triangles; the rhombus scored once already
    assert (state.scores, after.scores) == ((8, 4), (8 + 1 + 3 + 3, 4))
    shapes = after.to_dict()["board"]["shapes"]
    assert shapes == [
        {
            "owner": 0,
            "kind": "rhombus",
            "points": 4,
            "lines": ["a1-b1", "a1-a2", "b1-b2", "a2-b2"],
        }
    ]


def test_shape_bonus_hexagon_scores_six() -> None:
    state = alternate(new(shape_bonus=True), HEXAGON[:5], SPARE[:5])
    assert before_and_after(state, HEXAGON[5]) == ((5, 5), (6 + 6, 5))


def test_shape_bonus_unit_and_two_by_two_squares_on_gyo() -> None:
    square = ["a1-b1", "b1-b2", "a2-b2", "a1-a2"]
    state = alternate(new(rules="gyo", size=5, shape_bonus=True), square[:3], D_SPARE)
    assert before_and_after(state, square[3]) == ((0, 0), (4, 0))
    big = ["a1-b1", "b1-c1", "c1-c2", "c2-c3", "b3-c3", "a3-b3", "a2-a3", "a1-a2"]
    spare = ["d5-e5", "c5-d5", "b5-c5", "a5-b5", "e4-e5", "e3-e4", "e2-e3"]
    state = alternate(new(rules="gyo", size=5, shape_bonus=True), big[:7], spare)
    assert before_and_after(state, big[7]) == ((0, 0), (8, 0))


# ---- box_in ---------------------------------------------------------------------------------
def test_box_in_scores_the_other_seats_lines_inside() -> None:
    # seat 1 drew b1-b2 and b2-c2 inside the side-2 triangle a1, c1, c3 seat 0 closes
    inner = ["b1-b2", "b2-c2", "f7-g7", "e7-f7", "d7-e7"]
    state = alternate(new(connected=False, box_in=True), SIDE_TWO[:5], inner)
    assert before_and_after(state, SIDE_TWO[5]) == ((5, 5), (6 + 6 + 2, 5))
    plain = alternate(new(connected=False), SIDE_TWO[:5], inner)
    assert before_and_after(plain, SIDE_TWO[5]) == ((5, 5), (6 + 6, 5))


# ---- overrules ------------------------------------------------------------------------------
def test_overrule_takes_a_line_and_completes_a_triangle() -> None:
    state = new(connected=False, overrules=1)
    state = play(state, "a1-b1", "a1-b2", "b1-b2", "f7-g7")
    assert "!a1-b2" in state.legal_moves()
    assert before_and_after(state, "!a1-b2") == ((2, 2), (2 + 1 + 3, 2))
    after = play(state, "!a1-b2")
    board = after.to_dict()["board"]
    assert next(ln["owner"] for ln in board["lines"] if ln["name"] == "a1-b2") == 0
    assert board["overrules"] == [0, 1]
    assert after.history[-1] == (0, "!a1-b2")
    # a side of a scored triangle is never overruled
    with pytest.raises(IllegalMove, match="side of a scored triangle"):
        after.play("!a1-b1")
    after = play(after, "e7-f7")
    with pytest.raises(IllegalMove, match="used all 1 overrules"):
        after.play("!f7-g7")
    assert not any(m.startswith("!") for m in after.legal_moves())


def test_overrule_obeys_the_other_rules_as_if_drawn_now() -> None:
    # connected: seat 0 (from a1) may not take over seat 1's line at g7
    state = play(new(overrules=2), "a1-b1", "f7-g7")
    assert "!f7-g7" not in state.legal_moves()
    with pytest.raises(IllegalMove, match="shares no dot"):
        state.play("!f7-g7")
    with pytest.raises(IllegalMove, match="not drawn yet"):
        state.play("!b1-c1")
    with pytest.raises(IllegalMove, match="already yours"):
        state.play("!a1-b1")
    with pytest.raises(IllegalMove, match="overrules are off"):
        play(new(), "a1-b1", "f7-g7").play("!f7-g7")


def test_overrule_frees_the_dots_it_held_under_vertex_block() -> None:
    # Trianguliche closes a seat's dots to the others; an overrule looks at the dots as if
    # the line were gone from its owner
    state = play(new(rules="trianguliche", overrules=1), "a1-b1", "c1-d1")
    assert "!c1-d1" in state.legal_moves()
    after = play(state, "!c1-d1")
    assert after.scores == (0, 0)
    assert after.to_move == (1,)
    assert "c2-d2" in after.legal_moves()  # seat 1 has no dot left; c1 and d1 are seat 0's
    assert "c1-c2" not in after.legal_moves()
    assert after.to_dict()["board"]["blocked"]["b1-c1"] == {
        "reason": "vertex-held",
        "seat": 0,
        "dot": "b1",
    }
    # with d1-e1 also seat 1's, d1 stays held by seat 1: no overrule of c1-d1
    held = play(new(rules="trianguliche", overrules=1), "a1-b1", "c1-d1", "a3-b3", "d1-e1")
    assert "!c1-d1" not in held.legal_moves()
    with pytest.raises(IllegalMove, match="vertex_block"):
        held.play("!c1-d1")


# ---- steal ----------------------------------------------------------------------------------
def test_steal_takes_the_points_of_triangles_inside() -> None:
    # seat 1 scores the small triangle b1, b2, c2; seat 0 then closes a1, c1, c3 around it
    inner = ["b1-b2", "b2-c2", "b1-c2", "f7-g7", "e7-f7"]
    state = alternate(new(connected=False, steal=True), SIDE_TWO[:5], inner)
    assert before_and_after(state, SIDE_TWO[5]) == ((5, 5 + 3), (6 + 6 + 3, 5))
    after = play(state, SIDE_TWO[5])
    triangles = after.to_dict()["board"]["triangles"]
    assert sorted((sorted(t["corners"]), t["owner"]) for t in triangles) == [
        (["a1", "c1", "c3"], 0),
        (["b1", "b2", "c2"], 0),
    ]
    plain = alternate(new(connected=False), SIDE_TWO[:5], inner)
    assert before_and_after(plain, SIDE_TWO[5]) == ((5, 8), (12, 8))


def test_steal_with_claims_takes_the_units_over() -> None:
    # GYØ's worked example: T closes the legs-2 triangle around D's unit (3 points); with
    # steal T also takes D's unit and its point
    state = alternate(new(rules="gyo", size=5, steal=True), D_UNIT + D_SPARE, T_BIG[:5])
    assert before_and_after(state, T_BIG[5]) == ((1, 0), (0, 3 + 1))
    claims = play(state, T_BIG[5]).to_dict()["board"]["claims"]
    assert {c["owner"] for c in claims} == {1}
    assert len(claims) == 8  # the triangle's four units, two quarters each


# ---- cover_bonus ----------------------------------------------------------------------------
def test_cover_bonus_adds_the_own_triangles_inside() -> None:
    # seat 0 closes a1, b1, b2 first (3 lines + 3), then the side-2 triangle around it
    lines = ["a1-b1", "b1-b2", "a1-b2", "b1-c1", "c1-c2", "c2-c3", "b2-c3"]
    state = alternate(new(cover_bonus=True), lines[:6], SPARE[:6])
    assert before_and_after(state, lines[6]) == ((6 + 3, 6), (7 + 3 + 6 + 3, 6))
    plain = alternate(new(), lines[:6], SPARE[:6])
    assert before_and_after(plain, lines[6]) == ((9, 6), (16, 6))


# ---- the options ----------------------------------------------------------------------------
def test_variation_options_are_off_by_default_and_checked() -> None:
    opts = new().game.options_dict()
    assert {k: opts[k] for k in ("shape_bonus", "box_in", "overrules", "steal", "cover_bonus")} == {
        "shape_bonus": False,
        "box_in": False,
        "overrules": 0,
        "steal": False,
        "cover_bonus": False,
    }
    with pytest.raises(OptionsError, match="overrules"):
        new(overrules=4)
    for rules in ("classic", "trianguliche", "gyo"):
        state = new(
            rules=rules,
            shape_bonus=True,
            box_in=True,
            overrules=3,
            steal=True,
            cover_bonus=True,
        )
        assert state.legal_moves()

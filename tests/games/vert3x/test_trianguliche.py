"""Trianguliche (RULES.md §2.2): ⌊log2 n⌋ + 1 for n small triangles, own colour, blocked dots."""

from __future__ import annotations

import pytest

from tests.games.vert3x.util import alternate, new, play
from vertex import IllegalMove

# Seat 1 draws along the bottom row and the right column of a 4×4-window board (dots a..i,
# rows 1..9), far from seat 0's triangles in the top-left quarter.
SPARE = [f"{c}9-{d}9" for c, d in zip("abcdefgh", "bcdefghi", strict=True)]
SPARE += [f"i{r}-i{r + 1}" for r in range(1, 9)]

SIZES = [
    # (small triangles, points, lines of the outline)
    (1, 1, ["a1-b1", "b1-b2", "a1-b2"]),
    (2, 2, ["a1-b1", "b1-c1", "a1-b2", "b2-c1"]),
    (4, 3, ["a1-b1", "b1-c1", "a1-a2", "a2-a3", "b2-c1", "a3-b2"]),
    (8, 4, ["a1-b1", "b1-c1", "c1-d1", "d1-e1", "a1-b2", "b2-c3", "d2-e1", "c3-d2"]),
    (
        16,
        5,
        [
            *("a1-b1", "b1-c1", "c1-d1", "d1-e1"),
            *("a1-a2", "a2-a3", "a3-a4", "a4-a5"),
            *("d2-e1", "c3-d2", "b4-c3", "a5-b4"),
        ],
    ),
    # 9 small triangles (legs 3) score like 8
    (9, 4, ["b1-c1", "c1-d1", "d1-e1", "b1-b2", "b2-b3", "b3-b4", "d2-e1", "c3-d2", "b4-c3"]),
]


@pytest.mark.parametrize(("small", "points", "lines"), SIZES)
def test_size_classes(small: int, points: int, lines: list[str]) -> None:
    state = alternate(new(rules="trianguliche", width=4, height=4), lines, SPARE[: len(lines)])
    assert state.scores == (points, 0)
    (tri,) = state.to_dict()["board"]["triangles"]
    assert (tri["owner"], tri["small"], tri["points"]) == (0, small, points)


def test_default_board_is_two_by_two_windows() -> None:
    state = new(rules="trianguliche")
    board = state.game.geometry.board
    assert (len(board.dots), len(board.lines), len(board.cells)) == (25, 56, 32)
    assert state.game.options.vertex_block is True
    assert state.game.options.connected is False


def test_whole_window_outline_with_its_cross() -> None:
    # the 4× triangle a1-c1-a3 drawn with the inner lines b1-b2 and a2-b2 too: four 1× (1 each),
    # and the 2× ones a1-c1-b2 and a1-b2-a3 (2 each), and the 4× one (3)
    lines = ["a1-b1", "b1-c1", "a1-a2", "a2-a3", "b2-c1", "a3-b2", "a1-b2", "b1-b2", "a2-b2"]
    state = alternate(new(rules="trianguliche", width=4, height=4), lines, SPARE[: len(lines)])
    smalls = sorted(t["small"] for t in state.to_dict()["board"]["triangles"])
    assert smalls == [1, 1, 1, 1, 2, 2, 4]
    assert state.scores == (4 * 1 + 2 * 2 + 3, 0)


def test_mixed_colour_triangle_scores_nothing() -> None:
    state = new(rules="trianguliche", vertex_block=False)
    state = alternate(state, ["a1-b1", "b1-b2"], ["e5-e4", "a1-b2"])
    assert state.scores == (0, 0)
    assert state.triangles == ()


def test_no_points_for_lines() -> None:
    state = alternate(new(rules="trianguliche"), ["a1-b1", "b1-c1"], ["e5-e4"])
    assert state.scores == (0, 0)


def test_vertex_blocking() -> None:
    state = play(new(rules="trianguliche"), "a1-b1")
    with pytest.raises(IllegalMove, match=r"touches dot b1, already used by seat 0.*vertex_block"):
        state.play("b1-c1")
    assert "b1-c1" not in state.legal_moves()
    assert "b2-c2" in state.legal_moves()
    state = play(state, "c2-d2")
    with pytest.raises(IllegalMove, match="touches dot c2, already used by seat 1"):
        state.play("b2-c2")
    # a dot one's own line touched stays open to oneself
    state = play(state, "b1-b2")
    assert state.to_move == (1,)


def test_vertex_block_off_lets_players_share_dots() -> None:
    state = play(new(rules="trianguliche", vertex_block=False), "a1-b1", "b1-c1")
    assert state.line_owner(state.game.geometry.board.find_line("b1-c1")) == 1

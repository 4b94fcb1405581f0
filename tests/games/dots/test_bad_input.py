"""Bad options, moves and seats: the right error type, a clear message, nothing changed."""

from __future__ import annotations

from typing import Any

import pytest

import vertex
from vertex import IllegalMove, OptionsError
from vertex.core.errors import NotationError


@pytest.mark.parametrize(
    ("game_id", "options", "says"),
    [
        ("dots-and-boxes", {"rows": 0}, "rows"),
        ("dots-and-boxes", {"rows": 13}, "rows"),
        ("dots-and-boxes", {"cols": 0}, "cols"),
        ("dots-and-boxes", {"cols": 13}, "cols"),
        ("dots-and-boxes", {"players": 1}, "players"),
        ("dots-and-boxes", {"players": 7}, "players"),
        ("dots-and-boxes", {"misere": "yes"}, "misere"),
        ("dots-and-boxes", {"rows": "3"}, "rows"),
        ("dots-and-boxes", {"rows": 2.5}, "rows"),
        ("dots-and-boxes", {"size": 4}, "unknown option 'size'"),
        ("dots-and-triangles", {"size": 1}, "size"),
        ("dots-and-triangles", {"size": 9}, "size"),
        ("dots-and-triangles", {"players": 5}, "players"),
        ("dots-and-triangles", {"shape": "hexagon"}, "shape"),
        ("dots-and-triangles", {"shape": "strip", "length": 13}, "length"),
        ("dots-and-triangles", {"shape": "strip", "size": 3}, "'size' is for shape=triangle"),
        ("dots-and-triangles", {"length": 3}, "'length' is for shape=strip"),
        ("figures", {"rows": 1}, "rows"),
        ("figures", {"cols": 21}, "cols"),
        ("figures", {"players": 7}, "players"),
        ("figures", {"shape": "circle"}, "shape"),
        ("figures", {"misere": True}, "unknown option 'misere'"),
    ],
)
def test_bad_options(game_id: str, options: dict[str, Any], says: str) -> None:
    with pytest.raises(OptionsError, match=says) as info:
        vertex.create_game(game_id, **options)
    assert game_id in str(info.value)


def test_unknown_game() -> None:
    with pytest.raises(OptionsError, match=r"unknown game 'chess'.*dots-and-boxes"):
        vertex.create_game("chess")


@pytest.mark.parametrize(
    ("move", "error", "says"),
    [
        ("", NotationError, "like 'a1-b1'"),
        ("a1", NotationError, "like 'a1-b1'"),
        ("a1-b1-c1", NotationError, "like 'a1-b1'"),
        ("11-b1", NotationError, "like 'a1'"),
        ("a1-e1", IllegalMove, "no dot e1"),
        ("a1-c1", IllegalMove, "not neighbouring"),
        ("a1-b2", IllegalMove, "not neighbouring"),
        ("a1-a1", IllegalMove, "not neighbouring"),
        ("a1-b1", IllegalMove, "already drawn"),
    ],
)
def test_bad_moves_change_nothing(move: str, error: type[Exception], says: str) -> None:
    state = vertex.create_game("dots-and-boxes", rows=2, cols=3).initial_state().play("a1-b1")
    before = state.to_dict()
    with pytest.raises(error, match=says):
        state.play(move)
    assert state.to_dict() == before


def test_wrong_seat() -> None:
    state = vertex.create_game("dots-and-boxes").initial_state()
    with pytest.raises(IllegalMove, match="not seat 1's turn"):
        state.play("a1-b1", seat=1)
    with pytest.raises(IllegalMove, match="no seat 5"):
        state.play("a1-b1", seat=5)
    assert state.play("a1-b1", seat=0).to_move == (1,)


def test_not_a_string() -> None:
    state = vertex.create_game("dots-and-boxes").initial_state()
    with pytest.raises(IllegalMove, match="string"):
        state.play(3)  # type: ignore[arg-type]


def test_border_line_is_not_a_move() -> None:
    state = vertex.create_game("dots-and-boxes", border=True).initial_state()
    with pytest.raises(IllegalMove, match="border"):
        state.play("a1-b1")


def test_touch_rule_refuses_floating_line() -> None:
    state = vertex.create_game("figures", rows=6, cols=6).initial_state()
    with pytest.raises(IllegalMove, match="touch rule"):
        state.play("c3-d3")
    state = state.play("b1-b2")  # touches the rim at b1
    state = state.play("b2-c2")  # touches b2
    assert "c2-c3" in state.legal_moves()


def test_rim_is_not_a_move_in_figures() -> None:
    state = vertex.create_game("figures", rows=4, cols=4).initial_state()
    with pytest.raises(IllegalMove, match="border"):
        state.play("a1-b1")


def test_moves_after_the_end() -> None:
    state = vertex.create_game("dots-and-boxes", rows=1, cols=1).initial_state()
    for move in ["a1-b1", "a2-b2", "a1-a2", "b1-b2"]:
        state = state.play(move)
    assert state.is_over
    with pytest.raises(IllegalMove, match="over"):
        state.play("a1-b1")

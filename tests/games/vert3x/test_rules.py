"""Vert3x common rules (RULES.md §2): connected and start dots, turns, passes, the end."""

from __future__ import annotations

import pytest

import vertex
from tests.games.vert3x.util import alternate, new, play
from vertex import IllegalMove


def test_first_line_must_touch_the_start_dot() -> None:
    state = new()
    with pytest.raises(IllegalMove, match="must start at your start dot a1 \\(connected\\)"):
        state.play("b1-c1")
    assert sorted(state.legal_moves()) == ["a1-a2", "a1-b1", "a1-b2"]


def test_later_lines_must_share_a_dot_with_your_lines() -> None:
    state = play(new(), "a1-b1", "f7-g7")
    with pytest.raises(IllegalMove, match="shares no dot with your lines"):
        state.play("c1-d1")
    state = play(state, "b1-c1")  # touches b1
    # touching another player's line does not count
    with pytest.raises(IllegalMove, match="shares no dot"):
        state.play("c1-d1", seat=1)


def test_start_dots_given_by_name() -> None:
    state = new(start=["d4", "a1"])
    assert state.game.start_names() == ["d4", "a1"]
    assert "d4-e4" in state.legal_moves()
    assert "a1-b1" not in state.legal_moves()


def test_auto_start_dots_spread_around_the_outline() -> None:
    assert new(players=3).game.start_names() == ["a1", "g4", "d7"]
    assert new(players=6).game.start_names() == ["a1", "d1", "g4", "g7", "d7", "a4"]
    assert new(rules="gyo", connected=True).game.start_names() == ["a1", "g7"]
    assert new(rules="gyo").game.start_names() is None


def test_not_connected_allows_any_line() -> None:
    state = new(connected=False)
    assert len(state.legal_moves()) == 90


def test_lines_per_turn() -> None:
    state = play(new(lines_per_turn=2), "a1-b1")
    assert state.to_move == (0,)
    assert state.to_dict()["board"]["turn"] == {"seat": 0, "lines_drawn": 1, "lines_per_turn": 2}
    state = play(state, "b1-c1")
    assert state.to_move == (1,)


def test_extra_turn_after_a_triangle() -> None:
    state = alternate(new(extra_turn=True), ["a1-b1", "b1-b2", "a1-b2"], ["f7-g7", "e7-f7"])
    assert state.to_move == (0,)
    state = play(state, "b2-c2")
    assert state.to_move == (1,)


def test_without_extra_turn_the_turn_passes() -> None:
    state = alternate(new(), ["a1-b1", "b1-b2", "a1-b2"], ["f7-g7", "e7-f7"])
    assert state.to_move == (1,)


def test_extra_turn_line_does_not_count_towards_lines_per_turn() -> None:
    state = play(new(extra_turn=True, lines_per_turn=2), "a1-b1", "b1-b2", "f7-g7", "e7-f7")
    state = play(state, "a1-b2")  # completes a triangle: still two lines to draw
    assert state.to_dict()["board"]["turn"]["lines_drawn"] == 0
    state = play(state, "b2-c2")
    assert state.to_move == (0,)
    state = play(state, "c2-d2")
    assert state.to_move == (1,)


def test_a_seat_without_a_legal_line_is_skipped_and_the_game_ends_when_none_has_one() -> None:
    # hexagon of radius 1: seat 0 starts at a1, seat 1 at c3; with vertex_block seat 0 takes the
    # centre b2 and shuts seat 1 in
    state = new(radius=1, vertex_block=True)
    assert state.game.start_names() == ["a1", "c3"]
    state = play(state, "a1-b2", "b3-c3", "b2-c2", "a2-b3", "a1-b1")
    assert state.legal_mask(1) == 0
    assert state.to_move == (0,)
    assert state.to_dict()["board"]["skipped"] == [1]
    while not state.is_over:
        assert state.to_move == (0,)
        state = play(state, state.legal_moves()[0])
    assert state.legal_moves() == []
    assert state.is_over and state.winners == (0,)
    # seat 0 drew a1-b2, b2-c2, a1-b1, b1-b2, b1-c2 and closed a1-b1-b2 and b1-c2-b2
    assert state.scores == (5 + 3 + 3, 2)


def test_end_by_agreement_keeps_the_scores() -> None:
    state = alternate(new(), ["a1-b1", "b1-b2", "a1-b2"], ["f7-g7", "e7-f7"])
    assert state.game.can_end_by_agreement
    ended = state.end_by_agreement()
    assert ended.is_over and ended.to_move == () and ended.legal_moves() == []
    assert ended.scores == state.scores == (6, 2)
    assert ended.winners == (0,)
    assert ended.history[-1] == (None, "end")
    assert ended.to_dict()["board"]["ended_by_agreement"] is True
    assert vertex.replay(ended.record().to_json()) == ended
    with pytest.raises(IllegalMove, match="over"):
        ended.play("b2-c2")


def test_moves_accept_either_order_and_record_the_canonical_one() -> None:
    state = play(new(), "b1-a1")
    assert state.history == ((0, "a1-b1"),)


@pytest.mark.parametrize(
    ("move", "says"),
    [
        ("a1", "not a line"),
        ("a1-z9", "no dot z9"),
        ("a1-c1", "not neighbouring"),
    ],
)
def test_bad_moves_are_explained(move: str, says: str) -> None:
    state = new()
    with pytest.raises(IllegalMove, match=says):
        state.play(move)


def test_a_drawn_line_cannot_be_drawn_again() -> None:
    state = play(new(connected=False), "a1-b1")
    with pytest.raises(IllegalMove, match="already drawn by seat 0"):
        state.play("b1-a1")


def test_board_view_has_what_a_drawing_needs() -> None:
    state = alternate(new(rules="gyo", size=4), ["a1-b1", "b1-b2", "a1-b2"], ["d4-d3", "d3-d2"])
    board = state.to_dict()["board"]
    assert board["kind"] == "diagonal-grid" and board["rules"] == "gyo"
    assert board["dots"][0] == {"name": "a1", "x": 0, "y": 0}
    assert len(board["dots"]) == 16 and len(board["lines"]) == 2 * 4 * 3 + 2 * 3 * 3
    owned = {ln["name"]: ln["owner"] for ln in board["lines"] if ln["owner"] is not None}
    assert owned == {"a1-b1": 0, "b1-b2": 0, "a1-b2": 0, "d2-d3": 1, "d3-d4": 1}
    assert board["triangles"] == [
        {"owner": 0, "points": 1, "corners": ["a1", "b1", "b2"], "sides": [1, 1, 1], "small": 1}
    ]
    assert [(c["owner"], c["square"], c["quarter"]) for c in board["claims"]] == [
        (0, "a1", "top"),
        (0, "a1", "right"),
    ]
    assert board["claims"][0]["corners"] == [[0.0, 0.0], [1.0, 0.0], [0.5, 0.5]]
    assert board["symbols"] == ["A", "B"]
    assert board["start"] is None

"""RULES.md §5's marks, case by case (the review's other tests play whole games)."""

from __future__ import annotations

from vertex.server.compute.review_marks import dots_mark, juxtapose_mark, seat_summary


def test_dots_marks_by_cells_lost_and_sign() -> None:
    assert dots_mark(3, 3, False) == ("best", 0)
    assert dots_mark(3, 2, False) == ("inaccuracy", 1)
    assert dots_mark(3, 1, False) == ("mistake", 2)
    assert dots_mark(5, 2, False) == ("blunder", 3)  # 3 cells, the sign kept
    assert dots_mark(1, 0, False) == ("blunder", 1)  # a win turned into a draw
    assert dots_mark(0, -1, False) == ("blunder", 1)  # a draw into a loss
    assert dots_mark(3, -1, False) == ("blunder", 4)  # a win into a loss
    assert dots_mark(-1, -2, False) == ("inaccuracy", 1)  # losing a little more
    # misère: the mover wants a low value, so the comparison turns round
    assert dots_mark(-2, -1, True) == ("inaccuracy", 1)
    assert dots_mark(-1, 1, True) == ("blunder", 2)
    assert dots_mark(2, 2, True) == ("best", 0)


def test_juxtapose_marks_a_win_let_slip_or_a_loss_allowed() -> None:
    assert juxtapose_mark(1, None) == "blunder"  # a win in 1 left on the board
    assert juxtapose_mark(1, 1) == "best"
    assert juxtapose_mark(None, -1) == "blunder"  # a loss allowed
    assert juxtapose_mark(-1, -1) == "best"  # lost already: nothing to judge against
    assert juxtapose_mark(None, None) is None
    assert juxtapose_mark(0, 0) == "best"


def test_accuracy_is_the_share_of_judged_moves_marked_best() -> None:
    moves = [
        {"seat": 0, "mark": "best", "lost": 0},
        {"seat": 0, "mark": "mistake", "lost": 2},
        {"seat": 0, "mark": "best", "lost": 0},
        {"seat": 1, "mark": None},  # an estimate: not judged
        {"seat": 1, "mark": "blunder", "lost": 3},
    ]
    zero, one = seat_summary(moves, 2, cells=True)
    assert zero["accuracy"] == 66.7 and zero["lost"] == 2 and zero["judged"] == 3
    assert one["accuracy"] == 0.0 and one["lost"] == 3 and one["judged"] == 1
    assert seat_summary([], 2, cells=False)[0] == {
        "seat": 0, "accuracy": None, "lost": None, "judged": 0,
        "best": 0, "inaccuracy": 0, "mistake": 0, "blunder": 0,
    }  # fmt: skip

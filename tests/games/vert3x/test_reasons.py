"""The board view's `blocked` table: why each undrawn line is closed to the seat due."""

from __future__ import annotations

from typing import Any

import pytest

import vertex
from tests.games.vert3x.util import alternate, new, play
from vertex.core.rng import Rng
from vertex.games.vert3x import Vert3x, Vert3xState
from vertex.games.vert3x.reasons import CODES

# the engine's own explanation for each code (IllegalMove messages)
SAYS = {
    "inside-scored": "inside a scored triangle",
    "crosses": "crosses",
    "vertex-held": "already used by",
    "no-start-contact": "must start at your start dot",
    "not-connected": "shares no dot with your lines",
}


def blocked(state: Vert3xState) -> dict[str, Any]:
    out: dict[str, Any] = state.to_dict()["board"]["blocked"]
    return out


def check_complete(state: Vert3xState) -> None:
    """Legal lines have no reason; every undrawn line that is not legal has exactly one, and
    it is the rule the engine names when that line is played."""
    view = state.to_dict()
    table = view["board"]["blocked"]
    legal = set(view["legal_moves"])
    undrawn = {ln["name"] for ln in view["board"]["lines"] if ln["owner"] is None}
    assert not legal & set(table)
    assert set(table) == (undrawn - legal if not state.is_over else set())
    for name, why in table.items():
        assert why["reason"] in CODES
        with pytest.raises(vertex.IllegalMove, match=SAYS[why["reason"]]) as refused:
            state.play(name)
        # a typed move's refusal names the same rule, for the page to word ([data-refusal])
        assert refused.value.reason == why["reason"]
        assert refused.value.params["line"] == name
        if "dot" in why:
            assert refused.value.params["dot"] == why["dot"]
        if why["reason"] == "crosses":
            assert refused.value.params["other"] == why["line"]


def test_crosses_names_the_seat_and_its_line() -> None:
    state = play(new(rules="gyo", size=4), "a1-b2")
    assert state.to_move == (1,)
    assert blocked(state) == {"b1-a2": {"reason": "crosses", "seat": 0, "line": "a1-b2"}}
    check_complete(state)


def test_own_lines_may_cross_so_they_are_not_blocked() -> None:
    state = play(new(rules="gyo", size=4), "a1-b2", "d4-d3", "a2-b1")
    assert state.to_move == (1,)
    assert blocked(state) == {}  # seat 1 is not blocked by lines crossing its own


def test_inside_a_scored_triangle() -> None:
    # RULES §2.3 worked example: T (seat 1) scores the legs-2 triangle a1, c1, a3
    d_unit = ["b1-b2", "a2-b2", "a2-b1"]
    t_big = ["a1-b1", "b1-c1", "a1-a2", "a2-a3", "b2-c1", "a3-b2"]
    state = alternate(new(rules="gyo", size=5), [*d_unit, "d5-e5", "c5-d5", "b5-c5"], t_big)
    assert state.to_move == (0,)
    table = blocked(state)
    assert table["a1-b2"] == {"reason": "inside-scored"}
    assert table["b1-c2"] == {"reason": "inside-scored"}  # half of it inside
    assert "c1-c2" not in table and "b2-c2" not in table  # along the sides, outside
    check_complete(state)


def test_vertex_held_names_the_seat_and_the_dot() -> None:
    state = play(new(rules="trianguliche"), "a1-b1")
    table = blocked(state)
    assert table["b1-c1"] == {"reason": "vertex-held", "seat": 0, "dot": "b1"}
    assert table["a1-a2"] == {"reason": "vertex-held", "seat": 0, "dot": "a1"}
    assert "c1-d1" not in table
    check_complete(state)


def test_first_line_away_from_the_start_dot() -> None:
    state = new(rules="classic", radius=2)
    assert state.to_dict()["board"]["start"] == ["a1", "e5"]
    table = blocked(state)
    assert table["b1-c1"] == {"reason": "no-start-contact", "dot": "a1"}
    assert "a1-b1" not in table
    check_complete(state)


def test_later_line_not_connected() -> None:
    state = play(new(rules="classic", radius=2), "a1-b1", "e5-d5")
    assert state.to_move == (0,)
    table = blocked(state)
    assert table["c3-d3"] == {"reason": "not-connected"}
    assert "b1-c1" not in table and "b1-b2" not in table
    check_complete(state)


def test_first_broken_rule_wins() -> None:
    # b1-a2 crosses seat 0's a1-b2 and is not connected to seat 1's lines: "crosses" first
    state = play(new(rules="gyo", size=4, connected=True), "a1-b2")
    assert state.to_move == (1,)
    assert blocked(state)["b1-a2"]["reason"] == "crosses"
    assert blocked(state)["c3-d3"]["reason"] in ("no-start-contact", "not-connected")
    check_complete(state)


def test_nothing_is_blocked_when_the_game_is_over() -> None:
    state = new(rules="gyo", size=3).end_by_agreement()
    assert isinstance(state, Vert3xState)
    assert blocked(state) == {}


@pytest.mark.parametrize("options", Vert3x.random_play_cases)
def test_random_games_explain_every_closed_line(options: dict[str, Any]) -> None:
    state = new(**options)
    rng = Rng.from_seed(3, "reasons")
    seen: set[str] = set()
    while not state.is_over:
        check_complete(state)
        seen.update(why["reason"] for why in blocked(state).values())
        move, rng = state.sample_move(state.to_move[0], rng)
        nxt = state.play(move)
        assert isinstance(nxt, Vert3xState)
        state = nxt
    assert blocked(state) == {}
    if options.get("rules") == "gyo" and options.get("no_cross", True):
        assert "crosses" in seen

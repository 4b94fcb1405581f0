"""What ended a game, as the engine tells it (`state.ending` in to_dict): a code, its numbers
and the winner rule, for the result banner to word in the player's language."""

from __future__ import annotations

from typing import Any

import vertex
from tests.games.dots.test_outcome import finish
from tests.games.verticality.helpers import card_off, new, planned, play_planned_until
from vertex.games.verticality import VerticalityState

SQUARES = [f"{c}{r}" for r in "1234" for c in "abcd"]
# d1 empty: sliding B1 up from d2 makes the top row of small pyramids (seat 1 to move).
SLIDE_WIN = "R1 Y1 G1 .. B2 R3 B3 B1 P2 Y3 G2 G3 R2 P1 P3 Y2"


def ending(state: Any) -> Any:
    return state.to_dict()["ending"]


def test_no_ending_while_the_game_is_on() -> None:
    assert ending(vertex.create_game("juxtapose").initial_state()) is None
    assert ending(new(players=2)) is None


def test_juxtapose_names_the_winning_line_and_whose_it_is() -> None:
    state = vertex.create_game("juxtapose").initial_state()
    for sq, p in zip(SQUARES, SLIDE_WIN.split(), strict=True):
        if p != "..":
            state = state.play(f"{p}@{sq}")
    assert state.to_move == (1,)
    won = state.play("d2>d1")
    assert ending(won) == {
        "code": "line",
        "params": {"seat": 1, "lines": [{"kind": "size", "squares": ["a1", "b1", "c1", "d1"]}]},
        "rule": "most",
    }


def test_juxtapose_a_draw_at_the_move_limit_names_the_limit() -> None:
    state = vertex.create_game("juxtapose", move_limit=2).initial_state()
    for sq, p in zip(
        SQUARES,
        [
            "Y1",
            "B3",
            "B2",
            "P1",
            "P2",
            "G2",
            "R2",
            "B1",
            "Y3",
            "G3",
            "G1",
            "R3",
            "R1",
            "P3",
            "Y2",
            "..",
        ],
        strict=False,
    ):
        if p != "..":
            state = state.play(f"{p}@{sq}")
    state = state.play("a1<>b1").play("a1<>b1")
    assert ending(state) == {"code": "move-limit", "params": {"limit": 2}, "rule": "most"}


def test_dots_all_lines_and_the_misere_rule() -> None:
    played = ending(finish("dots-and-boxes", 1, rows=2, cols=2))
    assert played == {"code": "all-lines", "params": {}, "rule": "most"}
    misere = ending(finish("dots-and-boxes", 1, rows=2, cols=2, misere=True))
    assert misere["rule"] == "fewest"


def test_vert3x_ended_by_agreement() -> None:
    state = vertex.create_game("vert3x", rules="gyo", size=3).initial_state()
    assert ending(state.end_by_agreement()) == {"code": "agreed", "params": {}, "rule": "most"}


def test_verticality_last_tower_standing_names_whose_fell_and_how() -> None:
    state = play_planned_until(new(players=2, tremor_mm=0.0), 1, 3)
    state = state.play(planned(state, 0), seat=0)
    for _ in range(2):  # Bob's card off its pyramids twice: the second slide is a fall
        nxt = state.play(card_off(state, 1), seat=1)
        assert isinstance(nxt, VerticalityState)
        state = nxt
    assert state.is_over and state.winners == (0,)
    end = ending(state)
    assert end["code"] == "last-standing" and end["rule"] is None
    assert end["params"]["seat"] == 0 and end["params"]["levels"] == [1, 0]
    [fall] = end["params"]["falls"]
    assert fall == {
        "seat": 1,
        "step": fall["step"],
        "cause": "card",
        "level": 1,
        "twice": True,
        "shaken": None,
    }


def test_verticality_solo_fall() -> None:
    state = play_planned_until(new(players=1, tremor_mm=0.0), 1, 3)
    for _ in range(2):
        state = state.play(card_off(state, 0), seat=0)  # type: ignore[assignment]
    end = ending(state)
    assert end["code"] == "solo" and end["params"]["seat"] == 0
    assert [(f["cause"], f["twice"]) for f in end["params"]["falls"]] == [("card", True)]

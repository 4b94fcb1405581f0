"""Hypothesis properties of the Dots engine."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import vertex
from vertex.games.dots.engine import DotsState

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("dots-and-boxes", {"rows": 3, "cols": 3}),
    ("dots-and-boxes", {"rows": 2, "cols": 4, "players": 3, "border": True}),
    ("dots-and-boxes", {"rows": 2, "cols": 2, "extra_turn": False}),
    ("dots-and-triangles", {"size": 4}),
    ("dots-and-triangles", {"shape": "strip", "length": 4, "border": True}),
    ("figures", {"rows": 5, "cols": 6, "players": 4}),
    ("figures", {"rows": 6, "cols": 6, "shape": "rhombus", "players": 3}),
]


@st.composite
def positions(draw: st.DrawFn) -> tuple[DotsState, list[int]]:
    """A game and a random line-up of choices (indices into the legal moves at each ply)."""
    game_id, options = draw(st.sampled_from(GAMES))
    seed = draw(st.integers(0, 2**32))
    state = vertex.create_game(game_id, **options).initial_state(seed=seed)
    assert isinstance(state, DotsState)
    picks = draw(st.lists(st.integers(0, 10_000), max_size=120))
    return state, picks


@settings(max_examples=60, deadline=None)
@given(positions())
def test_completing_k_cells_adds_k_and_keeps_the_turn(case: tuple[DotsState, list[int]]) -> None:
    state, picks = case
    for pick in picks:
        if state.is_over:
            break
        moves = state.legal_moves()
        move = moves[pick % len(moves)]
        seat = state.to_move[0]
        line = state.game.board.find_line(move)
        k = len(state.completes(line))
        new = state.play(move)
        assert isinstance(new, DotsState)
        gained = [a - b for a, b in zip(new.scores, state.scores, strict=True)]
        assert gained[seat] == k
        assert sum(gained) == k
        assert 0 <= k <= 2
        if not new.is_over:
            if k and state.game.extra_turn:
                assert new.to_move == (seat,)
            else:
                order = state.order
                assert new.to_move == (order[(order.index(seat) + 1) % len(order)],)
        state = new


@settings(max_examples=60, deadline=None)
@given(positions())
def test_play_never_mutates_its_input(case: tuple[DotsState, list[int]]) -> None:
    state, picks = case
    for pick in picks[:30]:
        if state.is_over:
            break
        snapshot = (state.to_dict(), state.history, state.drawn, state.owned, state.turn)
        moves = state.legal_moves()
        new = state.play(moves[pick % len(moves)])
        assert (state.to_dict(), state.history, state.drawn, state.owned, state.turn) == snapshot
        assert isinstance(new, DotsState)
        state = new


@settings(max_examples=60, deadline=None)
@given(positions())
def test_touch_rule_never_offers_a_floating_line(case: tuple[DotsState, list[int]]) -> None:
    state, picks = case
    board = state.game.board
    for pick in picks:
        if state.is_over:
            break
        moves = state.legal_moves()
        if state.game.touch_rule:
            touched = {
                d for i, (a, b) in enumerate(board.lines) if state.drawn >> i & 1 for d in (a, b)
            }
            for move in moves:
                a, b = board.lines[board.find_line(move)]
                assert a in touched or b in touched, move
        new = state.play(moves[pick % len(moves)])
        assert isinstance(new, DotsState)
        state = new


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(GAMES), st.data())
def test_line_notation_round_trips(case: tuple[str, dict[str, Any]], data: st.DataObject) -> None:
    game = vertex.create_game(case[0], **case[1])
    board = game.board  # type: ignore[attr-defined]
    i = data.draw(st.integers(0, len(board.lines) - 1))
    name = board.line_names[i]
    a, b = name.split("-")
    spelled = data.draw(st.sampled_from([name, f"{b}-{a}", f"{a.upper()}-{b}", f" {b} - {a} "]))
    assert board.find_line(spelled) == i
    assert board.line_names[board.find_line(spelled)] == name

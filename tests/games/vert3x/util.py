"""Helpers for Vert3x tests: play planned lines seat by seat."""

from __future__ import annotations

from typing import Any

import vertex
from vertex.games.vert3x import Vert3xState


def new(**options: Any) -> Vert3xState:
    state = vertex.create_game("vert3x", **options).initial_state(seed=0)
    assert isinstance(state, Vert3xState)
    return state


def play(state: Vert3xState, *moves: str) -> Vert3xState:
    """Play moves in order, each by whichever seat is due."""
    for move in moves:
        nxt = state.play(move)
        assert isinstance(nxt, Vert3xState)
        state = nxt
    return state


def alternate(state: Vert3xState, first: list[str], second: list[str]) -> Vert3xState:
    """Seat 0 plays `first` while seat 1 plays `second`, turn by turn (2 seats, 1 line each)."""
    assert len(first) in (len(second), len(second) + 1)
    for i, move in enumerate(first):
        state = play(state, move)
        if i < len(second):
            state = play(state, second[i])
    return state


def line_of(state: Vert3xState, name: str) -> int:
    return state.game.geometry.board.find_line(name)

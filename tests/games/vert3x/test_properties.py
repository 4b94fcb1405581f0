"""Properties of Vert3x games (Hypothesis): whatever lines are drawn, the rules hold.

Every triangle with its three sides in one colour is listed exactly once, owned by that colour
(checked against a brute-force search of the whole board); scores add up per rule set; rival
lines never cross with no_cross, blocked dots are never shared, GYØ claims never overlap.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import vertex
from tests.lattice.test_geometry import all_triangles
from vertex.games.vert3x import Vert3xState

BOARDS: list[dict[str, Any]] = [
    {"rules": "classic", "radius": 2, "connected": False},
    {"rules": "classic", "shape": "triangle", "size": 3, "multiplier": True, "players": 3},
    {"rules": "trianguliche", "width": 2, "height": 1},
    {"rules": "trianguliche", "vertex_block": False, "players": 3},
    {"rules": "gyo", "size": 4},
    {"rules": "gyo", "size": 4, "no_cross": False, "players": 3},
]

EVERY: dict[int, dict[tuple[int, int, int], int]] = {}


def seat_dots(state: Vert3xState, seat: int) -> int:
    out = 0
    for a, b in (
        state.game.geometry.board.lines[i]
        for i in range(len(state.game.geometry.board.lines))
        if state.lines[seat] >> i & 1
    ):
        out |= (1 << a) | (1 << b)
    return out


def check(state: Vert3xState, every: dict[tuple[int, int, int], int]) -> None:
    game = state.game
    geo = game.geometry
    n = game.seats
    listed = {(owner, tri.corners) for owner, tri, _ in state.triangles}
    assert len(listed) == len(state.triangles)
    full = {
        (s, corners) for s in range(n) for corners, m in every.items() if state.lines[s] & m == m
    }
    assert listed == full
    rules = game.options.rules
    for s in range(n):
        mine = [(tri, got) for owner, tri, got in state.triangles if owner == s]
        if rules == "classic":
            per = [3 * t.sides[0] * (t.sides[0] if game.options.multiplier else 1) for t, _ in mine]
            assert state.scores[s] == state.lines[s].bit_count() + sum(per)
        elif rules == "trianguliche":
            assert state.scores[s] == sum(t.small.bit_length() for t, _ in mine)
        else:
            assert state.scores[s] * 2 == sum(got for _, got in mine)
        for t in range(s + 1, n):
            assert state.lines[s] & state.lines[t] == 0
            assert state.claims[s] & state.claims[t] == 0
            if game.options.no_cross:
                assert state.crossed[s] & state.lines[t] == 0
            if game.options.vertex_block:
                assert seat_dots(state, s) & seat_dots(state, t) == 0
    assert state.inside & ~geo.board.all_lines == 0


@settings(max_examples=40, deadline=None)
@given(
    board=st.sampled_from(range(len(BOARDS))), picks=st.lists(st.integers(0, 10**6), max_size=60)
)
def test_rules_hold_whatever_is_drawn(board: int, picks: list[int]) -> None:
    state = vertex.create_game("vert3x", **BOARDS[board]).initial_state(seed=0)
    assert isinstance(state, Vert3xState)
    every = EVERY.get(board) or EVERY.setdefault(board, all_triangles(state.game.geometry))
    for pick in picks:
        if state.is_over:
            break
        moves = state.legal_moves()
        assert moves
        before = state.inside
        nxt = state.play(moves[pick % len(moves)])
        assert isinstance(nxt, Vert3xState)
        line = state.game.geometry.board.find_line(moves[pick % len(moves)])
        assert not before >> line & 1
        state = nxt
        check(state, every)

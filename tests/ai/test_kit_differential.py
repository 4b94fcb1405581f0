"""The computer players' own Dots engine (`ai/dots/kit.py`, `playout.py`) against the real one:
on random positions of every board kind of the family, each line played by the kit gives the
position `DotsState.play` gives, and every playout is a legal game the engine replays to the
same scores (a playout that counted a chains-and-loops endgame exactly agrees with the
solver)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import vertex
from vertex.ai.dots.kit import DotsKit, Pos, lines_of
from vertex.ai.dots.playout import random_playout, smart_playout
from vertex.games.dots.engine import DotsState

#: Every board kind of the family, and the rule switches (misère, no extra turn, border, the
#: touch rule, more players).
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("dots-and-boxes", {"rows": 2, "cols": 3}),
    ("dots-and-boxes", {"rows": 3, "cols": 3, "border": True}),
    ("dots-and-boxes", {"rows": 2, "cols": 2, "extra_turn": False, "players": 3}),
    ("dots-and-boxes", {"rows": 2, "cols": 3, "misere": True}),
    ("dots-and-triangles", {"size": 3}),
    ("dots-and-triangles", {"size": 4, "border": True, "players": 3}),
    ("dots-and-triangles", {"shape": "strip", "length": 5}),
    ("dots-and-triangles", {"shape": "strip", "length": 4, "border": True}),
    ("figures", {"rows": 3, "cols": 4}),
    ("figures", {"rows": 5, "cols": 5, "shape": "rhombus", "players": 3}),
]


@st.composite
def positions(draw: st.DrawFn) -> DotsState:
    """A random position: a game of the family and some random legal lines into it."""
    game_id, options = draw(st.sampled_from(GAMES))
    state = vertex.create_game(game_id, **options).initial_state(seed=draw(st.integers(0, 99)))
    assert isinstance(state, DotsState)
    for pick in draw(st.lists(st.integers(0, 10_000), max_size=40)):
        moves = state.legal_moves()
        if not moves:
            break
        nxt = state.play(moves[pick % len(moves)])
        assert isinstance(nxt, DotsState)
        state = nxt
    return state


def engine_pos(state: DotsState) -> Pos:
    """The kit's position as read from the engine's public fields: cells per turn index."""
    owned = [m.bit_count() for m in state.owned]
    return Pos(state.drawn, tuple(owned[s] for s in state.order), state.turn, state.reach)


def replay(state: DotsState, kit: DotsKit, lines: list[int]) -> DotsState:
    for line in lines:
        nxt = state.play(kit.names[line])  # refuses an illegal line
        assert isinstance(nxt, DotsState)
        state = nxt
    return state


@settings(max_examples=80, deadline=None)
@given(positions())
def test_kit_play_is_the_engine_play(state: DotsState) -> None:
    kit = DotsKit(state.game)
    pos = kit.start(state)
    assert pos == engine_pos(state)
    assert kit.open_lines(pos) == state.open_lines()
    assert (kit.mover(pos, state.order),) == state.to_move or state.is_over
    for line in lines_of(kit.open_lines(pos)):
        after = state.play(kit.names[line])
        assert isinstance(after, DotsState)
        assert kit.gains(pos.drawn, line) == len(state.completes(line))
        assert kit.play(pos, line) == engine_pos(after), kit.names[line]


@settings(max_examples=60, deadline=None)
@given(positions(), st.integers(0, 2**32))
def test_a_random_playout_is_a_game_the_engine_replays(state: DotsState, seed: int) -> None:
    kit = DotsKit(state.game)
    trace: list[int] = []
    scores = random_playout(kit, kit.start(state), random.Random(seed), trace)
    end = replay(state, kit, trace)
    assert end.is_over
    assert scores == list(engine_pos(end).scores)


@settings(max_examples=60, deadline=None)
@given(positions(), st.integers(0, 2**32))
def test_a_smart_playout_is_a_game_the_engine_replays(state: DotsState, seed: int) -> None:
    kit = DotsKit(state.game)
    trace: list[int] = []
    scores = smart_playout(kit, kit.start(state), random.Random(seed), trace)
    end = replay(state, kit, trace)
    reached = list(engine_pos(end).scores)
    if end.is_over:
        assert scores == reached
        return
    # the rest was counted as a chains-and-loops endgame under perfect play
    assert kit.seats == 2 and kit.extra_turn and not kit.misere
    assert sum(scores) == kit.live_cells
    assert all(s >= r for s, r in zip(scores, reached, strict=True))
    if bin(kit.open_lines(engine_pos(end))).count("1") <= 14:
        mover = end.turn  # scores are by turn index
        value = vertex.ai.solve(end).value
        assert scores[mover] - scores[1 - mover] == value

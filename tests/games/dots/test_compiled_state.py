"""The compiled hot path of the public Dots position (`_play.c`) against the Python reference.

With the compiled core installed, `DotsState.play`, `legal_moves`, `is_over` and `to_move` are
C; the Python methods stay as `python_play` and friends. Here both play every board kind
(rectangles with and without border, the big triangle, the strip, Figures' rectangle and
rhombus with the touch rule, misère, no extra turn, 2–6 seats, boards of one to several
64-bit words) and every field of every state must be the same; refusals must be the same
errors with the same codes, and records and JSON must round-trip.
"""

from __future__ import annotations

import json
import pickle
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vertex
from vertex.core.errors import IllegalMove
from vertex.games.dots.engine import DotsGame, DotsState

KINDS: list[tuple[str, dict[str, Any]]] = [
    ("dots-and-boxes", {"rows": 1, "cols": 1}),
    ("dots-and-boxes", {"rows": 2, "cols": 3}),
    ("dots-and-boxes", {"rows": 3, "cols": 3, "border": True}),
    ("dots-and-boxes", {"rows": 2, "cols": 2, "misere": True}),
    ("dots-and-boxes", {"rows": 2, "cols": 3, "extra_turn": False}),
    ("dots-and-boxes", {"rows": 3, "cols": 4, "players": 3}),
    ("dots-and-boxes", {"rows": 5, "cols": 5}),
    ("dots-and-boxes", {"rows": 6, "cols": 6}),  # 84 lines: two words
    ("dots-and-boxes", {"rows": 12, "cols": 12, "players": 6, "border": True}),  # 312 lines
    ("dots-and-triangles", {"size": 4}),
    ("dots-and-triangles", {"size": 8, "misere": True, "players": 4}),
    ("dots-and-triangles", {"shape": "strip", "length": 6, "border": True}),
    ("dots-and-triangles", {"shape": "strip", "length": 1}),
    ("figures", {"rows": 5, "cols": 5, "shape": "rhombus"}),
    ("figures", {"rows": 3, "cols": 3}),
    ("figures", {"rows": 20, "cols": 20, "players": 5}),  # 840 lines, 400 cells
]

FIELDS = ("game", "seed", "history", "drawn", "owned", "dead", "order", "turn", "reach")


def game_of(game_id: str, options: dict[str, Any]) -> DotsGame[Any]:
    game = vertex.create_game(game_id, **options)
    assert isinstance(game, DotsGame)
    return game


def reference_legal(state: DotsState) -> list[str]:
    return DotsState.python_legal_moves(state)  # type: ignore[attr-defined,no-any-return]


def reference_play(state: DotsState, move: Any, seat: Any = None) -> DotsState:
    return DotsState.python_play(state, move, seat)  # type: ignore[attr-defined,no-any-return]


def same(a: DotsState, b: DotsState) -> None:
    assert type(a) is type(b) is DotsState
    for name in FIELDS:
        assert getattr(a, name) == getattr(b, name), name
        assert type(getattr(a, name)) is type(getattr(b, name)), name


def check_position(state: DotsState) -> None:
    assert state.game.compiled is not None
    assert state.legal_moves() == reference_legal(state)
    assert state.is_over == DotsState.python_is_over(state)  # type: ignore[attr-defined]
    assert state.to_move == DotsState.python_to_move(state)  # type: ignore[attr-defined]


def play_through(state: DotsState, rng: random.Random, plies: int | None = None) -> DotsState:
    """Play a random game (or `plies` lines) on both paths, comparing at every step."""
    done = 0
    while not state.is_over and (plies is None or done < plies):
        check_position(state)
        moves = state.legal_moves()
        move = moves[rng.randrange(len(moves))]
        seat = state.to_move[0]
        fast = state.play(move) if rng.random() < 0.7 else state.play(move, seat=seat)
        same(fast, reference_play(state, move))
        state = fast
        done += 1
    check_position(state)
    return state


@pytest.mark.parametrize(("game_id", "options"), KINDS)
def test_compiled_play_is_the_reference(game_id: str, options: dict[str, Any]) -> None:
    game = game_of(game_id, options)
    rng = random.Random(f"{game_id}{sorted(options.items())}")
    games = 1 if len(game.board.lines) > 300 else 6
    for _ in range(games):
        end = play_through(game.initial_state(seed=rng.randrange(1000)), rng)
        assert end.is_over and end.legal_moves() == [] and end.to_move == ()
        assert sum(end.scores) + end.dead.bit_count() == len(game.board.cells)
        # the record and JSON round trips give the same position
        assert vertex.replay(end.record()) == end
        assert vertex.replay(end.record().to_json()) == end
        assert json.dumps(end.to_dict()) == json.dumps(vertex.replay(end.record()).to_dict())
        back = pickle.loads(pickle.dumps(end))
        same(back, end)


def refusal(play: Any, *args: Any) -> tuple[str, str, Any]:
    with pytest.raises(IllegalMove) as caught:
        play(*args)
    err = caught.value
    return type(err).__name__, str(err), (err.reason, err.params)


@pytest.mark.parametrize(("game_id", "options"), KINDS[:3] + KINDS[11:12] + KINDS[13:15])
def test_refusals_are_the_contracts(game_id: str, options: dict[str, Any]) -> None:
    game = game_of(game_id, options)
    rng = random.Random(7)
    state = play_through(game.initial_state(seed=3), rng, plies=3)
    assert not state.is_over
    drawn = next(n for i, n in enumerate(game.board.line_names) if state.drawn >> i & 1)
    due = state.to_move[0]
    other = (due + 1) % game.seats
    bad: list[tuple[Any, Any]] = [
        (drawn, None),  # drawn already (or the border)
        ("zz99-zz98", None),  # no such line
        ("", None),
        (42, None),  # not a string
        (state.legal_moves()[0], other),  # not that seat's turn
        (state.legal_moves()[0], True),  # a seat must be a number
        (state.legal_moves()[0], 99),  # no such seat
    ]
    blocked = state.to_dict()["board"]["blocked"]
    if blocked:
        bad.append((next(iter(blocked)), None))  # the touch rule
    for move, seat in bad:
        before = [getattr(state, f) for f in FIELDS]
        assert refusal(state.play, move, seat) == refusal(reference_play, state, move, seat)
        assert [getattr(state, f) for f in FIELDS] == before  # nothing changed
    # other spellings of a legal line take the contract's path and give the same position
    legal = state.legal_moves()[0]
    for spelled in (f" {legal} ", legal.upper(), "-".join(reversed(legal.split("-")))):
        try:
            expected = reference_play(state, spelled)
        except IllegalMove:
            continue
        same(state.play(spelled), expected)
    # keyword arguments as the contract has them
    same(state.play(move=legal, seat=due), reference_play(state, legal))


def test_the_end_refuses_more_moves() -> None:
    game = game_of("dots-and-boxes", {"rows": 1, "cols": 1})
    state = game.initial_state()
    for move in game.board.line_names:
        state = state.play(move)
    assert state.is_over and state.to_move == () and state.legal_moves() == []
    assert refusal(state.play, "a1-b1") == refusal(reference_play, state, "a1-b1")


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(KINDS[:8] + KINDS[9:15]),
    st.integers(0, 2**31),
    st.lists(st.integers(0, 10_000), max_size=90),
)
def test_any_line_up_of_moves(
    kind: tuple[str, dict[str, Any]], seed: int, picks: list[int]
) -> None:
    state = game_of(*kind).initial_state(seed=seed)
    for pick in picks:
        check_position(state)
        if state.is_over:
            break
        moves = state.legal_moves()
        move = moves[pick % len(moves)]
        fast = state.play(move)
        same(fast, reference_play(state, move))
        state = fast


def test_the_compiled_path_is_installed() -> None:
    # the core is built at install (setup.py): the public methods are the compiled ones
    assert DotsState.play is not DotsState.python_play  # type: ignore[attr-defined]
    assert DotsState.legal_moves is not DotsState.python_legal_moves  # type: ignore[attr-defined]
    assert game_of("dots-and-boxes", {}).compiled is not None

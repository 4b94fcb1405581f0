"""The computer players' MCTS in the compiled core (`Core.mcts`) against the Python one.

The core's search is `vertex.ai.mcts.Mcts` with `DotsAdapter`: the moves it searches at a node
must be the adapter's (the strategy books' pruning), its playouts must end in real games, and
the players must use it for two seats and keep the Python search for more.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import vertex
from vertex.ai.dots.adapter import DotsAdapter
from vertex.ai.dots.core import build_core, uct_search
from vertex.ai.dots.kit import DotsKit
from vertex.ai.dots.player import DotsPlayer
from vertex.games.dots.engine import DotsGame, DotsState

KINDS: list[tuple[str, dict[str, Any]]] = [
    ("dots-and-boxes", {"rows": 3, "cols": 3}),
    ("dots-and-boxes", {"rows": 4, "cols": 5, "border": True}),
    ("dots-and-boxes", {"rows": 2, "cols": 3, "misere": True}),
    ("dots-and-boxes", {"rows": 3, "cols": 3, "extra_turn": False}),
    ("dots-and-triangles", {"size": 4}),
    ("dots-and-triangles", {"shape": "strip", "length": 6}),
    ("figures", {"rows": 5, "cols": 5, "shape": "rhombus"}),
]


def game_of(game_id: str, options: dict[str, Any]) -> DotsGame[Any]:
    game = vertex.create_game(game_id, **options)
    assert isinstance(game, DotsGame)
    return game


def positions(game: DotsGame[Any], rng: random.Random, count: int) -> list[DotsState]:
    out: list[DotsState] = []
    while len(out) < count:
        state = game.initial_state(seed=rng.randrange(100))
        while not state.is_over:
            out.append(state)
            moves = state.legal_moves()
            state = state.play(moves[rng.randrange(len(moves))])
    return rng.sample(out, count)


@pytest.mark.parametrize(("game_id", "options"), KINDS)
def test_the_moves_searched_are_the_adapters(game_id: str, options: dict[str, Any]) -> None:
    game = game_of(game_id, options)
    kit = DotsKit(game)
    adapter = DotsAdapter(kit)
    core = build_core(game, 1 << 16)
    rng = random.Random(game_id)
    for state in positions(game, rng, 25):
        pos = kit.start(state)
        expected = sorted(adapter.moves(pos))
        done, rows = core.mcts(
            pos.drawn,
            pos.reach,
            pos.turn,
            (pos.scores[0], pos.scores[1]),
            600,
            0.0,
            3,
            live=kit.live_cells,
        )
        assert done == 600
        # with more simulations than moves, every move worth searching has been tried
        assert sorted(line for line, _, _ in rows) == expected
        assert sum(visits for _, visits, _ in rows) == 600  # each simulation goes to a child
        assert all(0.0 <= reward <= 1.0 for _, _, reward in rows)


def test_a_free_box_is_the_only_move_searched() -> None:
    game = game_of("dots-and-boxes", {"rows": 1, "cols": 2})
    state = game.initial_state()
    for move in ("a1-b1", "a2-b2", "a1-a2"):
        state = state.play(move)
    kit = DotsKit(game)
    pos = kit.start(state)
    _, rows = build_core(game, 1 << 16).mcts(
        pos.drawn, pos.reach, pos.turn, (0, 0), 200, 0.0, 1, live=2
    )
    assert [kit.names[line] for line, _, _ in rows] == ["b1-b2"]


def test_only_restricts_the_root() -> None:
    game = game_of("dots-and-boxes", {"rows": 3, "cols": 3})
    kit = DotsKit(game)
    names = ["a1-b1", "b2-b3"]
    only = sum(1 << kit.index[n] for n in names)
    _, rows = build_core(game, 1 << 16).mcts(0, 0, 0, (0, 0), 500, 0.0, 1, only=only, live=9)
    assert sorted(kit.names[line] for line, _, _ in rows) == sorted(names)


def test_the_first_player_loses_three_by_three_in_the_search_too() -> None:
    # 3×3 is -3 for the first player: its win rate from the empty board is below even
    game = game_of("dots-and-boxes", {"rows": 3, "cols": 3})
    _, rows = build_core(game, 1 << 16).mcts(0, 0, 0, (0, 0), 100_000, 0.0, 7, live=9)
    visits = sum(v for _, v, _ in rows)
    mean = sum(v * r for _, v, r in rows) / visits
    assert mean < 0.5


def test_a_search_already_out_of_time_still_gives_a_line() -> None:
    # A loaded box can deschedule the caller past its whole budget before the search starts
    # (seen: an analysis's level 5 on 5×5 met a root with no child, and `max` of no rows
    # failed the request). Both searches run one simulation however late, so the root has a
    # line to give.
    game = game_of("dots-and-boxes", {"rows": 5, "cols": 5})
    core = build_core(game, 1 << 16)
    done, rows = core.mcts(0, 0, 0, (0, 0), 1 << 40, 1e-9, 1, live=25)
    assert done >= 1 and len(rows) >= 1
    done, rows = core.uct(0, 0, 0, (0, 0), 1 << 30, 1e-9, 1, 1.4)
    assert done >= 1 and len(rows) >= 1
    line, done, _ = uct_search(game.initial_state(), 1 << 30, seconds=1e-9)
    assert done >= 1 and line in game.initial_state().legal_moves()


@pytest.mark.parametrize(("game_id", "options"), KINDS)
def test_players_search_in_the_core(game_id: str, options: dict[str, Any]) -> None:
    game = game_of(game_id, options)
    state = positions(game, random.Random(4), 1)[0]
    if len(state.legal_moves()) < 2:
        state = game.initial_state()
    seat = state.to_move[0]
    a = DotsPlayer(game, 3, seed=9)
    b = DotsPlayer(game, 3, seed=9)
    assert a.core is not None
    move = a.choose(state, seat, 30.0)
    assert move in state.legal_moves()
    assert b.choose(state, seat, 30.0) == move  # the fixed simulation count decides
    if a.last_reason == "mcts":
        assert a.iterations == 300

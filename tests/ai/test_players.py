"""Computer players: every discrete game at every level, determinism, workers, knowledge."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

import vertex
from vertex.ai import player
from vertex.ai.dots.player import DotsPlayer
from vertex.core import game_class, game_ids
from vertex.core.errors import IllegalMove, OptionsError, VertexError
from vertex.core.game import Game, State

DISCRETE = [gid for gid in game_ids() if game_class(gid).discrete]

# small boards keep the generic search quick
SMALL: dict[str, dict[str, Any]] = {
    "dots-and-boxes": {"rows": 2, "cols": 2},
    "dots-and-triangles": {"size": 2},
    "figures": {"rows": 2, "cols": 2},
    "vert3x": {"radius": 1},
}


def small(game_id: str) -> vertex.Game:  # type: ignore[type-arg]
    return vertex.create_game(game_id, **SMALL.get(game_id, {}))


def play_out(state: State, players: list[Any], budget: float, limit: int = 400) -> State:
    for _ in range(limit):
        if state.is_over:
            break
        seat = state.to_move[0]
        state = state.play(players[seat].choose(state, seat, budget))
    return state


def test_the_dots_and_the_others_are_all_covered() -> None:
    assert {"dots-and-boxes", "dots-and-triangles", "figures"} <= set(DISCRETE)


@pytest.mark.parametrize("game_id", DISCRETE)
@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_every_level_plays_a_legal_move(game_id: str, level: int) -> None:
    game = small(game_id)
    state = game.initial_state(seed=1)
    seat = state.to_move[0]
    move = player(game, level, seed=1).choose(state, seat, 0.05)
    assert move in (state.legal_moves() or [])


@pytest.mark.parametrize("game_id", DISCRETE)
def test_a_whole_game_between_levels(game_id: str) -> None:
    game = small(game_id)
    seats = game.seats
    players = [player(game, 2 + s % 2, seed=s) for s in range(seats)]
    end = play_out(game.initial_state(seed=2), players, 0.02)
    assert end.is_over


@pytest.mark.parametrize("game_id", DISCRETE)
@pytest.mark.parametrize("level", [1, 2, 3])
def test_fixed_levels_are_deterministic(game_id: str, level: int) -> None:
    game = small(game_id)
    state = game.initial_state(seed=4)
    seat = state.to_move[0]
    # a generous budget: the fixed simulation count, not the clock, decides
    a = player(game, level, seed=9).choose(state, seat, 30.0)
    b = player(game, level, seed=9).choose(state, seat, 30.0)
    assert a == b


def test_level_four_is_deterministic() -> None:
    game = vertex.create_game("dots-and-boxes", rows=3, cols=3)
    state = game.initial_state()
    moves = [player(game, 4, seed=9).choose(state, 0, 30.0) for _ in range(2)]
    assert moves[0] == moves[1]


@pytest.mark.parametrize("game_id", DISCRETE)
def test_players_pickle_for_worker_processes(game_id: str) -> None:
    game = small(game_id)
    state = game.initial_state(seed=1)
    p = player(game, 3, seed=5)
    p.choose(state, state.to_move[0], 0.05)  # grows a tree / tables
    clone = pickle.loads(pickle.dumps(p))
    assert clone.choose(state, state.to_move[0], 0.05) in (state.legal_moves() or [])


def test_bad_levels_and_turns() -> None:
    game = small("dots-and-boxes")
    for level in (0, 6, "3", True):
        with pytest.raises(OptionsError, match="level"):
            player(game, level)  # type: ignore[arg-type]
    state = game.initial_state()
    with pytest.raises(IllegalMove, match="not seat 1's turn"):
        player(game, 2).choose(state, 1, 0.1)


def test_continuous_games_other_than_verticality_have_no_player() -> None:
    class Fake:
        id = "fake"
        name = "Fake"
        discrete = False
        players = Game.players  # the generic search, which needs a move list

    with pytest.raises(VertexError, match="no computer player"):
        player(Fake(), 1)  # type: ignore[arg-type]


def test_greedy_takes_the_box_and_gives_nothing_away() -> None:
    game = vertex.create_game("dots-and-boxes", rows=1, cols=2)
    state = game.initial_state()
    for move in ("a1-b1", "a2-b2", "a1-a2"):
        state = state.play(move)
    # seat 1 to move: b1-b2 would take nothing; a1-b1 box needs b1-b2 → it is the capture
    assert state.to_move == (1,)
    assert player(game, 2, seed=0).choose(state, 1, 0.1) == "b1-b2"


def test_level_five_plays_a_solved_best_move_on_three_by_three() -> None:
    game = vertex.create_game("dots-and-boxes", rows=3, cols=3)
    state = game.initial_state()
    for move in ["a1-b1", "c1-d1", "a4-b4", "c4-d4", "a2-a3", "d2-d3", "b2-c2", "b3-c3"]:
        state = state.play(move)
    best = vertex.ai.solve(state).best_moves
    me = DotsPlayer(game, 5, seed=1)  # type: ignore[arg-type]
    assert me.choose(state, state.to_move[0], 2.0) in best
    assert me.last_reason.startswith("solver")


def test_level_five_plays_exactly_once_the_core_settles_the_position() -> None:
    # 35 lines open, 10 of them quiet: beyond the old limit (30 open, or no quiet line left),
    # but the compiled solver settles it in well under a second of CPU (+1, two best lines)
    game = vertex.create_game("dots-and-boxes", rows=5, cols=5)
    state = game.initial_state()
    moves = (
        "f5-f6 b3-c3 c5-c6 e6-f6 c3-c4 b1-c1 d2-e2 c4-c5 c4-d4 f3-f4 f2-f3 f4-f5 e3-f3 b2-b3 "
        "e1-e2 c2-d2 c1-c2 d6-e6 f1-f2 a6-b6 a4-b4 d5-d6 d2-d3 a3-b3 a1-a2"
    )
    for move in moves.split():
        state = state.play(move)
    assert len(state.legal_moves()) == 35
    solution = vertex.ai.solve(state)
    assert (solution.value, solution.best_moves) == (1, ["e4-e5", "e5-e6"])
    me = DotsPlayer(game, 5, seed=1)  # type: ignore[arg-type]
    assert me.choose(state, state.to_move[0], 30.0) in solution.best_moves
    assert me.last_reason.startswith("solver")


def test_level_five_never_loses_the_won_seat_against_random_play() -> None:
    game = vertex.create_game("dots-and-boxes", rows=2, cols=2)
    for seed in range(3):
        players = [player(game, 5, seed=seed), player(game, 1, seed=seed)]
        end = play_out(game.initial_state(), players, 0.3)
        assert end.scores[0] > end.scores[1]  # 2×2 is a first-player win (+2)


def test_juxtapose_takes_a_win_in_one() -> None:
    game = vertex.create_game("juxtapose")
    state = game.initial_state()
    # three reds in a row on the top row: R3 at c1 completes R1 R2 R3
    for move in ("R1@a1", "G1@d4", "R2@b1", "G2@c4"):
        state = state.play(move)
    assert state.to_move == (0,)
    for level in (1, 3):
        move = player(game, level, seed=0).choose(state, 0, 0.2)
        assert state.play(move).winners == (0,)


def test_the_tree_is_kept_between_moves() -> None:
    # the Python MCTS (the players' search where the compiled core does not fit: more than
    # two seats, more than 128 lines), whose tree is kept between moves
    game = vertex.create_game("dots-and-boxes", rows=3, cols=3)
    me = DotsPlayer(game, 3, seed=2)  # type: ignore[arg-type]
    me.core = None
    state = game.initial_state()
    mine = me.choose(state, 0, 30.0)
    state = state.play(mine)
    state = state.play(state.legal_moves()[0])
    assert state.to_move == (0,)
    me.choose(state, 0, 30.0)
    assert me._mcts is not None and me._mcts.root is not None
    # the root had visits from the first search before this one added its 300
    assert me._mcts.root.n > 300


def test_more_than_two_seats_search_in_python() -> None:
    game = vertex.create_game("dots-and-boxes", rows=2, cols=2, players=3)
    me = DotsPlayer(game, 3, seed=2)  # type: ignore[arg-type]
    assert me.core is None
    state = game.initial_state()
    assert me.choose(state, 0, 30.0) in state.legal_moves()
    assert me._mcts is not None


def test_verticality_goes_to_the_tower_planner() -> None:
    game = vertex.create_game("verticality")
    assert type(player(game, 2, seed=1)).__name__ == "TowerPlayer"


class _NamedPlayers:
    """A stand-in game whose `players` names a module that does not exist."""

    id = "fake"
    name = "Fake"
    discrete = True
    players = "vertex.ai.no_such_players:Player"


def test_a_missing_player_module_is_a_loud_error_not_random_play() -> None:
    with pytest.raises(ImportError, match="no_such_players"):
        player(_NamedPlayers(), 3)  # type: ignore[arg-type]
    # the server's computer seats ask the same function: the error reaches the table
    from vertex.server.compute.ai_runner import choose

    state = vertex.create_game("dots-and-boxes", rows=1, cols=1).initial_state()
    object.__setattr__(state, "game", _NamedPlayers())
    with pytest.raises(ImportError):
        choose(state, 0, 3, 0.1)


def test_a_missing_player_class_is_a_loud_error() -> None:
    class Fake(_NamedPlayers):
        players = "vertex.ai.search:NoSuchPlayer"

    with pytest.raises(ImportError, match="NoSuchPlayer"):
        player(Fake(), 3)  # type: ignore[arg-type]


def test_every_game_names_players_that_load() -> None:
    for gid in game_ids():
        game = vertex.create_game(gid, **(game_class(gid).random_play_cases or ({},))[0])
        if game.discrete or game.players != Game.players:
            assert hasattr(player(game, 1), "choose")

"""The Verticality computer player: planned aims the rules accept, to the end of a game."""

from __future__ import annotations

import pytest

import vertex
from vertex.ai import player
from vertex.ai.tower import TowerPlayer
from vertex.core.errors import IllegalMove, VertexError
from vertex.games.verticality.notation import parse_aim


def test_every_level_gives_an_accepted_aim() -> None:
    game = vertex.create_game("verticality", players=2)
    state = game.initial_state(seed=3)
    for level in range(1, 6):
        bot = player(game, level, seed=1)
        assert isinstance(bot, TowerPlayer)
        move = bot.choose(state, 0, 0.2)
        aim = parse_aim(move)
        assert aim.piece == "pyramid"
        assert aim.haste == {1: 1.0, 2: 0.5}.get(level, 0.0)
        state.play(move, seat=0)  # accepted
        assert bot.choose(state, 0, 0.2) == move  # same seed, same choice


def test_a_table_of_computer_players_plays_to_the_end() -> None:
    game = vertex.create_game("verticality", players=3)
    state = game.initial_state(seed=8)
    bots = [player(game, level, seed=seat) for seat, level in enumerate((2, 4, 5))]
    placements = 0
    while not state.is_over:
        assert placements < 400
        for seat in state.to_move:
            state = state.play(bots[seat].choose(state, seat, 0.3), seat=seat)
            placements += 1
    assert len(state.winners) == 1
    assert vertex.replay(state.record().to_json()) == state


def test_the_planned_card_goes_over_the_tips() -> None:
    game = vertex.create_game("verticality", players=1, tremor_mm=0.0)
    state = game.initial_state(seed=194)
    bot = player(game, 4)
    for _ in range(3):
        state = state.play(bot.choose(state, 0, 0.1), seat=0)
    card = parse_aim(bot.choose(state, 0, 0.1))
    tips = [p.pose for p in state.towers[0].pieces]  # type: ignore[attr-defined]
    assert card.piece == "card"
    assert card.x == pytest.approx(sum(t[0] for t in tips) / 3 * 1000, abs=0.02)
    assert card.y == pytest.approx(sum(t[1] for t in tips) / 3 * 1000, abs=0.02)


def test_wrong_game_or_seat_is_refused() -> None:
    with pytest.raises(VertexError):
        TowerPlayer(vertex.create_game("dots-and-boxes"), 3)
    game = vertex.create_game("verticality", players=2)
    state = game.initial_state(seed=1).play("pyramid x=0 y=0 rot=0", seat=0)
    with pytest.raises(IllegalMove):
        TowerPlayer(game, 3).choose(state, 0, 0.1)

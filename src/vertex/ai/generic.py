"""The search adapter for any discrete game, through the public contract only.

Positions are the game's own immutable `State`s and moves their strings, so a new game gets a
computer player with no code here. Rollouts play random moves; games that end on a sudden
win (Juxtapose) get a tactical rollout: take a win when one is there, and do not hand the
next player one when it can be avoided.
"""

from __future__ import annotations

import random
from typing import Protocol, TypeVar

from vertex.ai.mcts import Adapter
from vertex.core.game import State
from vertex.core.outcome import best_seats

P = TypeVar("P")
M = TypeVar("M")


class SearchAdapter(Adapter[P, M], Protocol[P, M]):
    """What the generic player needs: the search's adapter, and in games with a sudden win
    the moves that hand the next player no win at once."""

    def safe_moves(self, pos: P) -> list[M]:
        """The moves after which the next player cannot win at once (all, if none)."""


def outcome_rewards(state: State) -> list[float]:
    """A reward in [0, 1] per seat: mostly the share of the win, a little the score.

    A game cut short (rollout cap) is judged by its current scores.
    """
    seats = state.game.seats
    scores = list(state.scores)
    if state.is_over:
        winners = state.winners
    else:
        winners = best_seats(scores, lowest=state.game.lowest_score_wins)
    share = [0.0] * seats
    if winners and len(winners) < seats:
        for s in winners:
            share[s] = 1.0 / len(winners)
    else:
        share = [1.0 / seats] * seats
    lo, hi = min(scores), max(scores)
    if hi > lo:
        spread = [(v - lo) / (hi - lo) for v in scores]
        if state.game.lowest_score_wins:
            spread = [1.0 - x for x in spread]
    else:
        spread = [0.5] * seats
    return [0.9 * share[s] + 0.1 * spread[s] for s in range(seats)]


def wins_now(state: State, seat: int) -> bool:
    return state.is_over and seat in state.winners and len(state.winners) < state.game.seats


class GenericAdapter:
    """MCTS over public states. `max_plies` caps a rollout (then scores decide)."""

    def __init__(self, tactical: bool = False, max_plies: int = 200) -> None:
        self.tactical = tactical
        self.max_plies = max_plies

    def mover(self, pos: State) -> int:
        due = pos.to_move
        return due[0] if due else -1

    def moves(self, pos: State) -> list[str]:
        return list(pos.legal_moves() or [])

    def play(self, pos: State, move: str) -> State:
        return pos.play(move)

    def name(self, pos: State, move: str) -> str:
        return move

    def rollout(self, pos: State, rng: random.Random) -> list[float]:
        state = pos
        for _ in range(self.max_plies):
            due = state.to_move
            if not due:
                break
            moves = state.legal_moves()
            if not moves:
                break
            if self.tactical:
                state = self._tactical_step(state, due[0], moves, rng)
            else:
                state = state.play(moves[rng.randrange(len(moves))])
        return outcome_rewards(state)

    def _tactical_step(
        self, state: State, seat: int, moves: list[str], rng: random.Random
    ) -> State:
        order = list(moves)
        rng.shuffle(order)
        after = [state.play(move) for move in order]
        for nxt in after:
            if wins_now(nxt, seat):
                return nxt
        # avoid handing the next player a win, trying a couple of moves (each check is costly)
        for nxt in after[:2]:
            if not self._gives_win(nxt):
                return nxt
        return after[0]

    def safe_moves(self, pos: State) -> list[str]:
        moves = self.moves(pos)
        return [m for m in moves if not self._gives_win(pos.play(m))] or moves

    def _gives_win(self, state: State) -> bool:
        due = state.to_move
        if not due:
            return False
        return any(wins_now(state.play(move), due[0]) for move in state.legal_moves() or [])

"""Juxtapose in the MCTS: the engine's integer fast path and a tactical rollout.

A line wins at once, so a random rollout mostly measures who blunders first. The rollout
here takes a win when there is one and otherwise tries not to hand the next player one
(`wins_at_once` checks a move without building a state). In the tree, a node with a
winning move searches only that move.
"""

from __future__ import annotations

import random
from typing import Any

from vertex.ai.generic import SearchAdapter, outcome_rewards
from vertex.ai.search import SearchPlayer
from vertex.core.game import Game
from vertex.games.juxtapose.game import MOVE_NAMES, JuxtaposeState

#: Rollout length cap: after this many plies the game counts as drawn.
MAX_PLIES = 60
#: Random moves tried per rollout ply before accepting one that hands over a win.
TRIES = 3


def _winning(state: JuxtaposeState, codes: list[int]) -> int | None:
    for code in codes:
        if state.wins_at_once(code):
            return code
    return None


class JuxtaposeAdapter:
    def mover(self, pos: JuxtaposeState) -> int:
        due = pos.to_move
        return due[0] if due else -1

    def moves(self, pos: JuxtaposeState) -> list[int]:
        codes = pos.move_codes()
        win = _winning(pos, codes)
        return [win] if win is not None else codes

    def play(self, pos: JuxtaposeState, move: int) -> JuxtaposeState:
        return pos.apply(move)

    def name(self, pos: JuxtaposeState, move: int) -> str:
        return MOVE_NAMES[move]

    def rollout(self, pos: JuxtaposeState, rng: random.Random) -> list[float]:
        state = pos
        for _ in range(MAX_PLIES):
            codes = state.move_codes()
            if not codes:
                break
            win = _winning(state, codes)
            if win is not None:
                state = state.apply(win)
                break
            nxt = state.apply(codes[rng.randrange(len(codes))])
            for _ in range(TRIES - 1):
                if _winning(nxt, nxt.move_codes()) is None:
                    break
                nxt = state.apply(codes[rng.randrange(len(codes))])
            state = nxt
        return outcome_rewards(state)

    def safe_moves(self, pos: JuxtaposeState) -> list[int]:
        """The moves that leave the next player no win at once (all, if none does)."""
        codes = pos.move_codes()
        safe = [c for c in codes if _winning(nxt := pos.apply(c), nxt.move_codes()) is None]
        return safe or codes


class JuxtaposePlayer(SearchPlayer):
    """The generic search on the engine's integer moves (`Juxtapose.players`)."""

    def make_adapter(self, game: Game[Any]) -> SearchAdapter[Any, Any]:
        return JuxtaposeAdapter()

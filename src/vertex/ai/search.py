"""The generic computer player: levels 1–5 for every discrete game, by MCTS.

Levels 1–4 run a fixed number of simulations, so with the same seed they choose the same
moves whatever the machine (the budget only caps them); level 5 searches until the budget is
nearly spent. The search tree is kept from one move to the next.
"""

from __future__ import annotations

import random
import time
from typing import Any

from vertex.ai.generic import GenericAdapter, SearchAdapter, wins_now
from vertex.ai.mcts import Mcts
from vertex.core.errors import IllegalMove
from vertex.core.game import Game, State
from vertex.core.outcome import seat_label

#: Simulations per move by level (None: as many as the budget allows).
ITERATIONS: dict[int, int | None] = {1: 0, 2: 40, 3: 250, 4: 1200, 5: None}

#: Share of those simulations in games with a sudden win: their rollouts are tactical (each
#: ply looks a move ahead for a win), so each simulation costs several plain ones.
TACTICAL_SCALE = 0.4

#: Share of the budget a player plans to use; the rest covers the final bookkeeping.
BUDGET_SHARE = 0.85


def move_rng(seed: int, state: State, seat: int) -> random.Random:
    """A generator fixed by the player's seed and the position's ply and seat."""
    return random.Random((seed * 1_000_003 + len(state.history)) * 7 + seat)


def check_turn(state: State, seat: int) -> list[str]:
    """The legal moves for `seat`, or a clear error when it is not that seat's turn."""
    if seat not in state.to_move:
        raise IllegalMove(f"it is not {seat_label(seat)}'s turn")
    moves = state.legal_moves()
    if not moves:
        raise IllegalMove(f"{seat_label(seat)} has no move to make")
    return moves


class RebuiltPlayer:
    """A player that pickles as (game, level, seed): its tables and trees are caches that a
    worker process rebuilds, so sending it to a process pool costs next to nothing."""

    game: Game[Any]
    level: int
    seed: int

    def __init__(self, game: Game[Any], level: int, *, seed: int = 0) -> None:
        self.game, self.level, self.seed = game, level, seed

    def __getstate__(self) -> dict[str, Any]:
        return {"game": self.game, "level": self.level, "seed": self.seed}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__init__(data["game"], data["level"], seed=data["seed"])  # type: ignore[misc]


class SearchPlayer(RebuiltPlayer):
    """MCTS through the public contract; `choose(state, seat, budget_s) -> move`. A game with
    a faster way to search names a subclass that overrides `make_adapter` (`Game.players`)."""

    def __init__(self, game: Game[Any], level: int, *, seed: int = 0) -> None:
        self.game = game
        self.level = level
        self.seed = seed
        self.tactical = game.sudden_win
        self.adapter: SearchAdapter[Any, Any] = self.make_adapter(game)
        self._mcts: Mcts[Any, Any] | None = None
        count = ITERATIONS[level]
        scale = TACTICAL_SCALE if self.tactical else 1.0
        self.iterations = None if count is None else max(1, int(count * scale))
        self._root: tuple[Any, ...] | None = None

    def make_adapter(self, game: Game[Any]) -> SearchAdapter[Any, Any]:
        """The search's view of the game: the public contract here."""
        tactical = game.sudden_win
        return GenericAdapter(tactical=tactical, max_plies=60 if tactical else 200)

    def choose(self, state: State, seat: int, budget_s: float) -> str:
        start = time.monotonic()
        moves = check_turn(state, seat)
        if len(moves) == 1:
            return moves[0]
        rng = move_rng(self.seed, state, seat)
        if self.level == 1:
            return self._weak(state, seat, moves, rng)
        deadline = start + max(budget_s, 0.0) * BUDGET_SHARE
        mcts = self._mcts or Mcts(self.adapter, state.game.seats)
        self._mcts = mcts
        root = mcts.set_root(state, self._path(state), rng)
        self._root = state.history
        if self.tactical and self.level >= 3 and not root.children and len(root.untried) > 1:
            # do not hand the next player a win in one when that can be avoided
            keep = set(self.adapter.safe_moves(root.pos))
            root.untried = [m for m in root.untried if m in keep] or root.untried
        mcts.search(rng, self.iterations, deadline)
        return self.adapter.name(root.pos, mcts.best())

    def _path(self, state: State) -> list[str] | None:
        old = self._root
        if old is None or state.history[: len(old)] != old:
            return None
        return [move for _, move in state.history[len(old) :]]

    def _weak(self, state: State, seat: int, moves: list[str], rng: random.Random) -> str:
        """Level 1: a random move, but a win in one is not missed in sudden-win games."""
        if self.tactical:
            for move in moves:
                if wins_now(state.play(move), seat):
                    return move
        return moves[rng.randrange(len(moves))]

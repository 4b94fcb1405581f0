"""Computer players (DESIGN.md §3) and the exact Dots solver.

`player(game, level, seed=...)` gives an object with `choose(state, seat, budget_s) -> move`
for levels 1 (weak, instant) to 5 (strongest within the budget). Every discrete game gets the
generic MCTS through the public contract; the Dots family gets its own fast search, chain
knowledge and the exact solver; Verticality gets the tower planner. Players are plain
objects that pickle to their settings, so a server can run them in a thread or a process.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol

from vertex.ai.dots.solver import Solution, Solver, SolveTimeout
from vertex.core.errors import OptionsError, VertexError
from vertex.core.game import Game, State

LEVELS = (1, 2, 3, 4, 5)


class Player(Protocol):
    def choose(self, state: State, seat: int, budget_s: float) -> str: ...


def player(game: Game[Any], level: int, *, seed: int = 0) -> Player:
    """A computer player for `game` at `level` 1–5; `seed` fixes its random choices."""
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise OptionsError(f"level must be a whole number from 1 to 5 (got {level!r})")
    # The game names its players (`Game.players`); imported only now, and loudly: an import
    # error here must never turn a computer seat into random play.
    if not game.discrete and game.players == Game.players:
        raise VertexError(f"{game.name} has no computer player")  # search needs a move list
    module, _, name = game.players.partition(":")
    cls: Any = getattr(importlib.import_module(module), name)
    return cls(game, level, seed=seed)  # type: ignore[no-any-return]


def solve(state: State) -> Solution:
    """The exact value and best moves of a two-player Dots-family position.

    `value` is the mover's cells minus the other's at the end when both play perfectly for
    their own goal (in misère each tries to end with fewer).
    """
    from vertex.games.dots.engine import DotsState

    if not isinstance(state, DotsState):
        raise VertexError(f"the exact solver is for the Dots family, not {state.game.name}")
    return Solver(state.game).solve(state)


__all__ = ["LEVELS", "Player", "Solution", "SolveTimeout", "Solver", "player", "solve"]

"""Computer players (DESIGN.md §3) and the exact Dots solver.

`player(game, level, seed=...)` gives an object with `choose(state, seat, budget_s) -> move`
for levels 1 (weak, instant) to 5 (strongest within the budget). Every discrete game gets the
generic MCTS through the public contract; the Dots family gets its own fast search, chain
knowledge and the exact solver; Verticality gets the tower planner. Players are plain
objects that pickle to their settings, so a server can run them in a thread or a process.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from vertex.ai.dots.solver import Solution, Solver, SolveTimeout
from vertex.core.errors import OptionsError, VertexError
from vertex.core.game import Game, State
from vertex.core.info import load

LEVELS = (1, 2, 3, 4, 5)


class Player(Protocol):
    def choose(self, state: State, seat: int, budget_s: float) -> str: ...


class ExactSolver(Protocol):
    """A game's exact solver (`Game.solver`): values two-player positions under perfect play."""

    @property
    def stored(self) -> int:
        """Positions kept so far (for progress lines)."""

    def solve(
        self,
        state: Any,
        *,
        deadline: float | None = None,
        progress: Callable[[int, float], None] | None = None,
    ) -> Solution: ...


def player(game: Game[Any], level: int, *, seed: int = 0) -> Player:
    """A computer player for `game` at `level` 1–5; `seed` fixes its random choices."""
    if isinstance(level, bool) or not isinstance(level, int) or level not in LEVELS:
        raise OptionsError(f"level must be a whole number from 1 to 5 (got {level!r})")
    # The game names its players (`Game.players`); imported only now, and loudly: an import
    # error here must never turn a computer seat into random play.
    if not game.discrete and game.players == Game.players:
        raise VertexError(f"{game.name} has no computer player")  # search needs a move list
    cls: Any = load(game.players)
    made: Player = cls(game, level, seed=seed)
    return made


def solver(game: Game[Any], *, table_bytes: int | None = None, threads: int = 1) -> ExactSolver:
    """The game's exact solver (`Game.solver`), built for `game`; VertexError if it has none.
    `table_bytes` bounds its transposition table (default: the solver's own choice);
    `threads` > 1 lets it search on that many threads where it can."""
    if game.solver is None:
        raise VertexError(
            f"the exact solver is for the games that have one (the Dots family), not {game.name}"
        )
    made: ExactSolver = load(game.solver)(game, table_bytes=table_bytes, threads=threads)
    return made


def solve(state: State) -> Solution:
    """The exact value and best moves of a two-player position of a game with a solver.

    For the Dots family `value` is the mover's cells minus the other's at the end when both
    play perfectly for their own goal (in misère each tries to end with fewer).
    """
    found: Solution = solver(state.game).solve(state)
    return found


__all__ = [
    "LEVELS",
    "ExactSolver",
    "Player",
    "Solution",
    "SolveTimeout",
    "Solver",
    "player",
    "solve",
    "solver",
]

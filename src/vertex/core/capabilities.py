"""What a game declares for the other layers to ask (DESIGN.md §2), OpenSpiel-style.

`ai/`, `interop/`, `terminal/` and `server/` learn everything game-specific from these and from
`Game`'s class metadata (`discrete`, `slow_play`, `can_end_by_agreement`, `simultaneous`,
`sudden_win`, `players`, `solver`, `diagrams`, `move_catalogue()`), never by testing a game's
id or probing its attributes (tests/core/test_no_game_switches.py keeps it so).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable


@runtime_checkable
class Aiming(Protocol):
    """The aiming protocol of a game with continuous moves (a pose, not a move list): what
    `State.aiming()` returns for such a game while a seat is due."""

    def check_aim(self, move: str, seat: int) -> str:
        """The canonical aim if `seat` released `move` now, without playing it; raises the
        game's IllegalMove/NotationError saying why it would be refused."""
        ...

    def hasten(self, move: str, seconds: float) -> str:
        """`move` with the haste a release `seconds` after the seat's step began earns."""
        ...

    def default_aim(self, seat: int) -> str:
        """What the game plays for a seat whose step clock ran out with nothing aimed."""
        ...


@dataclass(frozen=True)
class PersonalBest:
    """A finished game's result for the personal-best lists: whose, and how far they got
    (levels completed, then height, best first)."""

    seat: int
    levels: int
    height_mm: float


@dataclass(frozen=True)
class Diagram:
    """A position for a rules page (`Game.diagrams`): the game's options and the moves that
    lead to it, each played by the seat to move (so extra turns need no bookkeeping)."""

    id: str
    options: dict[str, Any] = field(default_factory=dict)
    moves: tuple[str, ...] = ()

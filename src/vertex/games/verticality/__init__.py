"""Verticality: towers of pyramids and cards on a simulated table (RULES.md §4).

This `__init__` only lists the game (`GAMES`) with its options: the rules, and MuJoCo with
them, load when a game is created."""

from vertex.core.info import GameInfo, lazy_exports
from vertex.games.verticality.options import VerticalityOptions

VERTICALITY = GameInfo(
    id="verticality",
    name="Verticality",
    summary=(
        "Build a tower of pyramids and cards on a simulated table. The die picks the size of "
        "each level's three pyramids; everybody places at the same time, a piece a step, with "
        "a slightly shaky hand. The last tower standing wins."
    ),
    options=VerticalityOptions,
    game="vertex.games.verticality.game:Verticality",
    discrete=False,
    slow_play=True,  # a step resolves by simulating every tower
    simultaneous=True,  # every tower's piece of a step is placed at once
    clock_option="step_seconds",  # the step clock is the table's clock
)
GAMES = (VERTICALITY,)

__getattr__ = lazy_exports(__name__, {"Verticality": "game", "VerticalityState": "game"})

__all__ = ["GAMES", "VERTICALITY", "VerticalityOptions"]

"""What the lobby and the API know about a game before its rules are loaded (DESIGN.md §2).

Each game package under `vertex.games` declares its games in its `__init__` as `GAMES`, a
tuple of `GameInfo`: id, name, summary, options model, capabilities, and where the game class
lives. The `__init__` imports only the options (pydantic), so listing the games never loads an
engine — nor MuJoCo, which only Verticality needs. The game class takes its metadata from its
`GameInfo` (`Game.info`), so the two cannot disagree.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from vertex.core.options import GameOptions, options_schema

#: The seats the analysis (perfect play) is worked out for: a table of two.
ANALYSIS_SEATS = 2


@dataclass(frozen=True)
class GameInfo:
    """A game as listed: enough to show it, validate its options and load it when played."""

    id: str
    name: str
    summary: str
    options: type[GameOptions]
    #: Where the game class lives, "module:Class"; imported when a game is created.
    game: str
    #: Continuous moves (aimed poses): no move list; see Game.move_schema().
    discrete: bool = True
    #: Several seats may owe a move at once (steps everybody plays together).
    simultaneous: bool = False
    #: A move may end the game with a winner whatever the scores (a line wins at once).
    sudden_win: bool = False
    #: The seats may agree to end early with the current scores.
    can_end_by_agreement: bool = False
    #: play() can take many milliseconds (a physics simulation): servers run it off the loop.
    slow_play: bool = False
    #: The seats' symbols are dealt by lot at the table (Figures), not fixed by seat number:
    #: the new-table form promises none.
    symbols_by_lot: bool = False
    #: The game counts points; False: it is only won, lost or drawn (Juxtapose), and the
    #: table shows no scores.
    scored: bool = True
    #: The page has words of its own for this game's versions (its board folder's
    #: `<id>-version.js`: "Classic, custom board of 12 triangles, shape bonus"); without
    #: them a table lists its options.
    version_words: bool = False
    #: Where the game's exact solver lives ("module:Class"; `Game.solver`), or None: the
    #: analysis covers exactly the games that name one, at tables of `ANALYSIS_SEATS`.
    solver: str | None = None
    #: The option that is the game's own clock (Verticality's step clock, `step_seconds`),
    #: or None: the new-table form offers it as the table's clock, not the table clock too.
    clock_option: str | None = None
    #: The rating pools (RULES.md §5): (pool id, the options RULES.md names) each; a pool's
    #: id is one URL path segment. Tables of other options play unrated.
    rating_pools: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = ()
    #: For a game without an exact solver: its exact search to a depth ("module:function",
    #: `judge(state, budget_s)`), with which a whole game's review judges its moves (a win or
    #: loss within a few moves); None: the review covers it only through its solver.
    review_search: str | None = None

    def describe(self) -> dict[str, Any]:
        """The game for `list_games()` and `GET /api/games`."""
        return {
            "id": self.id,
            "name": self.name,
            "summary": self.summary,
            "discrete": self.discrete,
            "capabilities": {
                "simultaneous": self.simultaneous,
                "sudden_win": self.sudden_win,
                "can_end_by_agreement": self.can_end_by_agreement,
                "slow_play": self.slow_play,
                "symbols_by_lot": self.symbols_by_lot,
                "scored": self.scored,
                "version_words": self.version_words,
                # the seats a table must have for the analysis to cover it (None: never)
                "analysis_seats": ANALYSIS_SEATS if self.solver is not None else None,
                "clock_option": self.clock_option,
            },
            "options": options_schema(self.options),
            "defaults": self.options().model_dump(mode="json"),
        }


def load(path: str) -> Any:
    """The object a "module:Name" path names, importing the module (loudly: a missing module
    or name is an error here, never a silent fallback)."""
    module, sep, name = path.partition(":")
    if not sep or not module or not name:
        raise ValueError(f"{path!r} is not a 'module:Name' path")
    namespace = vars(importlib.import_module(module))
    if name not in namespace:
        raise ImportError(f"module {module!r} has no {name!r} (named by {path!r})")
    return namespace[name]


def lazy_exports(package: str, names: dict[str, str]) -> Callable[[str], Any]:
    """A module `__getattr__` for a game package: `from vertex.games.x import Name` keeps
    working, but the module holding Name (`names[Name]`, relative to `package`) is imported
    only then, so importing the package for its `GAMES` stays light."""

    def __getattr__(name: str) -> Any:
        if name not in names:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return vars(importlib.import_module(f"{package}.{names[name]}"))[name]

    return __getattr__

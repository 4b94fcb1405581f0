"""Which games the analysis (perfect play, `server/analysis.py`) covers: one rule, used by
the analysis route to refuse the others and by the table view (`analysable`), so the page
offers analysis only where it can help without keeping a list of game ids of its own.

Pure: no server imports (the table module, which has none, uses it too)."""

from __future__ import annotations

from typing import Any

from vertex.core import Game


def refusal(game: Game[Any]) -> str | None:
    """Why the analysis cannot cover `game` (None: it can): it needs the game's exact solver
    (`Game.solver`: the Dots family has one) and two players."""
    if game.solver is None:
        return (
            f"analysis (perfect play) covers the games with an exact solver — the Dots family: "
            f"Dots and Boxes, Dots and Triangles, Figures — with two players; {game.name} is "
            "not supported"
        )
    if game.seats != 2:
        return f"perfect play is worked out for two players; this table has {game.seats}"
    return None

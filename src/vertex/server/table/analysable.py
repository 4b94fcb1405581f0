"""Which games the analysis (perfect play, `server/pages/analysis.py`) covers, and when a table
offers it: one rule, used by the analysis route to refuse and by the table view
(`analysable`, `analysis`), so the page offers analysis exactly where the route answers
without keeping a list of game ids or rules of its own.

When: once the game is over (and so in its replay), and during play only at a table whose
creator allowed it (`TableSpec.analysis`, a practice table). A spectator cannot be told from
a player who opened the link in a private window, so a live game's analysis is closed to
everyone, not only to its seats.

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


def review_refusal(game: Game[Any]) -> str | None:
    """Why the review of a whole game (server/pages/review.py) cannot cover `game` (None: it
    can): the games the analysis covers, and two-player Juxtapose (searched exactly to a
    depth: a win or loss within a few moves)."""
    if game.solver is None and game.info.review_search is not None:
        if game.seats != 2:
            return f"{game.name}'s review is for two players; this table has {game.seats}"
        return None
    reason = refusal(game)
    if reason is not None and game.solver is None:
        return (
            f"a game's review covers the Dots family (two players) and two-player "
            f"Juxtapose; {game.name} is not supported"
        )
    return reason


def gate(game: Game[Any], over: bool, allowed: bool, played: bool = True) -> str | None:
    """The code of why a table does not offer analysis now (None: it does):
    `not-analysable` (the game), `no-game` (over before its first move: cancelled or
    expired, nothing was played to look at), `analysis-closed` (a live game at a table
    without it)."""
    if refusal(game) is not None:
        return "not-analysable"
    if over and not played:
        return "no-game"
    if not over and not allowed:
        return "analysis-closed"
    return None

"""Juxtapose's options (RULES.md §3), light to import for the lobby."""

from __future__ import annotations

from pydantic import Field

from vertex.core.options import GameOptions


class JuxtaposeOptions(GameOptions):
    players: int = Field(default=2, ge=2, le=4, description="number of seats")
    move_limit: int = Field(
        default=200, ge=1, le=10_000, description="slide-phase moves before the game is a draw"
    )

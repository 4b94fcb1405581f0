"""Verticality's options (RULES.md §4), light to import: the lobby lists them without loading
the physics (MuJoCo)."""

from __future__ import annotations

from typing import Any

from pydantic import Field, model_validator

from vertex.core.options import GameOptions

#: The step clock with 2+ players, in seconds (Solo style is untimed unless asked).
STEP_SECONDS = 60


class VerticalityOptions(GameOptions):
    players: int = Field(default=2, ge=1, le=6, description="1 plays Solo style")
    tremor_mm: float = Field(
        default=0.45,
        ge=0.0,
        le=5.0,
        description="hand tremor σ in mm (easy 0.2, normal 0.45, hard 0.9; 0 = a steady hand)",
    )
    skyscraper: bool = Field(
        default=False, description="Skyscraper style: pyramids need not touch each other"
    )
    step_seconds: int = Field(
        default=STEP_SECONDS,
        ge=0,
        le=3600,
        description="step clock in seconds (0 = untimed; default 60 with 2+ players, untimed "
        "in Solo style); when it runs out the piece drops where the player last aimed it, or "
        "at the level's centre",
        # For forms: the default in force for each number of players.
        json_schema_extra={
            "x-cases": [
                {"when": {"players": [1]}, "default": 0},
                {"when": {"players": [2, 3, 4, 5, 6]}, "default": STEP_SECONDS},
            ]
        },
    )
    build_on: bool = Field(
        default=False,
        description="with 2+ players: the last tower standing wins, then its builder may go on "
        "alone as in Solo style until the tower falls or they play `stop`",
        # For forms: only offered with 2+ players (solo play builds on anyway).
        json_schema_extra={"x-applies": {"players": [2, 3, 4, 5, 6]}},
    )

    @model_validator(mode="before")
    @classmethod
    def _solo_untimed(cls, data: Any) -> Any:
        """Solo style has nobody to wait for: its step clock is off unless the table sets it."""
        if isinstance(data, dict) and data.get("players") == 1 and data.get("step_seconds") is None:
            return {**data, "step_seconds": 0}
        return data

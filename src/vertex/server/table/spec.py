"""A table's set-up: built once when the table is made, stored with it, loaded as such.

`TableSpec.load` also reads the spec dicts stored before this model existed (the same
keys, some missing: their defaults here are the ones the old code applied).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

#: A person, or a computer player.
SeatKind = Literal["human", "ai"]


class SeatSpec(BaseModel):
    model_config = ConfigDict(extra="ignore")

    kind: SeatKind = "human"
    level: int | None = None
    name: str | None = None
    #: sha256 of the seat token (a rematch keeps its players' tokens); never leaves the server
    token: str | None = None
    #: the player who sits here with a key (its id; never shown, a view says `player: true`)
    player: str | None = None
    #: a rated rematch's player: their rating in the pool when it was opened (as a seat
    #: shows it), and the hash of the address they sat from at the table before (finished.py)
    rating: dict[str, Any] | None = None
    address: str | None = None


class ClockSpec(BaseModel):
    model_config = ConfigDict(extra="ignore")

    per_move: float | None = None
    total: float | None = None
    increment: float | None = None
    #: A slow table (correspondence): whole days a move, 1..14 (api/bodies.py checks them).
    per_move_days: int | None = None

    @property
    def slow(self) -> bool:
        return self.per_move_days is not None

    def as_dict(self) -> dict[str, float]:
        """As the table's settings show it: the fields it was set up with."""
        out = self.model_dump(exclude_unset=True, exclude_none=True)
        return {k: float(v) if isinstance(v, float) else v for k, v in out.items()}


class TableSpec(BaseModel):
    """Game, options (as the game has them, defaults filled in), seed, seats and settings."""

    model_config = ConfigDict(extra="ignore")

    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int
    seats: list[SeatSpec]
    undo: bool = False
    clock: ClockSpec | None = None
    on_timeout: Literal["computer", "lose"] = "computer"
    rematch_of: str | None = None
    #: Shown in the lobby (lobby/); False: only its link finds it.
    listed: bool = False
    #: "Analysis allowed" (a practice table): perfect-play analysis for anyone during play.
    #: False (the default): analysis opens when the game is over (server/pages/analysis.py).
    analysis: bool = False
    #: Rated (DESIGN.md §5a): options exactly a pool's, every seat a player with a key.
    rated: bool = False

    @model_validator(mode="after")
    def _slow_loses(self) -> TableSpec:
        # A slow table is never handed to the computer for an absence: a player away for
        # days is the normal case, and one who lets the days run out loses.
        if self.slow:
            self.on_timeout = "lose"
        return self

    @property
    def slow(self) -> bool:
        """Days a move: the table leaves memory while nobody is there (upkeep.py)."""
        return self.clock is not None and self.clock.slow

    @classmethod
    def load(cls, stored: dict[str, Any] | TableSpec) -> TableSpec:
        """A spec from the store (any shape it was ever stored in)."""
        if isinstance(stored, TableSpec):
            return stored
        return cls.model_validate(stored)

    def stored(self) -> dict[str, Any]:
        """The JSON the store keeps (the old dict's keys, so older code could read it)."""
        out = self.model_dump(mode="json", exclude={"clock", "rematch_of"})
        out["seats"] = [s.model_dump(mode="json") for s in self.seats]
        out["clock"] = None if self.clock is None else self.clock.as_dict()
        if self.rematch_of is not None:
            out["rematch_of"] = self.rematch_of
        if not self.listed:
            del out["listed"]  # private: stored as before the lobby listed tables
        if not self.analysis:
            del out["analysis"]  # the default, as stored before tables could allow it
        if not self.rated:
            del out["rated"]  # as stored before tables could be rated
        for seat in out["seats"]:
            for key in ("player", "rating", "address"):
                if seat.get(key) is None:
                    seat.pop(key, None)
        return out

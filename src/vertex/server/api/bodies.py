"""The HTTP API's request bodies.

Strict like the socket's models (messages.py), whose field types they reuse: `"version": "2"`
or `"level": true` are refused on both.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from vertex.server.table.messages import (
    ACTIONS,
    AimText,
    ChatText,
    ClientId,
    Command,
    LevelNumber,
    MoveText,
    SeatNumber,
    StrictBody,
    Version,
    command,
)
from vertex.server.table.spec import SeatSpec

_Body = StrictBody
Level = LevelNumber


class SeatIn(_Body):
    kind: Literal["human", "ai"] = "human"
    level: Level | None = None

    def spec(self) -> SeatSpec:
        if self.kind == "human":
            return SeatSpec(kind="human")
        return SeatSpec(kind="ai", level=2 if self.level is None else self.level)


#: Clock seconds: at least a tenth of a second (no 1e-300), at most a day.
Seconds = Annotated[float, Field(ge=0.1, le=86_400, allow_inf_nan=False)]


class Clock(_Body):
    per_move: Seconds | None = Field(default=None, description="seconds a move")
    total: Seconds | None = Field(default=None, description="seconds a game")
    increment: float = Field(
        default=0, ge=0, le=3_600, allow_inf_nan=False, description="seconds added per move"
    )
    per_move_days: int | None = Field(
        default=None,
        ge=1,
        le=14,
        description="whole days a move (a slow table: a seat whose days run out loses)",
    )

    @model_validator(mode="after")
    def _one_kind(self) -> Clock:
        kinds = [k for k in (self.per_move, self.total, self.per_move_days) if k is not None]
        if len(kinds) != 1:
            raise ValueError("a clock has one of per_move, total (+ increment), per_move_days")
        if self.per_move_days is not None and self.increment:
            raise ValueError("a clock of days a move has no increment")
        return self

    def settings(self) -> dict[str, Any]:
        """The clock as the table keeps and shows it: the fields given (a slow clock has no
        increment to show)."""
        out = self.model_dump(exclude_none=True)
        if self.per_move_days is not None:
            out.pop("increment", None)
        return out


class CreateTable(_Body):
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatIn] | None = Field(
        default=None, max_length=64, description="default: every seat human"
    )
    undo: bool = Field(default=False, description="take-backs with the others' consent")
    clock: Clock | None = Field(default=None, description="default: no clock")
    on_timeout: Literal["computer", "lose"] = Field(
        default="computer", description="when a clock runs out: a computer moves, or the seat loses"
    )
    listed: bool = Field(
        default=False,
        description="show the table in the lobby (`GET /api/lobby`); default: only its link",
    )
    analysis: bool = Field(
        default=False,
        description="analysis allowed (a practice table): perfect-play analysis for anyone "
        "during play; default: only once the game is over",
    )
    rated: bool = Field(
        default=False,
        description="rated: options exactly a pool's (`/api/games` pools), every seat a "
        "person who sits with a player key; a clock (default 10 minutes + 5 s a move) "
        "whose timeout loses",
    )


class CheckOptions(_Body):
    game: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict)


class ClaimName(_Body):
    name: str = Field(min_length=1, max_length=400, description="the name to claim")


class TakeSeat(_Body):
    name: str | None = Field(
        default=None,
        min_length=1,
        max_length=400,
        description="your display name (with a player key: the player's name instead)",
    )


Token = Annotated[str, Field(min_length=1, max_length=200, description="your seat token")]


class MoveIn(_Body):
    token: Token
    move: MoveText
    version: Version | None = None
    id: ClientId | None = None


class AimIn(_Body):
    token: Token
    move: AimText
    id: ClientId | None = None


class SuggestIn(_Body):
    token: Token


class ActionIn(_Body):
    """A table action; its fields are the socket command's (messages.py), checked alike."""

    token: Token
    action: Literal[ACTIONS] = Field(description="one of the table actions")  # type: ignore[valid-type]
    text: ChatText | None = Field(default=None, description="chat: the line")
    seat: SeatNumber | None = Field(default=None, description="hand-over: whose seat")
    level: Level | None = Field(default=None, description="hand-over: the computer's level")

    def command(self) -> Command:
        msg: dict[str, Any] = {"t": self.action}
        if self.action == "chat":
            msg["text"] = self.text or ""
        if self.action == "hand-over":
            msg.update(seat=self.seat, level=self.level)
        return command(msg)

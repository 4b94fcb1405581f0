"""Game records (DESIGN.md §4): JSON in and out, a text form, and exact replay."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from vertex.core.errors import RecordError, VertexError
from vertex.core.game import AGREED_END, State


class RecordedMove(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seat: int | None = Field(description="seat that moved; null for a table action")
    move: str
    t: float | None = Field(default=None, description="server time of the move, if known")
    by: Literal["clock"] | None = Field(
        default=None,
        exclude_if=lambda v: v is None,
        description="who made the move for its seat, when not the seat's player: `clock`, the "
        "computer after the seat's time ran out (a table set up with on_timeout: computer); "
        "left out otherwise",
    )


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    seed: int = 0
    seats: list[dict[str, Any]] = Field(default_factory=list)
    moves: list[RecordedMove] = Field(default_factory=list)
    result: dict[str, Any] | None = None

    def to_json(self, indent: int | None = None) -> str:
        return self.model_dump_json(indent=indent)

    @classmethod
    def from_json(cls, data: str | bytes | dict[str, Any]) -> Record:
        """Parse a record; anything malformed is a RecordError saying what is wrong."""
        try:
            raw = json.loads(data) if isinstance(data, str | bytes) else data
        except json.JSONDecodeError as exc:
            raise RecordError(f"a record must be JSON: {exc.msg} at line {exc.lineno}") from None
        try:
            return cls.model_validate(raw)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "record"
            raise RecordError(f"bad record: {where}: {first['msg']}") from None

    def to_text(self) -> str:
        """One move per line after a header, for people and diffs."""
        lines = [f"# game: {self.game}", f"# options: {json.dumps(self.options, sort_keys=True)}"]
        lines.append(f"# seed: {self.seed}")
        for i, seat in enumerate(self.seats):
            lines.append(f"# seat {i}: {seat.get('name', '')} ({seat.get('kind', 'human')})")
        if self.result is not None:
            lines.append(f"# result: {json.dumps(self.result, sort_keys=True)}")
        for m in self.moves:
            who = "table" if m.seat is None else str(m.seat)
            lines.append(f"{who} {m.move}")
        return "\n".join(lines) + "\n"


def replay(record: Record | str | dict[str, Any]) -> State:
    """Rebuild the state a record describes, checking every move on the way."""
    from vertex.core.registry import create_game

    rec = record if isinstance(record, Record) else Record.from_json(record)
    try:
        game = create_game(rec.game, **rec.options)
    except VertexError as exc:
        raise RecordError(f"record names a game that cannot be set up: {exc}") from None
    return play_on(game.initial_state(seed=rec.seed), rec.moves)


def play_on(state: State, moves: list[RecordedMove], first: int = 1) -> State:
    """`state` after the recorded `moves` (numbered from `first` in errors), each checked."""
    for number, m in enumerate(moves, start=first):
        try:
            if m.seat is None:
                if m.move != AGREED_END:
                    raise RecordError(f"unknown table action {m.move!r}")
                state = state.end_by_agreement()
            else:
                state = state.play(m.move, seat=m.seat)
        except VertexError as exc:
            raise RecordError(f"move {number} ({m.move!r} by seat {m.seat}): {exc}") from None
    return state

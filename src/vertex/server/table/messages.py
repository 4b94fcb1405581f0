"""The one typed list of what a client may send a table: a model per command.

A discriminated union on `t` parses socket messages (`CLIENT.validate_json`); the HTTP
routes build the same models from their bodies and the OpenAPI schema shows them, so the
socket and HTTP refuse the same things (strictly: `"v": "2"`, `"level": true` are refused,
never coerced). A new command is one model here and one handler in commands.py.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

from vertex.server.errors import ApiError
from vertex.server.table.nesting import check_depth

MAX_ID_CHARS = 64
MAX_MOVE_CHARS = 200
MAX_TEXT_CHARS = 10_000

#: The client's own id for a message, echoed in the reply.
ClientId = (
    Annotated[int, Field(strict=True)]
    | Annotated[str, StringConstraints(min_length=1, max_length=MAX_ID_CHARS)]
)
#: The table version the client saw.
Version = Annotated[int, Field(ge=0, description="the table version you saw")]
MoveText = Annotated[
    str,
    StringConstraints(min_length=1, max_length=MAX_MOVE_CHARS, pattern=r"\S"),
    Field(description="a move in the game's notation, e.g. `a1-b1`"),
]
AimText = Annotated[
    str,
    StringConstraints(min_length=1, max_length=MAX_MOVE_CHARS, pattern=r"\S"),
    Field(
        description="where you aim the piece now, in move notation (Verticality: "
        "`pyramid x=<mm> y=<mm> rot=<deg>`)"
    ),
]
ChatText = Annotated[str, StringConstraints(max_length=MAX_TEXT_CHARS)]
NameText = Annotated[str, StringConstraints(max_length=MAX_ID_CHARS * 4)]
SeatNumber = Annotated[int, Field(ge=0, le=63, description="a seat number")]
LevelNumber = Annotated[int, Field(ge=1, le=5, description="computer level, 1-5")]


class StrictBody(BaseModel):
    """Every HTTP request body (api/bodies.py, pages/analysis.py, api/lobby.py): checked like a
    socket message — unknown fields refused, nothing coerced (`"2"` is no number, `true`
    no level)."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Message(BaseModel):
    """Every client message: `{t, id?, ...}`; unknown fields are refused, nothing coerced."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    id: ClientId | None = None


class Move(Message):
    """Play a move."""

    t: Literal["move"]
    move: MoveText
    v: Version | None = None


class Aim(Message):
    """Say where you aim now (games with aiming): kept privately for the step clock."""

    t: Literal["aim"]
    move: AimText


class Resign(Message):
    t: Literal["resign"]


class Rematch(Message):
    t: Literal["rematch"]


class UndoRequest(Message):
    t: Literal["undo-request"]


class UndoAccept(Message):
    t: Literal["undo-accept"]


class UndoDecline(Message):
    """Say no to the take-back another seat asked for."""

    t: Literal["undo-decline"]


class Cancel(Message):
    """Call the table off before the first move (nobody wins or loses)."""

    t: Literal["cancel"]


class EndRequest(Message):
    t: Literal["end-request"]


class EndAccept(Message):
    t: Literal["end-accept"]


class Chat(Message):
    t: Literal["chat"]
    text: ChatText


class HandOver(Message):
    """Hand a seat to a computer player: your own, or an absent player's."""

    t: Literal["hand-over"]
    seat: SeatNumber | None = None
    level: LevelNumber | None = None


class SpectatorLine(Message):
    """Write in the spectators' chat (spectators only: a socket without a seat). `name`:
    the display name shown with the line (checked like a seat's); none: "Spectator"."""

    t: Literal["spectator-chat"]
    text: ChatText
    name: NameText | None = None


class Ping(Message):
    t: Literal["ping"]


#: The commands a seat may send (ping is answered by the socket itself).
Command = (
    Move
    | Aim
    | Resign
    | Rematch
    | UndoRequest
    | UndoAccept
    | UndoDecline
    | Cancel
    | EndRequest
    | EndAccept
    | Chat
    | HandOver
)
ClientMessage = Annotated[Command | SpectatorLine | Ping, Field(discriminator="t")]
CLIENT: TypeAdapter[Command | SpectatorLine | Ping] = TypeAdapter(ClientMessage)

#: Message types, by `t`.
TYPES: dict[str, type[Message]] = {
    m.model_fields["t"].annotation.__args__[0]: m  # type: ignore[union-attr]
    for m in (
        Move,
        Aim,
        Resign,
        Rematch,
        UndoRequest,
        UndoAccept,
        UndoDecline,
        Cancel,
        EndRequest,
        EndAccept,
        Chat,
        HandOver,
        SpectatorLine,
        Ping,
    )
}
#: What POST /api/tables/{id}/actions offers (moves and aims have routes of their own).
ACTIONS = (
    "resign",
    "rematch",
    "undo-request",
    "undo-accept",
    "undo-decline",
    "cancel",
    "end-request",
    "end-accept",
    "chat",
    "hand-over",
)


def parse(raw: str | bytes, max_bytes: int) -> Command | SpectatorLine | Ping:
    """A checked client message, or ApiError (`too-large`, `bad-json`, `bad-message`)."""
    size = len(raw.encode() if isinstance(raw, str) else raw)
    if size > max_bytes:
        raise ApiError(
            "too-large",
            f"a message may be at most {max_bytes} bytes, not {size}",
            params={"limit": max_bytes, "size": size},
        )
    check_depth(raw)
    try:
        return CLIENT.validate_json(raw)
    except ValidationError as exc:
        raise refusal(exc) from None


def command(msg: dict[str, Any]) -> Command:
    """The same models from a dict an HTTP route made of its body (validated alike)."""
    try:
        out = CLIENT.validate_python(msg)
    except ValidationError as exc:
        raise refusal(exc) from None
    if isinstance(out, Ping | SpectatorLine):
        raise ApiError(
            "bad-message", f"'{out.t}' is not a table action", params={"problem": "type"}
        )
    return out


def refusal(exc: ValidationError) -> ApiError:
    """The client's error for a message the models refused: what is wrong, at which field."""
    err = exc.errors()[0]
    kind = err["type"]
    loc = [str(p) for p in err["loc"]]
    if kind == "json_invalid":
        return ApiError("bad-json", 'a message must be a JSON object like {"t": "ping"}')
    if kind in ("union_tag_not_found", "union_tag_invalid", "model_attributes_type", "model_type"):
        got = (err.get("ctx") or {}).get("tag")
        known = ", ".join(TYPES)
        shown = "" if got is None else f" {str(got)[:40]!r}"
        return ApiError(
            "bad-message",
            f"unknown message type{shown} (a JSON object with a type 't': {known})",
            params={"problem": "type", "types": list(TYPES)},
        )
    # loc: (tag, field, ...) for a known type
    t = loc[0] if loc else "?"
    field = loc[1] if len(loc) > 1 else None
    if kind == "extra_forbidden":
        return ApiError(
            "bad-message",
            f"'{t}' messages take no field {field}",
            params={"problem": "extra", "type": t, "field": field},
        )
    if kind == "missing":
        return ApiError(
            "bad-message",
            f"'{t}' needs '{field}'",
            params={"problem": "missing", "type": t, "field": field},
        )
    return ApiError(
        "bad-message",
        f"'{t}': '{field}' {err['msg'].lower()}",
        params={"problem": "value", "type": t, "field": field},
    )

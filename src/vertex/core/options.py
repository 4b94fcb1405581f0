"""Game options: validated pydantic models with defaults and a JSON Schema."""

from __future__ import annotations

import re
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from vertex.core.errors import OptionsError


class GameOptions(BaseModel):
    """Base of every game's options. Unknown keys are refused; values are never coerced."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


O = TypeVar("O", bound=GameOptions)


def validate_options(model: type[O], game_id: str, values: dict[str, Any]) -> O:
    """Build `model` from `values`, turning pydantic's errors into one readable OptionsError."""
    try:
        return model.model_validate(values)
    except ValidationError as exc:
        raise OptionsError(_describe(exc, model, game_id), _option_of(exc, model)) from None


def _option_of(exc: ValidationError, model: type[GameOptions]) -> str | None:
    """The option the first problem is about: its field, or for a rule across options the
    first option the message quotes."""
    err = exc.errors()[0]
    loc = err["loc"]
    if loc and isinstance(loc[0], str):
        return str(loc[0])
    quoted: list[str] = re.findall(r"'([a-z_]+)'", err["msg"])
    for name in quoted:
        if name in model.model_fields:
            return name
    return None


def _describe(exc: ValidationError, model: type[GameOptions], game_id: str) -> str:
    problems = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "options"
        kind = err["type"]
        if kind == "extra_forbidden":
            known = ", ".join(model.model_fields) or "none"
            problems.append(f"unknown option '{where}' for {game_id} (options: {known})")
            continue
        got = err.get("input")
        msg = err["msg"]
        # pydantic says "Value error, ..." for our own validators; keep just the reason.
        msg = msg.removeprefix("Value error, ")
        shown = "" if isinstance(got, dict) else f" (got {got!r})"
        msg = msg[0].lower() + msg[1:]
        if not err["loc"]:  # a rule across options: the message names them itself
            problems.append(msg)
            continue
        problems.append(f"option '{where}': {msg}{shown}")
    return f"bad options for {game_id}: " + "; ".join(problems)


def options_schema(model: type[GameOptions]) -> dict[str, Any]:
    return model.model_json_schema()

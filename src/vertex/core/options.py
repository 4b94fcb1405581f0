"""Game options: validated pydantic models with defaults and a JSON Schema."""

from __future__ import annotations

import math
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from vertex.core.errors import OptionRule, OptionsError


class GameOptions(BaseModel):
    """Base of every game's options. Unknown keys are refused; values are never coerced."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)


O = TypeVar("O", bound=GameOptions)


def validate_options(model: type[O], game_id: str, values: dict[str, Any]) -> O:
    """Build `model` from `values`, turning pydantic's errors into one readable OptionsError
    that names the option, the problem and its params (the first problem's)."""
    for name, value in values.items():
        if (bad := _non_finite(value)) is not None:
            raise OptionsError(
                f"bad options for {game_id}: option '{name}' must be a finite number (got {bad})",
                name,
                "finite",
                {"got": bad},
            )
    try:
        return model.model_validate(values)
    except ValidationError as exc:
        option, problem, params = _problem_of(exc.errors()[0], model)
        raise OptionsError(_describe(exc, model, game_id), option, problem, params) from None


def _non_finite(value: Any, depth: int = 0) -> str | None:
    """`NaN`, `Infinity`, `-Infinity` (or `1e999`, read as infinity) anywhere in an option's
    value, as text; None where every number is finite. No option is a number that is not
    one, and such a value cannot even be sent back in JSON."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if depth < 4 and isinstance(value, (list, tuple, dict)):
        for item in value.values() if isinstance(value, dict) else value:
            if (bad := _non_finite(item, depth + 1)) is not None:
                return bad
    return None


#: pydantic's error types, as the problems a page words, and the bound each carries.
_PROBLEMS: dict[str, tuple[str, str | None]] = {
    "greater_than_equal": ("min", "ge"),
    "greater_than": ("above", "gt"),
    "less_than_equal": ("max", "le"),
    "less_than": ("below", "lt"),
    "int_type": ("integer", None),
    "int_parsing": ("integer", None),
    "int_from_float": ("integer", None),
    "bool_type": ("boolean", None),
    "bool_parsing": ("boolean", None),
    "string_type": ("text", None),
    "float_type": ("number", None),
    "list_type": ("list", None),
    "literal_error": ("choice", None),
    "enum": ("choice", None),
    "too_short": ("too-short", "min_length"),
    "too_long": ("too-long", "max_length"),
    "string_too_short": ("too-short", "min_length"),
    "string_too_long": ("too-long", "max_length"),
}


def _problem_of(err: Any, model: type[GameOptions]) -> tuple[str | None, str, dict[str, Any]]:
    """(option, problem, params) of one pydantic error, read from its structure: the field
    it is at, its type and bounds, or the OptionRule a validator raised."""
    loc = err["loc"]
    option = str(loc[0]) if loc and isinstance(loc[0], str) else None
    kind = err["type"]
    ctx = err.get("ctx") or {}
    got = err.get("input")
    params: dict[str, Any] = {}
    if not isinstance(got, (dict, list)):
        plain = got is None or isinstance(got, (bool, int, float))
        params["got"] = (
            got if plain and (not isinstance(got, float) or math.isfinite(got)) else str(got)
        )
    if kind == "extra_forbidden":
        return option, "unknown", {"known": list(model.model_fields)}
    rule = ctx.get("error")
    if isinstance(rule, OptionRule):
        return rule.option or option, rule.problem, {**params, **rule.params}
    problem, bound = _PROBLEMS.get(kind, ("invalid", None))
    if bound is not None and bound in ctx:
        params["limit"] = ctx[bound]
    if problem == "choice" and "expected" in ctx:
        params["expected"] = str(ctx["expected"])
    return option, problem, params


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

"""`key=value` words from the command line to game options."""

from __future__ import annotations

import json
from typing import Any

from vertex.core.errors import OptionsError


def parse_value(text: str) -> Any:
    """Numbers, true/false, JSON lists/objects; anything else stays a word."""
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def parse_options(words: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for word in words:
        key, eq, value = word.partition("=")
        if not eq or not key:
            raise OptionsError(f"options are written key=value, like rows=3 (got {word!r})")
        options[key.strip()] = parse_value(value.strip())
    return options

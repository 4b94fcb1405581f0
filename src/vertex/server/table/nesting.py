"""How deep a JSON text nests, found without parsing it.

A message nested a thousand deep makes Python's `json` raise RecursionError (and costs any
parser a stack frame a level); what we accept nests a few levels. So the depth is counted
first, on the raw text, and a deeper message is refused with a code before any parser sees it.
"""

from __future__ import annotations

import re
from itertools import accumulate

from vertex.server.errors import ApiError

#: Deeper than any message or body we accept (a table's set-up nests about four levels).
MAX_DEPTH = 32

# Strings may hold brackets; they are taken out first (an unterminated one is left: it
# cannot hide a bracket from a parser either, the text is refused anyway).
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET = re.compile(rb"[\[\]{}]")
_STEP = {b"[": 1, b"{": 1, b"]": -1, b"}": -1}


def depth(raw: str | bytes) -> int:
    """The deepest nesting of arrays and objects in `raw` (0 for a bare value)."""
    data = raw.encode() if isinstance(raw, str) else raw
    steps = (_STEP[m] for m in _BRACKET.findall(_STRING.sub(b"", data)))
    return max(accumulate(steps, initial=0))


def check_depth(raw: str | bytes, most: int = MAX_DEPTH) -> None:
    """ApiError `too-deep` when `raw` nests deeper than `most`."""
    data = raw.encode() if isinstance(raw, str) else raw
    if data.count(b"[") + data.count(b"{") <= most:  # cannot nest deeper: no need to count
        return
    if depth(data) > most:
        raise ApiError(
            "too-deep",
            f"a message may nest at most {most} levels of arrays and objects",
            params={"limit": most},
        )

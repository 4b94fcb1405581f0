"""Dot and line names (RULES.md): `<column letters><row number>`, `a1` top-left, rows downward.

Columns run a..z, aa, ab, … (bijective base 26); rows count from 1. A line is two dot names
joined by '-', canonically with the smaller row first, then the smaller column.
"""

from __future__ import annotations

import re

from vertex.core.errors import NotationError

_DOT = re.compile(r"^([a-z]{1,4})([1-9][0-9]{0,5})$")  # no board is wider or taller


def column_name(col: int) -> str:
    """0 -> 'a', 25 -> 'z', 26 -> 'aa'."""
    if col < 0:
        raise ValueError("column index must be >= 0")
    letters = ""
    n = col + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(ord("a") + rem) + letters
    return letters


def column_index(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + (ord(ch) - ord("a") + 1)
    return n - 1


def dot_name(col: int, row: int) -> str:
    """0-based column and row to a name: (0, 0) -> 'a1'."""
    return f"{column_name(col)}{row + 1}"


def parse_dot(text: str) -> tuple[int, int]:
    """A dot name to 0-based (column, row); raises NotationError."""
    m = _DOT.match(text.strip().lower())
    if not m:
        raise NotationError(
            f"{text!r} is not a dot name: expected letters then a row, like 'a1'",
            "not-a-dot",
            {"text": text.strip()[:20]},
        )
    return column_index(m.group(1)), int(m.group(2)) - 1


def parse_line(text: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """'a1-b1' (either order, spaces allowed) to two (column, row) dots."""
    parts = text.split("-")
    if len(parts) != 2 or not parts[0].strip() or not parts[1].strip():
        raise NotationError(
            f"{text!r} is not a line: expected two dot names joined by '-', like 'a1-b1'",
            "not-a-line",
            {"text": text.strip()[:20]},
        )
    return parse_dot(parts[0]), parse_dot(parts[1])


def line_name(a: tuple[int, int], b: tuple[int, int]) -> str:
    """Canonical name of the line between dots a and b (column, row)."""
    first, second = sorted((a, b), key=lambda d: (d[1], d[0]))
    return f"{dot_name(*first)}-{dot_name(*second)}"

"""Bitmask helpers shared by the engine and the board view."""

from __future__ import annotations

from itertools import compress


def bits(mask: int) -> list[int]:
    """Indices of the set bits, lowest first (via the binary string: fast for wide masks)."""
    text = bin(mask)[:1:-1]
    return list(compress(range(len(text)), map("1".__eq__, text)))

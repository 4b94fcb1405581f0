"""A seeded random source small enough to live inside an immutable game state.

SplitMix64: the whole generator is one 64-bit integer, so a state can carry it, copy it for free
and compare it; the same seed gives the same numbers on every machine and Python version.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


@dataclass(frozen=True, slots=True)
class Rng:
    state: int

    @classmethod
    def from_seed(cls, seed: int, *salt: int | str) -> Rng:
        """A generator for `seed`, optionally split by salts (a seat, a step, a purpose)."""
        s = seed & _MASK
        for part in salt:
            value = part if isinstance(part, int) else _hash_text(part)
            s = (s ^ (value & _MASK)) * 0xBF58476D1CE4E5B9 & _MASK
            s = Rng(s).next_u64()[0]
        return cls(s)

    def next_u64(self) -> tuple[int, Rng]:
        s = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31), Rng(s)

    def below(self, n: int) -> tuple[int, Rng]:
        """A uniform integer in [0, n) (rejection sampling, no modulo bias)."""
        if n <= 0:
            raise ValueError("below() needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        rng = self
        while True:
            value, rng = rng.next_u64()
            if value < limit:
                return value % n, rng

    def random(self) -> tuple[float, Rng]:
        """A float in [0, 1) with 53 random bits."""
        value, rng = self.next_u64()
        return (value >> 11) / float(1 << 53), rng

    def shuffled(self, items: Sequence[T]) -> tuple[list[T], Rng]:
        """A Fisher-Yates shuffled copy of `items`."""
        out = list(items)
        rng = self
        for i in range(len(out) - 1, 0, -1):
            j, rng = rng.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out, rng


def _hash_text(text: str) -> int:
    # FNV-1a: stable across processes, unlike hash().
    h = 0xCBF29CE484222325
    for byte in text.encode():
        h = ((h ^ byte) * 0x100000001B3) & _MASK
    return h

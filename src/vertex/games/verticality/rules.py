"""The die and the hand tremor (RULES.md §4): the two sources of chance, both seeded."""

from __future__ import annotations

import math

from vertex.core.rng import Rng

#: The pyramid die. A two-size face means the third size.
FACES: tuple[str, ...] = ("S", "M", "L", "S+M", "S+L", "M+L")
FACE_SIZE: dict[str, str] = {"S": "S", "M": "M", "L": "L", "S+M": "L", "S+L": "M", "M+L": "S"}
SIZE_NAMES: dict[str, str] = {"S": "small", "M": "medium", "L": "large"}
PER_LEVEL = 3
SUPPLY_PER_SIZE = 30
#: Rotation tremor per millimetre of position tremor (degrees).
ROT_PER_MM = 2.0
#: Natural forces: the n-th shake of the table sways it with n × this (m/s²).
SHAKE_STEP = 0.5
#: After this many shakes nothing is going to fall any more; the towers share the win.
SHAKE_ROUNDS = 60
#: A release this long (s) after the step began is calm; sooner is hasty (RULES §4).
CALM_AFTER_S = 2.0


def roll(rng: Rng) -> tuple[str, Rng]:
    i, rng = rng.below(len(FACES))
    return FACES[i], rng


def time_haste(seconds: float) -> float:
    """Haste from how soon the piece was released after its step began: 1 at once, falling
    linearly to 0 at CALM_AFTER_S. The server measures the time, so no client can claim calm."""
    return min(1.0, max(0.0, 1.0 - seconds / CALM_AFTER_S))


def tremor(
    seed: int, seat: int, step: int, tremor_mm: float, haste: float
) -> tuple[float, float, float]:
    """Gaussian hand tremor for one placement: (dx mm, dy mm, drot degrees).

    Drawn from the table's seed, the seat and the step, so the same aims replay exactly.
    σ_xy = tremor_mm × (1 + haste); the rotation's σ is ROT_PER_MM degrees per mm of it.
    """
    sigma = tremor_mm * (1.0 + haste)
    if sigma == 0.0:
        return (0.0, 0.0, 0.0)
    rng = Rng.from_seed(seed, "tremor", seat, step)
    u1, rng = rng.random()
    u2, rng = rng.random()
    u3, rng = rng.random()
    u4, rng = rng.random()
    r1 = math.sqrt(-2.0 * math.log(1.0 - u1))
    r2 = math.sqrt(-2.0 * math.log(1.0 - u3))
    dx = sigma * r1 * math.cos(2 * math.pi * u2)
    dy = sigma * r1 * math.sin(2 * math.pi * u2)
    drot = ROT_PER_MM * sigma * r2 * math.cos(2 * math.pi * u4)
    return (dx, dy, drot)

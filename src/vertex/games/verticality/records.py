"""The computer players' best solo towers per level, for the page's bests board ("How tall can
you build?"), as measured by `bench/bench_verticality.py` (figures and command in
`bench/RESULTS.md`; update both together). Constants only: the server imports this without
loading the rules or the physics.
"""

from __future__ import annotations

from typing import Any

#: The most levels the pyramid supply allows a solo tower (30 of each size, 3 a level).
SUPPLY_LEVELS = 30

MEASURED_WITH = (
    "bench/bench_verticality.py --towers 40 --tremors 0.45 --cap 10 (levels 1-4); "
    "--towers 4 --levels 5 --tremors 0.45 (level 5, to the supply's end)"
)

#: One row per computer level: the most levels over the measured towers, the mean, how many
#: towers (one table seed each), at the table's default tremor. Levels 1-4 come from the
#: 10-level bench (so their best says at most 10); level 5 from towers to the supply's end.
COMPUTER_BESTS: tuple[dict[str, Any], ...] = (
    {"level": 1, "best": 9, "mean": 2.27, "towers": 40, "tremor_mm": 0.45},
    {"level": 2, "best": 10, "mean": 4.3, "towers": 40, "tremor_mm": 0.45},
    {"level": 3, "best": 10, "mean": 7.47, "towers": 40, "tremor_mm": 0.45},
    {"level": 4, "best": 10, "mean": 9.78, "towers": 40, "tremor_mm": 0.45},
    {"level": 5, "best": 23, "mean": 20.5, "towers": 4, "tremor_mm": 0.45},
)

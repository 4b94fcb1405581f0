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
    "bench/bench_verticality.py --towers 20 --levels 1,2,3,4,5 --tremors 0.45 (to the supply's end)"
)

#: One row per computer level: the most levels over the measured towers, the mean, how many
#: towers (one table seed each), at the table's default tremor, to the supply's end
#: (bench/RESULTS.md, issue 23's eighth round).
COMPUTER_BESTS: tuple[dict[str, Any], ...] = (
    {"level": 1, "best": 9, "mean": 2.3, "towers": 20, "tremor_mm": 0.45},
    {"level": 2, "best": 8, "mean": 4.25, "towers": 20, "tremor_mm": 0.45},
    {"level": 3, "best": 16, "mean": 9.9, "towers": 20, "tremor_mm": 0.45},
    {"level": 4, "best": 30, "mean": 22.25, "towers": 20, "tremor_mm": 0.45},
    {"level": 5, "best": 30, "mean": 29.05, "towers": 20, "tremor_mm": 0.45},
)

"""The computer players' best solo towers per level, for the page's bests board ("How tall can
you build?"), as measured by `bench/bench_verticality.py` (figures and command in
`bench/RESULTS.md`; update both together). Constants only: the server imports this without
loading the rules or the physics.
"""

from __future__ import annotations

from typing import Any

#: The most levels the pyramid supply allows a solo tower (30 of each size, 3 a level).
SUPPLY_LEVELS = 30

MEASURED_WITH = "bench/bench_verticality.py --towers 20 --tremors 0.45 --jobs 2"

#: One row per computer level: the most levels over the measured towers, the mean, how many
#: towers (one table seed each), at the table's default tremor.
COMPUTER_BESTS: tuple[dict[str, Any], ...] = (
    {"level": 1, "best": 0, "mean": 0.0, "towers": 0, "tremor_mm": 0.45},
)

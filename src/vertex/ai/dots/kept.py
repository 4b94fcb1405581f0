"""The compiled solvers' tables are kept per process between moves, games and tables of the
same board (`kept_tables`): at most KEPT_BOARDS boards, each an exact table of TABLE_BYTES
and middle-game tables of MIDDLE_BYTES, WIDE_BYTES and QUICK_BYTES — a process's computer
players never hold more than KEPT_BOARDS × (TABLE_BYTES + MIDDLE_BYTES + WIDE_BYTES +
QUICK_BYTES) = 256 MiB of tables, however many tables they play at. A table's entries are
values of positions, true in any game of that board.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from vertex.games.dots.engine import DotsGame, DotsState

if TYPE_CHECKING:
    from vertex.ai.dots.core import CoreSolver

#: The compiled solver's table (fixed size; old entries make room for new ones).
TABLE_BYTES = 48 << 20
#: The middle game's pruned search: its own table (its bounds are not exact) ...
MIDDLE_BYTES = 40 << 20
#: ... the wider one's (level 5: larger handouts, `player.WIDE_HANDOUT`) ...
WIDE_BYTES = 32 << 20
#: ... and the quick one's (`player.QUICK_HANDOUTS`; cleared before each use): 8 MiB, not
#: 2, made its search of 4×4 seed 17 (bench/middle_game_4x4.json) 1.3x faster, of seed 18
#: 1.6x; the wider one gave up the 6 MiB (level 5 runs it on one thread only).
QUICK_BYTES = 8 << 20
#: Boards whose tables a process keeps (the least recently used go first).
KEPT_BOARDS = 2
#: A ponder (`DotsPlayer.ponder`) of at least this long, or one that ended, leaves the
#: exact table warm for the next move (`KeptTables.warm_for`): its entries are much of the
#: tree, so that move's exact search is tried with more lines open too.
WARM_S = 0.5


@dataclass
class KeptTables:
    """The compiled solvers of one board, kept between moves: one player at a time."""

    exact: CoreSolver
    middle: CoreSolver | None = None
    quick: CoreSolver | None = None
    wide: CoreSolver | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    #: the position the exact table last searched on the other side's time (its lines),
    #: for how long, and whether that search ended (`DotsPlayer.ponder`)
    pondered: tuple[int, float, bool] | None = None

    def warm_for(self, state: DotsState) -> bool:
        """Whether the exact table searched an earlier position of this game on the other
        side's time to its end or for at least WARM_S (its entries are then much of this
        one's tree)."""
        got = self.pondered
        return got is not None and got[0] & state.drawn == got[0] and (got[2] or got[1] >= WARM_S)

    def made(self, which: str) -> CoreSolver:
        """The middle, quick or wide solver, made on first use (its table: MIDDLE_BYTES,
        QUICK_BYTES or WIDE_BYTES)."""
        from vertex.ai.dots.core import CoreSolver

        got: CoreSolver | None = getattr(self, which)
        if got is None:
            size = {"middle": MIDDLE_BYTES, "quick": QUICK_BYTES, "wide": WIDE_BYTES}[which]
            got = CoreSolver(self.exact.game, table_bytes=size)
            setattr(self, which, got)
        return got


_kept: OrderedDict[tuple[str, str], KeptTables] = OrderedDict()
_kept_lock = threading.Lock()


def kept_tables(game: DotsGame[Any]) -> KeptTables:
    """This process's solver tables for `game`'s board (made on first use)."""
    from vertex.ai.dots.core import CoreSolver

    key = game.key()
    with _kept_lock:
        got = _kept.get(key)
        if got is None:
            while len(_kept) >= KEPT_BOARDS:
                _kept.popitem(last=False)
            got = _kept[key] = KeptTables(CoreSolver(game, table_bytes=TABLE_BYTES))
        _kept.move_to_end(key)
        return got


def forget_tables() -> None:
    """Drop the kept tables (tests and benches that want a cold start)."""
    with _kept_lock:
        _kept.clear()

"""The solver tables a process keeps for its computer players (`vertex.ai.dots.kept`)."""

from __future__ import annotations

import vertex
from vertex.ai.dots import kept
from vertex.ai.dots.kept import forget_tables
from vertex.games.dots.engine import DotsGame


def test_the_kept_tables_stay_within_their_budget() -> None:
    forget_tables()
    for rows in (2, 3, 4):
        game = vertex.create_game("dots-and-boxes", rows=rows, cols=rows)
        assert isinstance(game, DotsGame)
        kept.kept_tables(game)
    assert len(kept._kept) == kept.KEPT_BOARDS
    forget_tables()
    per_board = kept.TABLE_BYTES + kept.MIDDLE_BYTES + kept.WIDE_BYTES + kept.QUICK_BYTES
    assert kept.KEPT_BOARDS * per_board <= 256 << 20

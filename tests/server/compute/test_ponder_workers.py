"""A computer worker process thinks on the other side's time between its thinks, and its
next think stops that (`Settings.ai_ponder`, `vertex.ai.ponder`)."""

from __future__ import annotations

import asyncio

import pytest

from tests.ai.test_middle_game import POSITIONS, position
from tests.eventually import eventually_async
from vertex.ai.dots.kit import quiet_lines
from vertex.server.compute.ai_runner import Thinker
from vertex.server.settings import Settings


def test_a_worker_ponders_after_a_level_five_move_and_its_next_think_stops_it() -> None:
    # ten lines into a 5×5 game: the exact search of what follows lasts far longer than this
    _seed, moves, _value, _best = POSITIONS[0]
    _game, state = position(" ".join(moves.split()[:10]))
    seat = state.to_move[0]
    thinker = Thinker("process", workers=1, per_address=1, ponder=True)

    async def play() -> None:
        line = await thinker.choose(state, seat, 5, 0.3, table="t")
        after = state.play(line)
        assert seat not in after.to_move
        # the worker searches the position the other seat now faces, on one thread (the
        # test suite's VERTEX_AI_THREADS=1), counted where every worker sees it
        await eventually_async(lambda: thinker.pondering() == 1, 60, what="a ponder")
        nxt = after.play(quiet_lines(after)[0])  # the other side's line, a quiet one
        assert seat in nxt.to_move
        # the worker's next think stops the search first, and starts the next one
        assert await thinker.choose(nxt, seat, 5, 0.3, table="t") in nxt.legal_moves()
        await eventually_async(lambda: thinker.pondering() == 1, 60, what="a ponder")
        # any other think stops it too, and a level-4 one starts none
        await thinker.choose(nxt, seat, 4, 0.2, table="t")
        assert thinker.pondering() == 0

    try:
        asyncio.run(play())
    finally:
        thinker.close()


def test_no_ponder_when_switched_off_or_in_threads() -> None:
    for kind, on in (("process", False), ("thread", True)):
        thinker = Thinker(kind, workers=1, per_address=1, ponder=on)
        assert thinker._pondering is None and thinker.pondering() == 0


def test_the_site_ponders_unless_the_environment_says_zero(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("VERTEX_AI_PONDER", raising=False)
    assert Settings.from_env().ai_ponder is True
    monkeypatch.setenv("VERTEX_AI_PONDER", "0")
    assert Settings.from_env().ai_ponder is False

"""Fair shares of the workers (fair.py): a queue per address, in turn, a cap per address."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

import vertex
from vertex.server.compute import ai_runner
from vertex.server.compute.ai_runner import Thinker
from vertex.server.compute.fair import FairShare, Full
from vertex.server.settings import Settings


async def _hold(share: FairShare, key: str, order: list[str], release: asyncio.Event) -> None:
    async with share.turn(key):
        order.append(key)
        await release.wait()


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


def test_the_addresses_take_turns_whatever_one_of_them_queued() -> None:
    async def go() -> list[str]:
        share = FairShare(slots=1, per_key=1)
        order: list[str] = []
        gates = [asyncio.Event() for _ in range(7)]
        tasks = [asyncio.create_task(_hold(share, "a", order, gates[i])) for i in range(5)]
        await _settle()
        tasks += [asyncio.create_task(_hold(share, "b", order, gates[5 + i])) for i in range(2)]
        await _settle()
        assert order == ["a"] and share.waiting("a") == 4 and share.waiting("b") == 2
        for i in (0, 5, 1, 6, 2, 3, 4):  # each turn ends in the order it was given
            gates[i].set()
            await _settle()
        await asyncio.gather(*tasks)
        assert share.busy == 0 and not share.queues and not share.running
        return order

    # b's first turn comes right after a's running one, not after a's four waiting ones
    assert asyncio.run(go()) == ["a", "b", "a", "b", "a", "a", "a"]


def test_one_address_never_holds_every_worker() -> None:
    async def go() -> None:
        share = FairShare(slots=2, per_key=1)
        order: list[str] = []
        release = asyncio.Event()
        greedy = [asyncio.create_task(_hold(share, "a", order, release)) for _ in range(20)]
        await _settle()
        assert order == ["a"] and share.busy == 1  # its cap: one worker stays free
        other = asyncio.create_task(_hold(share, "b", order, release))
        await _settle()
        assert order == ["a", "b"]  # at once
        release.set()
        await asyncio.gather(*greedy, other)
        assert order.count("a") == 20 and share.busy == 0

    asyncio.run(go())


def test_a_turn_knows_how_many_waited_behind_it_when_it_was_granted() -> None:
    """Two turns granted at once (both workers freed together) each count the ones still
    waiting then, not the ones granted with it (ai_runner.think_budget shrinks by it)."""

    async def go() -> list[tuple[str, int]]:
        share = FairShare(slots=2, per_key=2)
        seen: list[tuple[str, int]] = []
        release = asyncio.Event()

        async def hold(key: str) -> None:
            async with share.turn(key) as behind:
                seen.append((key, behind))
                await release.wait()

        tasks = [asyncio.create_task(hold(k)) for k in ("a", "a", "b", "c", "d", "e")]
        await _settle()
        release.set()
        await asyncio.gather(*tasks)
        return seen

    seen = asyncio.run(go())
    # a, a at once (nobody waiting yet); then b..e granted two by two as the pair ends
    assert seen == [("a", 0), ("a", 0), ("b", 3), ("c", 2), ("d", 1), ("e", 0)]


def test_an_address_with_its_waiting_turns_used_is_refused_at_once() -> None:
    async def go() -> None:
        share = FairShare(slots=1, per_key=1, most_waiting=1)
        release = asyncio.Event()
        order: list[str] = []
        running = asyncio.create_task(_hold(share, "a", order, release))
        waiting = asyncio.create_task(_hold(share, "a", order, release))
        await _settle()
        with pytest.raises(Full):
            async with share.turn("a"):
                pass
        other = asyncio.create_task(_hold(share, "b", order, release))  # others still queue
        await _settle()
        assert share.waiting("b") == 1
        release.set()
        await asyncio.gather(running, waiting, other)
        assert order == ["a", "b", "a"]

    asyncio.run(go())


def test_a_waiter_that_gives_up_leaves_no_turn_behind() -> None:
    async def go() -> None:
        share = FairShare(slots=1, per_key=1)
        release = asyncio.Event()
        order: list[str] = []
        running = asyncio.create_task(_hold(share, "a", order, release))
        await _settle()
        quitter = asyncio.create_task(_hold(share, "b", order, release))
        await _settle()
        quitter.cancel()
        await _settle()
        assert share.waiting() == 0
        release.set()
        await running
        assert share.busy == 0 and order == ["a"]
        async with share.turn("c"):  # the worker is free for the next one
            assert share.busy == 1

    asyncio.run(go())


def test_the_pools_are_sized_to_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("vertex.server.settings.machine_workers", lambda: 8)
    assert Settings().thinkers() == (8, 4) and Settings().analysts() == 8
    monkeypatch.setattr("vertex.server.settings.machine_workers", lambda: 1)
    assert Settings().thinkers() == (1, 1)
    assert Settings(ai_workers=3, ai_per_address=3).thinkers() == (3, 3)


def test_twenty_busy_tables_of_one_address_do_not_delay_another_addresses_computer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The computer players' pool itself: address a's thinks are stuck; b's is answered."""
    stuck = threading.Event()
    real = ai_runner.choose

    def choose(state: Any, seat: int, level: int, budget_s: float) -> str:
        if level == 5:
            stuck.wait(10)
        return real(state, seat, level, budget_s)

    monkeypatch.setattr(ai_runner, "choose", choose)
    state = vertex.create_game("dots-and-boxes").initial_state(seed=1)
    thinker = Thinker("thread", workers=2, per_address=1)

    async def go() -> str:
        greedy = [asyncio.create_task(thinker.choose(state, 0, 5, 0.01, "a")) for _ in range(20)]
        await _settle()
        try:
            move = await thinker.choose(state, 0, 1, 0.01, "b")
            # answered while every one of a's thinks still waits (queued behind them, it
            # would only come once they gave up, 10 s each)
            assert not any(t.done() for t in greedy)
            return move
        finally:
            stuck.set()
            await asyncio.gather(*greedy)

    try:
        move = asyncio.run(go())
    finally:
        stuck.set()
        thinker.close()
    assert move in state.legal_moves()

"""A computer's think budget, fixed when its think starts (ai_runner.think_budget): it shrinks
with the thinks queued behind it and with the seat's clock, so replies keep to their clocks
under load."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

import vertex
from vertex.server.compute import ai_runner
from vertex.server.compute.ai_runner import LEAST_THINK_S, Thinker, think_budget
from vertex.server.settings import Settings

NOW = 1_000.0


def test_alone_a_think_has_the_whole_budget() -> None:
    assert think_budget(0.5, 2, 0, None, NOW) == 0.5
    assert think_budget(0.5, 2, 0, NOW + 60, NOW) == 0.5


@pytest.mark.parametrize(
    ("waiting", "budget"),
    [(1, 1 / 3), (2, 0.25), (8, 0.1), (48, 0.02)],
)
def test_the_budget_shrinks_so_the_queue_is_served_within_about_one_budget(
    waiting: int, budget: float
) -> None:
    # two workers: the `waiting` thinks behind start within waiting / 2 thinks of this size
    got = think_budget(0.5, 2, waiting, None, NOW)
    assert got == pytest.approx(budget)
    assert waiting / 2 * got <= 0.5


def test_a_clock_nearly_out_leaves_half_of_what_is_left() -> None:
    assert think_budget(0.5, 2, 0, NOW + 0.4, NOW) == pytest.approx(0.2)
    assert think_budget(0.5, 2, 8, NOW + 0.1, NOW) == pytest.approx(0.05)


def test_however_long_the_queue_or_late_the_clock_a_think_has_its_least() -> None:
    assert think_budget(0.5, 2, 10_000, None, NOW) == LEAST_THINK_S
    assert think_budget(0.5, 2, 0, NOW - 5, NOW) == LEAST_THINK_S
    assert think_budget(0.5, 0, -3, None, NOW) == 0.5  # nonsense counts are read as none


def test_level_five_thinks_as_long_as_it_was_measured_at() -> None:
    # bench/bench_middle_game.py: level 5 keeps the 5×5 middle game's value at 1 s a move
    plain = Settings(database_url="sqlite://")
    assert [plain.think_budget(level) for level in (1, 4, 5)] == [0.5, 0.5, 1.0]
    quick = Settings(database_url="sqlite://", ai_budget_s=0.02)
    assert quick.think_budget(5) == 0.04  # tests keep their computers quick
    told = Settings(database_url="sqlite://", ai_level5_budget_s=3.0)
    assert (told.think_budget(3), told.think_budget(5)) == (0.5, 3.0)


def test_the_budgets_come_from_the_environment_and_nonsense_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("VERTEX_AI_BUDGET_S", "0.25")
    monkeypatch.setenv("VERTEX_AI_LEVEL5_BUDGET_S", "2")
    settings = Settings.from_env("sqlite://")
    assert (settings.think_budget(2), settings.think_budget(5)) == (0.25, 2.0)
    for bad in ("0", "-1", "61", "nan"):
        monkeypatch.setenv("VERTEX_AI_LEVEL5_BUDGET_S", bad)
        with pytest.raises(ValueError, match=r"VERTEX_AI_LEVEL5_BUDGET_S|could not convert"):
            Settings.from_env("sqlite://")


@pytest.mark.timeout(60)
def test_thinks_queued_on_the_workers_start_with_budgets_their_queue_leaves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two workers, both busy, eleven more thinks asked for: each starts with the budget the
    thinks still queued behind it when it was granted leave, and the last one's clock, read
    when its think starts, bounds it too."""
    gate = threading.Event()
    budgets: dict[int, list[float]] = {0: [], 1: []}  # by seat (1: the late one)
    lock = threading.Lock()

    def choose(state: Any, seat: int, level: int, budget_s: float) -> str:
        with lock:
            budgets[seat].append(budget_s)
        gate.wait(20)
        return str(state.legal_moves()[0])

    monkeypatch.setattr(ai_runner, "choose", choose)
    state = vertex.create_game("dots-and-boxes").initial_state(seed=1)
    thinker = Thinker("thread", workers=2, per_address=2)

    async def go() -> None:
        first = [asyncio.create_task(thinker.choose(state, 0, 5, 0.5, "a")) for _ in range(2)]
        while thinker.share.busy < 2:
            await asyncio.sleep(0.001)
        rest = [asyncio.create_task(thinker.choose(state, 0, 5, 0.5, f"p{i}")) for i in range(10)]
        # a clock nearly out, queued last: at most half of what is left when it starts
        late = asyncio.create_task(
            thinker.choose(state, 1, 5, 0.5, "late", deadline=time.time() + 0.1)
        )
        while thinker.share.waiting() < 11:
            await asyncio.sleep(0.001)
        await asyncio.sleep(0.05)
        gate.set()
        await asyncio.gather(*first, *rest, late)

    try:
        asyncio.run(go())
    finally:
        gate.set()
        thinker.close()
    alone, queued = budgets[0][:2], sorted(budgets[0][2:])
    assert alone == [0.5, 0.5]  # nothing waited behind them when they started
    # granted one after the other, with ten, nine, ... one still waiting behind them
    assert queued == pytest.approx(sorted(0.5 * 2 / (2 + w) for w in range(1, 11)))
    (late_budget,) = budgets[1]
    assert LEAST_THINK_S <= late_budget <= 0.025


@pytest.mark.timeout(120)
def test_a_table_asks_each_level_for_its_own_budget(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Level 1 against level 5 on a 2×2 board, to the end: every think of level 5 was given
    twice what level 1's were (nothing queued, no clock)."""
    from fastapi.testclient import TestClient

    from tests.server.conftest import make_settings, new_table, receive_json, recv_until
    from vertex.server import create_app

    seen: dict[int, set[float]] = {1: set(), 5: set()}
    real = ai_runner.choose

    def choose(state: Any, seat: int, level: int, budget_s: float) -> str:
        seen[level].add(budget_s)
        return real(state, seat, level, budget_s)

    monkeypatch.setattr(ai_runner, "choose", choose)
    settings = make_settings(tmp_path, ai_budget_s=0.02)
    with TestClient(create_app(settings)) as client:
        seats = [{"kind": "ai", "level": 1}, {"kind": "ai", "level": 5}]
        tid = new_table(client, seats=seats)["id"]
        with client.websocket_connect(f"/ws/tables/{tid}") as ws:
            recv_until(ws, lambda m: m["t"] == "snapshot")
            while client.get(f"/api/tables/{tid}").json()["result"] is None:
                msg = receive_json(ws)
                if msg.get("t") == "event" and msg.get("result"):
                    break
    assert seen == {1: {0.02}, 5: {0.04}}

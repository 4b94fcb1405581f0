"""A worker process that dies (the kernel kills it for its memory, an operator's `kill -9`)
is replaced: the computers go on thinking, and the analyses go on answering, on fresh
workers (before, every later think of a dead computer worker failed, and its tables got
the random move played when a think fails). A computer worker stuck far past its budget
is killed and replaced (before, the tables behind it waited for ever)."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from concurrent.futures import BrokenExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.ai.test_middle_game import POSITIONS, position
from tests.eventually import eventually, eventually_async
from tests.server.compute.test_orphans import children
from tests.server.conftest import make_settings, two_player_table
from tests.server.pages.test_analysis import FOURTEEN, analyse, play
from vertex.server import create_app
from vertex.server.compute.ai_runner import Thinker
from vertex.server.metrics import WORKERS_REPLACED


def cpu_ticks(pid: int) -> int:
    """The process's CPU time so far, in clock ticks (user + system)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def busy(pid: int) -> bool:
    """True once `pid` has spent a fifth of a second of CPU from now on (it is working)."""
    start = cpu_ticks(pid)
    tick = os.sysconf("SC_CLK_TCK")
    return bool(eventually(lambda: cpu_ticks(pid) - start >= tick // 5, what="work"))


def workers() -> set[int]:
    """This process's worker processes (spawned children, not the resource tracker)."""
    found = set()
    for pid in children(os.getpid()):
        try:
            if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.add(pid)
        except OSError:  # one that has just ended
            continue
    return found


def replaced(pool: str) -> float:
    return float(WORKERS_REPLACED.labels(pool)._value.get())


def test_a_dead_computer_worker_is_replaced_and_its_think_asked_again() -> None:
    _seed, moves, _value, _best = POSITIONS[0]
    _game, state = position(" ".join(moves.split()[:10]))
    seat = state.to_move[0]
    thinker = Thinker("process", workers=1, per_address=1, ponder=True)
    before = replaced("computer")

    async def pid() -> int:
        return int(await asyncio.wrap_future(thinker._executor(0).submit(os.getpid)))

    async def run() -> None:
        first = await pid()
        # killed while it ponders: its count of pondering threads dies with it
        line = await thinker.choose(state, seat, 5, 0.3, table="t")
        await eventually_async(lambda: thinker.pondering() == 1, 60, what="a ponder")
        os.kill(first, signal.SIGKILL)
        after = state.play(line)
        nxt = after.play(after.legal_moves()[0])
        # the next think finds the worker dead and is asked of a fresh one
        move = await thinker.choose(nxt, nxt.to_move[0], 4, 0.2, table="t")
        assert move in nxt.legal_moves()
        assert thinker.pondering() == 0 and replaced("computer") == before + 1
        second = await pid()
        assert second != first
        # killed in the middle of a think (no clock): the think is asked again
        think = asyncio.ensure_future(thinker.choose(state, seat, 5, 2.0, table="t"))
        assert await asyncio.to_thread(busy, second)
        os.kill(second, signal.SIGKILL)
        assert await think in state.legal_moves()
        assert replaced("computer") == before + 2 and await pid() not in (first, second)

    try:
        asyncio.run(run())
    finally:
        thinker.close()


def test_a_think_whose_clock_is_nearly_out_is_not_asked_again() -> None:
    _seed, moves, _value, _best = POSITIONS[0]
    _game, state = position(moves)
    seat = state.to_move[0]
    thinker = Thinker("process", workers=1, per_address=1)

    async def run() -> None:
        pid = int(await asyncio.wrap_future(thinker._executor(0).submit(os.getpid)))
        os.kill(pid, signal.SIGKILL)
        # a fresh worker's start would eat the clock: the caller plays its fallback move
        with pytest.raises(BrokenExecutor):
            await thinker.choose(state, seat, 4, 0.2, table="t", deadline=time.time() + 3)
        # and the worker after it is a fresh one
        assert await thinker.choose(state, seat, 4, 0.2, table="t") in state.legal_moves()

    try:
        asyncio.run(run())
    finally:
        thinker.close()


def test_a_stuck_computer_worker_is_killed_and_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    from vertex.server.compute import ai_runner

    monkeypatch.setattr(ai_runner, "OVERRUN_S", 2.0)
    _seed, moves, _value, _best = POSITIONS[0]
    _game, state = position(moves)
    seat = state.to_move[0]
    thinker = Thinker("process", workers=1, per_address=1)
    before = replaced("computer")

    async def run() -> None:
        pid = int(await asyncio.wrap_future(thinker._executor(0).submit(os.getpid)))
        os.kill(pid, signal.SIGSTOP)  # it neither answers nor dies
        with pytest.raises(TimeoutError):
            await thinker.choose(state, seat, 4, 0.2, table="t")
        assert replaced("computer") == before + 1
        eventually(lambda: pid not in workers(), what="the stuck worker's end")
        # its successor starts at once, not at the next think
        eventually(lambda: workers(), what="a fresh worker")
        # the tables behind it are served by a fresh worker (given time for its start)
        monkeypatch.setattr(ai_runner, "OVERRUN_S", 60.0)
        assert await thinker.choose(state, seat, 4, 0.2, table="t") in state.legal_moves()

    try:
        asyncio.run(run())
    finally:
        thinker.close()


def test_a_dead_analysis_worker_is_replaced(tmp_path: Path) -> None:
    # 5×5 early on: an analysis searches for its whole limit (it cannot be settled exactly)
    app = create_app(make_settings(tmp_path, ai_executor="process", analysis_time_s=3.0))
    before = replaced("analysis")
    with TestClient(app) as client:
        tid, ann, bob = two_player_table(client, analysis=True, options={"rows": 5, "cols": 5})
        assert analyse(client, tid).status_code == 200  # the worker has started
        (worker,) = [w for w in app.state.analyst.workers if w.pool is not None]
        first = worker.pool.submit(os.getpid).result()
        # dead between two questions: the next one goes to a fresh worker at once
        os.kill(first, signal.SIGKILL)
        play(client, tid, ann, FOURTEEN[0])
        assert analyse(client, tid).status_code == 200
        assert replaced("analysis") == before + 1
        # dead in the middle of an answer: the question is asked again of a fresh worker
        for i, move in enumerate(FOURTEEN[1:], start=1):
            play(client, tid, (ann, bob)[i % 2], move)
        second = worker.pool.submit(os.getpid).result()
        assert second != first
        answer: dict[str, Any] = {}

        def ask() -> threading.Thread:
            answer.clear()
            thread = threading.Thread(target=lambda: answer.update(r=analyse(client, tid)))
            thread.start()
            return thread

        asking = ask()
        assert busy(second)
        os.kill(second, signal.SIGKILL)
        asking.join(120)
        assert answer["r"].status_code == 200 and answer["r"].json()["ply"] == 14
        assert replaced("analysis") == before + 2
        # and when the fresh one dies under it too, the client is told to ask again (the
        # question itself may be what kills them); the next question is answered
        play(client, tid, ann, "a1-a2")
        third = worker.pool.submit(os.getpid).result()
        asking = ask()
        assert busy(third)
        others = workers()
        os.kill(third, signal.SIGKILL)
        (fourth,) = eventually(lambda: workers() - others, what="a fresh worker")
        assert busy(fourth)
        os.kill(fourth, signal.SIGKILL)
        asking.join(120)
        refused = answer["r"]
        assert refused.status_code == 503 and refused.json()["error"]["code"] == "busy"
        assert "Traceback" not in refused.text
        assert replaced("analysis") == before + 4
        answered = analyse(client, tid)
        assert answered.status_code == 200 and answered.json()["ply"] == 15


def test_a_stuck_computer_worker_does_not_hold_the_servers_stop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # before, the stop waited for the worker for ever (a search in an endless loop held
    # `vertex serve` after SIGTERM); a stopped process stands for one
    from vertex.server.compute import ai_runner

    monkeypatch.setattr(ai_runner, "CLOSE_WAIT_S", 1.0)
    thinker = Thinker("process", workers=1, per_address=1)

    async def run() -> int:
        return int(await asyncio.wrap_future(thinker._executor(0).submit(os.getpid)))

    pid = asyncio.run(run())
    os.kill(pid, signal.SIGSTOP)  # it neither answers nor dies
    started = time.monotonic()
    thinker.close()
    assert time.monotonic() - started < 10
    eventually(lambda: pid not in workers(), what="the stuck worker's end")

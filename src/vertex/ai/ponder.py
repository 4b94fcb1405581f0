"""Thinking on the other side's time ("pondering", as chess engines call it).

A computer worker process is idle while the person at its table thinks. A player may use
that time: after its move it hands `start` a search of the position the person now faces;
the search runs on a thread of its own, at the kernel's idle priority (`SCHED_IDLE`: it gets
a core only when nothing else wants it, so it never slows a reply, a page or another
worker), fills the player's kept tables, and is stopped by the process's next think
(`stop`), whatever table that think is for, or after `PONDER_MAX_S`. One at a time per
process: starting one stops the last.

Off unless the process allows it (`allow`): the server's computer workers do
(`Settings.ai_ponder`, `VERTEX_AI_PONDER=0` to switch it off), nothing else — tests, benches
and the analysis workers keep their players' timing as it was.

The workers of one server count their pondering threads in one shared array, a slot each
(`share`), so that a think deciding whether the machine has a core to spare for a second thread
(`vertex.ai.dots.core.spare_core`) does not count threads that give way at once.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: The longest a search on the other side's time runs (a person away from the table must
#: not keep a core searching for ever).
PONDER_MAX_S = 60.0

_allowed = False
_at_exit = False
_lock = threading.Lock()
#: the threads pondering now in the workers of this server (a `multiprocessing.Array` of
#: "i" without a lock, a slot per worker: a dead worker's slot is cleared by the server
#: that replaces it), or None: this process's alone
_shared: Any = None
_slot = 0
_mine = 0


@dataclass
class _Running:
    thread: threading.Thread
    cancel: Callable[[], None]
    started: float
    ended: float | None = None


_running: _Running | None = None
#: seconds the last ponder ran, until it ended or was stopped
last_seconds = 0.0


def allow(on: bool = True) -> None:
    """Let this process's players think on the other side's time (or not: stops any)."""
    global _allowed, _at_exit
    if on and not _at_exit:
        # stopped before the interpreter frees the tables a search may still be reading
        atexit.register(stop)
        _at_exit = True
    _allowed = on
    if not on:
        stop()


def allowed() -> bool:
    return _allowed


def share(counts: Any, slot: int) -> None:
    """Count this process's pondering threads in `counts[slot]`, an array shared with the
    other workers."""
    global _shared, _slot
    _shared, _slot = counts, slot


def threads_pondering() -> int:
    """Threads pondering now: in every worker that shares the count, else in this process."""
    if _shared is not None:
        return max(0, int(sum(_shared[:])))
    return _mine


def _count(threads: int) -> None:
    global _mine
    with _lock:
        _mine += threads
        if _shared is not None:
            # this worker's slot has no other writer (but the server, once this worker is
            # dead): no lock between processes, which a killed worker could leave held
            _shared[_slot] += threads


def _idle_priority() -> None:
    # this thread only (Linux schedules threads; the search's helper threads inherit it)
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def start(think: Callable[[float], None], cancel: Callable[[], None], threads: int = 1) -> bool:
    """Run `think(deadline)` (a monotonic deadline, `PONDER_MAX_S` from now) on a thread at
    idle priority, searching on `threads` threads in all; `cancel()` must make it return
    soon, from any thread. Stops the last ponder first. False when this process does not
    ponder."""
    global _running
    stop()
    if not allowed():
        return False

    def run() -> None:
        _idle_priority()
        _count(threads)
        try:
            think(time.monotonic() + PONDER_MAX_S)
        finally:
            me.ended = time.monotonic()
            _count(-threads)

    me = _Running(threading.Thread(target=run, name="vertex-ponder", daemon=True), cancel, 0.0)
    with _lock:
        _running = me
        me.started = time.monotonic()
        me.thread.start()
    return True


def stop() -> float:
    """Stop the search on the other side's time, if one runs, and wait for it: the next
    think has the process, its cores and its tables. The seconds it ran (0: none)."""
    global _running, last_seconds
    with _lock:
        running, _running = _running, None
    if running is None:
        return 0.0
    # again until it returns: a cancel can land before the search has begun (and reset it)
    while running.thread.is_alive():
        running.cancel()
        running.thread.join(0.005)
    last_seconds = (running.ended or time.monotonic()) - running.started
    return last_seconds


def busy() -> bool:
    """Whether a ponder is running now (tests)."""
    with _lock:
        return _running is not None and _running.thread.is_alive()

"""Thinking on the other side's time (`vertex.ai.ponder`, `DotsPlayer.ponder`).

No time limits: waits poll with deadlines, and only what the player did is checked."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator

import pytest

from tests.ai.test_middle_game import POSITIONS, position
from vertex.ai import ponder
from vertex.ai.dots.kept import forget_tables, kept_tables
from vertex.ai.dots.player import DotsPlayer

DEADLINE_S = 240.0


def wait_for(what: Callable[[], bool]) -> None:
    until = time.monotonic() + DEADLINE_S
    while not what():
        assert time.monotonic() < until, "not in time"
        time.sleep(0.02)


@pytest.fixture(autouse=True)
def clean() -> Iterator[None]:
    forget_tables()
    yield
    ponder.allow(False)
    ponder.share(None, 0)
    forget_tables()


def test_a_process_that_does_not_allow_it_never_ponders() -> None:
    _seed, moves, _value, _best = POSITIONS[0]
    game, state = position(moves)
    me = DotsPlayer(game, 5, seed=1)
    assert me.choose(state, state.to_move[0], 0.2) in state.legal_moves()
    assert not ponder.busy()
    assert ponder.start(lambda _deadline: None, lambda: None) is False
    assert kept_tables(game).pondered is None


def test_level_five_thinks_on_the_other_sides_time_until_its_next_think() -> None:
    ponder.allow(True)
    _seed, moves, _value, _best = POSITIONS[0]
    game, state = position(moves)
    seat = state.to_move[0]
    me = DotsPlayer(game, 5, seed=1)
    line = me.choose(state, seat, 0.2)
    after = state.play(line)
    # the other seat to move: the search of that position runs after the reply
    assert seat not in after.to_move
    assert ponder.busy() or kept_tables(game).pondered is not None
    reply = after.legal_moves()[0]
    nxt = after.play(reply)
    if seat in nxt.to_move:  # its turn again: the next think stops the search first
        me.choose(nxt, seat, 0.2)
        got = kept_tables(game).pondered
        assert got is not None and got[0] == after.drawn
    # levels below 5 never ponder
    ponder.stop()
    DotsPlayer(game, 4, seed=1).choose(state, seat, 0.2)
    assert not ponder.busy()


@pytest.mark.parametrize(
    ("seed", "moves", "value", "best"), POSITIONS, ids=[f"seed{p[0]}" for p in POSITIONS]
)
def test_after_thinking_on_the_other_sides_time_level_five_plays_the_solvers_line(
    seed: int, moves: str, value: int, best: list[str]
) -> None:
    """5×5 middle-game positions where the exact search never ends within a short budget
    cold; after the search of the position before the other side's last line has ended,
    the exact search comes first and its line keeps the value."""
    ponder.allow(True)
    game, state = position(moves)
    parent = position(" ".join(moves.split()[:-1]))[1]
    seat = state.to_move[0]
    me = DotsPlayer(game, 5, seed=1)
    assert me.ponder(parent, seat)
    wait_for(lambda: not ponder.busy())  # the search ended alone
    got = kept_tables(game).pondered
    assert got is not None and got[0] == parent.drawn and got[2]
    assert me.choose(state, seat, 5.0) in best
    assert me.last_reason == "solver, warm"


def test_a_ponder_is_stopped_and_runs_at_idle_priority() -> None:
    ponder.allow(True)
    seen: list[int] = []
    release = threading.Event()

    def think(deadline: float) -> None:
        seen.append(os.sched_getscheduler(0))
        assert deadline > time.monotonic()
        release.wait(DEADLINE_S)

    assert ponder.start(think, release.set, threads=2)
    wait_for(lambda: bool(seen))
    assert seen == [os.SCHED_IDLE]
    assert ponder.threads_pondering() == 2
    assert ponder.stop() > 0
    assert not ponder.busy() and ponder.threads_pondering() == 0
    assert ponder.stop() == 0.0  # nothing to stop


def test_a_cancel_that_comes_before_the_search_begins_is_not_lost() -> None:
    """`stop` cancels again until the thread ends: a search that resets its cancel flag
    when it begins (the core does) is still stopped."""
    ponder.allow(True)
    flag = {"cancel": False, "began": False}

    def think(_deadline: float) -> None:
        time.sleep(0.05)  # the stop's first cancel lands here, before the search
        flag["cancel"] = False  # the search begins: its flag reset
        flag["began"] = True
        while not flag["cancel"]:
            time.sleep(0.001)

    assert ponder.start(think, lambda: flag.update(cancel=True))
    ponder.stop()
    assert flag["began"] and not ponder.busy()


def test_the_workers_count_their_pondering_threads_in_one_shared_array(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import multiprocessing

    from vertex.ai.dots import core

    counts = multiprocessing.get_context("spawn").Array("i", 3, lock=False)
    counts[0] = 1  # another worker's
    ponder.share(counts, 2)
    ponder.allow(True)
    release = threading.Event()
    assert ponder.start(lambda _d: release.wait(DEADLINE_S), release.set, threads=2)
    wait_for(lambda: counts[2] == 2)
    assert ponder.threads_pondering() == 3 and counts[1] == 0
    counts[0] = 0
    # another worker's two pondering threads do not take the spare core away
    monkeypatch.setenv("VERTEX_AI_THREADS", "2")
    monkeypatch.setattr(core.os, "sched_getaffinity", lambda _pid: {0, 1})
    monkeypatch.setattr(core, "_running_threads", lambda: 3)  # this one and the two
    assert core.spare_core() is True
    ponder.stop()
    assert counts[:] == [0, 0, 0]
    assert core.spare_core() is False  # three threads that do not give way

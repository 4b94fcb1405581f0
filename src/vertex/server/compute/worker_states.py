"""The computer player's worker process keeps the states it built, so a table's next move
plays only the moves made since instead of replaying the whole record.

Only JSON crosses into the worker (ai_runner.py): the record, every time. Rebuilding its
state from scratch costs a replay of every move — on GYØ 30, 0.04 s a move early and 0.24 s
by move 2,000 (issue 24). Here each worker process keeps its last `KEPT` states by game set-up
(game, options, seed) with the moves that made them; a record that extends a kept one's moves
plays on from it. Anything else (another table, a take-back, another worker's table) is a
miss and replays, as before: the answer is the same either way.
"""

from __future__ import annotations

import json
from collections import OrderedDict

from vertex.core import State
from vertex.core.record import Record, play_on, replay

#: States a worker keeps (a few tables' worth: a worker serves the process's computer seats).
KEPT = 16

_kept: OrderedDict[str, tuple[list[tuple[int | None, str]], State]] = OrderedDict()


def state_of(record_json: str) -> State:
    """The state `record_json` describes, from a kept state when one leads to it."""
    rec = Record.from_json(record_json)
    key = json.dumps([rec.game, rec.options, rec.seed], sort_keys=True)
    moves = [(m.seat, m.move) for m in rec.moves]
    hit = _kept.pop(key, None)
    if hit is not None and len(hit[0]) <= len(moves) and moves[: len(hit[0])] == hit[0]:
        done = len(hit[0])
        state = play_on(hit[1], rec.moves[done:], first=done + 1)
    else:
        state = replay(rec)
    _kept[key] = (moves, state)
    while len(_kept) > KEPT:
        _kept.popitem(last=False)
    return state


def forget_all() -> None:
    """Drop every kept state (tests, benches)."""
    _kept.clear()

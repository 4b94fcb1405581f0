"""What a move costs to send (issue 14): bytes per move event to a spectator, and the
server's CPU per event, split into playing the move and making its message.

Each event's message carries the whole new state (`state.to_dict()`: board, legal moves,
scores), built once per event and serialised once per kind of viewer, whatever the number of
sockets. This plays random games through the server's own `Table` (the very code a move
goes through: check, fold, message, JSON) and prints, per board:

- bytes of the spectator's message per move (mean, max) and of the state inside it, and of
  the same message with the state as a patch (what a socket with `?deltas=1` gets: the page);
- µs per event to check and fold the move (`Table.move` + `apply`: the game's rules), to
  make its full message (`Table.message` + JSON), and to make both the message and its patch
  and send the patched one (diff + JSON: what the server does when every socket takes deltas);
- the share of the full message in the event's CPU.

    .venv/bin/python bench/bench_events.py [--games 3]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from typing import Any

from vertex.server.storage.repository import _sent
from vertex.server.table import turns, views
from vertex.server.table.events import StoredEvent
from vertex.server.table.table import Table

BOARDS: list[tuple[str, str, dict[str, Any]]] = [
    ("dots-and-boxes 3x3 (the load bench)", "dots-and-boxes", {"rows": 3, "cols": 3}),
    ("dots-and-boxes 12x12", "dots-and-boxes", {"rows": 12, "cols": 12}),
    ("vert3x gyo 15x15", "vert3x", {"rules": "gyo", "size": 15}),
]


def dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, separators=(",", ":"))


def seated(game: str, options: dict[str, Any], seed: int) -> Table:
    from vertex.core import create_game

    n = create_game(game, **options).seats
    spec = {"game": game, "options": options, "seed": seed, "seats": [{"kind": "human"}] * n}
    table = Table("bench", spec, 0.0)
    for s in range(n):
        table.apply(StoredEvent(table.v + 1, "seat", {"seat": s, "name": f"p{s}", "_token": ""}, 0))
    return table


def run(game: str, options: dict[str, Any], games: int) -> dict[str, float]:
    sizes: list[int] = []
    states: list[int] = []
    play_us: list[float] = []
    msg_us: list[float] = []
    delta_us: list[float] = []
    deltas: list[int] = []
    for g in range(games):
        table = seated(game, options, seed=g)
        rng = random.Random(g)
        base = (table.state.to_dict(), turns.sealed(table))
        said: dict[str, Any] = {}  # what the table's messages last said (repository.py)
        while not table.is_over:
            seat = table.state.to_move[0]
            move = rng.choice(table.state.legal_moves() or [""])
            t0 = time.perf_counter()
            ev = table.move(seat, move, 1.0)
            table.apply(ev)
            t1 = time.perf_counter()
            msg = views.message(table, ev)
            text = dumps(views.for_viewer(msg, None, turns.sealed(table)))
            t2 = time.perf_counter()
            sent = _sent(table, ev, base, said)
            patched = dumps(sent.for_deltas())
            t3 = time.perf_counter()
            base = (sent.msg["state"], sent.sealed)
            play_us.append((t1 - t0) * 1e6)
            msg_us.append((t2 - t1) * 1e6)
            delta_us.append((t3 - t2) * 1e6)
            sizes.append(len(text.encode()))
            deltas.append(len(patched.encode()))
            states.append(len(dumps(msg["state"]).encode()))
    play, make = statistics.mean(play_us), statistics.mean(msg_us)
    return {
        "moves": len(sizes),
        "bytes": statistics.mean(sizes),
        "max": max(sizes),
        "state": statistics.mean(states),
        "play": play,
        "msg": make,
        "delta B": statistics.mean(deltas),
        "delta": statistics.mean(delta_us),
        "share": make / (play + make),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=3)
    args = ap.parse_args()
    print(f"{args.games} random games a board; load average {os.getloadavg()[0]:.1f}")
    head = (
        "board",
        "moves",
        "B/move",
        "max B",
        "state B",
        "delta B",
        "play us",
        "msg us",
        "delta us",
        "msg share",
    )
    print(f"{head[0]:<38}" + "".join(f"{h:>10}" for h in head[1:]))
    for name, game, options in BOARDS:
        r = run(game, options, args.games)
        print(
            f"{name:<38}{r['moves']:>10.0f}{r['bytes']:>10.0f}{r['max']:>10.0f}"
            f"{r['state']:>10.0f}{r['delta B']:>10.0f}{r['play']:>10.0f}{r['msg']:>10.0f}"
            f"{r['delta']:>10.0f}{r['share']:>10.0%}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

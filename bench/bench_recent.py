"""What a large table keeps in memory for sockets that come back with `since` (issue 24):
the recent events' messages (recent.py) after N random moves on GYØ 30×30, measured with
tracemalloc as what is freed when the table's recent events are dropped, and when the whole
table leaves memory. One process, in-process store (SQLite in memory), no sockets.

    .venv/bin/python bench/bench_recent.py [--moves 200] [--size 30] [--cpu]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import secrets
import time
import tracemalloc

from vertex.core import create_game
from vertex.server.site.bus import LocalBus
from vertex.server.storage.repository import Repository
from vertex.server.storage.store import Store
from vertex.server.table.spec import SeatSpec, TableSpec


def held() -> int:
    gc.collect()
    return tracemalloc.get_traced_memory()[0]


async def run(moves: int, size: int, trace: bool) -> None:
    store = Store("sqlite://")
    await store.start()
    repo = Repository(store, LocalBus(), scaled=False)
    options = {"rules": "gyo", "size": size}
    game = create_game("vert3x", **options)
    spec = TableSpec(
        game="vert3x",
        options=game.options_dict(),
        seed=1,
        seats=[SeatSpec(kind="human"), SeatSpec(kind="human")],
    )
    if trace:
        tracemalloc.start()
    tid = secrets.token_urlsafe(12)
    table = await repo.open(tid, spec, "bench", time.time(), game)
    for n in (0, 1):
        await repo.submit(tid, lambda t, n=n: t.take_seat(n, f"p{n}", f"tok{n}", time.time()))
    rng = random.Random(7)
    cpu = time.process_time()
    for _ in range(moves):
        seat = table.state.to_move[0]
        move = rng.choice(table.state.legal_moves())
        await repo.submit(tid, lambda t, s=seat, m=move: t.move(s, m, time.time()))
    cpu = time.process_time() - cpu
    if not trace:
        print(f"GYØ {size}x{size}, {moves} moves: CPU {cpu / moves * 1000:.1f} ms a move")
        await store.close()
        return
    kept = len(list(repo.recent.of(tid)))
    total = held()
    repo.recent.forget(tid)
    recent = total - held()
    repo.forget(tid)
    del table
    rest = total - recent - held()
    tracemalloc.stop()
    await store.close()
    print(f"GYØ {size}x{size}, {moves} moves: {kept} recent messages kept")
    print(f"  recent events: {recent / 1e6:.1f} MB (counted by recent.py: see its budget)")
    print(f"  the rest of the table (state, base, log copies): {rest / 1e6:.1f} MB")
    print(f"  CPU a move (with tracemalloc on): {cpu / moves * 1000:.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--moves", type=int, default=200)
    ap.add_argument("--size", type=int, default=30)
    ap.add_argument("--cpu", action="store_true", help="CPU a move only, without tracemalloc")
    args = ap.parse_args()
    asyncio.run(run(args.moves, args.size, not args.cpu))


if __name__ == "__main__":
    main()

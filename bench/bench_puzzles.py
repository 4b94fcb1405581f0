"""Puzzles (issue 35): how fast `vertex puzzles make` finds verified puzzles, and how fast an
attempt is judged.

    .venv/bin/python bench/bench_puzzles.py [--minutes M] [--count N] [--sample K]

1. Making: `vertex.puzzles.make.make` on 4×4 Dots and Boxes (the command's own loop: games
   between computer players of levels 1–3, each position past ply 10 put to the solver), for
   `--minutes` or `--count` puzzles: verified puzzles a minute (target ≥ 20).
2. Judging: `--sample` shipped puzzles (every pool), each attempted through the HTTP route
   (`POST /api/puzzles/{id}/attempt`, in-process ASGI client, SQLite) twice — the stored
   answer and a move that fails — in a fresh process, so the solver tables start cold:
   median, p99 and slowest in ms (target p99 < 200 ms).
3. Picking: `GET /api/puzzles/next` of one board with `--mined` puzzles stored in it (copies
   of shipped ones, each with its pick rows), for a guest and for a player with a key:
   median and p99 in ms (the index's pick reads a row or twelve, not the pool).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from vertex.puzzles.make import make
from vertex.puzzles.model import pool_name
from vertex.puzzles.shipped import shipped
from vertex.server import Limits, Settings, create_app


def making(minutes: float, count: int) -> None:
    started = time.monotonic()
    found = list(make("dots-and-boxes", {"rows": 4, "cols": 4}, count, seed=7, minutes=minutes))
    spent = (time.monotonic() - started) / 60
    themes: dict[str, int] = {}
    for p in found:
        for t in p.themes:
            themes[t] = themes.get(t, 0) + 1
    print(
        f"making 4x4: {len(found)} verified puzzles in {spent:.2f} min = "
        f"{len(found) / spent:.1f} a minute (target >= 20)"
    )
    print("  themes: " + ", ".join(f"{k} {v}" for k, v in sorted(themes.items())))


def judging(sample: int) -> None:
    rng = random.Random(35)
    chosen = rng.sample(list(shipped()), min(sample, len(shipped())))
    with tempfile.TemporaryDirectory() as tmp:
        # one address asks for all of them: past the per-address limit of a real site
        limits = Limits(puzzle_moves_per_minute=1e6, puzzle_moves_burst=10**6)
        settings = Settings(database_url=f"sqlite:///{Path(tmp) / 'bench.db'}", limits=limits)
        times: list[float] = []
        by_pool: dict[str, list[float]] = {}
        with TestClient(create_app(settings)) as client:
            for p in chosen:
                view = client.get(f"/api/puzzles/{p.id}").json()
                legal = view["state"]["legal_moves"]
                wrong = next((m for m in legal if m != p.solution[0]), p.solution[0])
                for line in ([p.solution[0]], [wrong]):
                    t0 = time.perf_counter()
                    r = client.post(f"/api/puzzles/{p.id}/attempt", json={"moves": line})
                    ms = (time.perf_counter() - t0) * 1000
                    assert r.status_code == 200, r.text
                    times.append(ms)
                    by_pool.setdefault(pool_name(p.game, p.options), []).append(ms)
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(
        f"judging: {len(times)} attempts over HTTP, median {statistics.median(times):.1f} ms, "
        f"p99 {p99:.1f} ms, slowest {times[-1]:.1f} ms (target p99 < 200 ms)"
    )
    for pool, ts in sorted(by_pool.items()):
        ts.sort()
        print(
            f"  {pool:24} {len(ts):4} attempts  median {statistics.median(ts):6.1f} ms"
            f"  slowest {ts[-1]:7.1f} ms"
        )


def picking(mined: int, asks: int = 300) -> None:
    from dataclasses import replace

    from vertex.server.puzzles import picks, rows

    pool = "dots-and-boxes-4x4"
    base = [p for p in shipped() if pool_name(p.game, p.options) == pool]
    rng = random.Random(35)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(database_url=f"sqlite:///{Path(tmp) / 'bench.db'}")
        with TestClient(create_app(settings)) as client:
            hub = client.app.state.hub  # type: ignore[attr-defined]
            with hub.store.engine.begin() as conn:
                for i in range(mined):
                    p = replace(base[i % len(base)], id=f"m{i:011d}", source="review")
                    rows.add_puzzle(conn, p, pool, 1.0)
                    picks.add_rows(conn, picks.pick_rows(p, False, rng), True)
            key = client.post("/api/players", json={"name": "Bencher"}).json()["key"]
            params = {"game": "dots-and-boxes", "pool": pool}
            for who, headers in (("guest", {}), ("player", {"Authorization": f"Bearer {key}"})):
                times = []
                for _ in range(asks):
                    t0 = time.perf_counter()
                    r = client.get("/api/puzzles/next", params=params, headers=headers)
                    times.append((time.perf_counter() - t0) * 1000)
                    assert r.status_code == 200, r.text
                times.sort()
                print(
                    f"picking {pool} with {mined} mined, {who}: median "
                    f"{statistics.median(times):.1f} ms, p99 {times[int(len(times) * 0.99)]:.1f} ms"
                )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--minutes", type=float, default=2.0, help="making: at most this long")
    ap.add_argument("--count", type=int, default=60, help="making: at most this many")
    ap.add_argument("--sample", type=int, default=200, help="judging: shipped puzzles tried")
    ap.add_argument("--mined", type=int, default=20_000, help="picking: puzzles in the pool")
    ap.add_argument("--only", choices=("making", "judging", "picking"), help="one part only")
    args = ap.parse_args(argv)
    if args.only in (None, "making"):
        making(args.minutes, args.count)
    if args.only in (None, "judging"):
        judging(args.sample)
    if args.only in (None, "picking"):
        picking(args.mined)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Lobby benchmark (issue 18): the list, its socket, and sitting down from it.

(a) 1,000 listed tables in every state (waiting, playing, finished): `GET /api/lobby` (all
    games, and one game) p50/p99 and bytes;
(b) 500 lobby sockets connected: the bytes they receive and the server CPU per table change
    (a listed table opened, a seat taken), and the time from the change's request to the
    last socket hearing it; one process (SQLite) and two processes (a fresh PostgreSQL
    database + Redis, the sockets split between them, the changes made on the first);
(c) in Chromium: clicking "Sit" on a lobby entry until the game has started on both pages
    (the sitter's table page and the creator's), p50/p99 on loopback.

    nice .venv/bin/python bench/bench_lobby.py [--tables 1000] [--sockets 500]
        [--changes 100] [--sits 20] [--setups one,two] [--no-browser]

Not a test: the figures go to bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).parent))
from bench_load import PG_ADMIN, REDIS, cpu_seconds, free_port, wait_up

BOXES = {"game": "dots-and-boxes", "options": {"rows": 3, "cols": 3}, "listed": True}


def start(port: int, db: str, log: Path, redis: str | None, prefix: str) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERTEX_")}
    env.update(
        VERTEX_TABLES_PER_HOUR="1000000",
        VERTEX_MESSAGES_PER_SECOND="1000",
        VERTEX_LISTED_PER_ADDRESS="1000000",
        VERTEX_SOCKETS_PER_ADDRESS="1000000",  # every client is 127.0.0.1
        VERTEX_REDIS_PREFIX=prefix,
    )
    if redis is not None:
        env["VERTEX_REDIS_URL"] = redis
    cmd = [sys.executable, "-m", "vertex.cli", "serve", "--port", str(port), "--database", db]
    with log.open("wb") as out:
        return subprocess.Popen(cmd, stdout=out, stderr=out, env=env)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def fill(base: str, n: int) -> None:
    """n listed tables: 40% waiting (one seat taken), 30% playing, 30% finished."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        sem = asyncio.Semaphore(16)

        async def one(i: int) -> None:
            async with sem:
                tid = (await http.post("/api/tables", json=BOXES)).json()["id"]
                token = (
                    await http.post(f"/api/tables/{tid}/seats/0", json={"name": f"A{i}"})
                ).json()["token"]
                if i % 10 < 4:
                    return
                await http.post(f"/api/tables/{tid}/seats/1", json={"name": f"B{i}"})
                if i % 10 >= 7:
                    await http.post(
                        f"/api/tables/{tid}/actions", json={"token": token, "action": "resign"}
                    )

        await asyncio.gather(*(one(i) for i in range(n)))


def list_timings(base: str, rounds: int = 200) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with httpx.Client(base_url=base, timeout=30) as http:
        for label, params in (("all games", {}), ("one game", {"game": "dots-and-boxes"})):
            times, size = [], 0
            for _ in range(rounds):
                t0 = time.perf_counter()
                r = http.get("/api/lobby", params=params)
                times.append(time.perf_counter() - t0)
                size = len(r.content)
            counts = r.json()["counts"]
            out[label] = {
                "p50": pct(times, 0.5),
                "p99": pct(times, 0.99),
                "bytes": size,
                "counts": counts,
            }
    return out


async def socket_costs(
    bases: list[str], pids: list[int], sockets: int, changes: int
) -> dict[str, float]:
    conns = []
    for i in range(sockets):
        ws_base = bases[i % len(bases)].replace("http", "ws")
        conns.append(await websockets.connect(ws_base + "/ws/lobby", max_size=2**24))
    for ws in conns:
        await ws.recv()  # the list
    received = [0] * sockets
    counts = [0] * sockets
    last = [0.0] * sockets

    async def read(i: int, ws: Any) -> None:
        async for text in ws:
            received[i] += len(text)
            counts[i] += 1
            last[i] = time.perf_counter()

    readers = [asyncio.create_task(read(i, ws)) for i, ws in enumerate(conns)]
    await asyncio.sleep(0.5)
    cpu0 = sum(cpu_seconds(p) for p in pids)
    delays: list[float] = []
    async with httpx.AsyncClient(base_url=bases[0], timeout=30) as http:
        for k in range(changes):
            before = list(counts)
            t0 = time.perf_counter()
            if k % 2 == 0:
                r = await http.post("/api/tables", json=BOXES)
                tid = r.json()["id"]
            else:
                await http.post(f"/api/tables/{tid}/seats/0", json={"name": "Zed"})
            deadline = time.perf_counter() + 10
            while any(c == b for c, b in zip(counts, before, strict=True)):
                if time.perf_counter() > deadline:
                    raise SystemExit("a lobby socket missed a change")
                await asyncio.sleep(0.001)
            delays.append(max(last) - t0)
    cpu = sum(cpu_seconds(p) for p in pids) - cpu0
    for task in readers:
        task.cancel()
    for ws in conns:
        await ws.close()
    return {
        "bytes/change": sum(received) / changes,
        "bytes/change/socket": sum(received) / changes / sockets,
        "cpu ms/change": cpu * 1000 / changes,
        "heard p50 ms": pct(delays, 0.5) * 1000,
        "heard p99 ms": pct(delays, 0.99) * 1000,
    }


def run_setup(key: str, args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    prefix = f"vertex-bench-{secrets.token_hex(4)}:"
    db_name = None
    if key == "one":
        dbs = [f"sqlite:///{tmp / 'lobby.db'}"]
        redis = None
    else:
        import psycopg

        db_name = f"vertex_lobby_bench_{os.getpid()}"
        admin = psycopg.connect(PG_ADMIN, autocommit=True)
        admin.execute(f"CREATE DATABASE {db_name}")
        url = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql:", "postgresql+psycopg:")
        dbs = [url + "/" + db_name] * 2
        redis = REDIS
    procs, bases = [], []
    try:
        for i, db in enumerate(dbs):
            port = free_port()
            log = tmp / f"{key}-{i}.log"
            proc = start(port, db, log, redis, prefix)
            procs.append((proc, port, log))
            bases.append(f"http://127.0.0.1:{port}")
        for proc, port, log in procs:
            wait_up(port, proc, log)
        t0 = time.perf_counter()
        asyncio.run(fill(bases[0], args.tables))
        filled = time.perf_counter() - t0
        time.sleep(1.0)  # the last summaries reach every process
        lists = {b: list_timings(b) for b in bases}
        costs = asyncio.run(
            socket_costs(bases, [p.pid for p, _, _ in procs], args.sockets, args.changes)
        )
        return {"setup": key, "filled s": filled, "lists": lists, "costs": costs}
    finally:
        for proc, _, _ in procs:
            proc.terminate()
            proc.wait(timeout=30)
        if db_name is not None:
            admin.execute(f"DROP DATABASE IF EXISTS {db_name} WITH (FORCE)")
            admin.close()


def sit_timings(sits: int, tmp: Path) -> tuple[list[float], list[float]]:
    """Click Sit in a lobby → the game started on the sitter's and the creator's page."""
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(Path(__file__).parent.parent))
    from tests.web.conftest import ARGS, CHROMIUM, LiveServer

    tmp.mkdir(parents=True, exist_ok=True)

    both: list[float] = []
    sitter: list[float] = []
    with LiveServer(tmp) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for i in range(sits):
            made = server.post("/api/tables", BOXES)
            tid = made["id"]
            token = server.post(f"/api/tables/{tid}/seats/0", {"name": f"Ann{i}"})["token"]
            ctx_a, ctx_b = browser.new_context(), browser.new_context()
            ctx_b.add_init_script("localStorage.setItem('vertex.name', 'Bob')")
            a = ctx_a.new_page()
            a.goto(f"{server.url}/tables/{tid}#token={token}")
            a.wait_for_selector('[data-table][data-my-seat="0"]')
            b = ctx_b.new_page()
            b.goto(server.url + "/")
            sit = f'[data-lobby-table="{tid}"] [data-action="sit"]'
            b.wait_for_selector(sit)
            t0 = time.perf_counter()
            b.click(sit)
            b.wait_for_selector('[data-table][data-turn="0"][data-my-seat="1"]', timeout=30_000)
            t_b = time.perf_counter() - t0
            a.wait_for_selector('[data-table][data-turn="0"]', timeout=30_000)
            t_a = time.perf_counter() - t0
            sitter.append(t_b)
            both.append(max(t_a, t_b))
            ctx_a.close()
            ctx_b.close()
            server.post("/api/lobby/unlist", {"table": tid, "token": token})
        browser.close()
    return sitter, both


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=1000)
    ap.add_argument("--sockets", type=int, default=500)
    ap.add_argument("--changes", type=int, default=100)
    ap.add_argument("--sits", type=int, default=20)
    ap.add_argument("--setups", default="one,two")
    ap.add_argument("--no-browser", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp_s:
        tmp = Path(tmp_s)
        rows = [run_setup(k, args, tmp) for k in args.setups.split(",") if k]
        sits = None if args.no_browser else sit_timings(args.sits, tmp / "web")
    load = os.getloadavg()[0]
    print(
        f"{args.tables} listed tables (40% waiting, 30% playing, 30% finished); "
        f"load average {load:.1f} on {os.cpu_count()} cores"
    )
    for r in rows:
        label = (
            "one process, SQLite" if r["setup"] == "one" else "two processes, PostgreSQL + Redis"
        )
        print(f"\n{label} (filled in {r['filled s']:.1f} s)")
        for base, lists in r["lists"].items():
            for what, m in lists.items():
                print(
                    f"  GET /api/lobby ({what}) on {base.rsplit(':', 1)[1]}: p50 "
                    f"{m['p50'] * 1000:.2f} ms, p99 {m['p99'] * 1000:.2f} ms, "
                    f"{m['bytes']:,} bytes, counts {m['counts']}"
                )
        c = r["costs"]
        print(
            f"  {args.sockets} lobby sockets, {args.changes} changes: "
            f"{c['bytes/change/socket']:.0f} bytes per socket per change "
            f"({c['bytes/change']:,.0f} in all), server CPU {c['cpu ms/change']:.1f} ms per "
            f"change, last socket heard it p50 {c['heard p50 ms']:.1f} ms, "
            f"p99 {c['heard p99 ms']:.1f} ms"
        )
    if sits is not None:
        sitter, both = sits
        print(
            f"\nClick Sit -> game started ({len(both)} sits): sitter's page p50 "
            f"{statistics.median(sitter) * 1000:.0f} ms p99 {pct(sitter, 0.99) * 1000:.0f} ms; "
            f"both pages p50 {statistics.median(both) * 1000:.0f} ms "
            f"p99 {pct(both, 0.99) * 1000:.0f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

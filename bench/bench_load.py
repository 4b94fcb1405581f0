"""Load benchmark of the server (issue 6): N tables x 2 players as socket clients on loopback.

Starts one real `vertex serve` process on a fresh SQLite file, opens N Dots-and-Boxes tables,
connects both players of each (2N sockets) and has them play random legal moves. A move's
latency is from the mover sending it to the opponent's socket receiving its broadcast.
Prints moves/s and p50/p99 latency, for a paced run (the target rate) and an unpaced one.

    .venv/bin/python bench/bench_load.py [--tables 500] [--seconds 20] [--rate 500]

Not a test: the figures go to bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

BOARD = {"rows": 3, "cols": 3}  # the default board: 24 lines, then a rematch


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server(port: int, db: Path, log: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ)
    env.pop("VERTEX_REDIS_URL", None)
    env["VERTEX_TABLES_PER_HOUR"] = "1000000"
    env["VERTEX_MESSAGES_PER_SECOND"] = "1000"
    cmd = [sys.executable, "-m", "vertex.cli", "serve", "--port", str(port)]
    cmd += ["--database", f"sqlite:///{db}"]
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=out, env=env)
    for _ in range(400):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.TransportError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server did not start:\n" + log.read_text())


class Run:
    def __init__(
        self, base: str, tables: int, seconds: float, rate: float | None, pid: int
    ) -> None:
        self.base = base
        self.pid = pid
        self.tables = tables
        self.seconds = seconds
        self.rate = rate
        self.sent: dict[tuple[str, int], float] = {}  # (table, version after) -> send time
        self.schedules: dict[str, list[float]] = {}  # table -> [time of its next move]
        self.latencies: list[float] = []
        self.moves = 0
        self.errors = 0
        self.measuring = False
        self.stop = False

    async def setup(self) -> list[tuple[str, list[str]]]:
        out = []
        async with httpx.AsyncClient(base_url=self.base, timeout=30) as http:
            for _ in range(self.tables):
                r = await http.post(
                    "/api/tables", json={"game": "dots-and-boxes", "options": BOARD}
                )
                tid = r.json()["id"]
                tokens = []
                for n in (0, 1):
                    r = await http.post(f"/api/tables/{tid}/seats/{n}", json={"name": f"p{n}"})
                    tokens.append(r.json()["token"])
                out.append((tid, tokens))
        return out

    async def player(self, tid: str, seat: int, token: str, ready: asyncio.Event) -> None:
        """Play table after table: when a game ends, seat 0 asks for the rematch and both
        follow it with the same token (the seats rotate, so who plays first alternates)."""
        rng = random.Random(hash((tid, seat)))
        # paced: each table moves every `gap` s, whichever player is due (extra turns
        # included); both players of a table share its schedule, which follows rematches
        gap = None if self.rate is None else self.tables / self.rate
        schedule = self.schedules.setdefault(tid, [time.perf_counter() + rng.random() * (gap or 0)])
        while not self.stop and tid:
            ws_url = self.base.replace("http", "ws") + f"/ws/tables/{tid}?token={token}"
            async with websockets.connect(ws_url, max_size=1 << 22, compression=None) as ws:
                snap = json.loads(await ws.recv())
                state, v, seat = snap["table"]["state"], snap["v"], snap["seat"]
                await ready.wait()
                tid = await self.play_one(ws, tid, seat, state, v, gap, schedule, rng)

    async def play_one(
        self,
        ws: Any,
        tid: str,
        seat: int,
        state: dict[str, Any],
        v: int,
        gap: float | None,
        schedule: list[float],
        rng: random.Random,
    ) -> str:
        """One game; returns the rematch table's id ("" to stop)."""
        asked = False
        while not self.stop:
            if state["is_over"] and seat == 0 and not asked:
                await ws.send(json.dumps({"t": "rematch"}))
                asked = True
            elif state["to_move"] == [seat]:
                if gap is not None:
                    wait = schedule[0] - time.perf_counter()
                    if wait > 0:
                        await asyncio.sleep(wait)
                    # keep each table's phase: resetting late tables to "now" would line
                    # them all up after any hiccup and turn the load into bursts
                    schedule[0] += gap
                    now = time.perf_counter()
                    if schedule[0] < now:
                        schedule[0] += gap * ((now - schedule[0]) // gap + 1)
                move = rng.choice(state["legal_moves"])
                self.sent[(tid, v + 1)] = time.perf_counter()
                await ws.send(json.dumps({"t": "move", "move": move, "v": v}))
            while True:  # read until the table changes
                try:
                    msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=1.0))
                except TimeoutError:
                    if self.stop:
                        return ""
                    continue
                if msg["t"] == "error":
                    self.errors += 1
                    break
                if msg["t"] != "event":
                    continue
                if msg["kind"] == "rematch":
                    return str(msg["table"])
                if "state" in msg:
                    state, v = msg["state"], msg["v"]
                    if msg.get("seat") != seat:  # the opponent's move, as broadcast to us
                        t0 = self.sent.pop((tid, v), None)
                        if t0 is not None and self.measuring:
                            self.latencies.append(time.perf_counter() - t0)
                            self.moves += 1
                    break
        return ""

    async def go(self) -> dict[str, Any]:
        tables = await self.setup()
        ready = asyncio.Event()
        tasks = [
            asyncio.create_task(self.player(tid, seat, tokens[seat], ready))
            for tid, tokens in tables
            for seat in (0, 1)
        ]
        await asyncio.sleep(1.0 + self.tables / 500)  # let every socket connect
        ready.set()
        await asyncio.sleep(2.0)  # warm up
        self.measuring = True
        t0, cpu0, me0 = time.perf_counter(), cpu_seconds(self.pid), time.process_time()
        await asyncio.sleep(self.seconds)
        self.measuring = False
        elapsed = time.perf_counter() - t0
        server_cpu = (cpu_seconds(self.pid) - cpu0) / elapsed
        client_cpu = (time.process_time() - me0) / elapsed
        self.stop = True
        await asyncio.gather(*tasks, return_exceptions=True)
        lat = sorted(self.latencies)

        def pct(p: float) -> float:
            return 1000 * lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")

        return {
            "sockets": 2 * self.tables,
            "rate": "max" if self.rate is None else f"{self.rate:g}",
            "moves/s": self.moves / elapsed,
            "p50 ms": pct(0.50),
            "p99 ms": pct(0.99),
            "errors": self.errors,
            "server cpu": server_cpu,
            "client cpu": client_cpu,
        }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=500)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--rate", type=float, default=500.0, help="paced target, moves/s")
    ap.add_argument("--only", choices=("paced", "max"), help="run one of the two loads")
    args = ap.parse_args()
    rates = {"paced": [args.rate], "max": [None], None: [args.rate, None]}[args.only]
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = start_server(port, Path(tmp) / "bench.db", Path(tmp) / "server.log")
        rows = []
        try:
            for rate in rates:
                run = Run(f"http://127.0.0.1:{port}", args.tables, args.seconds, rate, proc.pid)
                rows.append(asyncio.run(run.go()))
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    load = os.getloadavg()[0]
    print(
        f"server: 1 process, SQLite; {args.tables} tables x 2 players; {args.seconds:g} s each;"
        f" load average {load:.1f} on {os.cpu_count()} cores"
    )
    head = ("sockets", "target/s", "moves/s", "p50 ms", "p99 ms", "errors", "srv cpu", "cli cpu")
    print(" ".join(f"{h:>9}" for h in head))
    for r in rows:
        print(
            f"{r['sockets']:>9} {r['rate']:>9} {r['moves/s']:>9.0f} {r['p50 ms']:>9.1f}"
            f" {r['p99 ms']:>9.1f} {r['errors']:>9} {r['server cpu']:>9.0%} {r['client cpu']:>9.0%}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Fair shares (issue 24): one greedy address against another's computer replies and analyses.

Runs each case against the code before (`--before`: a checkout of main from before the fair
scheduler, e.g. `git worktree add /tmp/h24fair-before <commit>`) and after (this tree), in one
run, one real `vertex serve` process each (SQLite, computer players in worker processes, the
pools sized to the machine), so the figures share the machine's load:

- computer: address A (127.0.0.1) opens `--hog` Dots and Boxes tables with two level-5
  computer seats (each think takes its whole budget, 0.5 s); address B (127.0.0.2) plays a
  person against a level-1 computer. B's reply time: from B's move being broadcast (the
  computer is due) to the computer's move being broadcast.
- analysis: A keeps three analyses asked at all times (within its rate: a refused one waits
  a second) on a 4×4 board no solver settles in time (each takes the whole 3 s); B asks for
  one every 4 s on another such table. B's times and B's `busy` refusals.

    .venv/bin/python bench/bench_fair.py --before /tmp/h24fair-before [--hog 20]
        [--replies 15] [--seconds 40]

Not a test: the figures go to bench/RESULTS.md (with `cat /proc/loadavg`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).parent))
from bench_load import free_port, start_server, wait_up

A, B = "127.0.0.1", "127.0.0.2"  # two client addresses on the loopback
BIG = {"rows": 5, "cols": 5}  # 60 lines: the computers' games last the whole case
HARD = {"rows": 4, "cols": 4}  # an empty 4×4 board: the exact solver runs out of time


def client(base: str, address: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(base_url=base, timeout=60, transport=transport)


async def table(http: httpx.AsyncClient, options: dict[str, Any], seats: Any) -> str:
    body = {"game": "dots-and-boxes", "options": options, "seats": seats, "analysis": True}
    r = await http.post("/api/tables", json=body)
    if r.status_code == 422:  # code from before tables could allow analysis during play
        del body["analysis"]
        r = await http.post("/api/tables", json=body)
    r.raise_for_status()
    return str(r.json()["id"])


async def computer_case(base: str, hog: int, replies: int) -> dict[str, Any]:
    async with client(base, A) as a, client(base, B) as b:
        level5 = [{"kind": "ai", "level": 5}, {"kind": "ai", "level": 5}]
        for _ in range(hog):
            await table(a, BIG, level5)
        await asyncio.sleep(3.0)  # every computer of A thinking, the pool's queue full
        tid = await table(b, BIG, [{"kind": "human"}, {"kind": "ai", "level": 1}])
        r = await b.post(f"/api/tables/{tid}/seats/0", json={"name": "b"})
        token = r.json()["token"]
    url = base.replace("http", "ws") + f"/ws/tables/{tid}?token={token}"
    times: list[float] = []
    async with websockets.connect(url, max_size=1 << 22, local_addr=(B, 0)) as ws:
        snap = json.loads(await ws.recv())
        state, v = snap["table"]["state"], snap["v"]
        due_at: float | None = None
        while len(times) < replies and not state["is_over"]:
            if state["to_move"] == [0]:
                await ws.send(json.dumps({"t": "move", "move": state["legal_moves"][0], "v": v}))
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 120))
                if msg["t"] == "error":
                    raise SystemExit(f"refused: {msg}")
                if msg["t"] == "event" and "state" in msg:
                    break
            state, v = msg["state"], msg["v"]
            if msg.get("seat") == 1 and due_at is not None:
                times.append(time.perf_counter() - due_at)
                due_at = None
            if state["to_move"] == [1] and due_at is None:
                due_at = time.perf_counter()
    return {
        "replies": len(times),
        "median_s": round(statistics.median(times), 3),
        "max_s": round(max(times), 3),
    }


async def analysis_case(base: str, seconds: float) -> dict[str, Any]:
    async with client(base, A) as a, client(base, B) as b:
        ta = await table(a, HARD, None)
        tb = await table(b, HARD, None)
        stop = time.perf_counter() + seconds
        a_done = 0

        async def greedy() -> None:
            nonlocal a_done
            while time.perf_counter() < stop:
                r = await a.post(f"/api/tables/{ta}/analysis", json={})
                if r.status_code == 200:
                    a_done += 1
                else:
                    await asyncio.sleep(1.0)  # rate-limited or busy: wait a little

        hogs = [asyncio.create_task(greedy()) for _ in range(3)]
        await asyncio.sleep(4.0)  # A's analyses under way
        times: list[float] = []
        busy = 0
        while time.perf_counter() < stop:
            t0 = time.perf_counter()
            r = await b.post(f"/api/tables/{tb}/analysis", json={})
            if r.status_code == 200:
                times.append(time.perf_counter() - t0)
            elif r.json()["error"]["code"] == "busy":
                busy += 1
            else:
                raise SystemExit(f"B refused: {r.status_code} {r.text}")
            await asyncio.sleep(max(0.0, 4.0 - (time.perf_counter() - t0)))
        await asyncio.gather(*hogs)
    return {
        "b_asked": len(times) + busy,
        "b_busy": busy,
        "b_median_s": round(statistics.median(times), 2) if times else None,
        "b_max_s": round(max(times), 2) if times else None,
        "a_answered": a_done,
    }


def run_case(name: str, src: str | None, case: str, args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        log = Path(tmp) / "server.log"
        proc = start_server(port, f"sqlite:///{tmp}/bench.db", log, None, src)
        try:
            wait_up(port, proc, log)
            time.sleep(3.0)  # the worker processes start and import the players
            base = f"http://127.0.0.1:{port}"
            if case == "computer":
                out = asyncio.run(computer_case(base, args.hog, args.replies))
            else:
                out = asyncio.run(analysis_case(base, args.seconds))
        finally:
            proc.terminate()
            proc.wait(10)
    out = {"code": name, "case": case, **out}
    print(json.dumps(out), flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", help="a checkout of the code before (its src/ is used)")
    ap.add_argument("--hog", type=int, default=20)
    ap.add_argument("--replies", type=int, default=15)
    ap.add_argument("--seconds", type=float, default=40.0)
    ap.add_argument("--cases", default="computer,analysis")
    args = ap.parse_args()
    print("load average:", Path("/proc/loadavg").read_text().strip(), "cores:", os.cpu_count())
    for case in args.cases.split(","):
        if args.before:
            run_case("before", str(Path(args.before) / "src"), case, args)
        run_case("after", None, case, args)
    print("load average:", Path("/proc/loadavg").read_text().strip())


if __name__ == "__main__":
    main()

"""Many 5×5 tables against level 5 at once (issue 36, resources): memory and reply times.

    .venv/bin/python bench/bench_level5_tables.py [--tables 100] [--seconds 90]
        [--per-move 30] [--think 2,8] [--no-ponder]

One `vertex serve` process (SQLite, its default computer workers: one per core) and
`--tables` tables of 5×5 Dots and Boxes, each a person (this bench, from an address of its
own: `X-Forwarded-For` through a trusted proxy, so the workers are shared fairly as between
strangers) against level 5, with a clock of `--per-move` seconds a move. The person thinks
`--think` seconds (uniform) and draws a quiet line (one that gives no cell a third side)
while there is one, else any line. Measured: the computer's reply time (from the person's
move sent to the computer's move heard), how many came later than the clock allows, and the
most memory (RSS) each process of the server held, sampled every second (the workers keep
at most 256 MiB of solver tables each, whatever the number of tables). Level 5 thinks on the
people's time between its thinks unless `--no-ponder` (`Settings.ai_ponder`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from bench_load import free_port, start_server, wait_up

ROWS = COLS = 5


def quiet_moves(state: dict[str, Any], legal: list[str]) -> list[str]:
    """The legal lines that give no cell a third side, from the view's board."""
    board = state["board"]
    drawn = {line["name"] for line in board["lines"] if line["drawn"]}
    left = {}  # line -> the sides left of the cells it bounds
    for cell in board["cells"]:
        n = sum(line not in drawn for line in cell["lines"])
        for line in cell["lines"]:
            left.setdefault(line, []).append(n)
    return [m for m in legal if all(n > 2 for n in left.get(m, []))]


def tree_rss(pid: int) -> dict[int, int]:
    """RSS in bytes of a process and its children (Linux /proc)."""
    out: dict[int, int] = {}
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            status = Path(f"/proc/{p}/status").read_text()
            kids = [
                k
                for task in Path(f"/proc/{p}/task").iterdir()
                for k in (task / "children").read_text().split()
            ]
        except OSError:
            continue
        for line in status.splitlines():
            if line.startswith("VmRSS:"):
                out[p] = int(line.split()[1]) * 1024
        todo += [int(k) for k in kids]
    return out


class Run:
    def __init__(self, base: str, tables: int, per_move: float, think: tuple[float, float]):
        self.base = base
        self.tables = tables
        self.per_move = per_move
        self.think = think
        self.replies: list[float] = []
        self.late = 0
        self.stop = False
        self.games = 0

    async def table(self, i: int) -> None:
        address = f"10.{i // 250}.{i % 250}.7"
        headers = {"X-Forwarded-For": address}
        async with httpx.AsyncClient(base_url=self.base, timeout=60, headers=headers) as http:
            body = {
                "game": "dots-and-boxes",
                "options": {"rows": ROWS, "cols": COLS},
                "seats": [{"kind": "human"}, {"kind": "ai", "level": 5}],
                "clock": {"per_move": self.per_move},
            }
            tid = (await http.post("/api/tables", json=body)).json()["id"]
            r = await http.post(f"/api/tables/{tid}/seats/0", json={"name": f"p{i}"})
            token = r.json()["token"]
        rng = random.Random(i)
        url = self.base.replace("http", "ws") + f"/ws/tables/{tid}?hello=1"
        async with websockets.connect(
            url, max_size=1 << 22, compression=None, additional_headers=headers
        ) as ws:
            await ws.send(json.dumps({"t": "hello", "token": token}))
            snap = json.loads(await ws.recv())
            state, v = snap["table"]["state"], snap["v"]
            sent: float | None = None
            while not self.stop and not state["is_over"]:
                if state["to_move"] == [0]:
                    await asyncio.sleep(rng.uniform(*self.think))
                    legal = state["legal_moves"]
                    move = rng.choice(quiet_moves(state, legal) or legal)
                    sent = time.perf_counter()
                    await ws.send(json.dumps({"t": "move", "move": move, "v": v}))
                while not self.stop:
                    try:
                        msg = json.loads(await asyncio.wait_for(ws.recv(), timeout=1.0))
                    except TimeoutError:
                        continue
                    if "v" in msg and msg.get("v", 0) > v and "table" in msg:
                        state, v = msg["table"]["state"], msg["v"]
                    elif msg.get("t") == "event" and msg.get("v", 0) > v and "state" in msg:
                        state, v = msg["state"], msg["v"]
                    else:
                        continue
                    last = (state.get("last_move") or {}).get("seat")
                    if sent is not None and last == 1:
                        took = time.perf_counter() - sent
                        self.replies.append(took)
                        self.late += took > self.per_move
                        sent = None
                    break
            self.games += state["is_over"]


async def sample(proc_pid: int, peaks: dict[int, int], run: Run) -> None:
    while not run.stop:
        for pid, rss in tree_rss(proc_pid).items():
            peaks[pid] = max(peaks.get(pid, 0), rss)
        await asyncio.sleep(1.0)


async def main_async(args: argparse.Namespace) -> None:
    port = free_port()
    tmp = Path(tempfile.mkdtemp(prefix="vertex-l5-"))
    proc = start_server(
        port,
        f"sqlite:///{tmp / 'v.db'}",
        tmp / "server.log",
        None,
        extra_env={
            "VERTEX_TRUSTED_PROXIES": "127.0.0.1/32",
            "VERTEX_AI_PONDER": "0" if args.no_ponder else "1",
        },
    )
    try:
        wait_up(port, proc, tmp / "server.log")
        run = Run(f"http://127.0.0.1:{port}", args.tables, args.per_move, args.think)
        peaks: dict[int, int] = {}
        sampler = asyncio.create_task(sample(proc.pid, peaks, run))
        tasks = [asyncio.create_task(run.table(i)) for i in range(args.tables)]
        await asyncio.sleep(args.seconds)
        run.stop = True
        await asyncio.gather(*tasks, return_exceptions=True)
        await sampler
        r = sorted(run.replies)
        print(
            f"{args.tables} tables of {ROWS}x{COLS} against level 5, {args.seconds:g} s, clock "
            f"{args.per_move:g} s a move, the person thinks {args.think[0]:g}-{args.think[1]:g}"
            f" s, {'no ponder' if args.no_ponder else 'pondering'}; load {os.getloadavg()[0]:.2f}"
        )
        if r:
            print(
                f"computer replies: {len(r)}, median {statistics.median(r):.2f} s, p99 "
                f"{r[max(0, round(0.99 * len(r)) - 1)]:.2f} s, max {r[-1]:.2f} s; "
                f"later than the clock: {run.late}"
            )
        for pid, rss in sorted(peaks.items()):
            who = "server" if pid == proc.pid else "worker"
            print(f"  {who} {pid}: most RSS {rss / (1 << 20):.0f} MiB")
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tables", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=90.0)
    ap.add_argument("--per-move", type=float, default=30.0, help="the tables' clock (s a move)")
    ap.add_argument("--think", default="2,8", help="the person's seconds a move: low,high")
    ap.add_argument(
        "--no-ponder", action="store_true", help="the workers never think on the people's time"
    )
    args = ap.parse_args()
    low, high = (float(x) for x in args.think.split(","))
    args.think = (low, high)
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()

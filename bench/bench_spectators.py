"""One move reaching many spectators (issue 20): p50/p99 from a move sent to its event
reaching the last spectator socket of the table.

One `vertex serve` process (a fresh SQLite file); one Dots-and-Boxes table (12x12, so a game
lasts); its two players on sockets; N spectator sockets (`?deltas=1`, as the page asks),
spread over client processes so the clients' own reading is not the bottleneck. A player
sends a move; the time is from the send to the moment the last spectator has the event
(the clients report their receive times; one machine, one clock). Moves go one at a time.
Beside the latencies: the CPU per move of the server process and of the clients (the
spectators' processes and the players'), from /proc, over the same moves: on a box the
clients share with the server, how much of a move's time is the server's own work.

`--before SRC` runs the same against another copy of the code (e.g. a worktree of the
commit before the change: `git worktree add /tmp/before 147e1c3` then `--before
/tmp/before/src`), in the same run, and prints the ratio.

    nice .venv/bin/python bench/bench_spectators.py [--spectators 1000] [--moves 40]
        [--clients 2] [--before SRC]

Not a test: the figures go to bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
import light_ws
from bench_load import free_port, start_server, wait_up

#: The CPUs this bench may use (read before it pins itself to the clients' ones).
ALL_CPUS = frozenset(os.sched_getaffinity(0))
#: How much lower the clients' priority is than the server's.
CLIENT_NICE = 5

BOARD = {"rows": 12, "cols": 12}


def _pin(cpus: set[int] | None, nice: int) -> None:
    """Keep this process to `cpus` (None: anywhere) and lower its priority by `nice`."""
    if cpus:
        os.sched_setaffinity(0, cpus)
    if nice:
        os.nice(nice)


def _watch(
    port: int,
    tid: str,
    n: int,
    ready: Any,
    out: Any,
    stop: Any,
    cpus: set[int] | None,
    raw: bool,
) -> None:
    """A client process: `n` spectator sockets (light_ws.py: frames split by hand, each
    event's version read from its first bytes, no JSON decode; with `raw`, once connected,
    read by one epoll loop rather than asyncio's callbacks); for each event version, when
    the last of them got it (time.time()), put on `out`."""
    _pin(cpus, CLIENT_NICE)

    async def main() -> None:
        got: dict[int, list[float]] = {}  # version -> [sockets that have it, last arrival]
        live = [n]  # sockets still open (one the server closed would never get the event)

        def on_event(v: int, at: float) -> None:
            seen = got.setdefault(v, [0, 0.0])
            seen[0] += 1
            seen[1] = max(seen[1], at)
            if seen[0] >= live[0]:
                out.put((v, seen[1]))
                del got[v]

        def on_end() -> None:
            live[0] -= 1

        path = f"/ws/tables/{tid}?deltas=1"
        socks: list[light_ws.Reader] = []
        for i in range(0, n, 50):  # connect in bursts, not all at once
            socks += await asyncio.gather(
                *(
                    light_ws.connect("127.0.0.1", port, path, on_event, on_end)
                    for _ in range(min(50, n - i))
                )
            )
        while any(s.frames == 0 for s in socks):  # each has its snapshot
            await asyncio.sleep(0.05)
        ready.put(n)
        if raw:  # one blocking epoll loop reads them all from here on (light_ws.read_raw)
            light_ws.read_raw(socks, on_event, on_end, stop.is_set)
        while not stop.is_set():
            await asyncio.sleep(0.2)
        for s in socks:
            s.close()

    asyncio.run(main())


def cpu_s(pid: int, user: bool = True, system: bool = True) -> float:
    """CPU seconds (user, system or both) a process has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = (int(fields[11]) if user else 0) + (int(fields[12]) if system else 0)
    return ticks / os.sysconf("SC_CLK_TCK")


async def _play(
    port: int, tid: str, tokens: list[str], moves: int, outs: list[Any], cpu: dict[str, Any]
) -> list[float]:
    """Play `moves` moves; `cpu["pids"]` (name -> pid lists) get their CPU seconds over the
    moves in `cpu["used"]` (name -> seconds)."""
    lat: list[float] = []
    base = f"ws://127.0.0.1:{port}/ws/tables/{tid}?token="
    players = [
        await websockets.connect(base + t, max_size=None, ping_interval=None) for t in tokens
    ]
    state: dict[str, Any] = {}
    for ws in players:
        snap = json.loads(await ws.recv())
        state = snap["table"]["state"]
    v = snap["v"]
    loop = asyncio.get_running_loop()
    pids: dict[str, list[int]] = cpu["pids"]
    began = {k: sum(cpu_s(p) for p in ps) for k, ps in pids.items()}
    # the server's system time: its sends, and on loopback the receivers' TCP work it does
    began_sys = cpu_s(pids["server"][0], user=False)
    for i in range(moves):
        seat = state["to_move"][0]
        move = state["legal_moves"][i * 7 % len(state["legal_moves"])]
        t0 = time.time()
        await players[seat].send(json.dumps({"t": "move", "move": move, "v": v, "id": i}))
        lasts = [await loop.run_in_executor(None, q.get, True, 120) for q in outs]
        v = max(x[0] for x in lasts)
        cpu.setdefault("versions", set()).add(v)
        lat.append((max(x[1] for x in lasts) - t0) * 1000)
        # the players' own messages: the new state (they take full states)
        for ws in players:
            while True:
                msg = json.loads(await ws.recv())
                if msg["t"] == "event" and msg["v"] == v:
                    state = msg["state"]
                    break
        await asyncio.sleep(0.05)
        if state["is_over"]:
            break
    cpu["used"] = {k: sum(cpu_s(p) for p in ps) - began[k] for k, ps in pids.items()}
    cpu["used"]["server sys"] = cpu_s(pids["server"][0], user=False) - began_sys
    for ws in players:
        await ws.close()
    return lat


def cpu_split(pin: bool) -> tuple[set[int] | None, set[int] | None]:
    """With `pin` and at least 2 CPUs: the server gets CPU 0 to itself, the clients the
    rest (so the measuring tool does not take the server's time); else both run anywhere."""
    cpus = sorted(ALL_CPUS)
    if not pin or len(cpus) < 2:
        return None, None
    return {cpus[0]}, set(cpus[1:])


def fanouts(log: Path, versions: set[int]) -> tuple[list[float], list[float]]:
    """The server's fan-out of each event in `versions`, in ms: its wall time from making
    the first text to writing it to the last socket (`fanout_us` of the event's log line),
    and the server thread's CPU time over the same (`fanout_cpu_us`, which does not depend
    on what else the box runs). Code without them gives none."""
    wall, cpu = [], []
    for line in log.read_text(errors="replace").splitlines():
        if '"fanout_us"' not in line:
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            continue
        if rec.get("v") in versions:
            wall.append(rec["fanout_us"] / 1000)
            if "fanout_cpu_us" in rec:
                cpu.append(rec["fanout_cpu_us"] / 1000)
    return sorted(wall), sorted(cpu)


def _p(xs: list[float], q: float) -> float:
    """The q-quantile of sorted `xs` (nan when empty): p99 of 30 moves is their max."""
    if not xs:
        return float("nan")
    return xs[min(len(xs) - 1, int(len(xs) * q))]


def run(
    spectators: int, moves: int, clients: int, src: str | None, pin: bool, raw: bool
) -> dict[str, float]:
    port = free_port()
    server_cpus, client_cpus = cpu_split(pin)
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "server.log"
        proc = start_server(port, f"sqlite:///{tmp}/bench.db", log, None, src, server_cpus)
        try:
            wait_up(port, proc, log)
            http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
            tid = http.post(
                "/api/tables", json={"game": "dots-and-boxes", "options": BOARD}
            ).json()["id"]
            tokens = [
                http.post(f"/api/tables/{tid}/seats/{n}", json={"name": f"p{n}"}).json()["token"]
                for n in range(2)
            ]
            ctx = mp.get_context("spawn")
            ready, stop = ctx.Queue(), ctx.Event()
            outs = [ctx.Queue() for _ in range(clients)]
            share = [spectators // clients + (i < spectators % clients) for i in range(clients)]
            procs = [
                ctx.Process(
                    target=_watch,
                    args=(port, tid, share[i], ready, outs[i], stop, client_cpus, raw),
                )
                for i in range(clients)
            ]
            for p in procs:
                p.start()
            for _ in procs:
                ready.get(timeout=300)
            cpu: dict[str, Any] = {
                "pids": {
                    "server": [proc.pid],
                    "clients": [p.pid for p in procs if p.pid is not None] + [os.getpid()],
                }
            }
            _pin(client_cpus, 0)  # the players' process too
            lat = asyncio.run(_play(port, tid, tokens, moves, outs, cpu))
            stop.set()
            for p in procs:
                p.join(30)
        finally:
            proc.terminate()
            proc.wait(10)
            fan, fan_cpu = fanouts(log, cpu["versions"]) if "versions" in cpu else ([], [])
            if os.environ.get("BENCH_KEEP_LOG"):  # the server's log, to read afterwards
                shutil.copy(log, os.environ["BENCH_KEEP_LOG"])
    lat.sort()
    return {
        "moves": len(lat),
        "p50": statistics.median(lat),
        "p99": _p(lat, 0.99),
        "max": lat[-1],
        # CPU per move (ms): the server process, and the spectator clients with the players
        "server cpu": cpu["used"]["server"] * 1000 / len(lat),
        "server sys": cpu["used"]["server sys"] * 1000 / len(lat),
        "client cpu": cpu["used"]["clients"] * 1000 / len(lat),
        # the server's fan-out (first text made to last socket written), ms: wall and CPU
        "fan p50": _p(fan, 0.5),
        "fan p99": _p(fan, 0.99),
        "fan cpu p50": _p(fan_cpu, 0.5),
        "fan cpu p99": _p(fan_cpu, 0.99),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--spectators", type=int, default=1000)
    ap.add_argument("--moves", type=int, default=40)
    ap.add_argument("--clients", type=int, default=2)
    ap.add_argument("--before", help="the src directory of the code to compare with")
    ap.add_argument(
        "--no-pin",
        action="store_true",
        help="let the server and the clients run on any CPU (default: the server on one "
        "CPU of its own, the clients on the others, niced)",
    )
    ap.add_argument(
        "--asyncio-clients",
        action="store_true",
        help="the spectators read through asyncio's callbacks (the default: one epoll loop a "
        "client process, which takes less of the box's CPU a frame)",
    )
    args = ap.parse_args()
    pin = not args.no_pin
    raw = not args.asyncio_clients
    load0 = os.getloadavg()[0]
    rows = []
    if args.before:
        rows.append(
            ("before", run(args.spectators, args.moves, args.clients, args.before, pin, raw))
        )
    rows.append(("this code", run(args.spectators, args.moves, args.clients, None, pin, raw)))
    load = os.getloadavg()[0]
    server_cpus, client_cpus = cpu_split(pin)
    where = (
        f"server on CPU {sorted(server_cpus)}, clients on {sorted(client_cpus)}"
        f" (nice +{CLIENT_NICE})"
        if server_cpus and client_cpus
        else "server and clients on any CPU"
    )
    reading = "asyncio callbacks" if args.asyncio_clients else "one epoll loop each"
    print(
        f"{args.spectators} spectators of one table, {args.clients} client processes"
        f" ({reading}); {where};"
    )
    print(f"load average {load0:.1f} at the start, {load:.1f} at the end")
    print(
        "end to end: a move sent to the last spectator's arrival; fan-out: the server's, first"
        " text made to last socket written (wall, and the server thread's CPU)"
    )
    print(
        f"{'code':<12} {'moves':>6} {'e2e p50':>8} {'e2e p99':>8} {'max ms':>8}"
        f" {'fan-out p50':>12} {'p99':>6} {'fan cpu p50':>12} {'p99':>6}"
        f" {'srv cpu ms/move':>16} {'of it system':>13} {'cli cpu ms/move':>16}"
    )
    for name, r in rows:
        print(
            f"{name:<12} {r['moves']:>6} {r['p50']:>8.1f} {r['p99']:>8.1f} {r['max']:>8.1f}"
            f" {r['fan p50']:>12.1f} {r['fan p99']:>6.1f}"
            f" {r['fan cpu p50']:>12.1f} {r['fan cpu p99']:>6.1f}"
            f" {r['server cpu']:>16.1f} {r['server sys']:>13.1f} {r['client cpu']:>16.1f}"
        )
    if len(rows) == 2:
        b, a = rows[0][1], rows[1][1]
        print(f"ratio before/after: p50 {b['p50'] / a['p50']:.1f}x, p99 {b['p99'] / a['p99']:.1f}x")


if __name__ == "__main__":
    main()

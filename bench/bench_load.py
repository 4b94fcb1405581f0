"""Load benchmark of the server (issues 6, 14): N tables x 2 players as socket clients.

Runs the same load against set-ups, one after the other in one run: one `vertex serve`
process on a fresh SQLite file (`sqlite`; `sqlite-metrics`: the same with `--metrics-port`,
scraped every second); one process on PostgreSQL + Redis (`pg`); two processes on the same
PostgreSQL (a fresh database, dropped afterwards) and Redis, with each table's two players on
different processes (`pg2`: every move crosses from one process to the other over Redis);
the same two behind Debian's nginx as deploy/nginx/vertex.conf sets it up (`nginx2`: every
client through nginx, which spreads the sockets over the two). N
Dots-and-Boxes tables, both players of each connected (2N sockets), random legal moves; a
move's latency is from the mover sending it to the opponent's socket receiving its broadcast.
A few tables more have a computer seat (level 1) against a person, to count thinks per
computer move (each process's /healthz `thinks` against the computer moves in the records:
1.0 means no move was thought twice, on any process).

    .venv/bin/python bench/bench_load.py [--tables 500] [--seconds 20] [--rate 500]
        [--setups sqlite,pg,pg2]  (also: sqlite-metrics, nginx2, before)

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
import threading
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
    """User + system CPU time of a process and its children (the computer players' worker),
    from Linux /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        children = []
    return own + sum(cpu_seconds(int(c)) for c in children)


PG_ADMIN = os.environ.get("VERTEX_BENCH_POSTGRES", "postgresql://127.0.0.1:5432/test")
REDIS = os.environ.get("VERTEX_BENCH_REDIS", "redis://127.0.0.1:6379/1")


def start_server(
    port: int,
    db: str,
    log: Path,
    redis: str | None,
    src: str | None = None,
    cpus: set[int] | None = None,
    metrics_port: int | None = None,
    extra_env: dict[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    """`vertex serve` on `port`; `cpus`: the only CPUs it may run on (None: any);
    `extra_env`: more VERTEX_ settings."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("VERTEX_")}
    env.update(extra_env or {})
    if src is not None:  # another copy of the code (`--before`)
        env["PYTHONPATH"] = src
    env["VERTEX_TABLES_PER_HOUR"] = "1000000"
    env["VERTEX_MESSAGES_PER_SECOND"] = "1000"
    # every client of a bench is one address (127.0.0.1): no cap on its sockets (64 a process
    # by default would leave most tables unplayed)
    env["VERTEX_SOCKETS_PER_ADDRESS"] = "1000000"
    if redis is not None:
        env["VERTEX_REDIS_URL"] = redis
    cmd = [sys.executable, "-m", "vertex.cli", "serve", "--port", str(port), "--database", db]
    if metrics_port is not None:
        cmd += ["--metrics-port", str(metrics_port)]
    with log.open("wb") as out:
        pin = None if cpus is None else (lambda: os.sched_setaffinity(0, cpus))
        proc = subprocess.Popen(cmd, stdout=out, stderr=out, env=env, preexec_fn=pin)
    return proc


def wait_up(port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
    for _ in range(600):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server did not start:\n" + log.read_text())


class PgDatabase:
    """A fresh PostgreSQL database for one set-up, dropped afterwards (and its Redis keys)."""

    def __init__(self) -> None:
        import psycopg

        self.name = f"vertex_bench_{os.getpid()}"
        self.admin = psycopg.connect(PG_ADMIN, autocommit=True)
        self.admin.execute(f"CREATE DATABASE {self.name}")
        self.url = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql:", "postgresql+psycopg:")
        self.url += "/" + self.name

    def drop(self) -> None:
        import redis

        self.admin.execute(f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)")
        self.admin.close()
        r = redis.Redis.from_url(REDIS)
        for key in r.scan_iter("vertex:*"):
            r.delete(key)
        r.close()


class Run:
    def __init__(
        self,
        bases: list[str],
        tables: int,
        ai_tables: int,
        seconds: float,
        rate: float | None,
        pids: list[int],
    ) -> None:
        self.bases = bases
        self.pids = pids
        self.tables = tables
        self.ai_tables = ai_tables
        self.seconds = seconds
        self.rate = rate
        self.sent: dict[tuple[str, int], float] = {}  # (table, version after) -> send time
        self.schedules: dict[str, list[float]] = {}  # table -> [time of its next move]
        self.latencies: list[float] = []
        self.moves = 0
        self.errors = 0
        self.measuring = False
        self.stop = False
        self.ai_seen: set[str] = set()  # every table with a computer seat that was played

    async def setup(self) -> list[tuple[str, list[str], bool]]:
        out = []
        clients = [httpx.AsyncClient(base_url=b, timeout=30) for b in self.bases]
        try:
            for i in range(self.tables + self.ai_tables):
                ai = i >= self.tables
                seats = [{"kind": "human"}, {"kind": "ai", "level": 1}] if ai else None
                body = {"game": "dots-and-boxes", "options": BOARD, "seats": seats}
                r = await clients[i % len(clients)].post("/api/tables", json=body)
                tid = r.json()["id"]
                tokens = []
                for n in (0,) if ai else (0, 1):  # each seat on its own process (of two)
                    http = clients[(i + n) % len(clients)]
                    r = await http.post(f"/api/tables/{tid}/seats/{n}", json={"name": f"p{n}"})
                    tokens.append(r.json()["token"])
                out.append((tid, tokens, ai))
        finally:
            for c in clients:
                await c.aclose()
        return out

    async def player(
        self, tid: str, seat: int, token: str, base: str, ai: bool, ready: asyncio.Event
    ) -> None:
        """Play table after table: when a game ends, seat 0 (or the computer's opponent)
        asks for the rematch and both follow it with the same token (the seats rotate, so
        who plays first alternates)."""
        rng = random.Random(hash((tid, seat)))
        # paced: each table moves every `gap` s, whichever player is due (extra turns
        # included); both players of a table share its schedule, which follows rematches
        gap = None if self.rate is None else (self.tables + self.ai_tables) / self.rate
        schedule = self.schedules.setdefault(tid, [time.perf_counter() + rng.random() * (gap or 0)])
        while not self.stop and tid:
            if ai:
                self.ai_seen.add(tid)
            ws_url = base.replace("http", "ws") + f"/ws/tables/{tid}?token={token}"
            async with websockets.connect(ws_url, max_size=1 << 22, compression=None) as ws:
                snap = json.loads(await ws.recv())
                state, v, seat = snap["table"]["state"], snap["v"], snap["seat"]
                await ready.wait()
                asks = ai or seat == 0
                tid = await self.play_one(ws, tid, seat, state, v, gap, schedule, rng, asks)
                if ai and tid:
                    self.ai_seen.add(tid)  # (its computer may move before we connect)

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
        asks: bool,
    ) -> str:
        """One game; returns the rematch table's id ("" to stop)."""
        asked = False
        while not self.stop:
            if state["is_over"] and asks and not asked:
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
                if msg["t"] == "ack" and "table" in msg:
                    return str(msg["table"])
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
        n = len(self.bases)
        tasks = [
            asyncio.create_task(
                self.player(tid, seat, tokens[seat], self.bases[(i + seat) % n], ai, ready)
            )
            for i, (tid, tokens, ai) in enumerate(tables)
            for seat in range(len(tokens))
        ]
        await asyncio.sleep(1.0 + self.tables / 500)  # let every socket connect
        ready.set()
        await asyncio.sleep(2.0)  # warm up
        self.measuring = True
        t0, me0 = time.perf_counter(), time.process_time()
        cpu0 = [cpu_seconds(p) for p in self.pids]
        await asyncio.sleep(self.seconds)
        self.measuring = False
        elapsed = time.perf_counter() - t0
        server_cpu = sum(cpu_seconds(p) - c for p, c in zip(self.pids, cpu0, strict=True))
        client_cpu = (time.process_time() - me0) / elapsed
        self.stop = True
        await asyncio.gather(*tasks, return_exceptions=True)
        lat = sorted(self.latencies)

        def pct(p: float) -> float:
            return 1000 * lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")

        return {
            "sockets": sum(len(t[1]) for t in tables),
            "rate": "max" if self.rate is None else f"{self.rate:g}",
            "moves/s": self.moves / elapsed,
            "p50 ms": pct(0.50),
            "p99 ms": pct(0.99),
            "errors": self.errors,
            "server cpu": server_cpu / elapsed,
            "client cpu": client_cpu,
        }


async def thinks(bases: list[str]) -> int:
    """Computer players asked for a move so far, on every process."""
    async with httpx.AsyncClient(timeout=30) as http:
        # (-inf from code that does not count them: the ratio then shows as nan)
        got = [(await http.get(base + "/healthz")).json().get("thinks") for base in bases]
        return sum(got) if None not in got else -(10**9)


async def thinks_per_computer_move(bases: list[str], ai_tables: set[str]) -> tuple[int, int]:
    """(thinks on every process, computer moves in the records of the computer tables)."""
    await asyncio.sleep(2.0)  # a think under way when the players stopped lands meanwhile
    async with httpx.AsyncClient(timeout=30) as http:
        thought = await thinks(bases)
        moves = 0
        todo, seen = list(ai_tables), set(ai_tables)
        while todo:  # the tables played, and their rematches (one may have just opened)
            tid = todo.pop()
            rec = (await http.get(f"{bases[0]}/api/tables/{tid}/record")).json()
            kinds = [s["kind"] for s in rec["seats"]]
            moves += sum(1 for m in rec["moves"] if kinds[m["seat"]] == "ai")
            after = (await http.get(f"{bases[0]}/api/tables/{tid}")).json()["rematch"]
            if after and after not in seen:
                seen.add(after)
                todo.append(after)
    return thought, moves


SETUPS = {
    "before": ("before: 1 process, SQLite", 1, False),
    "sqlite": ("1 process, SQLite", 1, False),
    "pg": ("1 process, PostgreSQL + Redis", 1, True),
    "pg2": ("2 processes, PostgreSQL + Redis", 2, True),
    "sqlite-metrics": ("1 process, SQLite, metrics scraped", 1, False),
    "nginx2": ("nginx + 2 processes, PG + Redis", 2, True),
}


def scrape_every_second(ports: list[int], stop: threading.Event) -> None:
    """What Prometheus does (every 15 s by default; here every second, to be harsh)."""
    with httpx.Client(timeout=5) as http:
        while not stop.wait(1.0):
            for port in ports:
                http.get(f"http://127.0.0.1:{port}/metrics")


def start_nginx(ports: list[int], tmp: Path) -> Any:
    """deploy/nginx/vertex.conf in front of `ports` (tests/server/deploy/nginx.py renders
    it); its process's CPU counts as the server's."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.server.deploy.nginx import Nginx

    folder = tmp / "nginx"
    folder.mkdir(exist_ok=True)
    nginx = Nginx(folder, ports, connections=16384)
    nginx.start()
    return nginx


def run_setup(key: str, args: argparse.Namespace, tmp: Path) -> list[dict[str, Any]]:
    _name, processes, pg = SETUPS[key]
    database = PgDatabase() if pg else None
    db = database.url if database else f"sqlite:///{tmp / (key + '.db')}"
    ports = [free_port() for _ in range(processes)]
    logs = [tmp / f"{key}-{i}.log" for i in range(processes)]
    src = args.before if key == "before" else None
    metrics = [free_port() for _ in ports] if key.endswith("-metrics") else [None] * len(ports)
    procs = [
        start_server(port, db, log, REDIS if pg else None, src, metrics_port=m)
        for port, log, m in zip(ports, logs, metrics, strict=True)
    ]
    rows = []
    nginx = None
    scraping = threading.Event()
    try:
        for port, proc, log in zip(ports, procs, logs, strict=True):
            wait_up(port, proc, log)
        bases = direct = [f"http://127.0.0.1:{port}" for port in ports]
        pids = [p.pid for p in procs]
        if key == "nginx2":
            nginx = start_nginx(ports, tmp)
            bases = [nginx.url]
            pids.append(nginx.proc.pid)
        if metrics[0] is not None:
            scraper = threading.Thread(
                target=scrape_every_second, args=(metrics, scraping), daemon=True
            )
            scraper.start()
        rates = {"paced": [args.rate], "max": [None], None: [args.rate, None]}[args.only]
        for rate in rates:
            run = Run(bases, args.tables, args.ai_tables, args.seconds, rate, pids)
            before = asyncio.run(thinks(direct))  # (each process's own count)
            row = asyncio.run(run.go())
            thought, moves = asyncio.run(thinks_per_computer_move(direct, run.ai_seen))
            thought = -1 if before < 0 else thought - before
            row["setup"] = key
            row["thinks/move"] = thought / moves if moves and thought >= 0 else float("nan")
            row["computer moves"] = moves
            rows.append(row)
    finally:
        scraping.set()
        if nginx is not None:
            nginx.stop()
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(timeout=20)
        if database is not None:
            database.drop()
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=500)
    ap.add_argument("--ai-tables", type=int, default=10, help="tables against a computer")
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--rate", type=float, default=500.0, help="paced target, moves/s")
    ap.add_argument("--only", choices=("paced", "max"), help="run one of the two loads")
    ap.add_argument("--setups", default="sqlite,pg,pg2", help="of: " + ",".join(SETUPS))
    ap.add_argument(
        "--before",
        metavar="SRC",
        help="the `src` directory of another copy of the code, for the `before` set-up "
        "(e.g. `git archive HEAD src | tar -x -C /tmp/before`, then /tmp/before/src)",
    )
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for key in args.setups.split(","):
            rows += run_setup(key, args, Path(tmp))
    load = os.getloadavg()[0]
    print(
        f"{args.tables} tables x 2 players + {args.ai_tables} against a computer (level 1);"
        f" {args.seconds:g} s each; load average {load:.1f} on {os.cpu_count()} cores"
    )
    head = ("sockets", "target/s", "moves/s", "p50 ms", "p99 ms", "errors", "srv cpu", "cli cpu")
    print(f"{'set-up':<33}" + " ".join(f"{h:>9}" for h in head) + "  thinks/computer move")
    for r in rows:
        print(
            f"{SETUPS[r['setup']][0]:<33}"
            f"{r['sockets']:>9} {r['rate']:>9} {r['moves/s']:>9.0f} {r['p50 ms']:>9.1f}"
            f" {r['p99 ms']:>9.1f} {r['errors']:>9} {r['server cpu']:>9.0%} {r['client cpu']:>9.0%}"
            f"  {r['thinks/move']:.2f} ({r['computer moves']} moves)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

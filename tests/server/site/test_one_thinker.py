"""Two real `vertex serve` processes on PostgreSQL + Redis (issue 37): a computer seat thinks
on exactly one process, its first move included (finding 11), and the spectators' count
counts addresses once across the processes (finding 4), in the table and in the lobby.

Each process serves its metrics on a port of its own (`--metrics-port`), and trusts
127.0.0.1 as its proxy, so a test client names its address in `X-Forwarded-For`. The site
has a Redis prefix of its own (`VERTEX_SITE`): other runs sharing the Redis stay apart.

Skipped (with the reason) when PostgreSQL or Redis is not reachable.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.sync.client import ClientConnection, connect

from tests.eventually import eventually
from tests.server.serve import ServeProcess, free_port
from tests.server.site.test_scaleout import PG, REDIS, _reachable

pytestmark = pytest.mark.skipif(bool(_reachable()), reason=_reachable() or "")


class Proc(ServeProcess):
    def __init__(self, log: Path, site: str) -> None:
        self.metrics = free_port()
        super().__init__(
            log,
            env={
                "VERTEX_DATABASE_URL": PG,
                "VERTEX_REDIS_URL": REDIS,
                "VERTEX_SITE": site,
                "VERTEX_TRUSTED_PROXIES": "127.0.0.1",
                "VERTEX_AI_WORKERS": "1",
                "VERTEX_ANALYSIS_WORKERS": "1",
            },
            args=["--metrics-port", str(self.metrics)],
        )

    def thinks(self) -> float:
        """`vertex_computer_thinks` of this process, every game."""
        text = httpx.get(f"http://127.0.0.1:{self.metrics}/metrics", timeout=5).text
        return sum(
            s.value
            for family in text_string_to_metric_families(text)
            if family.name == "vertex_computer_thinks"
            for s in family.samples
            if s.name == "vertex_computer_thinks_total"
        )

    def think_lines(self, tid: str) -> int:
        n = 0
        for line in self.log.read_text(errors="replace").splitlines():
            if line.startswith("{") and '"event":"think"' in line:
                n += json.loads(line)["table"] == tid
        return n


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Proc, Proc]]:
    logs = tmp_path_factory.mktemp("one-thinker")
    name = "t" + secrets.token_hex(4)
    a, b = Proc(logs / "a.log", name), Proc(logs / "b.log", name)
    try:
        a.start()  # (one after the other: two processes on an empty database race to make
        b.start()  # its schema, and the loser refuses to start)
        yield a, b
    finally:
        a.stop()
        b.stop()
        _forget(name)


def _forget(site: str) -> None:
    import redis

    r = redis.Redis.from_url(REDIS)
    try:
        keys = list(r.scan_iter(match=f"{site}:*", count=1000))
        if keys:
            r.delete(*keys)
    finally:
        r.close()


def _owner(site: str, tid: str) -> str | None:
    import redis

    r = redis.Redis.from_url(REDIS)
    try:
        raw = r.get(f"{site}:lease:{tid}")
        return None if raw is None else raw.decode()
    finally:
        r.close()


def _recv(ws: ClientConnection, pred: Any, timeout: float = 30.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        assert left > 0, "the expected message never came"
        msg: dict[str, Any] = json.loads(ws.recv(timeout=left))
        if pred(msg):
            return msg


class Seat:
    """A human seat's socket that keeps the table's version and state as it hears them."""

    def __init__(self, p: Proc, tid: str, token: str) -> None:
        self.ws = connect(f"{p.ws}/ws/tables/{tid}?hello=1", legacy=True)
        self.ws.send(json.dumps({"t": "hello", "token": token}))
        snap = _recv(self.ws, lambda m: m["t"] == "snapshot")
        self.seat: int = snap["seat"]
        self.v: int = snap["v"]
        self.state: dict[str, Any] = snap["table"]["state"]
        self.result: Any = snap["table"]["result"]
        self.computer = 0  # the computer seat's moves heard

    def take(self, msg: dict[str, Any]) -> None:
        if msg["t"] != "event":
            return
        self.v = msg["v"]
        if msg["kind"] == "move" and msg["seat"] == 0:
            self.computer += 1
        if "state" in msg:
            self.state, self.result = msg["state"], msg["result"]

    def due(self) -> bool:
        return self.result is None and self.seat in self.state["to_move"]

    def move(self) -> None:
        move = self.state["legal_moves"][0]
        self.ws.send(json.dumps({"t": "move", "move": move, "v": self.v, "id": self.v}))
        while True:
            msg: dict[str, Any] = json.loads(self.ws.recv(timeout=30))
            if msg["t"] in ("ack", "error"):
                assert msg["t"] == "ack", msg
                return
            self.take(msg)

    def drain(self) -> None:
        while True:
            try:
                msg = json.loads(self.ws.recv(timeout=0.02))
            except TimeoutError:
                return
            self.take(msg)


def test_a_computer_seat_thinks_on_one_process_first_move_included(
    site: tuple[Proc, Proc],
) -> None:
    """A table with a computer seat (it moves first) opened through A; one human sits and
    moves through B, the other through A. Every think, the first included, is started on
    A (the owner) and none on B: the processes' `vertex_computer_thinks` say so, and add up
    to the computer's moves."""
    a, b = site
    before = {p: p.thinks() for p in site}
    body = {
        "game": "dots-and-boxes",
        "options": {"rows": 2, "cols": 3, "players": 3},
        "seats": [{"kind": "ai", "level": 1}, {"kind": "human"}, {"kind": "human"}],
    }
    r = a.http.post(a.url + "/api/tables", json=body, timeout=10)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    assert _owner(a.env["VERTEX_SITE"], tid) == a.health()["worker"]
    tokens = {}
    for seat, p in ((1, b), (2, a)):  # the last seat taken (the start) through A
        got = p.http.post(f"{p.url}/api/tables/{tid}/seats/{seat}", json={"name": "Ann"})
        assert got.status_code == 200, got.text
        tokens[seat] = got.json()["token"]
    on_b, on_a = Seat(b, tid, tokens[1]), Seat(a, tid, tokens[2])
    players = [on_b, on_a]
    while on_b.result is None and on_b.computer < 4:
        for pl in players:
            pl.drain()
        mover = next((pl for pl in players if pl.due()), None)
        if mover is not None:
            mover.move()
        elif on_b.result is None:  # the computer's turn: wait for what comes
            on_b.take(json.loads(on_b.ws.recv(timeout=30)))
    for pl in players:
        pl.ws.close()
    rec = a.http.get(f"{a.url}/api/tables/{tid}/record", timeout=10).json()
    computer = sum(1 for m in rec["moves"] if m["seat"] == 0)
    assert computer >= 2 and rec["moves"][0]["seat"] == 0  # its first move is in
    # the counters are read after the moves are in: every think that made one is counted
    thinks = {p: p.thinks() - before[p] for p in site}
    assert thinks[b] == 0 and b.think_lines(tid) == 0, thinks
    assert thinks[a] == computer == a.think_lines(tid), (thinks, computer)


def test_one_addresses_sockets_on_both_processes_count_once(site: tuple[Proc, Proc]) -> None:
    """Spectator sockets from one address on A and on B count 1 on both processes and in
    both lobbies; a second address makes 2; the first address leaving A but staying on B
    still counts (1 + 1); everyone gone, 0."""
    a, b = site
    body = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}, "listed": True}
    tid = a.http.post(a.url + "/api/tables", json=body, timeout=10).json()["id"]
    player = a.http.post(f"{a.url}/api/tables/{tid}/seats/0", json={"name": "Ann"}).json()

    last: dict[ClientConnection, int] = {}  # what each socket heard last

    def watch(p: Proc, address: str) -> ClientConnection:
        ws = connect(
            f"{p.ws}/ws/tables/{tid}", additional_headers={"X-Forwarded-For": address}, legacy=True
        )
        last[ws] = _recv(ws, lambda m: m["t"] == "watching")["n"]
        return ws

    def hears(ws: ClientConnection, n: int) -> None:
        """The socket's count is `n` now, or comes to be within the timeout."""
        if last[ws] != n:
            last[ws] = _recv(ws, lambda m: m["t"] == "watching" and m["n"] == n)["n"]

    def lobby(p: Proc) -> int:
        view = p.http.get(p.url + "/api/lobby", timeout=10).json()
        listed = [e for s in view.values() if isinstance(s, list) for e in s]
        return int(next(e["watching"] for e in listed if e["id"] == tid))

    def lobbies(n: int) -> None:
        eventually(lambda: lobby(a) == lobby(b) == n, timeout=15, what=f"both lobbies at {n}")

    seat = connect(f"{a.ws}/ws/tables/{tid}?hello=1", legacy=True)
    seat.send(json.dumps({"t": "hello", "token": player["token"]}))
    last[seat] = _recv(seat, lambda m: m["t"] == "watching")["n"]
    x_on_a = [watch(a, "203.0.113.7") for _ in range(3)]
    x_on_b = [watch(b, "203.0.113.7") for _ in range(2)]
    time.sleep(3.5)  # three ticks: each process has read the other's addresses
    for ws in (seat, *x_on_a, *x_on_b):
        hears(ws, 1)
    lobbies(1)
    for ws in (seat, *x_on_a, *x_on_b):  # and no socket heard anything but 1 since
        with pytest.raises(TimeoutError):
            ws.recv(timeout=0.01)
    y_on_b = watch(b, "198.51.100.2")
    for ws in (seat, *x_on_a, *x_on_b, y_on_b):
        hears(ws, 2)
    lobbies(2)
    for ws in x_on_a:  # x still watches on B
        ws.close()
    time.sleep(3.5)
    lobbies(2)
    for ws in (seat, y_on_b):
        hears(ws, 2)
        with pytest.raises(TimeoutError):  # nothing changed: nothing sent
            ws.recv(timeout=0.01)
    for ws in (*x_on_b, y_on_b):
        ws.close()
    hears(seat, 0)
    lobbies(0)
    seat.close()

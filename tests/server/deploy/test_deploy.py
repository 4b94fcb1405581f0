"""The site as deploy/ runs it: Debian's nginx (deploy/nginx/vertex.conf, rendered for the
test's ports) in front of two `vertex serve` processes started with deploy/vertex.env, on
PostgreSQL and Redis. A game is played through nginx (HTTP and sockets) while the processes
are restarted one after the other (SIGTERM, as systemd does): no accepted move is lost or
stored twice, and the sockets are told to reconnect (1012) and come back with `since`. The
per-address limits see the real client address, which a client cannot forge.

The site's tests are skipped (with the reason) where nginx is not installed (`apt-get
install nginx`) or PostgreSQL or Redis cannot be reached.
"""

from __future__ import annotations

import json
import re
import secrets
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

import vertex
from tests.server.deploy.nginx import DEPLOY, NGINX, Nginx, env_file
from tests.server.serve import ServeProcess
from tests.server.site.test_scaleout import PG, REDIS, _reachable

_why = "nginx is not installed (Debian: apt-get install nginx)" if NGINX is None else _reachable()

TABLES_PER_HOUR = 3
SOCKETS_PER_ADDRESS = 3  # on each process


class Site:
    def __init__(self, tmp: Path) -> None:
        env = env_file()
        env.update(
            {
                "VERTEX_DATABASE_URL": PG,
                "VERTEX_REDIS_URL": REDIS,
                "VERTEX_SITE": "deploy-" + secrets.token_hex(4),  # this run's own keys
                "VERTEX_TABLES_PER_HOUR": str(TABLES_PER_HOUR),
                "VERTEX_SOCKETS_PER_ADDRESS": str(SOCKETS_PER_ADDRESS),
                "VERTEX_AI_WORKERS": "1",  # a small box
                "VERTEX_ANALYSIS_WORKERS": "1",
            }
        )
        self.env = env
        self.procs = [ServeProcess(tmp / f"p{i}.log", env=env) for i in range(2)]
        self.nginx = Nginx(tmp, [p.port for p in self.procs])
        env["VERTEX_PUBLIC_URL"] = self.nginx.url
        self.http = httpx.Client(base_url=self.nginx.url, timeout=10)

    def start(self) -> None:
        for p in self.procs:
            p.launch()
        for p in self.procs:
            p.wait_up()
        self.nginx.start()

    def stop(self) -> None:
        self.nginx.stop()
        for p in self.procs:
            p.stop()
        self.http.close()

    def restart(self, p: ServeProcess) -> None:
        """What `systemctl restart vertex@PORT` does: SIGTERM, wait for the exit, start."""
        assert p.proc is not None
        p.proc.terminate()
        # (uvicorn re-raises the signal once it has shut down cleanly: -15)
        assert p.proc.wait(timeout=30) in (0, -15), p.log.read_text()
        p.start()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    if _why:  # (the files' own checks below run anyway)
        pytest.skip(_why)
    s = Site(tmp_path_factory.mktemp("deploy"))
    s.start()
    try:
        yield s
    finally:
        s.stop()


class Player:
    """A seat's socket through nginx, reconnecting with `since` whenever it is closed."""

    def __init__(self, site: Site, tid: str, token: str) -> None:
        self.site, self.tid, self.token = site, tid, token
        self.v = 0
        self.heard: list[tuple[int, str]] = []  # (seat, move) of each move event, in order
        self.acked: list[str] = []
        self.closes: list[int | None] = []
        self.ws = self._open(None)

    def _open(self, since: int | None) -> ClientConnection:
        url = f"{self.site.nginx.ws}/ws/tables/{self.tid}?hello=1"
        if since is not None:
            url += f"&since={since}"
        ws = connect(url, open_timeout=10, legacy=True)
        ws.send(json.dumps({"t": "hello", "token": self.token}))
        head = json.loads(ws.recv(timeout=10))
        if head["t"] == "snapshot":
            assert since is None, head  # `since` was kept: a resume, not a snapshot
            self.seat: int = head["seat"]
            self.v = head["v"]
            self.state: dict[str, Any] = head["table"]["state"]
            self.result: Any = head["table"]["result"]
        else:
            assert head["t"] == "resume" and head["since"] == self.v, head
        return ws

    def recv(self, timeout: float) -> dict[str, Any] | None:
        """The next message; None when the socket was closed (then it is opened again)."""
        try:
            msg: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
            return msg
        except ConnectionClosed as exc:
            self.closes.append(exc.rcvd.code if exc.rcvd else None)
            deadline = time.monotonic() + 30
            while True:  # nginx may need a moment to find the live process
                try:
                    self.ws = self._open(self.v)
                    return None
                except (OSError, ConnectionClosed, TimeoutError) as err:
                    assert time.monotonic() < deadline, err
                    time.sleep(0.1)

    def take(self, msg: dict[str, Any] | None) -> None:
        if msg is None or msg["t"] != "event":
            return
        assert msg["v"] == self.v + 1, (msg["v"], self.v)  # in order, nothing twice
        self.v = msg["v"]
        if msg["kind"] == "move":
            self.heard.append((msg["seat"], msg["move"]))
        if "state" in msg:
            self.state, self.result = msg["state"], msg["result"]

    def drain(self) -> None:
        while True:
            try:
                msg = self.recv(0.01)
            except TimeoutError:
                return
            if msg is None:
                continue
            self.take(msg)

    def due(self) -> bool:
        return self.result is None and self.state["to_move"] == [self.seat]

    def move(self) -> None:
        """Play the first legal move on the socket; an answer that never comes (the socket
        closed) is found out from the events after the reconnect."""
        move = self.state["legal_moves"][0]
        self.ws.send(json.dumps({"t": "move", "move": move, "v": self.v, "id": self.v}))
        while True:
            msg = self.recv(30)
            if msg is None:
                return  # reconnected: what landed comes as events
            if msg["t"] == "ack":
                self.acked.append(move)
                return
            if msg["t"] == "error":
                assert msg["code"] in ("stale", "not-your-turn", "busy"), msg
                return
            self.take(msg)


def test_a_game_through_nginx_survives_a_rolling_restart(site: Site) -> None:
    http = site.http
    body = {"game": "dots-and-boxes", "options": {"rows": 4, "cols": 4}}
    r = http.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    tokens = []
    for n, name in enumerate(("Ann", "Bob")):
        r = http.post(f"/api/tables/{tid}/seats/{n}", json={"name": name})
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    ann, bob = Player(site, tid, tokens[0]), Player(site, tid, tokens[1])
    players = [ann, bob]
    total = 40  # the lines of a 4x4 board

    def play_until(moves: int) -> None:
        while len(ann.heard) < moves and ann.result is None:
            for pl in players:
                pl.drain()
            mover = next((pl for pl in players if pl.due()), None)
            if mover is not None:
                mover.move()

    # Bob also moves over HTTP through nginx: a refusal tells him to look again
    play_until(4)
    bob.drain()
    if bob.due():
        move = bob.state["legal_moves"][0]
        r = http.post(
            f"/api/tables/{tid}/moves", json={"token": tokens[1], "move": move, "version": bob.v}
        )
        assert r.status_code == 200, r.text
        bob.acked.append(move)

    # each process restarted in turn while the players keep moving
    for p, upto in ((site.procs[0], 14), (site.procs[1], 26)):
        restart = threading.Thread(target=site.restart, args=(p,))
        restart.start()
        while restart.is_alive():  # moves go on during the stop and the start
            play_until(len(ann.heard) + 1)
            if ann.result is not None:
                break
        restart.join()
        play_until(upto)
    play_until(total)
    for pl in players:
        pl.drain()
    assert ann.result is not None and bob.result is not None

    rec = http.get(f"/api/tables/{tid}/record").json()
    assert vertex.replay(rec).is_over
    played = [(m["seat"], m["move"]) for m in rec["moves"]]
    assert len(played) == len(set(played)) == total  # nothing twice
    for pl in players:
        assert pl.heard == played  # each heard every move once, in order
        for move in pl.acked:  # nothing acknowledged was lost
            assert played.count((pl.seat, move)) == 1
    closes = ann.closes + bob.closes
    assert 1012 in closes, closes  # told to reconnect ("service restart"), not cut
    # the restarted processes logged their stop as JSON lines, with no traceback
    for p in site.procs:
        text = p.log.read_text(errors="replace")
        assert "Traceback" not in text
        assert tokens[0] not in text and tokens[1] not in text


def test_nginx_passes_the_real_client_address(site: Site) -> None:
    """VERTEX_TABLES_PER_HOUR and VERTEX_SOCKETS_PER_ADDRESS per client address, as nginx
    saw it (clients on 127.0.0.2 and 127.0.0.3), for requests and sockets alike: a forged
    X-Forwarded-For or X-Real-IP does not pass."""

    def client(address: str) -> httpx.Client:
        transport = httpx.HTTPTransport(local_address=address)
        return httpx.Client(base_url=site.nginx.url, transport=transport, timeout=10)

    body = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}}
    forged = {"X-Forwarded-For": "10.1.2.3", "X-Real-IP": "10.1.2.4"}
    with client("127.0.0.2") as two, client("127.0.0.3") as three:
        codes = [two.post("/api/tables", json=body).status_code for _ in range(TABLES_PER_HOUR)]
        assert codes == [201] * TABLES_PER_HOUR
        refused = two.post("/api/tables", json=body, headers=forged)
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"]["code"] == "too-many-tables"
        made = three.post("/api/tables", json=body)  # another address has its own allowance
        assert made.status_code == 201, made.text
        tid = made.json()["id"]
    from sqlalchemy import create_engine, select

    from vertex.server.storage.schema import tables_t

    engine = create_engine(PG)
    with engine.connect() as conn:
        creator = conn.execute(select(tables_t.c.creator).where(tables_t.c.id == tid)).scalar()
    engine.dispose()
    assert creator == "127.0.0.3"

    def watch(address: str) -> tuple[ClientConnection, dict[str, Any]]:
        sock = socket.create_connection(("127.0.0.1", site.nginx.port), source_address=(address, 0))
        ws = connect(f"{site.nginx.ws}/ws/tables/{tid}", sock=sock, open_timeout=10, legacy=True)
        first: dict[str, Any] = json.loads(ws.recv(timeout=10))
        return ws, first

    held = []
    try:
        for _ in range(2 * SOCKETS_PER_ADDRESS + 2):  # the sockets go to both processes
            ws, first = watch("127.0.0.2")
            held.append(ws)
            if first["t"] == "error":
                assert first["code"] == "too-many-sockets", first
                break
        else:
            raise AssertionError("one address opened more sockets than its limit")
        ws, first = watch("127.0.0.3")  # another address is not refused
        held.append(ws)
        assert first["t"] == "snapshot", first
    finally:
        for ws in held:
            ws.close()


def test_nginx_caches_static_files_hides_metrics_and_ids_requests(site: Site) -> None:
    http = site.http
    page = http.get("/")
    assert page.status_code == 200
    rid = page.headers["x-request-id"]  # nginx's own id, echoed by the process
    assert re.fullmatch(r"[0-9a-f]{32}", rid), rid
    assert http.get("/healthz", headers={"X-Request-Id": "mine-42"}).headers["x-request-id"] == (
        "mine-42"
    )
    static = re.search(r'(/static/[^/"]+/[^"]+\.(?:js|css))"', page.text)
    assert static, page.text[:500]
    first = http.get(static.group(1))
    second = http.get(static.group(1))
    assert first.status_code == second.status_code == 200
    assert "immutable" in second.headers["cache-control"]
    assert second.headers["x-cache-status"] == "HIT"  # nginx served it itself
    assert second.content == first.content
    metrics = http.get("/metrics")
    assert metrics.status_code == 404 and "vertex_" not in metrics.text

    # the request ids are in the processes' JSON access lines
    def logged() -> bool:
        return any(f'"request":"{rid}"' in p.log.read_text(errors="replace") for p in site.procs)

    assert logged()


def test_the_env_file_names_every_setting() -> None:
    """deploy/vertex.env documents every VERTEX_ variable the server reads."""
    src = DEPLOY.parent / "src" / "vertex"
    read = set()
    for path in src.rglob("*.py"):
        read |= set(re.findall(r"\"(VERTEX_[A-Z0-9_]+)\"", path.read_text()))
    documented = set(
        re.findall(r"^#?(VERTEX_[A-Z0-9_]+)=", (DEPLOY / "vertex.env").read_text(), re.M)
    )
    assert read and read <= documented, sorted(read - documented)


def test_the_unit_runs_a_process_a_port_with_its_metrics_on_loopback() -> None:
    """deploy/systemd/vertex@.service: the instance is the port; its command line is one
    `vertex serve` takes (metrics on 127.0.0.1:1PORT, which nginx's upstream never names)."""
    import argparse
    import shlex

    from vertex.server.cli import _metrics_problem, add_arguments

    unit = (DEPLOY / "systemd" / "vertex@.service").read_text()
    fields = dict(
        line.split("=", 1) for line in unit.splitlines() if "=" in line and line[0].isalpha()
    )
    assert fields["EnvironmentFile"] == "/etc/vertex/vertex.env"
    assert fields["KillSignal"] == "SIGTERM"  # the clean stop: sockets told to reconnect
    argv = shlex.split(fields["ExecStart"].replace("%i", "8001"))
    assert argv[0].endswith("/vertex") and argv[1] == "serve"
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(argv[2:])
    assert (args.host, args.port, args.metrics_port, args.workers) == ("127.0.0.1", 8001, 18001, 1)
    assert _metrics_problem(args) is None
    conf = (DEPLOY / "nginx" / "vertex.conf").read_text()
    upstreams = re.findall(r"^\s*server 127\.0\.0\.1:(\d+)", conf, re.M)
    assert upstreams == ["8001", "8002"]  # the processes' own ports, never a metrics port

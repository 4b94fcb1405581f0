"""Several real `vertex serve` processes on one PostgreSQL and one Redis are one site.

Two processes on two ports: players on different processes see each other's moves and
presence; the process that owns a table (its computer seat and clock) is killed with
SIGKILL mid-game, its client moves to the survivor with `since`, and the survivor takes the
table over: nothing accepted is lost and no computer move is made (or thought) twice. Races,
the HTTP rate limit and the table-creation limit hold across the processes.

Skipped (with the reason) when PostgreSQL or Redis is not reachable.
"""

from __future__ import annotations

import json
import re
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
from tests.eventually import eventually
from tests.server.serve import ServeProcess
from tests.server.site.test_scaleout import PG, REDIS, _reachable

pytestmark = pytest.mark.skipif(bool(_reachable()), reason=_reachable() or "")

TABLES_PER_HOUR = 20
PER_SECOND = 1  # HTTP commands a seat may send a second (bursts of 40: Limits.message_burst)
BURST = 40


class Proc(ServeProcess):
    """One `vertex serve` process of the site (PostgreSQL + Redis), logging to a file."""

    def __init__(self, log: Path) -> None:
        super().__init__(
            log,
            env={
                "VERTEX_DATABASE_URL": PG,
                "VERTEX_REDIS_URL": REDIS,
                "VERTEX_TABLES_PER_HOUR": str(TABLES_PER_HOUR),
                "VERTEX_MESSAGES_PER_SECOND": str(PER_SECOND),
            },
        )

    def start(self) -> None:
        self.launch()  # the site's processes come up side by side: `wait_up` waits

    def thinks(self, tid: str) -> int:
        """Computer moves this process asked its players for at table `tid` (its log)."""
        n = 0
        for line in self.log.read_text(errors="replace").splitlines():
            if line.startswith("{") and '"event":"think"' in line:
                n += json.loads(line)["table"] == tid
        return n


_made: list[str] = []


def _forget(ids: list[str]) -> None:
    """Remove this module's tables from the shared database and their keys from Redis."""
    import redis
    from sqlalchemy import create_engine, delete

    from vertex.server.storage.schema import events_t, tables_t

    engine = create_engine(PG)
    with engine.begin() as conn:
        conn.execute(delete(events_t).where(events_t.c.table_id.in_(ids)))
        conn.execute(delete(tables_t).where(tables_t.c.id.in_(ids)))
    engine.dispose()
    r = redis.Redis.from_url(REDIS)
    for tid in ids:
        r.delete(f"vertex:lease:{tid}", f"vertex:presence:{tid}")
        r.zrem("vertex:leases", tid)
    r.close()


def _forget_limits() -> None:
    """Start the loopback address's shared allowances afresh (earlier runs used them)."""
    import redis

    from vertex.server.site.quotas import _key

    r = redis.Redis.from_url(REDIS)
    r.delete(_key("tables", "127.0.0.1"))
    r.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Proc, Proc]]:
    _forget_limits()
    logs = tmp_path_factory.mktemp("site")
    a, b = Proc(logs / "a.log"), Proc(logs / "b.log")
    a.start()
    b.start()  # both come up at once
    try:
        a.wait_up()
        b.wait_up()
        yield a, b
    finally:
        a.stop()
        b.stop()
        _forget(_made)
        _forget_limits()


def create(p: Proc, body: dict[str, Any]) -> httpx.Response:
    r = p.http.post(p.url + "/api/tables", json=body, timeout=10)
    if r.status_code == 201:
        _made.append(r.json()["id"])
    return r


def sit(p: Proc, tid: str, n: int, name: str) -> str:
    r = p.http.post(f"{p.url}/api/tables/{tid}/seats/{n}", json={"name": name}, timeout=10)
    assert r.status_code == 200, r.text
    token: str = r.json()["token"]
    return token


def owner(tid: str) -> str | None:
    import redis

    r = redis.Redis.from_url(REDIS)
    try:
        raw = r.get(f"vertex:lease:{tid}")
        return None if raw is None else raw.decode()
    finally:
        r.close()


class Player:
    """A seat's socket client that keeps the table as it hears it."""

    def __init__(self, p: Proc, tid: str, token: str) -> None:
        self.tid, self.token = tid, token
        self.ws: ClientConnection = connect(f"{p.ws}/ws/tables/{tid}?token={token}", legacy=True)
        snap = self.recv()
        assert snap["t"] == "snapshot", snap
        self.seat: int = snap["seat"]
        self.v: int = snap["v"]
        self.state: dict[str, Any] = snap["table"]["state"]
        self.result: Any = snap["table"]["result"]
        self.connected: list[bool] = []
        self.heard: list[dict[str, Any]] = []  # the move events, in order
        self.acked: list[str] = []  # this seat's moves the server acknowledged

    def recv(self, timeout: float = 30.0) -> dict[str, Any]:
        msg: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        return msg

    def take(self, msg: dict[str, Any]) -> None:
        if msg["t"] == "presence":
            self.connected = msg["connected"]
        elif msg["t"] == "event":
            assert msg["v"] == self.v + 1, (msg["v"], self.v)
            self.v = msg["v"]
            if msg["kind"] == "move":
                self.heard.append(msg)
            if "state" in msg:
                self.state, self.result = msg["state"], msg["result"]

    def until(self, pred: Any, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not pred():
            left = deadline - time.monotonic()
            assert left > 0, "the expected message never came"
            self.take(self.recv(left))

    def drain(self) -> None:
        """Take whatever has arrived, without waiting for more."""
        while True:
            try:
                msg = self.recv(timeout=0.02)
            except TimeoutError:
                return
            self.take(msg)

    def move(self) -> None:
        """Play the first legal move; wait for its ack or refusal (events on the way are
        kept). A refusal (the table moved on: a clock, a race) changes nothing."""
        move = self.state["legal_moves"][0]
        self.ws.send(json.dumps({"t": "move", "move": move, "v": self.v, "id": self.v}))
        while True:
            msg = self.recv()
            if msg["t"] == "ack":
                self.acked.append(move)
                return
            if msg["t"] == "error":
                assert msg["code"] in ("stale", "not-your-turn"), msg
                return
            self.take(msg)

    def reconnect(self, p: Proc) -> dict[str, Any]:
        self.ws = connect(
            f"{p.ws}/ws/tables/{self.tid}?token={self.token}&since={self.v}", legacy=True
        )
        return self.recv()

    def due(self) -> bool:
        return self.result is None and self.state["to_move"] == [self.seat]

    def computer_moves(self) -> int:
        return sum(1 for m in self.heard if m["seat"] == 2)


def play_until(stop: Any, players: list[Player]) -> None:
    """Both humans play their turns (the first legal move) until `stop()`."""
    while not stop():
        for pl in players:
            pl.drain()
        mover = next((pl for pl in players if pl.due()), None)
        if mover is not None:
            mover.move()
        elif players[0].result is None:  # the computer's turn: wait for what comes
            players[0].take(players[0].recv(30))


def test_two_processes_are_one_site_and_survive_losing_the_owner(site: tuple[Proc, Proc]) -> None:
    a, b = site
    body = {
        "game": "dots-and-boxes",
        "options": {"rows": 3, "cols": 3, "players": 3},
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "ai", "level": 1}],
        "clock": {"per_move": 3},
    }
    r = create(a, body)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    ann_token, bob_token = sit(a, tid, 0, "Ann"), sit(b, tid, 1, "Bob")
    assert owner(tid) == a.health()["worker"]  # the process that opened it runs it
    ann, bob = Player(a, tid, ann_token), Player(b, tid, bob_token)
    # each sees the other connected, whichever process they are on
    ann.until(lambda: ann.connected[:2] == [True, True])
    bob.until(lambda: bob.connected[:2] == [True, True])
    for p in (a, b):
        seats = p.http.get(f"{p.url}/api/tables/{tid}").json()["seats"]
        assert [s["connected"] for s in seats] == [True, True, True]

    # play until the computer has moved twice and it is Ann's turn: nobody is thinking
    play_until(lambda: ann.due() and ann.computer_moves() >= 2, [ann, bob])
    thinks_on_a = a.thinks(tid)
    assert thinks_on_a == ann.computer_moves() and b.thinks(tid) == 0

    a.kill9()  # the owner dies during Ann's turn; her clock goes on
    try:
        with pytest.raises(ConnectionClosed):  # the socket to the dead process is gone
            while True:
                ann.take(ann.recv(timeout=10))
        head = ann.reconnect(b)
        assert head["t"] == "resume" and head["since"] == ann.v, (ann.v, head)
        # the survivor takes the table over within seconds: Ann's clock runs out there and the
        # clock plays for her (an `auto` move); then the computer seat goes on
        heard = len(ann.heard)
        ann.until(lambda: any(m.get("auto") for m in ann.heard[heard:]), timeout=20)
        assert next(m for m in ann.heard[heard:] if m.get("auto"))["seat"] == 0
        assert owner(tid) == b.health()["worker"]
        play_until(lambda: ann.result is not None, [ann, bob])
        bob.until(lambda: bob.result is not None)

        rec = b.http.get(f"{b.url}/api/tables/{tid}/record").json()
        assert vertex.replay(rec).is_over
        played = [(m["seat"], m["move"]) for m in rec["moves"]]
        assert len(played) == len(set(played)) == 24  # every line once: nothing twice
        assert [(m["seat"], m["move"]) for m in ann.heard] == played  # Ann heard each once
        for pl in (ann, bob):  # every acknowledged move is in the record, once
            for move in pl.acked:
                assert played.count((pl.seat, move)) == 1
        computer = sum(1 for s, _m in played if s == 2)
        # the computer seat went on at the survivor: every computer move after the owner died
        # was thought there (the first legal lines can give the humans all the turns left)
        assert b.thinks(tid) == computer - thinks_on_a
        assert a.thinks(tid) == thinks_on_a  # (the dead one thought no more)
        assert a.thinks(tid) + b.thinks(tid) == computer  # one think per computer move
    finally:
        a.log = a.log.with_suffix(".2.log")
        a.start()  # back for the other tests, pass or fail: it joins the site anew
        a.wait_up()


def test_two_processes_racing_the_same_move_accept_exactly_one(site: tuple[Proc, Proc]) -> None:
    a, b = site
    for _ in range(4):
        r = create(a, {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}})
        tid = r.json()["id"]
        ann, _bob = sit(a, tid, 0, "Ann"), sit(b, tid, 1, "Bob")
        b.http.get(f"{b.url}/api/tables/{tid}")  # both hold the table at version 2
        results: list[int] = []
        start = threading.Barrier(2)

        def play(
            p: Proc,
            move: str,
            tid: str = tid,
            ann: str = ann,
            start: threading.Barrier = start,
            results: list[int] = results,
        ) -> None:
            start.wait()
            body = {"token": ann, "move": move, "version": 2}
            r = httpx.post(f"{p.url}/api/tables/{tid}/moves", json=body, timeout=10)
            results.append(r.status_code)

        threads = [
            threading.Thread(target=play, args=(a, "a1-b1")),
            threading.Thread(target=play, args=(b, "a3-b3")),
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == [200, 409]
        for p in (a, b):
            # the loser's process hears of the winner's move at once
            moves = eventually(
                lambda p=p, tid=tid: p.http.get(f"{p.url}/api/tables/{tid}/record").json()["moves"]
            )
            assert len(moves) == 1


def test_the_http_rate_limit_holds_across_processes(site: tuple[Proc, Proc]) -> None:
    a, b = site
    tid = create(a, {"game": "dots-and-boxes"}).json()["id"]
    token = sit(a, tid, 0, "Ann")
    sit(b, tid, 1, "Bob")
    codes = []
    with httpx.Client(timeout=10) as http:
        for i in range(BURST + 20):  # alternately to each process, as fast as they answer
            p = (a, b)[i % 2]
            body = {"token": token, "move": "not-a-move"}
            codes.append(http.post(f"{p.url}/api/tables/{tid}/moves", json=body).status_code)
    passed = sum(1 for c in codes if c != 429)
    # One allowance for the seat on the whole site: a burst, plus what refills meanwhile.
    # (Per process, each would have let a whole burst through: every command would pass.)
    assert 429 in codes and passed < BURST + 10, codes
    assert set(codes) <= {422, 429}


def test_tokens_stay_out_of_the_logs(site: tuple[Proc, Proc]) -> None:
    a, b = site
    tid = create(a, {"game": "dots-and-boxes"}).json()["id"]
    token = sit(b, tid, 0, "Ann")
    a.http.post(f"{a.url}/api/tables/{tid}/moves", json={"token": token, "move": "a1-b1"})
    for p in (a, b):
        text = p.log.read_text(errors="replace")
        assert token not in text
        assert not re.search(r"token=[A-Za-z0-9_-]{20,}", text)


def test_spectators_count_and_chat_across_processes(site: tuple[Proc, Proc]) -> None:
    """Spectators on two processes are counted together on both (coalesced, within about a
    second; one address on both counts once: two addresses, test_one_thinker.py), a
    spectator's line written on one reaches the other's sockets, and one address's
    allowance for the spectators' chat holds over both (3 lines at once)."""
    from sqlalchemy import create_engine, delete

    from vertex.server.live.spectators import spectator_lines_t
    from vertex.server.site.quotas import _key

    a, b = site
    tid = create(a, {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}}).json()["id"]
    sit(a, tid, 0, "Ann")
    sit(a, tid, 1, "Bob")

    def until(ws: ClientConnection, pred: Any) -> dict[str, Any]:
        deadline = time.monotonic() + 30
        while True:
            left = deadline - time.monotonic()
            assert left > 0, "the expected message never came"
            msg: dict[str, Any] = json.loads(ws.recv(timeout=left))
            if pred(msg):
                return msg

    def watching(n: int) -> Any:
        return lambda m: m["t"] == "watching" and m["n"] == n

    import redis

    r = redis.Redis.from_url(REDIS)
    r.delete(_key("spectator-chat", "127.0.0.1"))  # earlier runs' lines
    try:
        on_a = connect(f"{a.ws}/ws/tables/{tid}?viewer=viewer-on-a", legacy=True)
        until(on_a, watching(1))
        on_b = connect(f"{b.ws}/ws/tables/{tid}?viewer=viewer-on-b", legacy=True)
        until(on_b, watching(1))  # the same address (127.0.0.1) on both: one spectator
        replies = []
        for n, ws in enumerate((on_b, on_a, on_b, on_a)):
            ws.send(json.dumps({"t": "spectator-chat", "text": f"line {n}", "name": "Bea"}))
            replies.append(until(ws, lambda m: m["t"] in ("ack", "error")))
            if n == 0:  # written on b, heard on a
                heard = until(on_a, lambda m: m["t"] == "spectator-chat" and "replace" not in m)
                assert heard["lines"][0]["text"] == "line 0" and heard["lines"][0]["name"] == "Bea"
        assert [r["t"] for r in replies] == ["ack", "ack", "ack", "error"]
        assert replies[3]["params"]["why"] == "spectator-chat"
        on_b.close()
        on_a.close()
    finally:
        engine = create_engine(PG)
        with engine.begin() as conn:
            conn.execute(delete(spectator_lines_t).where(spectator_lines_t.c.table_id == tid))
        engine.dispose()
        r.delete(_key("spectator-chat", "127.0.0.1"), f"vertex:viewers:{tid}")
        r.close()


def test_the_table_creation_limit_holds_across_processes(site: tuple[Proc, Proc]) -> None:
    a, b = site
    from sqlalchemy import create_engine, func, select

    from vertex.server.storage.schema import tables_t

    engine = create_engine(PG)
    with engine.connect() as conn:
        q = select(func.count()).where(
            tables_t.c.creator == "127.0.0.1", tables_t.c.created_at > time.time() - 3600
        )
        made_before = int(conn.execute(q).scalar_one())
    engine.dispose()
    made = refused = 0
    for i in range(TABLES_PER_HOUR + 4):
        r = create((a, b)[i % 2], {"game": "dots-and-boxes"})
        if r.status_code == 201:
            made += 1
        else:
            assert r.status_code == 429 and r.json()["error"]["code"] == "too-many-tables"
            refused += 1
    assert made == max(0, TABLES_PER_HOUR - made_before) and refused >= 4

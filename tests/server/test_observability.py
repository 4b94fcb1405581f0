"""`vertex serve --metrics-port P`: Prometheus text on 127.0.0.1:P (never the public port)
whose families move with the play; the log is JSON lines, HTTP requests' carrying their
request id (the client's `X-Request-Id`, echoed, or a new one)."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.sync.client import connect

from tests.eventually import eventually
from tests.server.serve import ServeProcess, free_port
from vertex.server.logs import REQUEST_ID, JsonLines

FAMILIES = {
    "vertex_moves",
    "vertex_events",
    "vertex_event_commit_seconds",
    "vertex_sockets_opened",
    "vertex_sockets_closed",
    "vertex_sockets_open",
    "vertex_tables_held",
    "vertex_tables_owned",
    "vertex_queue_waiting",
    "vertex_queue_wait_seconds",
    "vertex_computer_think_seconds",
    "vertex_analysis_seconds",
    "vertex_analyses",
    "vertex_lease_takeovers",
    "vertex_redis_up",
    "vertex_database_up",
    "vertex_computer_pondering_threads",
    "vertex_workers_replaced",
    "vertex_outages",
    "vertex_http_requests",
}


def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[s.name, tuple(sorted(s.labels.items()))] = s.value
    return out


def families(port: int) -> set[str]:
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=5).text
    return {f.name for f in text_string_to_metric_families(text)}


def test_metrics_and_json_logs_of_a_real_process(tmp_path: Path) -> None:
    mport = free_port()
    db = f"sqlite:///{tmp_path / 'v.db'}"
    p = ServeProcess(
        tmp_path / "serve.log",
        env={"VERTEX_AI_WORKERS": "1", "VERTEX_ANALYSIS_WORKERS": "1"},
        args=["--database", db, "--metrics-port", str(mport)],
    )
    p.start()
    try:
        assert families(mport) >= FAMILIES
        before = scrape(mport)
        http = p.http
        tid = http.post(p.url + "/api/tables", json={"game": "dots-and-boxes"}).json()["id"]
        tokens = [
            http.post(f"{p.url}/api/tables/{tid}/seats/{n}", json={"name": "A"}).json()["token"]
            for n in (0, 1)
        ]
        ws = connect(f"{p.ws}/ws/tables/{tid}?hello=1", legacy=True)
        ws.send(json.dumps({"t": "hello", "token": tokens[1]}))
        assert json.loads(ws.recv(timeout=10))["t"] == "snapshot"
        r = http.post(
            f"{p.url}/api/tables/{tid}/moves",
            json={"token": tokens[0], "move": "a1-b1"},
            headers={"X-Request-Id": "test-move-1"},
        )
        assert r.status_code == 200, r.text
        assert r.headers["x-request-id"] == "test-move-1"  # echoed
        after = scrape(mport)
        move = ("vertex_moves_total", (("game", "dots-and-boxes"),))
        assert after[move] == before.get(move, 0) + 1
        kind = ("vertex_events_total", (("kind", "move"),))
        assert after[kind] == before.get(kind, 0) + 1
        seat = ("vertex_events_total", (("kind", "seat"),))
        assert after[seat] == before.get(seat, 0) + 2
        assert after["vertex_event_commit_seconds_count", ()] >= 3
        assert after["vertex_tables_held", ()] == 1
        assert after["vertex_sockets_open", ()] == 1
        assert after["vertex_sockets_opened_total", ()] == 1
        assert after["vertex_database_up", ()] == 1 and after["vertex_redis_up", ()] == 1
        assert after["vertex_computer_pondering_threads", ()] == 0  # no computer seat here
        ok = ("vertex_http_requests_total", (("status", "2xx"),))
        assert after[ok] >= before.get(ok, 0) + 4
        ws.close()
        eventually(lambda: scrape(mport)["vertex_sockets_open", ()] == 0, what="socket gone")
        assert scrape(mport)["vertex_sockets_closed_total", ()] == 1

        # never on the public port, and only on loopback's 127.0.0.1
        public = http.get(p.url + "/metrics")
        assert public.status_code == 404 and "vertex_moves" not in public.text
        with pytest.raises(httpx.ConnectError):
            httpx.get(f"http://127.0.0.2:{mport}/metrics", timeout=2)

        # the log: one JSON object a line, from the first
        bad = http.post(p.url + "/api/tables", json={"game": "no-such-game"})
        rid = bad.headers["x-request-id"]
        assert len(rid) == 16  # none sent: a new one
        assert (
            http.get(p.url + "/healthz", headers={"X-Request-Id": "bad id!"}).headers[
                "x-request-id"
            ]
            != "bad id!"
        )  # not a plain token: replaced

        def lines() -> list[dict[str, object]]:
            text = p.log.read_text(errors="replace").splitlines()
            return [json.loads(line) for line in text]  # every line

        logged = eventually(
            lines, until=lambda ls: any(x.get("request") == rid for x in ls), what="access line"
        )
        moves = [
            x for x in logged if x.get("event") == "http" and x.get("request") == "test-move-1"
        ]
        assert moves and moves[0]["status"] == 200 and moves[0]["path"].endswith("/moves")
        refused = next(x for x in logged if x.get("request") == rid)
        assert refused["status"] == 422 and refused["level"] == "info"
        assert all("level" in x and "ts" in x and "event" in x for x in logged)
        assert logged[0]["event"] == "listening" and logged[0]["url"] == p.url
        assert logged[0]["metrics"] == f"http://127.0.0.1:{mport}/metrics"
        assert not any(t in p.log.read_text() for t in tokens)
    finally:
        p.stop()


def test_metrics_refused_where_they_cannot_be_served() -> None:
    def serve(*args: str) -> subprocess.CompletedProcess[str]:
        cmd = [sys.executable, "-m", "vertex.cli", "serve", *args]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=60)

    many = serve("--workers", "2", "--metrics-port", "9100")
    assert many.returncode == 2
    assert "one `vertex serve` per port" in many.stderr and "Traceback" not in many.stderr
    same = serve("--port", "9100", "--metrics-port", "9100")
    assert same.returncode == 2 and "must differ from --port" in same.stderr


def test_a_log_line_is_one_json_object() -> None:
    fmt = JsonLines()

    def line(msg: str, exc: bool = False) -> dict[str, object]:
        try:
            raise ValueError("boom")
        except ValueError:
            info = sys.exc_info() if exc else None
        rec = logging.LogRecord("vertex.server", logging.ERROR, __file__, 1, msg, None, info)
        out = fmt.format(rec)
        assert "\n" not in out
        parsed: dict[str, object] = json.loads(out)
        return parsed

    assert line('{"event":"think","table":"t"}')["event"] == "think"
    plain = line("presence for table x not published")
    assert plain["event"] == "log" and plain["msg"] == "presence for table x not published"
    failed = line("something broke", exc=True)
    assert "ValueError: boom" in str(failed["exc"]) and failed["level"] == "error"
    token = REQUEST_ID.set("req-7")
    try:
        assert line("x")["request"] == "req-7"
    finally:
        REQUEST_ID.reset(token)

"""A real `vertex serve` process for the tests that kill one (`kill -9`) or run several."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from tests.eventually import eventually


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class ServeProcess:
    """One `vertex serve` on its own port, logging to a file; `env` and `args` add settings
    (the environment starts without any VERTEX_ variable of the test run's own)."""

    def __init__(
        self, log: Path, env: dict[str, str] | None = None, args: list[str] | None = None
    ) -> None:
        self.port = free_port()
        self.log = log
        self.env = dict(env or {})
        self.args = list(args or [])
        self.proc: subprocess.Popen[bytes] | None = None
        # One client for the polls: a new one per request builds a TLS context (~40 ms of
        # CPU each, even for http://), CPU the starting server needs on a small box.
        self.http = httpx.Client(timeout=5)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def launch(self) -> None:
        """Start the process; `wait_up` waits until it answers."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("VERTEX_")}
        env.update(self.env)
        cmd = [sys.executable, "-m", "vertex.cli", "serve", "--port", str(self.port), *self.args]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=out, env=env)

    def wait_up(self) -> None:
        assert self.proc is not None
        proc = self.proc

        def up() -> bool:
            assert proc.poll() is None, self.log.read_text()
            try:
                return self.http.get(self.url + "/healthz", timeout=1).status_code == 200
            except httpx.TransportError:
                return False

        eventually(up, timeout=60, interval=0.05, what="the server coming up")

    def start(self) -> None:
        self.launch()
        self.wait_up()

    def health(self) -> dict[str, Any]:
        out: dict[str, Any] = self.http.get(self.url + "/healthz").json()
        return out

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

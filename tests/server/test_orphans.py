"""The computer player's worker processes end with the server, even after `kill -9`."""

from __future__ import annotations

import os
import time
from pathlib import Path

from .serve import ServeProcess


def children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (from /proc)."""
    out = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid:
            out.add(int(entry))
    return out


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_worker_processes_exit_when_the_server_is_killed(tmp_path: Path) -> None:
    p = ServeProcess(
        tmp_path / "serve.log", env={"VERTEX_DATABASE_URL": "sqlite:///" + str(tmp_path / "v.db")}
    )
    p.start()
    try:
        assert p.proc is not None
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while not workers:  # the computer player's worker starts with the server
            assert time.monotonic() < deadline, "no worker process started"
            workers = children(p.proc.pid)
            time.sleep(0.1)
        p.kill9()
        deadline = time.monotonic() + 10
        while any(alive(w) for w in workers):
            assert time.monotonic() < deadline, f"orphans left: {workers}"
            time.sleep(0.1)
    finally:
        p.stop()

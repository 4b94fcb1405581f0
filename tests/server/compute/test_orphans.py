"""The computer player's worker processes end with the server, even after `kill -9`."""

from __future__ import annotations

import os
from pathlib import Path

from tests.eventually import eventually
from tests.server.serve import ServeProcess


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
        proc = p.proc
        assert proc is not None
        # the computer player's worker starts with the server (slowly, on a loaded box)
        workers = eventually(
            lambda: children(proc.pid), timeout=120, interval=0.1, what="a worker process"
        )
        p.kill9()
        eventually(
            lambda: not any(alive(w) for w in workers),
            timeout=60,
            interval=0.1,
            what=f"the workers {sorted(workers)} ending with their parent",
        )
    finally:
        p.stop()

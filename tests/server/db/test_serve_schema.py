"""A real `vertex serve` on a database from before migrations refuses to start, naming the
command; after `vertex db upgrade` it starts and the old table plays on. (On an empty one,
a newcomer's first `make serve`, it creates the schema itself: every other `vertex serve`
test starts so, e.g. tests/server/storage/test_restart.py.)"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.server.serve import ServeProcess
from tests.server.storage.shipped import build, fixture
from vertex.cli import main


def test_serve_refuses_a_database_that_needs_an_upgrade_and_runs_after_it(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'old.db'}"
    build(url)
    serve = [sys.executable, "-m", "vertex.cli", "serve", "--port", "1", "--database", url]
    done = subprocess.run(serve, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert f"run `vertex db upgrade --database {url}` first" in done.stderr
    assert "Traceback" not in done.stderr

    assert main(["db", "upgrade", "--database", url]) == 0
    server = ServeProcess(tmp_path / "server.log", args=["--database", url, "--durable"])
    server.start()
    try:
        shipped = fixture()
        tid = shipped["rows"]["vertex_tables"][0]["id"]
        view = server.http.get(f"{server.url}/api/tables/{tid}").json()
        move = view["state"]["legal_moves"][0]
        r = server.http.post(
            f"{server.url}/api/tables/{tid}/moves",
            json={"token": shipped["tokens"]["bob"], "move": move},
        )
        assert r.status_code == 200, r.text
    finally:
        server.stop()

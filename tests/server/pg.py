"""The scale-out tests' PostgreSQL: a database of this test run's own.

The server is shared (by CI and by people testing side by side), and the tests count what is
in the database — the tables an address opened this hour, the tables a restarted process
restores — so each run makes its own database on the configured server, drops it at exit,
and clears what runs that died left behind. Where the server cannot be reached the
configured URL is kept as it is, and the tests that need it skip with its error.
"""

from __future__ import annotations

import atexit
import os
import re
import secrets

BASE = os.environ.get("VERTEX_TEST_POSTGRES", "postgresql+psycopg://127.0.0.1:5432/test")
_PREFIX = "vertex_test_"


def _connect(url: str) -> object:
    import psycopg

    return psycopg.connect(url.replace("+psycopg", ""), autocommit=True, connect_timeout=2)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _drop(name: str) -> None:
    try:
        with _connect(BASE) as conn:  # type: ignore[attr-defined]
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    except Exception:  # the server went away: nothing to drop
        pass


def _own_database() -> str:
    name = f"{_PREFIX}{os.getpid()}_{secrets.token_hex(3)}"
    try:
        with _connect(BASE) as conn:  # type: ignore[attr-defined]
            rows = conn.execute(
                "SELECT datname FROM pg_database WHERE datname LIKE %s", (_PREFIX + "%",)
            ).fetchall()
            for (old,) in rows:  # runs that were killed before their exit handler
                m = re.fullmatch(_PREFIX + r"(\d+)_[0-9a-f]+", old)
                if m and not _alive(int(m.group(1))):
                    conn.execute(f'DROP DATABASE IF EXISTS "{old}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
    except Exception:
        return BASE
    atexit.register(_drop, name)
    return BASE.rsplit("/", 1)[0] + "/" + name


PG = _own_database()


def another_database() -> str:
    """One more database of this run (a test that needs an empty one, or two), named like
    PG's so a killed run's are cleared too; dropped at exit, or by `drop_database`."""
    name = f"{_PREFIX}{os.getpid()}_{secrets.token_hex(3)}"
    with _connect(BASE) as conn:  # type: ignore[attr-defined]
        conn.execute(f'CREATE DATABASE "{name}"')
    atexit.register(_drop, name)
    return BASE.rsplit("/", 1)[0] + "/" + name


def drop_database(url: str) -> None:
    _drop(url.rsplit("/", 1)[1])

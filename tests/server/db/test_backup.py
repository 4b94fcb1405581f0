"""`vertex db export` / `vertex db import` (server/db/): every table in a backup (or left out
with a reason), a round trip SQLite -> PostgreSQL -> SQLite gives the same lines, a table
imported plays on, a bad backup or a non-empty target changes nothing, and an export holds
only a batch of rows in memory at a time."""

from __future__ import annotations

import json
import time
import tracemalloc
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select, text

import vertex.server.app  # noqa: F401  (every module's tables on the metadata)
from tests.server.conftest import make_settings, two_player_table
from tests.server.pg import another_database, drop_database
from tests.server.players.helpers import PROXY, claim, rated_game, rated_table, sit
from tests.server.storage.shipped import build, fixture
from tests.server.storage.test_upgrades import needs_pg
from vertex.cli import main
from vertex.puzzles.shipped import shipped
from vertex.server import create_app
from vertex.server.db.dump import export_lines
from vertex.server.db.load import ImportRefused, import_lines
from vertex.server.db.tables import EXPORTED, LEFT_OUT, every_table
from vertex.server.puzzles.rows import add_puzzle
from vertex.server.storage import upgrades
from vertex.server.storage.schema import make_engine, metadata


def _export(url: str) -> list[str]:
    engine = make_engine(url)
    try:
        return list(export_lines(engine, url))
    finally:
        engine.dispose()


def _import(url: str, lines: list[str]) -> dict[str, int]:
    engine = make_engine(url)
    try:
        return import_lines(engine, url, lines)
    finally:
        engine.dispose()


def _count(url: str) -> int:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return sum(
                conn.execute(select(func.count()).select_from(t)).scalar_one()
                for t in (*EXPORTED, *LEFT_OUT)
            )
    finally:
        engine.dispose()


def wait_review(c: TestClient, tid: str) -> None:
    for _ in range(400):
        if c.get(f"/api/tables/{tid}/review").json()["status"] == "done":
            return
        time.sleep(0.05)
    raise AssertionError("the review did not finish")


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The shipped fixture, upgraded, and a game played on it by today's server (the tests
    only read it)."""
    tmp_path = tmp_path_factory.mktemp("source")
    url = f"sqlite:///{tmp_path / 'source.db'}"
    build(url)
    assert main(["db", "upgrade", "--database", url]) == 0
    settings = make_settings(tmp_path, database_url=url, trusted_proxies=PROXY[0])
    with TestClient(create_app(settings), client=PROXY) as c:
        tid, ann, _ = two_player_table(c, listed=True)
        move = c.get(f"/api/tables/{tid}").json()["state"]["legal_moves"][0]
        assert c.post(f"/api/tables/{tid}/moves", json={"token": ann, "move": move}).is_success
        # players: a rated game played out (names, seats, games, ratings, results)
        keys = [claim(c, "Ann", "192.0.2.1"), claim(c, "Bob", "192.0.2.2")]
        played = rated_game(c, keys, ["192.0.2.1", "192.0.2.2"])
        assert played["result"]["ratings"]
        # a review of that game, stored (reviews)
        assert c.post(f"/api/tables/{played['id']}/review").is_success
        wait_review(c, played["id"])
        sit(c, rated_table(c), 0, keys[0], "192.0.2.1")  # and a seat at an open table
        two_player_table(c, clock={"per_move_days": 3})  # a slow table: its deadline's row
        # puzzles: a rated attempt (the player's and the puzzle's ratings, the attempt)
        p = next(p for p in shipped() if p.turns == 1 and p.game == "dots-and-boxes")
        auth = {"Authorization": f"Bearer {keys[0]}"}
        c.post(f"/api/puzzles/{p.id}/attempt", json={"moves": list(p.solution)}, headers=auth)
        assert c.get("/api/puzzles/next", params={"game": "juxtapose"}).is_success  # picks
    # and a mined puzzle
    engine = make_engine(url)
    with engine.begin() as conn:
        add_puzzle(conn, replace(p, id="mined0000001", source="review"), "dots-and-boxes-3x3", 1.0)
    engine.dispose()
    return url


@pytest.fixture
def pg() -> Iterator[str]:
    url = another_database()
    try:
        yield url
    finally:
        drop_database(url)


def test_every_table_is_in_a_backup_or_left_out_with_a_reason() -> None:
    named = [t.name for t in EXPORTED] + [t.name for t in LEFT_OUT]
    assert sorted(named) == sorted(t.name for t in every_table())
    assert len(set(named)) == len(named)
    assert all(len(why) > 40 for why in LEFT_OUT.values())
    assert [t.name for t in LEFT_OUT] == ["vertex_fences"]


@needs_pg
def test_a_round_trip_sqlite_postgresql_sqlite_gives_the_same_lines(
    source: str, pg: str, tmp_path: Path
) -> None:
    first = tmp_path / "first.jsonl"
    assert main(["db", "export", str(first), "--database", source]) == 0
    lines = first.read_text(encoding="utf-8").splitlines(keepends=True)
    rows = [json.loads(x) for x in lines[1:-1]]
    held = {r["table"] for r in rows}
    assert held == {t.name for t in EXPORTED}  # a row of every table, none of the fences
    assert {"name": None, "text": "nice move 👍"}.items() <= next(
        r["row"] for r in rows if r["table"] == "vertex_spectator_lines"
    ).items()

    assert main(["db", "import", str(first), "--database", pg]) == 0
    assert _export(pg) == lines  # the same records, byte for byte, from PostgreSQL
    back = f"sqlite:///{tmp_path / 'back.db'}"
    _import(back, _export(pg))
    assert _export(back) == lines


@needs_pg
def test_an_imported_table_plays_on(source: str, pg: str, tmp_path: Path) -> None:
    _import(pg, _export(source))
    shipped = fixture()
    tid = shipped["rows"]["vertex_tables"][0]["id"]
    bob = shipped["tokens"]["bob"]
    with TestClient(create_app(make_settings(tmp_path, database_url=pg))) as c:
        view = c.get(f"/api/tables/{tid}").json()
        assert view["version"] == 3 and view["state"]["to_move"] == [1]
        move = view["state"]["legal_moves"][0]
        r = c.post(f"/api/tables/{tid}/moves", json={"token": bob, "move": move})
        assert r.status_code == 200, r.text
        assert r.json()["version"] == 4
        listed = {e["id"] for e in c.get("/api/lobby").json()["live"]}
        assert tid in listed
    engine = make_engine(pg)
    try:  # the spectators' serial goes on after the imported lines
        with engine.begin() as conn:
            conn.execute(
                text("INSERT INTO vertex_spectator_lines (table_id, text, at) VALUES (:t, 'x', 1)"),
                {"t": tid},
            )
    finally:
        engine.dispose()


def _bad(lines: list[str], how: str) -> list[str]:
    out = list(lines)
    if how == "not JSON":
        out[3] = out[3][:-5] + "\n"
    elif how == "a wrong type":
        at = next(i for i, x in enumerate(out) if x.startswith('{"table":"vertex_events"'))
        row = json.loads(out[at])
        row["row"]["seq"] = "two"
        out[at] = json.dumps(row) + "\n"
    elif how == "an unknown table":
        out[-2] = json.dumps({"table": "vertex_fences", "row": {"table_id": "t", "epoch": 1}})
    elif how == "a repeated row":
        at = next(i for i, x in enumerate(out) if x.startswith('{"table":"vertex_events"'))
        out.insert(at, out[at])
        end = json.loads(out[-1])
        end["rows"]["vertex_events"] += 1
        out[-1] = json.dumps(end) + "\n"
    elif how == "cut short":
        out = out[:-1]
    elif how == "counts that differ":
        out = [*out[:-2], out[-1]]
    elif how == "another schema":
        head = json.loads(out[0])
        head["schema"] = "0000"
        out[0] = json.dumps(head) + "\n"
    return out


REFUSALS = {
    "not JSON": "line 4: not JSON",
    "a wrong type": r"line \d+: vertex_events.seq must be a whole number",
    "an unknown table": "is not a table a backup holds",
    "a repeated row": r"lines \d+-\d+: a vertex_events row repeats another's key",
    "cut short": "no end line after line",
    "counts that differ": "a damaged backup",
    "another schema": f"schema revision '0000', this Vertex is at {upgrades.head()}",
}


@pytest.mark.parametrize("how", list(REFUSALS))
def test_a_bad_backup_is_refused_and_changes_nothing(source: str, tmp_path: Path, how: str) -> None:
    target = f"sqlite:///{tmp_path / 'target.db'}"
    with pytest.raises(ImportRefused, match=REFUSALS[how]):
        _import(target, _bad(_export(source), how))
    assert _count(target) == 0


@needs_pg
def test_postgresql_refuses_a_non_empty_target_and_a_cut_backup_atomically(
    source: str, pg: str
) -> None:
    lines = _export(source)
    with pytest.raises(ImportRefused, match="no end line"):
        _import(pg, lines[:-1])  # every row was sent before the refusal
    assert _count(pg) == 0
    _import(pg, lines)
    before = _count(pg)
    with pytest.raises(ImportRefused, match="the database is not empty"):
        _import(pg, lines)
    assert _count(pg) == before


def test_the_command_says_what_went_wrong(
    source: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    backup = tmp_path / "b.jsonl"
    assert main(["db", "export", str(backup), "--database", source]) == 0
    assert main(["db", "import", str(backup), "--database", source]) == 1
    assert "vertex db import: the database is not empty" in capsys.readouterr().err
    missing = f"sqlite:///{tmp_path / 'nothing.db'}"
    assert main(["db", "export", str(tmp_path / "x"), "--database", missing]) == 1
    assert "no database file at" in capsys.readouterr().err
    assert not (tmp_path / "x").exists() and not (tmp_path / "nothing.db").exists()
    assert main(["db", "import", str(tmp_path / "none.jsonl"), "--database", missing]) == 1
    assert "No such file or directory" in capsys.readouterr().err
    assert main(["db", "upgrade", "--database", "nonsense"]) == 1
    err = capsys.readouterr().err
    assert "is not a database URL" in err and "Traceback" not in err
    secret = "postgresql+psycopg://vertex:hunter2@127.0.0.1:1/x"
    assert main(["db", "export", str(tmp_path / "x"), "--database", secret]) == 1
    err = capsys.readouterr().err
    assert "cannot use the database" in err and "hunter2" not in err


def test_an_export_holds_a_batch_of_rows_at_a_time(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'big.db'}"
    engine = make_engine(url)
    upgrades.prepare(engine, url)
    data = "x" * 2000
    with engine.begin() as conn:  # 20 MB of events
        for part in range(2):
            conn.execute(
                metadata.tables["vertex_events"].insert(),
                [
                    {"table_id": f"t{part}", "seq": i, "kind": "move", "data": data, "at": 1.0}
                    for i in range(5000)
                ],
            )
    written = 0
    tracemalloc.start()
    try:
        for line in export_lines(engine, url):
            written += len(line)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        engine.dispose()
    assert written > 20_000_000
    # a batch is 500 rows of 2 kB: 1 MB (and 20 MB if the export held the table)
    assert peak < 5_000_000, f"the export held {peak / 1e6:.1f} MB at once"


@needs_pg
def test_vertex_db_s_statements_have_no_server_deadline(pg: str) -> None:
    from vertex.server.db.cli import _engine

    with _engine(pg, must_exist=True) as engine, engine.connect() as conn:
        # a migration or an import of a big site may take longer than a request may
        assert conn.exec_driver_sql("SHOW statement_timeout").scalar_one() == "0"
    served = make_engine(pg)
    with served.connect() as conn:
        assert conn.exec_driver_sql("SHOW statement_timeout").scalar_one() == "10s"
    served.dispose()

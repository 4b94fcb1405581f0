"""A finished table's records are written exactly once (storage/results.py): a replay from
the log after a crash does not rate again, nor do two writers that both saw the end — on
SQLite and on PostgreSQL (two engines: two processes' stores)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select, update

from tests.server.pg import another_database, drop_database
from tests.server.players.helpers import claim, play_out, rated_game, rated_table, sit, site
from tests.server.storage.test_upgrades import needs_pg
from vertex.server.storage.results import Outcome, Results
from vertex.server.storage.rows import TableRows
from vertex.server.storage.schema import make_engine, player_games_t, ratings_t, tables_t
from vertex.server.storage.store import Store
from vertex.server.table import ratings
from vertex.server.table.finished import Finished, SeatFacts

pytestmark = pytest.mark.timeout(180)


def _facts(tid: str = "t" * 16) -> Finished:
    seats = [SeatFacts(0, "p-ann", "Ann", "human"), SeatFacts(1, "p-bob", "Bob", "human")]
    return Finished(
        tid,
        "dots-and-boxes",
        "dots-and-boxes-3x3",
        {"rows": 3},
        1000.0,
        [5.0, 4.0],
        [1, 2],
        seats,
        rated=True,
        unrated=None,
    )


def _counts(url: str) -> tuple[int, int]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            games = conn.execute(select(func.sum(ratings_t.c.games))).scalar_one()
            rows = conn.execute(select(func.count()).select_from(player_games_t)).scalar_one()
        return int(games or 0), int(rows)
    finally:
        engine.dispose()


def test_the_numbers_are_the_library_s() -> None:
    m = ratings.model()
    a, b = m.rating(mu=1500, sigma=500), m.rating(mu=1600, sigma=300)
    lib = m.rate([[a], [b]], ranks=[1, 2])
    ours = ratings.rate([(1500, 500), (1600, 300)], [1, 2])
    assert ours == [(lib[0][0].mu, lib[0][0].sigma), (lib[1][0].mu, lib[1][0].sigma)]


def test_two_writers_on_sqlite_record_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r.db'}"

    async def run() -> list[Outcome]:
        store = Store(url)
        await store.start()
        try:
            f = _facts()
            return list(
                await asyncio.gather(
                    store.results.record(f, "over"), store.results.record(f, "over")
                )
            )
        finally:
            await store.close()

    first, second = asyncio.run(run())
    assert first == second and first.rated and first.ratings is not None
    assert _counts(url) == (2, 2)


@needs_pg
def test_two_processes_on_postgresql_record_once() -> None:
    url = another_database()
    try:
        stores = [Store(url), Store(url)]  # two processes' engines
        asyncio.run(stores[0].start())
        out: list[Outcome] = []
        barrier = threading.Barrier(2)

        def write(results: Results) -> None:
            barrier.wait()
            out.append(results._record(_facts(), "over"))

        threads = [threading.Thread(target=write, args=(s.results,)) for s in stores]
        for t in threads:
            t.start()
        for t in threads:
            t.join(30)
        assert len(out) == 2 and out[0] == out[1] and out[0].rated
        assert _counts(url) == (2, 2)
        for s in stores:
            s.db.shutdown()
    finally:
        drop_database(url)


def test_a_crash_before_the_records_rates_once_on_the_replay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'vertex.db'}"
    real = Results._record
    crashed = []

    def crash(self: Results, f: Finished, status: str) -> Outcome:
        crashed.append(f.table_id)
        raise RuntimeError("the process died here")

    monkeypatch.setattr(Results, "_record", crash)
    with site(tmp_path) as c:
        ann, bob = claim(c, "Ann", "192.0.2.1"), claim(c, "Bob", "192.0.2.2")
        with pytest.raises(RuntimeError, match="died"):
            rated_game(c, [ann, bob], ["192.0.2.1", "192.0.2.2"])
    assert len(crashed) == 1 and _counts(url) == (0, 0)
    monkeypatch.setattr(Results, "_record", real)
    tid = crashed[0]
    for _restart in range(2):  # the log replayed: rated once, and not again
        with site(tmp_path) as c:
            result = c.get(f"/api/tables/{tid}").json()["result"]
            assert len(result["ratings"]) == 2
            assert c.get("/api/players/Ann").json()["counts"]["games"] == 1
        assert _counts(url) == (2, 2)


def test_a_crash_after_the_records_does_not_rate_again(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'vertex.db'}"
    with site(tmp_path) as c:
        ann, bob = claim(c, "Ann", "192.0.2.1"), claim(c, "Bob", "192.0.2.2")
        view = rated_game(c, [ann, bob], ["192.0.2.1", "192.0.2.2"])
    # died after the records, before the table's status was written
    engine = make_engine(url)
    with engine.begin() as conn:
        conn.execute(update(tables_t).where(tables_t.c.id == view["id"]).values(status="open"))
    engine.dispose()
    with site(tmp_path) as c:
        again = c.get(f"/api/tables/{view['id']}").json()["result"]
        assert again["ratings"] == view["result"]["ratings"]
    assert _counts(url) == (2, 2)


def test_a_table_not_finished_has_no_records(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'vertex.db'}"
    with site(tmp_path) as c:
        ann, bob = claim(c, "Ann", "192.0.2.1"), claim(c, "Bob", "192.0.2.2")
        tid = rated_table(c)
        sit(c, tid, 0, ann, "192.0.2.1")
        sit(c, tid, 1, bob, "192.0.2.2")
    assert _counts(url) == (0, 0)


def test_the_records_and_the_status_are_one_transaction(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The status says the records are done: a failure amid the records leaves the table's
    old status (so its next load writes them), and no separate status write follows."""
    url = f"sqlite:///{tmp_path / 'vertex.db'}"
    real = Results._history
    statuses: list[str] = []
    set_status = TableRows.set_status

    def fail(self: Results, *args: Any) -> None:
        real(self, *args)
        raise RuntimeError("the disk said no")

    async def status(self: TableRows, tid: str, value: str) -> None:
        statuses.append(value)
        await set_status(self, tid, value)

    monkeypatch.setattr(Results, "_history", fail)
    monkeypatch.setattr(TableRows, "set_status", status)
    with site(tmp_path) as c:
        ann, bob = claim(c, "Ann", "192.0.2.1"), claim(c, "Bob", "192.0.2.2")
        tid = rated_table(c)
        with pytest.raises(RuntimeError, match="disk"):
            play_out(c, tid, [sit(c, tid, 0, ann, "192.0.2.1"), sit(c, tid, 1, bob, "192.0.2.2")])
    engine = make_engine(url)
    with engine.connect() as conn:
        row = conn.execute(select(tables_t.c.status).where(tables_t.c.id == tid)).one()
    engine.dispose()
    assert row.status != "over" and "over" not in statuses
    assert _counts(url) == (0, 0)
    monkeypatch.setattr(Results, "_history", real)
    with site(tmp_path) as c:  # its next load writes them, with the status
        assert len(c.get(f"/api/tables/{tid}").json()["result"]["ratings"]) == 2
    assert _counts(url) == (2, 2)

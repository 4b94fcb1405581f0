"""Choosing a board (issue 35): `/api/puzzles/games` lists each game's boards; `next` picks
from the chosen pool and theme by the store's index (server/puzzles/picks.py) in one or two
queries that read a few rows, whatever the pool's size; the mined puzzles' rows are made
with them and by the migration for those stored before it."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from alembic import command
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, event, func, select, text

import vertex.server.app  # noqa: F401  (every module's tables on the metadata)
from vertex.puzzles.model import pool_name
from vertex.puzzles.shipped import shipped
from vertex.server.puzzles import picks
from vertex.server.puzzles.picks import ANY, picks_t
from vertex.server.puzzles.rows import add_puzzle, puzzle_attempts_t
from vertex.server.storage import upgrades
from vertex.server.storage.schema import metadata


def test_the_games_list_their_boards(client: TestClient) -> None:
    games = {g["game"]: g for g in client.get("/api/puzzles/games").json()["games"]}
    boards = {p["pool"]: p for p in games["dots-and-boxes"]["pools"]}
    assert {"dots-and-boxes-3x3", "dots-and-boxes-4x4", "dots-and-boxes-5x5"} <= set(boards)
    assert boards["dots-and-boxes-4x4"]["options"]["rows"] == 4  # the board's whole options
    assert boards["dots-and-boxes-3x3"]["options"]["cols"] == 3
    assert games["dots-and-boxes"]["defaults"]["rows"] == 3
    assert boards["dots-and-boxes-4x4"]["themes"]
    jux = games["juxtapose"]["pools"]
    assert [p["pool"] for p in jux] == ["juxtapose"]
    assert {"win-in-1", "win-in-2", "win-in-3"} <= set(jux[0]["themes"])


def test_next_keeps_to_the_chosen_board_and_theme(client: TestClient) -> None:
    seen: Counter[str] = Counter()
    for _ in range(12):
        r = client.get(
            "/api/puzzles/next", params={"game": "dots-and-boxes", "pool": "dots-and-boxes-4x4"}
        )
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["pool"] == "dots-and-boxes-4x4" and body["options"] == {"rows": 4, "cols": 4}
        seen[body["id"]] += 1
    assert len(seen) > 3  # random-ish: not the same puzzle over and over
    theme = next(
        t
        for p in shipped()
        if pool_name(p.game, p.options) == "dots-and-boxes-5x5"
        for t in p.themes
    )
    for _ in range(5):
        body = client.get(
            "/api/puzzles/next",
            params={"game": "dots-and-boxes", "pool": "dots-and-boxes-5x5", "theme": theme},
        ).json()
        assert body["pool"] == "dots-and-boxes-5x5" and theme in body["themes"]
    for _ in range(5):
        body = client.get(
            "/api/puzzles/next", params={"game": "juxtapose", "theme": "win-in-2"}
        ).json()
        assert body["themes"] == ["win-in-2"] and body["goal"] == {"kind": "win", "depth": 2}


def test_a_board_of_another_game_is_refused(client: TestClient) -> None:
    for route in ("next", "daily"):
        for params in (
            {"game": "dots-and-boxes", "pool": "juxtapose"},
            {"game": "dots-and-boxes", "pool": "dots-and-boxes-9x9"},
        ):
            r = client.get(f"/api/puzzles/{route}", params=params)
            assert r.status_code == 422 and r.json()["error"]["code"] == "puzzle-pool", r.text


def test_the_days_puzzle_of_a_board(client: TestClient) -> None:
    params = {"game": "dots-and-boxes", "pool": "dots-and-boxes-5x5"}
    first = client.get("/api/puzzles/daily", params=params).json()
    assert first["pool"] == "dots-and-boxes-5x5"
    assert client.get("/api/puzzles/daily", params=params).json()["id"] == first["id"]


def test_next_asks_the_store_one_query_that_uses_the_index(client: TestClient) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    params = {"game": "dots-and-boxes", "pool": "dots-and-boxes-3x3"}
    assert client.get("/api/puzzles/next", params=params).is_success  # the shipped rows
    statements: list[str] = []

    def seen(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
        statements.append(statement)

    event.listen(hub.store.engine, "before_cursor_execute", seen)
    try:
        for _ in range(10):
            statements.clear()
            assert client.get("/api/puzzles/next", params=params).is_success
            picked = [s for s in statements if "vertex_puzzle_picks" in s]
            assert 1 <= len(picked) <= 2, statements
    finally:
        event.remove(hub.store.engine, "before_cursor_execute", seen)


def _engine(tmp_path: Path) -> Any:
    engine = create_engine(f"sqlite:///{tmp_path / 'p.db'}")
    metadata.create_all(engine)
    return engine


def test_the_pick_reads_a_few_rows_of_a_big_pool(tmp_path: Path) -> None:
    """Thousands of puzzles in a pool: the query plan searches the index by scope, theme and
    key (no scan, no sort), and a player's pick leaves out what they tried."""
    engine = _engine(tmp_path)
    rng = random.Random(1)
    with engine.begin() as conn:
        rows = [
            {
                "scope": "big",
                "theme": ANY,
                "puzzle_id": f"p{i:05d}",
                "pick": rng.random(),
                "shipped": 1,
            }
            for i in range(5000)
        ]
        picks.add_rows(conn, rows, sqlite=True)
        plan = " ".join(
            str(r[-1])
            for r in conn.execute(
                text(
                    "EXPLAIN QUERY PLAN SELECT puzzle_id FROM vertex_puzzle_picks "
                    "WHERE scope = 'big' AND theme = '' AND pick >= 0.5 ORDER BY pick LIMIT 1"
                )
            )
        )
        assert "ix_vertex_puzzle_picks_pick" in plan and "SCAN" not in plan, plan
        assert "TEMP B-TREE" not in plan, plan  # the index gives the order
        first = picks.pick(conn, "big", ANY, 0.5)
        want = min((r for r in rows if r["pick"] >= 0.5), key=lambda r: r["pick"])
        assert [p.puzzle_id for p in first] == [want["puzzle_id"]]
        # past the last key: from the start (the second query)
        last = picks.pick(conn, "big", ANY, 0.99999999)
        assert [p.puzzle_id for p in last] == [min(rows, key=lambda r: r["pick"])["puzzle_id"]]
        # a player's: the tried ones left out
        twelve = picks.pick(conn, "big", ANY, 0.25, 12)
        conn.execute(
            puzzle_attempts_t.insert(),
            [
                {
                    "player_id": "me",
                    "puzzle_id": p.puzzle_id,
                    "solved": 1,
                    "before": 1500.0,
                    "after": 1510.0,
                    "at": 1.0,
                }
                for p in twelve[:6]
            ],
        )
        mine = picks.pick(conn, "big", ANY, 0.25, 12, player="me")
        assert [p.puzzle_id for p in mine[:6]] == [p.puzzle_id for p in twelve[6:]]
        assert not {p.puzzle_id for p in twelve[:6]} & {p.puzzle_id for p in mine}
        after = picks.pick(conn, "big", ANY, 0.25, 1, after=twelve[0].puzzle_id)
        assert after[0].puzzle_id == twelve[1].puzzle_id


def test_the_shipped_rows_are_written_once_and_follow_the_set(tmp_path: Path) -> None:
    engine = _engine(tmp_path)
    every = shipped()
    with engine.begin() as conn:
        assert picks.seed_shipped(conn, every, sqlite=True) == len(every)
        assert picks.seed_shipped(conn, every, sqlite=True) == 0
        # a puzzle no longer shipped loses its rows
        assert picks.seed_shipped(conn, every[1:], sqlite=True) == 0
        ids = conn.execute(select(func.count()).where(picks_t.c.puzzle_id == every[0].id))
        assert ids.scalar() == 0
        per_puzzle = conn.execute(
            select(func.count()).where(picks_t.c.puzzle_id == every[1].id)
        ).scalar()
        assert per_puzzle == len(picks.scopes(every[1])) * (1 + len(set(every[1].themes)))


def test_a_mined_puzzle_is_picked_in_its_pool(client: TestClient) -> None:
    from vertex.puzzles.mine import Candidate

    hub = client.app.state.hub  # type: ignore[attr-defined]
    p = next(p for p in shipped() if pool_name(p.game, p.options) == "dots-and-boxes-4x4")
    mined = replace(p, id="mined0000002", source="review", themes=("loops",))
    assert client.portal.call(hub.puzzles.store_mined, [Candidate(mined, 3, 0, "a1-b1")]) == 1

    def rows(conn: Any) -> set[tuple[str, str]]:
        got = conn.execute(
            select(picks_t.c.scope, picks_t.c.theme).where(picks_t.c.puzzle_id == mined.id)
        )
        return {(r.scope, r.theme) for r in got}

    with hub.store.engine.connect() as conn:
        assert rows(conn) == {
            ("dots-and-boxes-4x4", ""),
            ("dots-and-boxes-4x4", "loops"),
            ("dots-and-boxes", ""),
            ("dots-and-boxes", "loops"),
        }


def test_the_migration_indexes_the_puzzles_mined_before_it(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'm.db'}"
    engine = create_engine(url)
    cfg = upgrades._config()
    p = next(p for p in shipped() if p.themes)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0005")
        add_puzzle(conn, replace(p, id="mined0000003"), pool_name(p.game, p.options), 1.0)
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
    with engine.connect() as conn:
        got = {
            (r.scope, r.theme, r.shipped)
            for r in conn.execute(select(picks_t).where(picks_t.c.puzzle_id == "mined0000003"))
        }
    pool = pool_name(p.game, p.options)
    want = {(s, t, 0) for s in dict.fromkeys((pool, p.game)) for t in ("", *p.themes)}
    assert got == want

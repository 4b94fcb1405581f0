"""Review of a whole game (issue 35) through the server as it runs: a real app (the analysis
workers in processes, SQLite), a game played at a table over the HTTP API, then `POST
/api/tables/{id}/review` and `GET` until done. Per board: the wall time from the POST to
`done`, the plies, the first ply from which every move is judged exactly (`exact_from`), and
the marks. Targets (issue 35, this 2-core box): 3×3 < 2 s; 4×4 < 60 s, exact from ply 12;
5×5 < 3 min, exact for the last 40 plies at least.

    nice .venv/bin/python bench/bench_review.py [--sizes 3 4 5] [--seed 1] [--beside 2]

With `--beside N`, N other tables (another address: a person playing random lines against
a level-5 computer on 4×4, which thinks its whole budget) play all along, and each computer
reply's time (from the person's move to the computer's) is printed for a quiet stretch
before the reviews and for each review's duration, side by side, against the computer's
budget (`ai_budget_s`): the issue asks that the other tables' computer replies stay in
time while a 5×5 review runs.

The games are the computer's (levels 3 and 4, short budgets): real games with mistakes in
them, the same for a seed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

import vertex
from vertex.ai import player
from vertex.server import Limits, Settings, create_app

TARGETS = {3: (2.0, None), 4: (60.0, 12), 5: (180.0, None)}


def game_moves(size: int, seed: int) -> list[str]:
    game = vertex.create_game("dots-and-boxes", rows=size, cols=size)
    state = game.initial_state()
    players = [player(game, 3, seed=seed), player(game, 4, seed=seed + 1)]
    moves = []
    while not state.is_over:
        seat = state.to_move[0]
        move = players[seat].choose(state, seat, 0.05)
        moves.append(move)
        state = state.play(move, seat)
    return moves


def review(client: TestClient, size: int, moves: list[str]) -> dict[str, Any]:
    body = {"game": "dots-and-boxes", "options": {"rows": size, "cols": size}}
    tid = client.post("/api/tables", json=body).json()["id"]
    tokens = [
        client.post(f"/api/tables/{tid}/seats/{n}", json={"name": f"P{n}"}).json()["token"]
        for n in range(2)
    ]
    state = vertex.create_game("dots-and-boxes", rows=size, cols=size).initial_state()
    for move in moves:
        seat = state.to_move[0]
        r = client.post(f"/api/tables/{tid}/moves", json={"token": tokens[seat], "move": move})
        assert r.status_code == 200, r.text
        state = state.play(move, seat)
    start = time.monotonic()
    r = client.post(f"/api/tables/{tid}/review")
    assert r.status_code == 200, r.text
    while True:
        got: dict[str, Any] = client.get(f"/api/tables/{tid}/review").json()
        if got["status"] == "done":
            got["seconds"] = time.monotonic() - start
            return got
        time.sleep(0.05)


OTHER = {"X-Forwarded-For": "198.51.100.7"}


class Beside:
    """Tables of another address, each a person against a level-5 computer, played in
    threads; `replies` are the computer's reply times, each with when it ended."""

    def __init__(self, client: TestClient, tables: int) -> None:
        self.client = client
        self.stop = threading.Event()
        self.replies: list[tuple[float, float]] = []
        self.threads = [
            threading.Thread(target=self.play, args=(n,), daemon=True) for n in range(tables)
        ]
        for t in self.threads:
            t.start()

    def play(self, n: int) -> None:
        rng = random.Random(n)
        c = self.client
        seats = [{"kind": "human"}, {"kind": "ai", "level": 5}]
        body = {"game": "dots-and-boxes", "options": {"rows": 4, "cols": 4}, "seats": seats}
        while not self.stop.is_set():
            tid = c.post("/api/tables", json=body, headers=OTHER).json()["id"]
            r = c.post(f"/api/tables/{tid}/seats/0", json={"name": f"B{n}"}, headers=OTHER)
            token = r.json()["token"]
            while not self.stop.is_set():
                view = c.get(f"/api/tables/{tid}").json()
                if view["result"] is not None:
                    break
                if view["state"]["to_move"] != [0]:
                    time.sleep(0.01)
                    continue
                move = rng.choice(view["state"]["legal_moves"])
                start = time.monotonic()
                r = c.post(f"/api/tables/{tid}/moves", json={"token": token, "move": move})
                if r.status_code != 200:
                    continue
                mine = r.json()["version"]
                while not self.stop.is_set():
                    view = c.get(f"/api/tables/{tid}").json()
                    done = view["result"] is not None or view["state"]["to_move"] == [0]
                    if done and view["version"] == mine:
                        break  # a box made: the person moves again, no reply was due
                    if done:
                        end = time.monotonic()
                        self.replies.append((end, end - start))
                        break
                    time.sleep(0.01)

    def between(self, t0: float, t1: float) -> list[float]:
        return [took for end, took in self.replies if t0 <= end <= t1]

    def close(self) -> None:
        self.stop.set()
        for t in self.threads:
            t.join(30)


def said(xs: list[float], budget: float) -> str:
    if not xs:
        return "no replies"
    xs = sorted(xs)
    p99 = xs[min(len(xs) - 1, int(0.99 * len(xs)))]
    late = sum(1 for x in xs if x > budget + 0.5)
    return (
        f"{len(xs)} replies, p50 {statistics.median(xs):.2f} s, p99 {p99:.2f} s, max "
        f"{xs[-1]:.2f} s; {late} more than 0.5 s over the {budget:g} s budget"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[3, 4, 5])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--beside", type=int, default=0, help="other tables against a computer")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            database_url=f"sqlite:///{Path(tmp) / 'bench.db'}",
            analysis_burst=100,
            trusted_proxies="10.9.9.9",
            limits=Limits(tables_per_hour=100_000),
        )
        # the bench is the trusted proxy that names the other tables' address
        with TestClient(create_app(settings), client=("10.9.9.9", 40000)) as client:
            # a first review warms the worker process up (it starts and imports the engines)
            review(client, 2, game_moves(2, args.seed))
            beside = Beside(client, args.beside) if args.beside else None
            if beside is not None:
                quiet = time.monotonic()
                time.sleep(30)
                xs = beside.between(quiet, time.monotonic())
                print(f"beside, no review running: {said(xs, settings.ai_budget_s)}", flush=True)
            for size in args.sizes:
                moves = game_moves(size, args.seed)
                began = time.monotonic()
                out = review(client, size, moves)
                plies = len(out["moves"])
                marks = Counter(m.get("mark", "estimate") for m in out["moves"])
                limit, exact_by = TARGETS.get(size, (None, None))
                verdict = []
                if limit is not None:
                    verdict.append("time ok" if out["seconds"] < limit else f"OVER {limit:g} s")
                if exact_by is not None:
                    verdict.append("exact ok" if out["exact_from"] <= exact_by else "exact LATE")
                if size == 5:
                    verdict.append("exact ok" if plies - out["exact_from"] >= 40 else "exact SHORT")
                accuracy = ", ".join(f"seat {s['seat']} {s['accuracy']}%" for s in out["seats"])
                print(
                    f"{size}x{size}: {out['seconds']:6.1f} s, {plies} plies, exact from ply "
                    f"{out['exact_from']} ({plies - out['exact_from']} exact plies); "
                    f"marks {dict(marks)}; {accuracy}; {'; '.join(verdict)}",
                    flush=True,
                )
                if beside is not None:
                    xs = beside.between(began, time.monotonic())
                    print(f"  beside, during it: {said(xs, settings.ai_budget_s)}", flush=True)
            if beside is not None:
                beside.close()


if __name__ == "__main__":
    main()

"""Review of a whole game (issue 35) through the server as it runs: a real app (the analysis
workers in processes, SQLite), a game played at a table over the HTTP API, then `POST
/api/tables/{id}/review` and `GET` until done. Per board: the wall time from the POST to
`done`, the plies, the first ply from which every move is judged exactly (`exact_from`), and
the marks. Targets (issue 35, this 2-core box): 3×3 < 2 s; 4×4 < 60 s, exact from ply 12;
5×5 < 3 min, exact for the last 40 plies at least.

    nice .venv/bin/python bench/bench_review.py [--sizes 3 4 5] [--seed 1]

The games are the computer's (levels 3 and 4, short budgets): real games with mistakes in
them, the same for a seed.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

import vertex
from vertex.ai import player
from vertex.server import Settings, create_app

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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[3, 4, 5])
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(database_url=f"sqlite:///{Path(tmp) / 'bench.db'}", analysis_burst=100)
        with TestClient(create_app(settings)) as client:
            # a first review warms the worker process up (it starts and imports the engines)
            review(client, 2, game_moves(2, args.seed))
            for size in args.sizes:
                moves = game_moves(size, args.seed)
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


if __name__ == "__main__":
    main()

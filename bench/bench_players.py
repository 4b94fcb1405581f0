"""Players benchmark (issue 34): profiles, leaderboards and rated results at scale.

A fresh PostgreSQL database gets N players (100,000 by default) and G finished games
(1,000,000: two players each, so 2G history rows), ratings in the pools and counts, by
COPY; then one `vertex serve` on it answers, over HTTP on loopback:
(a) a profile's first page (`GET /api/players/{name}` + `GET /api/players/{name}/games`),
    for random players and the busiest ones: p50/p99;
(b) each pool's leaderboard (`GET /api/leaderboard/{pool}`): p50/p99;
(c) the move that ends a game, side by side: a rated 3×3 table between two players, the
    same table unrated between two players, and between two guests (today's path):
    p50/p99 of that move's request, and the rated one's extra cost; with `--before SRC`
    a second `vertex serve` from another copy of the code on the same database plays the
    same endings, interleaved, and the extra costs are printed side by side;
(d) the server's memory (RSS) after the first hundred profiles and after thousands more
    distinct ones: it must not grow with the number of players seen.

    nice .venv/bin/python bench/bench_players.py [--players 100000] [--games 1000000]
        [--profiles 400] [--boards 40] [--endings 40] [--before /tmp/before/src]

(`git archive REV src | tar -x -C /tmp/before` makes the copy for `--before`.)

Not a test: the figures go to bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from bench_load import PG_ADMIN, free_port, wait_up

POOLS = [
    "dots-and-boxes-3x3",
    "dots-and-boxes-5x5",
    "dots-and-triangles-6",
    "figures-6x6-2",
    "figures-6x6-3",
    "figures-6x6-4",
    "vert3x-trianguliche-3x3",
    "juxtapose-2",
]
GAME_OF = {
    "dots-and-boxes-3x3": "dots-and-boxes",
    "dots-and-boxes-5x5": "dots-and-boxes",
    "dots-and-triangles-6": "dots-and-triangles",
    "figures-6x6-2": "figures",
    "figures-6x6-3": "figures",
    "figures-6x6-4": "figures",
    "vert3x-trianguliche-3x3": "vert3x",
    "juxtapose-2": "juxtapose",
}
DAY = 86400.0


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def ms(xs: list[float]) -> str:
    return f"p50 {statistics.median(xs) * 1000:.1f} ms, p99 {pct(xs, 0.99) * 1000:.1f} ms"


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def copy(cur: Any, table: str, columns: list[str], rows: Any) -> None:
    with cur.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as cp:
        for row in rows:
            cp.write_row(row)


def fill(url: str, players: int, games: int, seed: int) -> list[str]:
    """The players, their ratings and finished games, as the server would have written
    them; the names of the busiest players (most games) first."""
    import psycopg

    rng = random.Random(seed)
    now = time.time()
    pg_url = url.replace("postgresql+psycopg:", "postgresql:")
    with psycopg.connect(pg_url) as conn, conn.cursor() as cur:
        ids = [f"{i:032x}" for i in range(players)]
        # a few players play most games (as on any site): a Pareto draw of each one's weight
        weights = [rng.paretovariate(1.2) for _ in range(players)]
        counts = [0] * players
        wins = [0] * players

        def game_rows() -> Any:
            picks = rng.choices(range(players), weights=weights, k=2 * games)
            for g in range(games):
                a, b = picks[2 * g], picks[2 * g + 1]
                if a == b:
                    b = (b + 1) % players
                pool = POOLS[g % len(POOLS)]
                ended = now - rng.random() * 365 * DAY
                tid = f"bench{g:011d}"
                scores = [rng.randint(0, 9), rng.randint(0, 9)]
                for seat, (me, other) in enumerate(((a, b), (b, a))):
                    mine, theirs = scores[seat], scores[1 - seat]
                    result = "win" if mine > theirs else "draw" if mine == theirs else "loss"
                    counts[me] += 1
                    wins[me] += result == "win"
                    summary = {
                        "options": {"rows": 3, "cols": 3},
                        "scores": scores,
                        "opponents": [
                            {
                                "seat": 1 - seat,
                                "player": ids[other],
                                "name": f"p{other}",
                                "kind": "human",
                            }
                        ],
                        "unrated": None,
                    }
                    before = rng.randint(1100, 1900)
                    yield (
                        ids[me],
                        tid,
                        seat,
                        GAME_OF[pool],
                        pool,
                        1,
                        ended,
                        result,
                        before,
                        before + rng.randint(-20, 20),
                        json.dumps(summary),
                    )

        t0 = time.perf_counter()
        copy(
            cur,
            "vertex_player_games",
            [
                "player_id",
                "table_id",
                "seat",
                "game",
                "pool",
                "rated",
                "ended_at",
                "result",
                "before",
                "after",
                "summary",
            ],
            game_rows(),
        )
        print(f"  {2 * games:,} history rows in {time.perf_counter() - t0:.0f} s", flush=True)
        copy(
            cur,
            "vertex_players",
            [
                "id",
                "name",
                "name_key",
                "skeleton",
                "key_hash",
                "since",
                "games",
                "wins",
                "draws",
                "losses",
            ],
            (
                (
                    ids[i],
                    f"p{i}",
                    f"p{i}",
                    f"p{i}",
                    hashlib.sha256(f"bench-key-{i}".encode()).hexdigest(),
                    now - 400 * DAY,
                    counts[i],
                    wins[i],
                    0,
                    counts[i] - wins[i],
                )
                for i in range(players)
            ),
        )

        def rating_rows() -> Any:
            for i in range(players):
                for pool in rng.sample(POOLS, k=1 + (i % 3 == 0)):
                    n = max(1, counts[i] // 2)
                    yield (
                        ids[i],
                        pool,
                        rng.gauss(1500, 250),
                        max(60.0, 500 - 4 * n),
                        n,
                        n // 2,
                        0,
                        n - n // 2,
                        now - rng.random() * 120 * DAY,
                    )

        copy(
            cur,
            "vertex_ratings",
            ["player_id", "pool", "mu", "sigma", "games", "wins", "draws", "losses", "last_at"],
            rating_rows(),
        )
        conn.commit()
        cur.execute("ANALYZE")
        print(f"  filled in {time.perf_counter() - t0:.0f} s", flush=True)
        busiest = sorted(range(players), key=lambda i: -counts[i])[:20]
        print(f"  busiest player: {counts[busiest[0]]:,} games", flush=True)
        return [f"p{i}" for i in busiest]


def timed(client: httpx.Client, path: str, **kw: Any) -> float:
    t = time.perf_counter()
    r = client.get(path, **kw)
    took = time.perf_counter() - t
    assert r.status_code == 200, (path, r.status_code, r.text[:200])
    return took


def profiles(client: httpx.Client, names: list[str]) -> tuple[list[float], list[float]]:
    prof, first = [], []
    for name in names:
        prof.append(timed(client, f"/api/players/{name}"))
        first.append(timed(client, f"/api/players/{name}/games"))
    return prof, first


def addr(n: int) -> dict[str, str]:
    return {"X-Forwarded-For": f"198.51.{n // 250}.{n % 250 + 1}"}


def ending_move(client: httpx.Client, n: int, kind: str, keys: tuple[str, str] | None) -> float:
    """A 3×3 game played out with random legal moves: the time of the request whose move
    ended it (Dots and Boxes ends on the last line)."""
    rng = random.Random(n)
    body: dict[str, Any] = {"game": "dots-and-boxes", "options": {"rows": 3, "cols": 3}}
    if kind == "rated":
        body["rated"] = True
    r = client.post("/api/tables", json=body, headers=addr(10_000 + n))
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    tokens = []
    for seat in (0, 1):
        headers = addr(2 * n + seat)
        if keys is not None:
            headers["Authorization"] = f"Bearer {keys[seat]}"
        r = client.post(
            f"/api/tables/{tid}/seats/{seat}", json={"name": f"g{seat}"}, headers=headers
        )
        assert r.status_code == 200, r.text
        tokens.append(r.json()["token"])
    while True:
        state = client.get(f"/api/tables/{tid}").json()["state"]
        move = rng.choice(state["legal_moves"])
        if len(state["legal_moves"]) == 1:
            # the ending comes at a person's pace: what the move before it wrote in the
            # background (a player's seats' turns) is done, and does not queue before it
            time.sleep(0.1)
        t = time.perf_counter()
        r = client.post(
            f"/api/tables/{tid}/moves", json={"token": tokens[state["to_move"][0]], "move": move}
        )
        took = time.perf_counter() - t
        assert r.status_code == 200, r.text
        if client.get(f"/api/tables/{tid}").json()["state"]["is_over"]:
            view = client.get(f"/api/tables/{tid}").json()
            if kind == "rated":
                assert view["state"].get("result", view.get("result")) is not None
            return took


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=100_000)
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--profiles", type=int, default=400)
    ap.add_argument("--boards", type=int, default=40)
    ap.add_argument("--endings", type=int, default=40)
    ap.add_argument("--seed", type=int, default=34)
    ap.add_argument("--before", help="the `src` directory of another copy of the code")
    args = ap.parse_args()

    import psycopg

    name = f"vertex_bench_players_{os.getpid()}"
    admin = psycopg.connect(PG_ADMIN, autocommit=True)
    admin.execute(f"CREATE DATABASE {name}")
    url = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql:", "postgresql+psycopg:") + "/" + name
    procs: list[subprocess.Popen[bytes]] = []
    try:
        from vertex.server.storage.schema import make_engine
        from vertex.server.storage.upgrades import prepare

        engine = make_engine(url, statement_deadline=False)
        prepare(engine, url)
        engine.dispose()
        print(f"players bench: {args.players:,} players, {args.games:,} finished games", flush=True)
        busiest = fill(url, args.players, args.games, args.seed)

        ports = {}
        for label, src in [("now", None), ("before", args.before)]:
            if label == "before" and src is None:
                continue
            port = ports[label] = free_port()
            log = Path(tempfile.mkdtemp()) / "serve.log"
            env = {k: v for k, v in os.environ.items() if not k.startswith("VERTEX_")}
            if src is not None:
                env["PYTHONPATH"] = src
            # each game's two seats come from addresses of their own (one address would make
            # a rated game unrated): the bench is the trusted proxy that names them
            env.update(VERTEX_TRUSTED_PROXIES="127.0.0.1", VERTEX_TABLES_PER_HOUR="1000000")
            cmd = [sys.executable, "-m", "vertex.cli", "serve", "--port", str(port)]
            with log.open("wb") as out:
                procs.append(
                    subprocess.Popen([*cmd, "--database", url], stdout=out, stderr=out, env=env)
                )
            wait_up(port, procs[-1], log)
        port = ports["now"]
        proc = procs[0]
        rng = random.Random(args.seed)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
            sample = [f"p{rng.randrange(args.players)}" for _ in range(args.profiles)]
            profiles(client, sample[:20])  # warm the connections
            prof, first = profiles(client, sample + busiest)
            both = [a + b for a, b in zip(prof, first, strict=True)]
            print(f"(a) profile {ms(prof)}; games' first page {ms(first)}; both {ms(both)}")
            heavy = both[-len(busiest) :]
            print(f"    the {len(busiest)} busiest players: {ms(heavy)}")

            boards = []
            for pool in POOLS:
                for _ in range(args.boards):
                    boards.append(timed(client, f"/api/leaderboard/{pool}"))
            print(f"(b) leaderboards ({len(POOLS)} pools × {args.boards}): {ms(boards)}")

            others = {
                label: httpx.Client(base_url=f"http://127.0.0.1:{p}", timeout=30)
                for label, p in ports.items()
            }
            keys = [f"bench-key-{i}" for i in range(2 * len(ports) * args.endings + 2)]
            kinds: dict[str, dict[str, list[float]]] = {
                label: {"guests": [], "unrated players": [], "rated": []} for label in ports
            }
            for n in range(args.endings):
                for j, (label, other) in enumerate(others.items()):
                    # a new pair each game (no daily limit); the two copies interleaved, so
                    # that the box's noise falls on both alike
                    m = len(ports) * n + j
                    pair = (keys[2 * m], keys[2 * m + 1])
                    got = kinds[label]
                    got["guests"].append(ending_move(other, 3 * m, "guests", None))
                    got["unrated players"].append(ending_move(other, 3 * m + 1, "unrated", pair))
                    got["rated"].append(ending_move(other, 3 * m + 2, "rated", pair))
            extras = {}
            for label, got in kinds.items():
                for kind, xs in got.items():
                    print(f"(c) [{label}] the ending move, {kind}: {ms(xs)}")
                base = statistics.median(got["guests"])
                extras[label] = [statistics.median(got[k]) - base for k in got if k != "guests"]
                unrated, rated = (f"{x * 1000:.1f} ms" for x in extras[label])
                print(
                    f"    [{label}] extra cost (medians) of an unrated players' ending "
                    f"{unrated}, of a rated one {rated}"
                )
            if "before" in extras and extras["before"][1] > 0:
                ratio = extras["now"][1] / extras["before"][1]
                print(f"    a rated ending's extra cost, now/before: {ratio:.2f}")
            for other in others.values():
                other.close()

            before = rss_mb(proc.pid)
            many = [f"p{rng.randrange(args.players)}" for _ in range(3000)]
            profiles(client, many)
            after = rss_mb(proc.pid)
            print(
                f"(d) RSS after {len(sample) + len(busiest)} profiles {before:.0f} MB, "
                f"after {len(many):,} more distinct ones {after:.0f} MB"
            )
    finally:
        for each in procs:
            each.terminate()
            each.wait(timeout=30)
        admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.close()


if __name__ == "__main__":
    main()

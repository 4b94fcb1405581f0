"""Verticality physics: placement-to-rest wall time, and how high the computer players build.

1. Median wall time of one placement-to-rest (drop a pyramid, simulate until every body rests)
   on 5-, 10- and 30-level towers: with a fresh model compile (what the game does, the piece
   list being new each time) and with the compiled model cached.
2. Solo towers of the computer players, levels 1–5, with the die's own sizes, to the end of
   the supply (30 levels: 90 pyramids, 3 a level) or to `--cap` levels (10 was the old cap),
   over many table seeds and tremor settings, side by side with the quick plan (a tight
   triangle at each level's centre, the card on the tips, a calm hand: nothing weighed) as the
   peer. The ceiling these are measured against is `bench/bench_tower_ceiling.py`.

Run: .venv/bin/python bench/bench_verticality.py [--towers 40] [--first-seed 0] [--levels 1,2,3,4,5]
     [--tremors 0,0.2,0.45,0.9] [--budget 0.5] [--cap 0] [--no-timing] [--jobs 2]
(placement-to-rest is timed first, on level 5's recorded tower of tests/ai/data/tower30_seed3.json;
then every row's towers go into one pool, seed by seed, so a run stopped early (--progress prints
each tower as it ends) has the same first seeds in every row; level 5's thinking time a move is
process CPU time, by step of the level)
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from concurrent.futures import ProcessPoolExecutor, TimeoutError
from pathlib import Path

import vertex
from vertex.ai import player
from vertex.games.verticality import VerticalityState
from vertex.games.verticality.layouts import layout_library
from vertex.games.verticality.plan import plan_aim
from vertex.games.verticality.planner import GAP_MM
from vertex.physics import PYRAMIDS, build_model, settle, yaw_pose
from vertex.physics.geometry import apex, card_top_z
from vertex.physics.pieces import CARD_THICKNESS

MM = 1e-3
RECORD = Path(__file__).parents[1] / "tests" / "ai" / "data" / "tower30_seed3.json"
#: The supply's end: 30 pyramids of each size, 3 a level.
SUPPLY_LEVELS = 30


def planned_tower(sizes: list[str]) -> tuple[list[str], list]:
    kinds: list[str] = []
    poses: list = []
    surface = 0.0
    for size in sizes:
        b = PYRAMIDS[size].base + 0.3 * MM
        for x, y in ((-b / 2, -b / 3), (b / 2, -b / 3), (0.0, 2 * b / 3)):
            kinds.append(size)
            poses.append(yaw_pose(x, y, surface + MM, 0.0))
            poses = list(settle(kinds, poses).poses)
        top = max(apex(k, p)[2] for k, p in zip(kinds[-3:], poses[-3:], strict=True))
        kinds.append("card")
        poses.append(yaw_pose(0.0, 0.0, top + CARD_THICKNESS / 2 + MM, 0.0))
        poses = list(settle(kinds, poses).poses)
        surface = card_top_z(poses[-1], 0.0, 0.0)
    return kinds, poses


def recorded_tower(levels: int) -> tuple[list[str], list, tuple[float, float, float], str]:
    """The first `levels` levels of level 5's recorded 30-level tower (seed 3, tremor 0:
    tests/ai/data/tower30_seed3.json), the size the die rolls next and the plan's aim for it:
    the same tower every run, and no tower to build first."""
    record = json.loads(RECORD.read_text())
    game = vertex.create_game("verticality", **record["options"])
    state = game.initial_state(seed=record["seed"])
    for move in record["moves"][: 4 * levels]:
        after = state.play(move, seat=0)
        assert isinstance(after, VerticalityState)
        state = after
    assert isinstance(state, VerticalityState) and state.towers[0].levels == levels
    aim = plan_aim(state, 0)
    tower = state.towers[0]
    return (
        [p.kind for p in tower.pieces],
        [p.pose for p in tower.pieces],
        (aim.x * MM, aim.y * MM, aim.rot),
        state.size,
    )


def placement_times(
    kinds: list[str], poses: list, size: str, at: tuple[float, float, float], repeats: int
) -> tuple[float, float, float, bool]:
    """Median ms with a fresh compile, median ms with a cached model, simulated s, at rest."""
    x, y, rot = at
    surface = card_top_z(poses[-1], x, y)
    new_kinds = [*kinds, size]
    new_poses = [*poses, yaw_pose(x, y, surface + MM, rot)]
    fresh, cached = [], []
    result = settle(new_kinds, new_poses)
    for _ in range(repeats):
        build_model.cache_clear()
        t = time.perf_counter()
        settle(new_kinds, new_poses)
        fresh.append(time.perf_counter() - t)
        t = time.perf_counter()
        settle(new_kinds, new_poses)
        cached.append(time.perf_counter() - t)
    return (
        statistics.median(fresh) * 1e3,
        statistics.median(cached) * 1e3,
        result.time,
        result.at_rest and not result.fell,
    )


def solo_levels(seed: int, tremor: float, level: int, budget: float, cap: int) -> int:
    """Levels a solo tower reaches (to the supply's end, or `cap`); level 0 is the quick plan."""
    return solo_tower(seed, tremor, level, budget, cap)[0]


def warm() -> None:
    """Each worker builds the layout libraries once (0.2-0.4 s a size, once a process, as a
    server does) before its towers, so the thinking times are the moves' own."""
    for size in PYRAMIDS:
        for shapes in ("any", "tight"):
            layout_library(size, GAP_MM, shapes)


def solo_tower(
    seed: int, tremor: float, level: int, budget: float, cap: int
) -> tuple[int, dict[int, list[float]]]:
    """`solo_levels`, and the player's thinking time a move (process CPU s) by step."""
    think: dict[int, list[float]] = {0: [], 1: [], 2: [], 3: []}
    game = vertex.create_game("verticality", players=1, tremor_mm=tremor)
    state = game.initial_state(seed=seed)
    assert isinstance(state, VerticalityState)
    bot = player(game, level, seed=0) if level else None
    while not state.is_over and state.towers[0].levels < cap:
        if bot is None:
            move = str(plan_aim(state, 0, counterbalance=False))
        else:
            t = time.process_time()
            move = bot.choose(state, 0, budget)
            think[state.step].append(time.process_time() - t)
        after = state.play(move, seat=0)
        assert isinstance(after, VerticalityState)
        state = after
    return state.towers[0].levels, think


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--towers", type=int, default=40, help="table seeds 0..N-1 per row")
    parser.add_argument(
        "--first-seed", type=int, default=0, help="the towers' seeds start here (a held-out set)"
    )
    parser.add_argument("--levels", default="1,2,3,4,5", help="computer levels")
    parser.add_argument("--tremors", default="0,0.2,0.45,0.9")
    parser.add_argument("--budget", type=float, default=0.5, help="thinking budget (s)")
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--no-timing", action="store_true", help="skip placement-to-rest")
    parser.add_argument("--jobs", type=int, default=1, help="towers built at once (processes)")
    parser.add_argument(
        "--cap", type=int, default=0, help="stop towers at this many levels (0: the supply's end)"
    )
    parser.add_argument(
        "--stop-after", type=float, default=0, help="stop the towers after this many s (wall)"
    )
    parser.add_argument(
        "--progress", action="store_true", help="print each tower as it ends (in seed order)"
    )
    args = parser.parse_args()
    cap = args.cap or SUPPLY_LEVELS

    if not args.no_timing:
        print("placement-to-rest (one pyramid dropped on a tower)")
        print(f"{'tower':<36}{'bodies':>7}{'fresh ms':>10}{'cached ms':>11}{'sim s':>8}  stands")
        b = PYRAMIDS["S"].base + 0.3 * MM
        for name, sizes in (
            ("5 levels L L M M S, centred", ["L", "L", "M", "M", "S"]),
            ("10 levels L L L L M M M S S S, centred", ["L"] * 4 + ["M"] * 3 + ["S"] * 3),
        ):
            kinds, poses = planned_tower(sizes)
            got = placement_times(kinds, poses, "S", (-b / 2, -b / 3, 0.0), args.repeats)
            fresh, cached, sim, ok = got
            print(f"{name:<36}{len(kinds) + 1:>7}{fresh:>10.1f}{cached:>11.1f}{sim:>8.3f}  {ok}")
        for height in (10, 20, SUPPLY_LEVELS - 1):
            kinds, poses, at, size = recorded_tower(height)
            fresh, cached, sim, ok = placement_times(kinds, poses, size, at, args.repeats)
            name = f"{height} levels, level 5's (seed 3), {size}"
            print(f"{name:<36}{len(kinds) + 1:>7}{fresh:>10.1f}{cached:>11.1f}{sim:>8.3f}  {ok}")
        print()

    print(
        f"solo towers, the die's sizes, to {cap} levels"
        f"{' (the supply' + chr(39) + 's end)' if cap == SUPPLY_LEVELS else ' (a cap)'}, "
        f"seeds {args.first_seed}..{args.first_seed + args.towers - 1}, "
        f"thinking budget {args.budget:g} s; ratio = mean levels / the quick plan's"
    )
    print(f"{'player':<12}{'tremor':>7}{'fell':>6}{'mean levels':>13}{'ratio':>7}  levels")
    levels = [int(v) for v in args.levels.split(",")]
    tremors = [float(t) for t in args.tremors.split(",")]
    rows = [(level, tremor) for tremor in tremors for level in [0, *levels]]
    t = time.perf_counter()
    pool = ProcessPoolExecutor(max_workers=args.jobs, initializer=warm)
    # seeds first, rows second: stopped early, every row has the same first seeds
    runs = {
        (row, s): pool.submit(solo_tower, s, row[1], row[0], args.budget, cap)
        for s in range(args.first_seed, args.first_seed + args.towers)
        for row in rows
    }
    deadline = t + args.stop_after if args.stop_after else None
    got: dict[tuple[tuple[int, float], int], tuple[int, dict[int, list[float]]]] = {}
    for (row, s), run in runs.items():
        left = None if deadline is None else max(0.0, deadline - time.perf_counter())
        try:
            got[(row, s)] = run.result(timeout=left)
        except TimeoutError:
            break
        if args.progress:
            print(f"  level {row[0]} tremor {row[1]} seed {s}: {got[(row, s)][0]}", flush=True)
    seeds = [
        s
        for s in range(args.first_seed, args.first_seed + args.towers)
        if all((row, s) in got for row in rows)
    ]
    if len(got) < len(runs):
        for proc in list(getattr(pool, "_processes", {}).values()):
            proc.terminate()  # the towers still building: stopped at --stop-after
    pool.shutdown(wait=True, cancel_futures=True)
    per = (time.perf_counter() - t) * args.jobs / max(1, len(got))
    stopped = "" if len(seeds) == args.towers else f", stopped after {args.stop_after:g} s"
    print(
        f"(towers of seeds {seeds[0] if seeds else '-'}..{seeds[-1] if seeds else '-'}{stopped};"
        f" s/tower: wall time x jobs / towers, all rows: {per:.1f})"
    )
    for tremor in tremors:
        peer = None
        for level in [0, *levels]:
            reached = [got[((level, tremor), s)][0] for s in seeds]
            if not reached:
                continue
            mean = statistics.mean(reached)
            peer = mean if peer is None else peer
            fell = sum(1 for g in reached if g < cap)
            name = "quick plan" if level == 0 else f"level {level}"
            text = " ".join(str(g) if g < cap else "X" for g in reached)
            ratio = mean / peer if peer else float("nan")
            print(
                f"{name:<12}{tremor:>7.2f}{fell:>6}{mean:>13.2f}{ratio:>7.2f}  {text}",
                flush=True,
            )
    for level in levels:
        print(f"level {level} thinking, process CPU s a move, budget {args.budget:g} s")
        for tremor in tremors:
            for step in range(4):
                times = sorted(v for s in seeds for v in got[((level, tremor), s)][1][step])
                if not times:
                    continue
                p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
                print(
                    f"  tremor {tremor:.2f} step {step}: moves {len(times):5}"
                    f"  median {statistics.median(times):.3f}  p99 {p99:.3f}  max {times[-1]:.3f}"
                )
    print(f"levels: one number a seed, X = reached {cap} levels")


if __name__ == "__main__":
    main()

"""Verticality physics: placement-to-rest wall time, and how high the computer players build.

1. Median wall time of one placement-to-rest (drop a pyramid, simulate until every body rests)
   on 5-, 10- and 30-level towers: with a fresh model compile (what the game does, the piece
   list being new each time) and with the compiled model cached.
2. Solo towers of the computer players, levels 1–5, with the die's own sizes, to the end of
   the supply (30 levels: 90 pyramids, 3 a level) or to `--cap` levels (10 was the old cap),
   over many table seeds and tremor settings, side by side with the quick plan (a tight
   triangle at each level's centre, the card on the tips, a calm hand: nothing weighed) as the
   peer. The ceiling these are measured against is `bench/bench_tower_ceiling.py`.

Run: .venv/bin/python bench/bench_verticality.py [--towers 40] [--levels 1,2,3,4,5]
     [--tremors 0,0.2,0.45,0.9] [--budget 0.5] [--cap 0] [--no-timing] [--jobs 2]
(s/tower is wall time × jobs / towers; placement-to-rest is timed before any job starts)
"""

from __future__ import annotations

import argparse
import statistics
import time
from concurrent.futures import ProcessPoolExecutor

import vertex
from vertex.ai import player
from vertex.games.verticality import VerticalityState
from vertex.games.verticality.plan import plan_aim
from vertex.physics import PYRAMIDS, build_model, settle, yaw_pose
from vertex.physics.geometry import apex, card_top_z
from vertex.physics.pieces import CARD_THICKNESS

MM = 1e-3
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


def players_tower(seed: int, levels: int) -> tuple[list[str], list, tuple[float, float, float]]:
    """The tower level 5 builds for `seed` (tremor 0) to `levels` levels, and the plan's next
    aim (the level-5 player: the careful plan alone does not reach 30 on every seed)."""
    game = vertex.create_game("verticality", players=1, tremor_mm=0.0)
    state = game.initial_state(seed=seed)
    assert isinstance(state, VerticalityState)
    bot = player(game, 5, seed=0)
    while state.towers[0].levels < levels and not state.is_over:
        after = state.play(bot.choose(state, 0, 0.5), seat=0)
        assert isinstance(after, VerticalityState)
        if not after.towers[0].standing:
            break  # as high as it stands: the bench says how high that is
        state = after
    aim = plan_aim(state, 0)
    tower = state.towers[0]
    return (
        [p.kind for p in tower.pieces],
        [p.pose for p in tower.pieces],
        (aim.x * MM, aim.y * MM, aim.rot),
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
    game = vertex.create_game("verticality", players=1, tremor_mm=tremor)
    state = game.initial_state(seed=seed)
    assert isinstance(state, VerticalityState)
    bot = player(game, level, seed=0) if level else None
    while not state.is_over and state.towers[0].levels < cap:
        if bot is None:
            move = str(plan_aim(state, 0, counterbalance=False))
        else:
            move = bot.choose(state, 0, budget)
        after = state.play(move, seat=0)
        assert isinstance(after, VerticalityState)
        state = after
    return state.towers[0].levels


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--towers", type=int, default=40, help="table seeds 0..N-1 per row")
    parser.add_argument("--levels", default="1,2,3,4,5", help="computer levels")
    parser.add_argument("--tremors", default="0,0.2,0.45,0.9")
    parser.add_argument("--budget", type=float, default=0.5, help="thinking budget (s)")
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--no-timing", action="store_true", help="skip placement-to-rest")
    parser.add_argument("--jobs", type=int, default=1, help="towers built at once (processes)")
    parser.add_argument(
        "--cap", type=int, default=0, help="stop towers at this many levels (0: the supply's end)"
    )
    parser.add_argument("--seed", type=int, default=0, help="the 30-level timing tower's seed")
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
        for height in (10, SUPPLY_LEVELS):
            kinds, poses, at = players_tower(args.seed, height)
            fresh, cached, sim, ok = placement_times(kinds, poses, "S", at, args.repeats)
            built = sum(1 for k in kinds if k == "card")
            name = f"{built} levels, level 5's (seed {args.seed})"
            print(f"{name:<36}{len(kinds) + 1:>7}{fresh:>10.1f}{cached:>11.1f}{sim:>8.3f}  {ok}")
        print()

    print(
        f"solo towers, the die's sizes, to {cap} levels"
        f"{' (the supply' + chr(39) + 's end)' if cap == SUPPLY_LEVELS else ' (a cap)'}, "
        f"seeds 0..{args.towers - 1}, "
        f"thinking budget {args.budget:g} s; ratio = mean levels / the quick plan's"
    )
    print(
        f"{'player':<12}{'tremor':>7}{'fell':>6}{'mean levels':>13}{'ratio':>7}{'s/tower':>9}"
        "  levels"
    )
    levels = [int(v) for v in args.levels.split(",")]
    for tremor in (float(t) for t in args.tremors.split(",")):
        peer = None
        for level in [0, *levels]:
            t = time.perf_counter()
            with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                runs = [
                    pool.submit(solo_levels, s, tremor, level, args.budget, cap)
                    for s in range(args.towers)
                ]
                got = [run.result() for run in runs]
            per = (time.perf_counter() - t) * args.jobs / args.towers
            mean = statistics.mean(got)
            peer = mean if peer is None else peer
            fell = sum(1 for g in got if g < cap)
            name = "quick plan" if level == 0 else f"level {level}"
            text = " ".join(str(g) if g < cap else "X" for g in got)
            ratio = mean / peer if peer else float("nan")
            print(
                f"{name:<12}{tremor:>7.2f}{fell:>6}{mean:>13.2f}{ratio:>7.2f}{per:>9.1f}  {text}",
                flush=True,
            )
    print(f"levels: one number a seed, X = reached {cap} levels")


if __name__ == "__main__":
    main()

"""Verticality physics: placement-to-rest wall time, and how often a planned tower falls.

1. Median wall time of one placement-to-rest (drop a pyramid, simulate until every body rests)
   on planned 5- and 10-level towers: with a fresh model compile (what the game does, the
   piece list being new each time) and with the compiled model cached.
2. Fall rate of a planned 5-level tower (sizes L, L, M, M, S, the planner's aims, calm
   release) under the easy / normal / hard tremor, over many table seeds.

Run: .venv/bin/python bench/bench_verticality.py [--towers N]
"""

from __future__ import annotations

import argparse
import statistics
import time

import vertex
from vertex.core.rng import Rng
from vertex.games.verticality import VerticalityState
from vertex.games.verticality.plan import plan_aim
from vertex.games.verticality.rules import FACE_SIZE, roll
from vertex.physics import PYRAMIDS, build_model, settle, yaw_pose
from vertex.physics.geometry import apex, card_top_z
from vertex.physics.pieces import CARD_THICKNESS

MM = 1e-3


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


def placement_times(sizes: list[str], repeats: int) -> tuple[float, float, float, bool]:
    """Median ms with a fresh compile, median ms with a cached model, simulated s, at rest."""
    kinds, poses = planned_tower(sizes)
    b = PYRAMIDS["S"].base + 0.3 * MM
    surface = card_top_z(poses[-1], 0.0, 0.0)
    new_kinds = [*kinds, "S"]
    new_poses = [*poses, yaw_pose(-b / 2, -b / 3, surface + MM, 0.0)]
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


def seeds_rolling(sizes: list[str], count: int) -> list[int]:
    """Table seeds whose die gives `sizes` for the first levels (solo: no rerolls)."""
    out = []
    seed = 0
    while len(out) < count:
        rng = Rng.from_seed(seed, "die")
        got = []
        for _ in sizes:
            face, rng = roll(rng)
            got.append(FACE_SIZE[face])
        if got == sizes:
            out.append(seed)
        seed += 1
    return out


def fall_rate(
    tremor_mm: float, seeds: list[int], haste: float = 0.0, target: int = 5
) -> tuple[int, float, float]:
    """Towers that fell before completing `target` levels, mean levels, wall s per tower."""
    game = vertex.create_game("verticality", players=1, tremor_mm=tremor_mm)
    fell = 0
    levels = []
    t = time.perf_counter()
    for seed in seeds:
        state = game.initial_state(seed=seed)
        assert isinstance(state, VerticalityState)
        while not state.is_over and state.towers[0].levels < target:
            aim = plan_aim(state, 0, haste=haste)
            state = state.play(str(aim), seat=0)  # type: ignore[assignment]
        tower = state.towers[0]
        fell += not tower.standing
        levels.append(tower.levels)
    return fell, statistics.mean(levels), (time.perf_counter() - t) / len(seeds)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--towers", type=int, default=40, help="towers per tremor setting")
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()

    print("placement-to-rest (one small pyramid dropped on a planned tower)")
    print(f"{'tower':<28}{'bodies':>7}{'fresh ms':>10}{'cached ms':>11}{'sim s':>8}  stands")
    for name, sizes in (
        ("5 levels L L M M S", ["L", "L", "M", "M", "S"]),
        ("10 levels L L L L M M M S S S", ["L"] * 4 + ["M"] * 3 + ["S"] * 3),
    ):
        fresh, cached, sim, ok = placement_times(sizes, args.repeats)
        bodies = 4 * len(sizes) + 1
        print(f"{name:<28}{bodies:>7}{fresh:>10.1f}{cached:>11.1f}{sim:>8.3f}  {ok}")

    print()
    print(f"planned towers, {args.towers} table seeds per row (solo, the planner's aims)")
    print(f"{'tower':<34}{'tremor':<13}{'fell':>5}{'rate':>7}{'mean levels':>13}{'s/tower':>9}")
    fixed = seeds_rolling(["L", "L", "M", "M", "S"], args.towers)
    any_die = list(range(args.towers))
    rows = (
        ("5 levels L L M M S, calm", fixed, 0.0, 5),
        ("5 levels L L M M S, rushed", fixed, 1.0, 5),
        ("10 levels, the die's sizes, calm", any_die, 0.0, 10),
    )
    for label, seeds, haste, target in rows:
        for name, tremor_mm in (("easy 0.2", 0.2), ("normal 0.45", 0.45), ("hard 0.9", 0.9)):
            fell, mean_levels, per = fall_rate(tremor_mm, seeds, haste, target)
            rate = fell / len(seeds)
            print(f"{label:<34}{name:<13}{fell:>5}{rate:>7.0%}{mean_levels:>13.2f}{per:>9.2f}")


if __name__ == "__main__":
    main()

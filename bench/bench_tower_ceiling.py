"""Verticality: how high towers can get with the die's sizes, by search in the simulator.

A solo game per table seed (the die's own sizes), to the end of the supply (30 levels) or to
`--cap` levels (10 was the old cap). At every step the search
takes many candidate aims (the planner's best layouts, orders, turns and gaps, from several
settings: `candidate_aims`) and tries each in the simulator before placing one:

- search: from each candidate, `--samples` rollouts to the end of the level (the candidate,
  then the careful plan for the rest), each piece dropped with tremor drawn by the search
  itself (the engine's draws are secret, as for any player); a rollout is worth 0 if the tower
  falls, else 1 plus a tenth of how good a plan the next level can then have (the best plan
  score for its first pyramid, over the three sizes the die may roll). The candidate with the
  best mean wins, ties going to the planner's order. With tremor 0 one rollout says it all.
- oracle: each candidate played through the engine itself, with the table's real tremor for
  that step, in the planner's order; the first that stands is kept. It knows what no player
  can, so it bounds what any choice among these aims can reach.

Side by side, on the same seeds: the computer players of levels 4 and 5 (`vertex.ai`, the
server's thinking budget of 0.5 s); ratio = mean levels / the search's (the goal for level 5 is
at least 0.9 at normal tremor). All levels and tremors: `bench/bench_verticality.py`.

Run: .venv/bin/python bench/bench_tower_ceiling.py [--seeds 40] [--tremors 0,0.45]
     [--modes search,oracle,level4,level5] [--cap 0] [--quick] [--jobs 2] [--think 8]
(each seed's result goes to stderr as it comes; s/tower is wall time × jobs / seeds)
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import vertex
from vertex.ai import player
from vertex.ai.tower import tremor_sample
from vertex.core.errors import IllegalMove
from vertex.core.rng import Rng
from vertex.games.verticality import VerticalityState
from vertex.games.verticality.notation import Aim, make_aim
from vertex.games.verticality.plan import candidate_aims
from vertex.games.verticality.planner import CAREFUL, Care, Planner
from vertex.games.verticality.tower import Tower
from vertex.physics import SIZES

#: The supply's end: 30 pyramids of each size, 3 a level.
SUPPLY_LEVELS = 30
#: The server's thinking budget for a computer move (settings.ai_budget_s).
BUDGET_S = 0.5
VALUE = {"placed": 1.0, "slid": 0.3, "fell": 0.0}
#: Where the candidates come from: the careful plan first, then finer turns, other gaps.
SOURCES = (
    (CAREFUL, 4),
    (Care(turns=tuple(7.5 * i for i in range(12))), 4),
    (Care(gap_mm=0.4), 2),
    (Care(gap_mm=0.85), 2),
    (Care(shapes="tight", turns=(0.0, 20.0, 40.0, 60.0, 80.0)), 2),
)


def candidates(state: VerticalityState, limit: int) -> list[Aim]:
    out: list[Aim] = []
    for care, count in SOURCES:
        for aim in candidate_aims(state, 0, care, count=count):
            if aim not in out:
                out.append(aim)
    return out[:limit]


def search_step(state: VerticalityState, limit: int, samples: int, rng: Rng) -> tuple[Aim, Rng]:
    """The candidate whose rollouts to the end of the level did best (ties: planner order)."""
    sigma = state.game.options.tremor_mm
    tries = 1 if sigma == 0 else samples
    best: Aim | None = None
    best_score = -math.inf
    for aim in candidates(state, limit):
        score = 0.0
        for _ in range(tries):
            value, rng = rollout(state, aim, rng)
            score += value / tries
        if score > best_score + 1e-9:
            best, best_score = aim, score
    assert best is not None
    return best, rng


def rollout(state: VerticalityState, first: Aim, rng: Rng) -> tuple[float, Rng]:
    """Drop `first`, then the careful plan to the end of the level, each with tremor drawn by
    the search, on a copy of the tower. Worth 0 if it falls (0.3 if only the card slid), else
    1 plus a tenth of what it leaves: the best plan score for the next level's first pyramid,
    averaged over the three sizes the die may roll."""
    sigma = state.game.options.tremor_mm
    tower, level, size = state.towers[0], state.level, state.size
    aim: Aim | None = first
    for step in range(state.step, 4):
        if aim is None:
            return 0.0, rng
        noise, rng = tremor_sample(rng, sigma)
        tower, outcome = tower.place(level, size, aim, noise, state.step_no + step)
        if outcome != "placed":
            return VALUE[outcome], rng
        if step < 3:
            aim = plan_on(tower, level, step + 1, size)
    worth = [Planner(tower, level + 1).pyramid_spots(s)[0][3] for s in SIZES]
    return 1.0 + 0.1 * statistics.mean(max(-5.0, w) for w in worth), rng


def plan_on(tower: Tower, level: int, step: int, size: str) -> Aim | None:
    """The careful plan's aim for a tower outside any game (the rules still apply)."""
    plans = Planner(tower, level)
    spots = plans.card_spots() if step == 3 else plans.pyramid_spots(size)
    for x, y, rot, _ in spots:
        aim = make_aim("card" if step == 3 else "pyramid", x, y, rot)
        try:
            tower.check(level, step, size, aim, skyscraper=False)
        except IllegalMove:
            continue
        return aim
    return None


def oracle_step(state: VerticalityState, limit: int) -> VerticalityState:
    best: VerticalityState | None = None
    best_score = -1.0
    for aim in candidates(state, limit):
        after = state.play(str(aim), seat=0)
        assert isinstance(after, VerticalityState)
        tower = after.towers[0]
        if not tower.standing:
            score = 0.0
        elif tower.mulligan_used and not state.towers[0].mulligan_used:
            score = 0.3  # the card slid: the mulligan is spent
        else:
            score = 1.0
        if score > best_score:
            best, best_score = after, score
        if score >= 1.0:
            break
    assert best is not None
    return best


def tower_levels(seed: int, tremor: float, mode: str, limit: int, samples: int, cap: int) -> int:
    game = vertex.create_game("verticality", players=1, tremor_mm=tremor)
    state = game.initial_state(seed=seed)
    assert isinstance(state, VerticalityState)
    rng = Rng.from_seed(seed, "ceiling-search")
    bot = player(game, int(mode[5:]), seed=0) if mode.startswith("level") else None
    while not state.is_over and state.towers[0].levels < cap:
        if bot is not None:
            after = state.play(bot.choose(state, 0, BUDGET_S), seat=0)
            assert isinstance(after, VerticalityState)
            state = after
            continue
        if mode == "oracle":
            state = oracle_step(state, limit)
            continue
        aim, rng = search_step(state, limit, samples, rng)
        after = state.play(str(aim), seat=0)
        assert isinstance(after, VerticalityState)
        state = after
    return state.towers[0].levels


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=40, help="this many table seeds")
    parser.add_argument("--first", type=int, default=0, help="... from this one")
    parser.add_argument("--tremors", default="0,0.45")
    parser.add_argument("--modes", default="search,oracle,level4,level5")
    parser.add_argument("--candidates", type=int, default=6)
    parser.add_argument("--samples", type=int, default=2, help="search rollouts per candidate")
    parser.add_argument("--quick", action="store_true", help="6 seeds, 4 candidates, 1 rollout")
    parser.add_argument("--jobs", type=int, default=1, help="towers built at once (processes)")
    parser.add_argument(
        "--think", type=int, default=0, help="then time level 5's moves on this many towers"
    )
    parser.add_argument(
        "--cap", type=int, default=0, help="stop towers at this many levels (0: the supply's end)"
    )
    args = parser.parse_args()
    cap = args.cap or SUPPLY_LEVELS
    if args.quick:
        args.seeds, args.candidates, args.samples = 6, 4, 1
    if args.seeds > 0:
        print(
            f"ceiling: solo towers, the die's sizes, to {cap} levels, "
            f"seeds {args.first}..{args.first + args.seeds - 1}, "
            f"{args.candidates} candidates a step, {args.samples} rollouts each (search)"
        )
        print(
            f"{'mode':<8}{'tremor':>7}{'fell':>6}{'mean levels':>13}{'ratio':>7}{'min':>5}"
            f"{'s/tower':>9}  levels"
        )
    for tremor in (float(t) for t in args.tremors.split(",") if args.seeds > 0):
        ceiling = None
        for mode in args.modes.split(","):
            t = time.perf_counter()
            seeds = range(args.first, args.first + args.seeds)
            with ProcessPoolExecutor(max_workers=args.jobs) as pool:
                runs = [
                    pool.submit(tower_levels, s, tremor, mode, args.candidates, args.samples, cap)
                    for s in seeds
                ]
                got = []
                for s, run in zip(seeds, runs, strict=True):
                    got.append(run.result())
                    print(
                        f"  {mode} tremor {tremor} seed {s}: {got[-1]}", file=sys.stderr, flush=True
                    )
            # CPU seconds a tower, whatever the number of jobs
            per = (time.perf_counter() - t) * args.jobs / args.seeds
            fell = sum(1 for g in got if g < cap)
            mean = statistics.mean(got)
            if mode == "search":
                ceiling = mean
            ratio = f"{mean / ceiling:.2f}" if ceiling else "-"
            text = " ".join(str(g) if g < cap else "X" for g in got)
            print(
                f"{mode:<8}{tremor:>7.2f}{fell:>6}{mean:>13.2f}{ratio:>7}{min(got):>5}"
                f"{per:>9.1f}  {text}",
                flush=True,
            )
    if args.seeds > 0:
        print(f"levels: one number a seed, X = reached {cap} levels")
    if args.think:
        think(args.think, float(args.tremors.split(",")[-1]), cap)


def think(seeds: int, tremor: float, cap: int) -> None:
    """CPU seconds a level-5 move takes (process time: what the machine's other work does not
    inflate), by step of the level, over `seeds` towers to `cap` levels."""
    game = vertex.create_game("verticality", players=1, tremor_mm=tremor)
    bot = player(game, 5, seed=0)
    bot.choose(game.initial_state(seed=0), 0, BUDGET_S)  # warm the layout caches
    by_step: dict[int, list[float]] = {0: [], 1: [], 2: [], 3: []}
    for seed in range(seeds):
        state = game.initial_state(seed=seed)
        assert isinstance(state, VerticalityState)
        while not state.is_over and state.towers[0].levels < cap:
            t = time.process_time()
            move = bot.choose(state, 0, BUDGET_S)
            by_step[state.step].append(time.process_time() - t)
            after = state.play(move, seat=0)
            assert isinstance(after, VerticalityState)
            state = after
    print(f"level 5 thinking, CPU s a move, budget {BUDGET_S} s, tremor {tremor}, {seeds} towers")
    for step, times in by_step.items():
        times.sort()
        p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
        print(
            f"  step {step}: moves {len(times):4}  median {statistics.median(times):.3f}"
            f"  p99 {p99:.3f}  max {times[-1]:.3f}"
        )


if __name__ == "__main__":
    main()

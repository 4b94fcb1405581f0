"""Dots and Boxes: our engine and players side by side with OpenSpiel (issue 5).

    .venv/bin/python bench/bench_dots_openspiel.py [--part playouts|mcts|strength|all]
        [--games N] [--seconds S] [--sizes 3,4,5]

1. random playouts, plies per second: our integer playout, our public contract
   (`legal_moves` + `play`), OpenSpiel's `dots_and_boxes` driven from Python;
   `--part pettingzoo`: our PettingZoo environment's `step` and AEC loop against OpenSpiel;
2. MCTS simulations per second from the empty board: ours (chain-aware playouts, and plain
   random playouts), OpenSpiel's Python MCTS and its C++ `pyspiel.MCTSBot`;
3. strength: our level 5 against `pyspiel.MCTSBot` (random rollouts, MCTS-Solver on, UCT
   c=2) with the same wall time per move, both seats, N games per board;
4. `--part self`: our level 5 against our level 4 at the same time per move, both seats, on
   Dots and Triangles size 6 and Figures 6×6 (two players): `--self-games` games each
   (from game `--self-first`), each level in a process of its own (its kept tables its
   own, as in two computer workers); `--self-ponder`: level 5 thinks on level 4's time,
   as the server's workers let it.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

import pyspiel
from open_spiel.python.algorithms import mcts as py_mcts

import vertex
from vertex.ai import player, ponder
from vertex.ai.dots.adapter import DotsAdapter
from vertex.ai.dots.kit import DotsKit
from vertex.ai.dots.playout import random_playout
from vertex.ai.mcts import Mcts
from vertex.games.dots.engine import DotsState


def action_to_line(action: int, rows: int, cols: int) -> str:
    """OpenSpiel's action number to our line name (horizontal lines first, row by row)."""
    horizontal = (rows + 1) * cols
    if action < horizontal:
        r, c = divmod(action, cols)
        a, b = (c, r), (c + 1, r)
    else:
        r, c = divmod(action - horizontal, cols + 1)
        a, b = (c, r), (c, r + 1)
    return f"{chr(97 + a[0])}{a[1] + 1}-{chr(97 + b[0])}{b[1] + 1}"


def spiel_game(n: int) -> pyspiel.Game:
    return pyspiel.load_game("dots_and_boxes", {"num_rows": n, "num_cols": n})


def ours_game(n: int) -> vertex.Game:  # type: ignore[type-arg]
    return vertex.create_game("dots-and-boxes", rows=n, cols=n)


# ---- 1. playouts ---------------------------------------------------------------------------
def playouts(n: int, seconds: float) -> list[float]:
    game = ours_game(n)
    kit = DotsKit(game)  # type: ignore[arg-type]
    start = game.initial_state()
    assert isinstance(start, DotsState)
    pos = kit.start(start)
    rng = random.Random(1)
    lines = kit.lines

    def ours_fast() -> int:
        random_playout(kit, pos, rng)
        return lines

    def ours_contract() -> int:
        s = start
        k = 0
        while not s.is_over:
            moves = s.legal_moves()
            assert moves is not None
            s = s.play(moves[rng.randrange(len(moves))])
            k += 1
        return k

    sg = spiel_game(n)

    def spiel() -> int:
        s = sg.new_initial_state()
        k = 0
        while not s.is_terminal():
            acts = s.legal_actions()
            s.apply_action(acts[rng.randrange(len(acts))])
            k += 1
        return k

    return alternate([ours_fast, ours_contract, spiel], seconds)


def alternate(loops: list[Callable[[], int]], seconds: float) -> list[float]:
    """Plies per CPU second of each loop, run in turns of 20 games (so that a busy box
    slows them alike) until `seconds` of CPU in all; CPU time of this process only."""
    plies = [0] * len(loops)
    spent = [0.0] * len(loops)
    end = time.process_time() + seconds
    while time.process_time() < end:
        for i, loop in enumerate(loops):
            t0 = time.process_time()
            for _ in range(20):
                plies[i] += loop()
            spent[i] += time.process_time() - t0
    return [p / t for p, t in zip(plies, spent, strict=True)]


# ---- 1b. PettingZoo ------------------------------------------------------------------------
def pettingzoo_loops(n: int, seconds: float) -> list[float]:
    """Plies per CPU second: our environment's `step` (actions from `legal_actions()`) raw
    and wrapped as `env()` hands it out; the full AEC loop (`last()`, the action mask,
    `step`); OpenSpiel's `legal_actions` + `apply_action`, and with its observation tensor
    and legal-actions mask each ply."""
    import numpy as np

    from vertex.interop.pettingzoo import env, raw_env

    rng = random.Random(1)
    raw = raw_env("dots-and-boxes", rows=n, cols=n)
    wrapped = env("dots-and-boxes", rows=n, cols=n)
    inner = wrapped.unwrapped

    def step_loop(e: Any, u: Any) -> Callable[[], int]:
        def loop() -> int:
            e.reset(seed=1)
            k = 0
            while not u.state_.is_over:
                acts = u.legal_actions()
                e.step(acts[rng.randrange(len(acts))])
                k += 1
            return k

        return loop

    def aec() -> int:
        wrapped.reset(seed=1)
        k = 0
        for _agent in wrapped.agent_iter():
            obs, _, term, trunc, _ = wrapped.last()
            if term or trunc:
                wrapped.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            wrapped.step(int(legal[rng.randrange(len(legal))]))
            k += 1
        return k

    sg = spiel_game(n)

    def spiel() -> int:
        s = sg.new_initial_state()
        k = 0
        while not s.is_terminal():
            acts = s.legal_actions()
            s.apply_action(acts[rng.randrange(len(acts))])
            k += 1
        return k

    def spiel_obs() -> int:
        s = sg.new_initial_state()
        k = 0
        while not s.is_terminal():
            np.asarray(s.observation_tensor(), dtype=np.float32)
            legal = np.flatnonzero(np.asarray(s.legal_actions_mask()))
            s.apply_action(int(legal[rng.randrange(len(legal))]))
            k += 1
        return k

    loops = [step_loop(raw, raw), step_loop(wrapped, inner), aec, spiel, spiel_obs]
    return alternate(loops, seconds)


# ---- 2. MCTS simulations per second -------------------------------------------------------
def ours_sims(n: int, seconds: float, smart: bool) -> float:
    """The Python MCTS (`vertex.ai.mcts` with `DotsAdapter`): the players' search where the
    compiled core does not fit (more than two seats or 128 lines)."""
    game = ours_game(n)
    kit = DotsKit(game)  # type: ignore[arg-type]
    start = game.initial_state()
    assert isinstance(start, DotsState)
    search = Mcts(DotsAdapter(kit, smart=smart), 2)
    rng = random.Random(1)
    search.set_root(kit.start(start), None, rng)
    t0 = time.process_time()
    search.search(rng, deadline=time.monotonic() + seconds)
    return search.iterations / (time.process_time() - t0)


def players_sims(n: int, seconds: float) -> float:
    """The computer players' MCTS as they run it on two seats: in the compiled core
    (`Core.mcts`: the pruned moves, the chain-aware playouts, the rewards of `DotsAdapter`)."""
    from vertex.ai.dots.core import build_core

    game = ours_game(n)
    kit = DotsKit(game)  # type: ignore[arg-type]
    core = build_core(game, 1 << 16)  # type: ignore[arg-type]
    t0 = time.process_time()
    done, _ = core.mcts(0, 0, 0, (0, 0), 1 << 62, seconds, 1, live=kit.live_cells)
    return done / (time.process_time() - t0)


def core_uct_sims(n: int, seconds: float) -> float:
    """Our plain UCT on the compiled core (random playouts, like the C++ bot's)."""
    from vertex.ai.dots.core import uct_search

    start = ours_game(n).initial_state()
    assert isinstance(start, DotsState)
    t0 = time.process_time()
    _, done, _ = uct_search(start, 10**9, seconds, seed=1)
    return done / (time.process_time() - t0)


def spiel_py_sims(n: int, sims: int) -> float:
    game = spiel_game(n)
    bot = py_mcts.MCTSBot(
        game,
        2.0,
        sims,
        py_mcts.RandomRolloutEvaluator(1, __import__("numpy").random.RandomState(1)),
    )
    t0 = time.process_time()
    bot.step(game.new_initial_state())
    return sims / (time.process_time() - t0)


def spiel_cpp_sims(n: int, sims: int) -> float:
    game = spiel_game(n)
    bot = cpp_bot(game, sims, -1.0, 1)
    t0 = time.process_time()
    bot.step(game.new_initial_state())
    return sims / (time.process_time() - t0)


def cpp_bot(game: pyspiel.Game, sims: int, seconds: float, seed: int) -> pyspiel.MCTSBot:
    return pyspiel.MCTSBot(
        game,
        pyspiel.RandomRolloutEvaluator(1, seed),
        2.0,
        sims,
        2000,
        True,
        seed,
        False,
        pyspiel.ChildSelectionPolicy.UCT,
        seconds,
    )


# ---- 3. strength ---------------------------------------------------------------------------
def match(n: int, ours_seat: int, seconds: float, seed: int) -> tuple[int, float, float]:
    """Our margin (our cells minus theirs) and mean seconds per move (ours, theirs)."""
    game = ours_game(n)
    ours = player(game, 5, seed=seed)
    sg = spiel_game(n)
    bot = cpp_bot(sg, 10**9, seconds, seed)
    actions = {action_to_line(a, n, n): a for a in range(sg.num_distinct_actions())}
    state = game.initial_state()
    sp = sg.new_initial_state()
    times: list[list[float]] = [[], []]
    while not state.is_over:
        seat = state.to_move[0]
        assert sp.current_player() == seat
        t0 = time.perf_counter()
        if seat == ours_seat:
            move = ours.choose(state, seat, seconds)
            action = actions[move]
            times[0].append(time.perf_counter() - t0)
        else:
            action = bot.step(sp)
            move = action_to_line(action, n, n)
            times[1].append(time.perf_counter() - t0)
        state = state.play(move)
        sp.apply_action(action)
    assert sp.is_terminal()
    margin = state.scores[ours_seat] - state.scores[1 - ours_seat]
    return margin, statistics.mean(times[0]), statistics.mean(times[1])


SELF_BOARDS = [
    ("triangles 6", "dots-and-triangles", {"size": 6}),
    ("figures 6x6", "figures", {"rows": 6, "cols": 6}),
    ("boxes 5x5", "dots-and-boxes", {"rows": 5, "cols": 5}),
]


def side_move(record: str, level: int, seat: int, seconds: float, seed: int, think: bool) -> str:
    """One side's line, in that side's own process (its kept tables apart from the other
    side's, as two computer workers' are); level 5 thinks on the other side's time there
    when `think` (as the server's workers let it: `vertex.ai.ponder`)."""
    from vertex.server.compute.worker_states import state_of

    ponder.allow(think and level == 5)
    state = state_of(record)
    return player(state.game, level, seed=seed).choose(state, seat, seconds)


def self_match(
    game_id: str,
    options: dict[str, object],
    five_first: bool,
    seconds: float,
    seed: int,
    sides: dict[int, Executor],
    think: bool,
) -> int:
    """Level 5's margin against level 4 (cells; misère none here), each level in its own
    process (`sides`): in one process the two would share the kept tables, and level 4 would
    find level 5's searches in them."""
    game = vertex.create_game(game_id, **options)
    first = game.initial_state(seed=seed).to_move[0]
    # level 5 moves first in the even games (Figures draws the first seat by lot)
    five_seat = first if five_first else 1 - first
    levels = {five_seat: 5, 1 - five_seat: 4}
    state = game.initial_state(seed=seed)
    while not state.is_over:
        seat = state.to_move[0]
        level = levels[seat]
        line = (
            sides[level]
            .submit(side_move, state.record().to_json(), level, seat, seconds, seed, think)
            .result()
        )
        state = state.play(line)
    scores = state.scores
    return int(scores[five_seat] - scores[1 - five_seat])


def load() -> str:
    return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument(
        "--part",
        default="all",
        choices=["playouts", "pettingzoo", "mcts", "strength", "self", "all"],
    )
    ap.add_argument("--self-games", type=int, default=4, help="level 5 vs 4 games per board")
    ap.add_argument(
        "--self-boards",
        default="triangles,figures",
        help="boards for --part self (comma list of triangles, figures, boxes)",
    )
    ap.add_argument("--self-first", type=int, default=0, help="the first self game's number")
    ap.add_argument(
        "--self-ponder",
        action="store_true",
        help="level 5 thinks on level 4's time, as in the server's computer workers",
    )
    ap.add_argument("--games", type=int, default=20, help="strength games per board")
    ap.add_argument("--seconds", type=float, default=1.0, help="thinking time per move")
    ap.add_argument("--sizes", default="3,4,5", help="strength board sizes (n×n boxes)")
    args = ap.parse_args()
    if args.part in ("playouts", "all"):
        print("1. random playouts, plies per CPU second (loops alternate), " + load())
        print(
            f"{'board':6} {'ours (ints)':>12} {'ours (play)':>12} {'OpenSpiel':>12} "
            f"{'ints÷OS':>8} {'play÷OS':>8}"
        )
        for n in (3, 5):
            fast, contract, spiel = playouts(n, 6.0)
            print(
                f"{n}x{n:<4} {fast:12,.0f} {contract:12,.0f} {spiel:12,.0f} "
                f"{fast / spiel:8.2f} {contract / spiel:8.2f}"
            )
    if args.part in ("pettingzoo", "all"):
        print("\n1b. PettingZoo, plies per CPU second (loops alternate), " + load())
        print(
            f"{'board':6} {'raw step':>9} {'env step':>9} {'AEC loop':>9} {'OS':>9} "
            f"{'OS +obs':>9} {'raw÷OS':>7} {'env÷OS':>7} {'AEC÷OS+obs':>11}"
        )
        for n in (3, 5):
            raw, wrapped, aec, spiel, spiel_obs = pettingzoo_loops(n, 10.0)
            print(
                f"{n}x{n:<4} {raw:9,.0f} {wrapped:9,.0f} {aec:9,.0f} {spiel:9,.0f} "
                f"{spiel_obs:9,.0f} {raw / spiel:7.2f} {wrapped / spiel:7.2f} "
                f"{aec / spiel_obs:11.2f}"
            )
    if args.part in ("mcts", "all"):
        print("\n2. MCTS simulations per CPU second from the empty board, " + load())
        print(
            f"{'board':6} {'players':>9} {'py smart':>9} {'py random':>10} {'core UCT':>9} "
            f"{'OS Python':>10} {'OS C++':>9} {'pl÷C++':>7} {'UCT÷C++':>8}"
        )
        for n in (3, 5):
            players = players_sims(n, 3.0)
            smart = ours_sims(n, 3.0, True)
            plain = ours_sims(n, 3.0, False)
            spy = spiel_py_sims(n, 2000)
            scpp = spiel_cpp_sims(n, 100_000 if n == 3 else 30_000)
            uct = core_uct_sims(n, 3.0)
            print(
                f"{n}x{n:<4} {players:9,.0f} {smart:9,.0f} {plain:10,.0f} {uct:9,.0f} "
                f"{spy:10,.0f} {scpp:9,.0f} {players / scpp:7.2f} {uct / scpp:8.2f}"
            )
    if args.part in ("strength", "all"):
        print(
            f"\n3. level 5 vs pyspiel.MCTSBot, {args.seconds:g} s a move, {args.games} games a "
            "board (seats alternate; W/D/L are ours)"
        )
        print(
            f"{'board':6} {'seat':>4} {'W':>3} {'D':>3} {'L':>3} {'margin':>7} {'s/move us':>10} "
            f"{'them':>6}"
        )
        for n in (int(x) for x in args.sizes.split(",")):
            for seat in (0, 1):
                wdl = [0, 0, 0]
                margins: list[int] = []
                ours_t: list[float] = []
                theirs_t: list[float] = []
                for g in range(seat, args.games, 2):
                    margin, t_us, t_them = match(n, seat, args.seconds, seed=1000 + g)
                    wdl[0 if margin > 0 else 1 if margin == 0 else 2] += 1
                    margins.append(margin)
                    ours_t.append(t_us)
                    theirs_t.append(t_them)
                print(
                    f"{n}x{n:<4} {seat:>4} {wdl[0]:>3} {wdl[1]:>3} {wdl[2]:>3} "
                    f"{statistics.mean(margins):+7.1f} {statistics.mean(ours_t):10.2f} "
                    f"{statistics.mean(theirs_t):6.2f}",
                    flush=True,
                )

    if args.part in ("self", "all"):
        print(f"\n4. level 5 vs our level 4, {args.seconds:g} s a move each (W/D/L are level 5's)")
        print(f"{'board':12} {'W':>3} {'D':>3} {'L':>3} {'margin':>7}")
        wanted = args.self_boards.split(",")
        spawn = multiprocessing.get_context("spawn")
        sides: dict[int, Executor] = {
            level: ProcessPoolExecutor(1, mp_context=spawn) for level in (4, 5)
        }
        for label, game_id, options in SELF_BOARDS:
            if label.split()[0] not in wanted:
                continue
            wdl = [0, 0, 0]
            margins = []
            for g in range(args.self_first, args.self_first + args.self_games):
                margin = self_match(
                    game_id,
                    options,
                    g % 2 == 0,
                    args.seconds,
                    2000 + g,
                    sides,
                    args.self_ponder,
                )
                wdl[0 if margin > 0 else 1 if margin == 0 else 2] += 1
                margins.append(margin)
                first = "first" if g % 2 == 0 else "second"
                print(
                    f"  game {g}: level 5 moves {first}, margin {margin:+d}, {load()}", flush=True
                )
            print(
                f"{label:12} {wdl[0]:>3} {wdl[1]:>3} {wdl[2]:>3} {statistics.mean(margins):+7.1f}",
                flush=True,
            )
        for side in sides.values():
            side.shutdown()


if __name__ == "__main__":
    main()

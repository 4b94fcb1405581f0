"""The 5×5 middle game (issue 36, goal 1): do the computer players keep the solver's value?

    .venv/bin/python bench/bench_middle_game.py [--solve N] [--limit S] [--memory BYTES]
        [--levels 1,2,3,4,5] [--seconds S] [--mcts] [--only K] [--warm N]
        [--board boxes5|triangles6|figures6|boxes4] [--quiet LOW-HIGH]

Positions: 5×5 Dots and Boxes reached by quiet play from the empty board — every line drawn
gives no cell a third side while such a line is left — stopped at a drawn-from-the-seed
number of quiet lines left (16 to 22; "quiet line": drawing it leaves no cell with a single
side to go). Seeds are fixed (`seed_position(k)` for k = 0, 1, 2, …), so the positions are
the same on every box.

`--solve N`: solve the first N seeds not yet in the verdict file with the compiled core,
offline, each within `--limit` seconds (wall) and a `--memory` table; the solved ones are
kept with the solver's verdict — the value for the player to move and every value-keeping
line — and the ones not settled in time are recorded as such (not used). The verdicts are
written to bench/middle_game_5x5.json (data, committed), so later runs need not re-solve.
`--board triangles6` (Dots and Triangles, size 6) and `--board figures6` (two-player
Figures 6×6) do the same on those boards, with verdict files of their own. `--quiet
LOW-HIGH` takes positions with that many quiet lines left instead (one phase earlier, say),
with a verdict file of their own. `--board boxes4` takes 4×4 after eight lines of quiet
play (goal 2: level 5 perfect there at 1 s), the positions of bench_analysis_4x4.py.

Then every kept position is put to levels `--levels` at `--seconds` a move (each a fresh
player, seed 0, the process's kept solver tables dropped first: a cold start) and, with
`--mcts`, to OpenSpiel's C++ `pyspiel.MCTSBot` (random rollouts, MCTS-Solver on, UCT c = 2,
the same wall time a move; as in bench_dots_openspiel.py): the share of positions where the
chosen line is one of the value-keeping lines. `--warm N`: before each position the level
thinks (same budget) at the seat's last N turns of that game, its kept solver tables carried
over as in a worker process (the lines drawn stay the recorded ones). All players are
asked one position at a time, side by side, so the box's load hits them alike; the load
average is printed with the figures, and each player's mean wall and CPU seconds a move.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from pathlib import Path
from typing import Any

import vertex
from vertex.ai import player
from vertex.ai.dots.core import CoreSolver
from vertex.ai.dots.kit import quiet_lines
from vertex.ai.dots.solver import SolveTimeout
from vertex.games.dots.engine import DotsGame, DotsState

ROWS = COLS = 5
#: --board: the game, its options, its verdict file, its window of quiet lines left and the
#: lines drawn at least (Figures: the lines that may be drawn touch the figure, so fewer
#: are ever quiet at once, from the start on); OpenSpiel's MCTS plays boxes only
BOARDS: dict[str, tuple[str, dict[str, int], str, int, int, int]] = {
    "boxes5": ("dots-and-boxes", {"rows": ROWS, "cols": COLS}, "middle_game_5x5.json", 16, 22, 0),
    # goal 2: 4×4 from its eighth line, the positions of bench_analysis_4x4.py
    "boxes4": ("dots-and-boxes", {"rows": 4, "cols": 4}, "middle_game_4x4.json", 0, 40, 8),
    "triangles6": ("dots-and-triangles", {"size": 6}, "middle_game_triangles6.json", 16, 22, 0),
    "figures6": ("figures", {"rows": 6, "cols": 6}, "middle_game_figures6.json", 4, 10, 14),
}
BOARD = "boxes5"
#: --quiet: another window of quiet lines left (its own verdict file), else the board's
QUIET: tuple[int, int] | None = None


def load() -> str:
    return "load " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def verdicts_path() -> Path:
    name = BOARDS[BOARD][2]
    if QUIET is not None:
        name = name.replace(".json", f"_quiet{QUIET[0]}-{QUIET[1]}.json")
    return Path(__file__).with_name(name)


def game_5x5() -> DotsGame[Any]:
    """The board's game (5×5 boxes unless --board says otherwise)."""
    game_id, options, *_ = BOARDS[BOARD]
    game = vertex.create_game(game_id, **options)
    assert isinstance(game, DotsGame)
    return game


def seed_position(game: DotsGame[Any], k: int) -> tuple[list[str], int]:
    """Seed k's position: the lines drawn by quiet play and the quiet lines left."""
    if BOARD == "boxes4":  # exactly eight lines, as the analysis bench draws them
        from bench_analysis_4x4 import quiet_position

        state = quiet_position(game, 8, k)
        return [move for _, move in state.history], len(quiet_lines(state))
    rng = random.Random(36_000 + k)
    low, high, drawn = BOARDS[BOARD][3:]
    if QUIET is not None:
        low, high = QUIET
    target = rng.randint(low, high)
    while True:
        state = game.initial_state()
        moves: list[str] = []
        quiet = quiet_lines(state)
        while quiet and (len(quiet) > target or len(moves) < drawn):
            move = rng.choice(quiet)
            nxt = state.play(move)
            assert isinstance(nxt, DotsState)
            state = nxt
            moves.append(move)
            quiet = quiet_lines(state)
        if low <= len(quiet) <= high and len(moves) >= drawn:
            return moves, len(quiet)


def replay(game: DotsGame[Any], moves: list[str]) -> DotsState:
    state = game.initial_state()
    for move in moves:
        nxt = state.play(move)
        assert isinstance(nxt, DotsState)
        state = nxt
    return state


def read_verdicts() -> dict[str, Any]:
    if verdicts_path().exists():
        data: dict[str, Any] = json.loads(verdicts_path().read_text())
        return data
    game_id, options, *_ = BOARDS[BOARD]
    spelled = " ".join(f"{k}={v}" for k, v in options.items())
    return {"board": f"{game_id} {spelled}", "positions": []}


def write_verdicts(data: dict[str, Any]) -> None:
    data["positions"].sort(key=lambda p: p["seed"])
    verdicts_path().write_text(json.dumps(data, indent=1) + "\n")


def solve_new(count: int, limit: float, memory: int) -> None:
    game = game_5x5()
    data = read_verdicts()
    done = {p["seed"] for p in data["positions"]}
    k = 0
    tried = 0
    while tried < count:
        if k in done:
            k += 1
            continue
        moves, quiet = seed_position(game, k)
        state = replay(game, moves)
        solver = CoreSolver(game, table_bytes=memory)
        t0, c0 = time.monotonic(), time.process_time()
        entry: dict[str, Any] = {"seed": k, "quiet_left": quiet, "moves": moves}
        try:
            sol = solver.solve(state, deadline=t0 + limit)
            entry.update(
                value=sol.value,
                best=sol.best_moves,
                open=len(state.legal_moves()),
                nodes=sol.nodes,
            )
        except SolveTimeout:
            entry.update(value=None, best=None, nodes=solver.stats()["nodes"])
        entry["wall_s"] = round(time.monotonic() - t0, 1)
        entry["cpu_s"] = round(time.process_time() - c0, 1)
        entry["limit_s"] = limit
        entry["load"] = load()
        print(
            f"seed {k:3}: {quiet} quiet left, {len(moves)} drawn: "
            + (
                f"value {entry['value']:+d}, {len(entry['best'])} of {entry['open']} lines keep it"
                if entry["value"] is not None
                else "not settled"
            )
            + f", {entry['nodes']:,} positions, {entry['wall_s']} s wall {entry['cpu_s']} s cpu"
            f" ({entry['load']})",
            flush=True,
        )
        data["positions"].append(entry)
        write_verdicts(data)
        done.add(k)
        tried += 1
        del solver


def main() -> None:
    global BOARD, QUIET
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--solve", type=int, default=0, help="new seeds to solve offline")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds (wall) a solve")
    ap.add_argument("--memory", type=int, default=1 << 30, help="the offline table's bytes")
    ap.add_argument("--levels", default="1,2,3,4,5")
    ap.add_argument("--seconds", type=float, default=1.0, help="budget a move")
    ap.add_argument("--mcts", action="store_true", help="OpenSpiel's C++ MCTS as well")
    ap.add_argument("--only", type=int, default=0, help="the first K kept positions only")
    ap.add_argument(
        "--warm", type=int, default=0, help="the levels think at the seat's last N turns first"
    )
    ap.add_argument(
        "--ponder",
        type=float,
        default=0.0,
        help="level 5 thinks S seconds on the other side's time first",
    )
    ap.add_argument("--board", default=BOARD, choices=sorted(BOARDS), help="boxes5 unless told")
    ap.add_argument(
        "--quiet",
        default="",
        help="LOW-HIGH: positions with this many quiet lines left instead (their own file)",
    )
    args = ap.parse_args()
    BOARD = args.board
    if args.quiet:
        if BOARD == "boxes4":
            ap.error(
                "--quiet: 4×4's positions are taken by the lines drawn (eight), not the quiet left"
            )
        try:
            low, high = (int(x) for x in args.quiet.split("-"))
        except ValueError:
            ap.error(f"--quiet: LOW-HIGH, two whole numbers, not {args.quiet!r}")
        if not 0 <= low <= high:
            ap.error(f"--quiet: LOW-HIGH with 0 <= LOW <= HIGH, not {args.quiet!r}")
        QUIET = (low, high)
    if args.mcts and BOARD != "boxes5":
        print("OpenSpiel has no such game: --mcts is for boxes5 only")
        args.mcts = False
    if args.solve:
        solve_new(args.solve, args.limit, args.memory)
    measure(args)


def cold() -> None:
    """Drop the solver tables the players keep per process (a cold start: each position as
    the first move a worker thinks about); a tree without kept tables has nothing to drop."""
    try:
        from vertex.ai import ponder
    except ImportError:
        return
    try:
        from vertex.ai.dots.kept import forget_tables
    except ImportError:  # a tree from before the kept tables had a module of their own
        try:
            from vertex.ai.dots.player import forget_tables
        except ImportError:
            return
    ponder.stop()
    forget_tables()


def think_before(
    game: DotsGame[Any], moves: list[str], seat: int, level: int, turns: int, seconds: float
) -> None:
    """The player thinks at the seat's last `turns` turns before the position, as in a game
    (the lines drawn stay the recorded ones): what the kept tables hold when it gets there."""
    state = game.initial_state()
    before: list[DotsState] = []
    for move in moves:
        if state.to_move[0] == seat and not state.is_over:
            before.append(state)
        nxt = state.play(move)
        assert isinstance(nxt, DotsState)
        state = nxt
    for earlier in before[-turns:]:
        player(game, level, seed=0).choose(earlier, seat, seconds)


def ponder_before(game: DotsGame[Any], moves: list[str], seat: int, seconds: float) -> None:
    """Level 5 thinks `seconds` on the other side's time at the position before the last
    line (the other seat's, a quiet one), as a worker process does while the person thinks
    (`vertex.ai.ponder`); the choice then stops it."""
    from vertex.ai import ponder
    from vertex.ai.dots.player import DotsPlayer

    ponder.allow(True)
    bot = player(game, 5, seed=0)
    assert isinstance(bot, DotsPlayer)
    if bot.ponder(replay(game, moves[:-1]), seat):
        time.sleep(seconds)


def measure(args: argparse.Namespace) -> None:
    levels = [int(x) for x in args.levels.split(",") if x]
    game = game_5x5()
    kept = [p for p in read_verdicts()["positions"] if p["value"] is not None]
    if args.only:
        kept = kept[: args.only]
    if not kept or (not levels and not args.mcts):
        return
    names = [f"level {lv}" for lv in levels] + (["OS MCTS"] if args.mcts else [])
    bots: dict[str, Any] = {}
    if args.mcts:
        import pyspiel
        from bench_dots_openspiel import action_to_line, cpp_bot, spiel_game

        sg = spiel_game(ROWS)
    keep = {n: 0 for n in names}
    secs: dict[str, list[float]] = {n: [] for n in names}
    cpu: dict[str, list[float]] = {n: [] for n in names}
    print(
        f"\n{len(kept)} positions, {args.seconds:g} s a move, "
        + (f"warm: {args.warm} turns before, " if args.warm else "cold, ")
        + (f"level 5 pondered {args.ponder:g} s, " if args.ponder else "")
        + f"{load()}\n"
        f"{'seed':>4} {'quiet':>5} {'value':>5} {'keep':>9}  " + "  ".join(f"{n:>8}" for n in names)
    )
    for p in kept:
        state = replay(game, p["moves"])
        seat = state.to_move[0]
        best = set(p["best"])
        marks = []
        for lv in levels:
            cold()
            if args.warm:
                think_before(game, p["moves"], seat, lv, args.warm, args.seconds)
            if args.ponder and lv == 5:
                ponder_before(game, p["moves"], seat, args.ponder)
            t0, c0 = time.monotonic(), time.process_time()
            move = player(game, lv, seed=0).choose(state, seat, args.seconds)
            secs[f"level {lv}"].append(time.monotonic() - t0)
            cpu[f"level {lv}"].append(time.process_time() - c0)
            ok = move in best
            keep[f"level {lv}"] += ok
            marks.append(("yes " if ok else "no  ") + f"{move:>7}")
        if args.mcts:
            sp = sg.new_initial_state()
            actions = {action_to_line(a, ROWS, COLS): a for a in range(sg.num_distinct_actions())}
            for move in p["moves"]:
                sp.apply_action(actions[move])
            bot = bots.get("os") or cpp_bot(sg, 10**9, args.seconds, 1)
            bots["os"] = bot
            t0, c0 = time.monotonic(), time.process_time()
            move = action_to_line(bot.step(sp), ROWS, COLS)
            secs["OS MCTS"].append(time.monotonic() - t0)
            cpu["OS MCTS"].append(time.process_time() - c0)
            ok = move in best
            keep["OS MCTS"] += ok
            marks.append(("yes " if ok else "no  ") + f"{move:>7}")
            assert isinstance(pyspiel, object)
        print(
            f"{p['seed']:4} {p['quiet_left']:5} {p['value']:+5d} {len(best):3}/{p['open']:<5}  "
            + "  ".join(f"{m:>8}" for m in marks),
            flush=True,
        )
    n = len(kept)
    print(f"\nvalue-keeping choices of {n} positions ({load()}):")
    chance = sum(len(p["best"]) / p["open"] for p in kept) / n
    print(f"  {'a random line (expected)':24} {chance * n:5.1f}  {chance:4.0%}")
    for name in names:
        print(
            f"  {name:24} {keep[name]:5}  {keep[name] / n:4.0%}   {sum(secs[name]) / n:.2f} s "
            f"a move (wall), max {max(secs[name]):.2f}; {sum(cpu[name]) / n:.2f} s of CPU"
        )


if __name__ == "__main__":
    main()

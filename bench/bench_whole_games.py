"""Whole games against level 5 (issue 36): do its middle-game lines keep the solver's value
in a game as a person meets it — level 5 thinking on the person's time and keeping its
tables from turn to turn — and on the same positions asked cold?

    .venv/bin/python bench/bench_whole_games.py [--board boxes4|boxes5|triangles6]
        [--games N] [--person quiet|level4] [--think S] [--seconds S] [--limit S]
        [--memory BYTES] [--first K]

Each game: level 5 against a person who thinks `--think` seconds at the start of each of
their turns. `--person quiet` (a casual player) draws a random quiet line while one is
left (quiet play, as the positions of bench_middle_game.py are made) and then plays as
level 2 (takes every cell offered, hands out the fewest); `--person level4` (a strong one)
is level 4 at PERSON_BUDGET_S a move in a process of its own (its tables apart from level
5's; it takes one core of the two while it thinks, the rest of its turn is a wait). Level 5
plays as in a computer worker: a player made afresh for each move at
`--seconds` a move, the process's solver tables kept between moves, thinking on the other
side's time after its move (`vertex.ai.ponder`, allowed here as the server's workers allow
it) until its next move. It moves first in even games, second in odd ones; game k's person
draws from seed 37_000 + k (`--first K`: games K, K+1, …), so the games are the same on
every box as long as level 5's lines are.

Recorded: every position where level 5 moved while a quiet line was left, with at least
the board's lines drawn (4×4: 8, the positions of goal 2) and at most its quiet lines left
(5×5 and Triangles 6: 22, the window of goal 1). After the games each is settled offline by
the solver (`--limit` seconds a position on both cores, a `--memory` table: the value for
the player to move and every value-keeping line; positions not settled in time are left
out) and put to a cold level 5 (its tables dropped, no pondering) at the same budget, one
after the other, so the two figures are of the same positions on the same box.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from bench_middle_game import cold, load

import vertex
from vertex.ai import player, ponder
from vertex.ai.dots.core import CoreSolver
from vertex.ai.dots.kit import quiet_lines
from vertex.ai.dots.solver import SolveTimeout
from vertex.games.dots.engine import DotsGame, DotsState

#: --board: the game, its options, the fewest lines drawn and the most quiet lines left of a
#: recorded position
BOARDS: dict[str, tuple[str, dict[str, int], int, int]] = {
    "boxes4": ("dots-and-boxes", {"rows": 4, "cols": 4}, 8, 40),
    "boxes5": ("dots-and-boxes", {"rows": 5, "cols": 5}, 0, 22),
    "triangles6": ("dots-and-triangles", {"size": 6}, 0, 22),
}


#: The strong person's budget a move (level 4, one thread), within its `--think` seconds.
PERSON_BUDGET_S = 0.5


@dataclass
class Asked:
    """A position level 5 moved in, during a game: what it chose, and why."""

    game: int
    state: DotsState
    line: str
    reason: str
    seconds: float


def person_move(state: DotsState, seat: int, rng: random.Random) -> str:
    """The casual person's line."""
    quiet = quiet_lines(state)
    if quiet:
        return rng.choice(quiet)
    return player(state.game, 2, seed=rng.randrange(1 << 30)).choose(state, seat, 0.1)


def strong_move(record: str, seat: int, seed: int) -> str:
    """The strong person's line (in the person's own process)."""
    from vertex.server.compute.worker_states import state_of

    os.environ["VERTEX_AI_THREADS"] = "1"
    state = state_of(record)
    return player(state.game, 4, seed=seed).choose(state, seat, PERSON_BUDGET_S)


def play_game(
    game: DotsGame[Any],
    k: int,
    args: argparse.Namespace,
    most_quiet: int,
    least_drawn: int,
    person: Executor | None,
) -> list[Asked]:
    """Game k: level 5 (pondering) against the person; the positions it met."""
    rng = random.Random(37_000 + k)
    me = k % 2  # the computer's seat
    cold()
    ponder.allow(True)
    state = game.initial_state()
    asked: list[Asked] = []
    last = None
    while not state.is_over:
        seat = state.to_move[0]
        if seat == me:
            quiet = len(quiet_lines(state))
            bot = player(game, 5, seed=0)
            t0 = time.monotonic()
            line = bot.choose(state, seat, args.seconds)  # stops the ponder, starts the next
            took = time.monotonic() - t0
            drawn = len(state.history)
            if 0 < quiet <= most_quiet and drawn >= least_drawn:
                asked.append(Asked(k, state, line, getattr(bot, "last_reason", "?"), took))
        else:
            t0 = time.monotonic()
            if person is None:
                line = person_move(state, seat, rng)
            else:
                line = person.submit(
                    strong_move, state.record().to_json(), seat, rng.randrange(1 << 30)
                ).result()
            if last == me:  # the person thinks; level 5 ponders meanwhile
                time.sleep(max(0.0, args.think - (time.monotonic() - t0)))
        last = seat
        nxt = state.play(line)
        assert isinstance(nxt, DotsState)
        state = nxt
    ponder.allow(False)
    scores = state.scores
    print(
        f"game {k}: level 5 seat {me}, {len(asked)} positions recorded, scores {scores} ({load()})",
        flush=True,
    )
    return asked


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--board", default="boxes4", choices=sorted(BOARDS))
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--first", type=int, default=0, help="the first game's number")
    ap.add_argument("--person", default="quiet", choices=("quiet", "level4"))
    ap.add_argument("--think", type=float, default=3.0, help="the person's seconds a turn")
    ap.add_argument("--seconds", type=float, default=1.0, help="level 5's budget a move")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds (wall) an offline solve")
    ap.add_argument("--memory", type=int, default=2 << 30, help="the offline table's bytes")
    args = ap.parse_args()
    game_id, options, least_drawn, most_quiet = BOARDS[args.board]
    game = vertex.create_game(game_id, **options)
    assert isinstance(game, DotsGame)
    print(
        f"{args.board}: {args.games} games, level 5 at {args.seconds:g} s a move, the person "
        f"({args.person}) thinks {args.think:g} s a turn ({load()})",
        flush=True,
    )
    person = None
    if args.person == "level4":
        person = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    asked: list[Asked] = []
    for k in range(args.first, args.first + args.games):
        asked += play_game(game, k, args, most_quiet, least_drawn, person)
    if person is not None:
        person.shutdown()
    cold()
    print(f"\n{'game':>4} {'drawn':>5} {'quiet':>5} {'value':>5} {'keep':>7}  in game    cold")
    kept_game = kept_cold = settled = 0
    secs_game: list[float] = []
    secs_cold: list[float] = []
    reasons: dict[str, int] = {}
    for a in asked:
        solver = CoreSolver(game, table_bytes=args.memory, threads=2)
        try:
            sol = solver.solve(a.state, deadline=time.monotonic() + args.limit)
        except SolveTimeout:
            print(f"{a.game:4} {len(a.state.history):5} not settled in {args.limit:g} s")
            continue
        finally:
            del solver
        best = set(sol.best_moves)
        cold()
        seat = a.state.to_move[0]
        t0 = time.monotonic()
        line_cold = player(game, 5, seed=0).choose(a.state, seat, args.seconds)
        secs_cold.append(time.monotonic() - t0)
        secs_game.append(a.seconds)
        settled += 1
        kept_game += a.line in best
        kept_cold += line_cold in best
        if a.line not in best:
            reasons[a.reason] = reasons.get(a.reason, 0) + 1
        print(
            f"{a.game:4} {len(a.state.history):5} {len(quiet_lines(a.state)):5} "
            f"{sol.value:+5d} {len(best):3}/{len(a.state.legal_moves()):<3}  "
            f"{'yes' if a.line in best else 'no ':3} {a.line:>6}  "
            f"{'yes' if line_cold in best else 'no ':3} {line_cold:>6}",
            flush=True,
        )
    if not settled:
        return
    print(f"\nvalue-keeping lines in {settled} settled positions ({load()}):")
    print(
        f"  in the games (pondering, tables kept)  {kept_game:3}  {kept_game / settled:4.0%}  "
        f"{sum(secs_game) / settled:.2f} s a move"
    )
    print(
        f"  cold (the issue's measure)           {kept_cold:3}  {kept_cold / settled:4.0%}  "
        f"{sum(secs_cold) / settled:.2f} s a move"
    )
    if reasons:
        print(
            "  the games' misses, by what chose the line: "
            + ", ".join(f"{r} {n}" for r, n in sorted(reasons.items()))
        )


if __name__ == "__main__":
    main()

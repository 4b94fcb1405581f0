"""Juxtapose engine speed: the string contract side by side with the integer fast path.

Random playouts to the end (what MCTS does), and the "does this move win at once" test done by
playing each move versus `wins_at_once`. Run: `.venv/bin/python bench/bench_juxtapose.py`.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

import vertex
from vertex.games.juxtapose import JuxtaposeState

GAMES = 300


def start(players: int = 2) -> JuxtaposeState:
    state = vertex.create_game("juxtapose", players=players).initial_state(seed=1)
    assert isinstance(state, JuxtaposeState)
    return state


def playouts_strings(rng: random.Random) -> int:
    plies = 0
    for _ in range(GAMES):
        state: vertex.State = start()
        while not state.is_over:
            moves = state.legal_moves()
            assert moves
            state = state.play(rng.choice(moves))
            plies += 1
    return plies


def playouts_codes(rng: random.Random) -> int:
    plies = 0
    for _ in range(GAMES):
        state = start()
        while not state.is_over:
            state = state.apply(rng.choice(state.move_codes()))
            plies += 1
    return plies


def positions(rng: random.Random) -> list[JuxtaposeState]:
    """Positions met in random games, drop and slide phase alike."""
    out = []
    for _ in range(60):
        state = start()
        while not state.is_over:
            out.append(state)
            state = state.apply(rng.choice(state.move_codes()))
    return out


def winners_by_playing(states: list[JuxtaposeState]) -> int:
    n = 0
    for s in states:
        for m in s.legal_moves():
            n += s.play(m).is_over
    return n


def winners_by_test(states: list[JuxtaposeState]) -> int:
    n = 0
    for s in states:
        for c in s.move_codes():
            n += s.wins_at_once(c)
    return n


def timed(fn: Callable[[], int]) -> tuple[int, float]:
    t0 = time.perf_counter()
    count = fn()
    return count, time.perf_counter() - t0


def main() -> None:
    rows = []
    a, ta = timed(lambda: playouts_strings(random.Random(1)))
    b, tb = timed(lambda: playouts_codes(random.Random(1)))
    assert a == b, "both paths must play the same games"
    rows.append(("random playout plies", "legal_moves+play", a / ta, "move_codes+apply", b / tb))
    states = positions(random.Random(2))
    c, tc = timed(lambda: winners_by_playing(states))
    d, td = timed(lambda: winners_by_test(states))
    assert c == d, "wins_at_once must agree with playing"
    checked = _moves(states)
    rows.append(
        ("moves checked for a win", "play + is_over", checked / tc, "wins_at_once", checked / td)
    )
    print(f"{'measure':<24}{'contract':<18}{'/s':>10}  {'fast path':<18}{'/s':>10}  {'ratio':>6}")
    for name, left, lv, right, rv in rows:
        print(f"{name:<24}{left:<18}{lv:>10.0f}  {right:<18}{rv:>10.0f}  {rv / lv:>6.1f}")
    print(f"({GAMES} random games, {a} plies; {len(states)} positions, {_moves(states)} moves)")


def _moves(states: list[JuxtaposeState]) -> int:
    return sum(len(s.move_codes()) for s in states)


if __name__ == "__main__":
    main()

"""The compiled core against the Python engine and the Python solver, on every board kind.

The core is built from the engine's tables (`vertex.ai.dots.core.build_core`); these tests show
it plays the same game: the same legal lines, the same cells closed by each line, so the same
scores, and the same solved values and best moves as the Python reference search.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vertex
from vertex.ai.dots.core import CoreSolver, build_core
from vertex.ai.dots.solver import PySolver
from vertex.games.dots.engine import DotsGame, DotsState

#: Every board kind: rectangles (with and without border), the big triangle, the 1×n strip
#: (closed and open), Figures' rhombus and rectangle (rim, touch rule), misère, no extra turn.
KINDS: list[tuple[str, dict[str, Any]]] = [
    ("dots-and-boxes", {"rows": 2, "cols": 3}),
    ("dots-and-boxes", {"rows": 3, "cols": 3, "border": True}),
    ("dots-and-boxes", {"rows": 2, "cols": 2, "misere": True}),
    ("dots-and-boxes", {"rows": 2, "cols": 3, "extra_turn": False}),
    ("dots-and-boxes", {"rows": 1, "cols": 4}),
    ("dots-and-triangles", {"size": 3}),
    ("dots-and-triangles", {"size": 4, "misere": True}),
    ("dots-and-triangles", {"shape": "strip", "length": 6, "border": True}),
    ("dots-and-triangles", {"shape": "strip", "length": 4}),
    ("figures", {"rows": 5, "cols": 5, "shape": "rhombus"}),
    ("figures", {"rows": 3, "cols": 3}),
]


def game_of(game_id: str, options: dict[str, Any]) -> DotsGame[Any]:
    game = vertex.create_game(game_id, **options)
    assert isinstance(game, DotsGame)
    return game


def walk(game: DotsGame[Any], rng: random.Random, stop: int | None = None) -> list[DotsState]:
    """The positions of one random game (to the end, or `stop` lines)."""
    state = game.initial_state(seed=rng.randrange(1000))
    out = [state]
    while state.legal_moves() and (stop is None or len(out) <= stop):
        nxt = state.play(rng.choice(state.legal_moves()))
        assert isinstance(nxt, DotsState)
        state = nxt
        out.append(state)
    return out


def check_game(game: DotsGame[Any], rng: random.Random) -> None:
    core = build_core(game, 1 << 20)
    names = game.board.line_names
    positions = walk(game, rng)
    scores = [0] * game.seats
    for before, after in itertools.pairwise(positions):
        assert core.legal(before.drawn, before.reach) == before.open_lines()
        assert sorted(names[i] for i in _bits(core.legal(before.drawn, before.reach))) == sorted(
            before.legal_moves()
        )
        seat, move = after.history[-1]
        assert seat is not None
        line = game.board.find_line(move)
        drawn, closed = core.draw(before.drawn, line)
        assert drawn == after.drawn
        assert closed == after.owned[seat] & ~before.owned[seat]
        if game.touch_rule:
            assert core.reach_after(before.reach, line) == after.reach
        scores[seat] += closed.bit_count()
        assert tuple(scores) == after.scores
    last = positions[-1]
    assert core.legal(last.drawn, last.reach) == 0


@pytest.mark.parametrize(("game_id", "options"), KINDS)
def test_core_plays_the_engines_game(game_id: str, options: dict[str, Any]) -> None:
    game = game_of(game_id, options)
    rng = random.Random(f"{game_id}{options}")
    for _ in range(6):
        check_game(game, rng)


@settings(max_examples=40, deadline=None)
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 2**32))
def test_core_plays_the_engines_game_hypothesis(
    kind: tuple[str, dict[str, Any]], seed: int
) -> None:
    check_game(game_of(*kind), random.Random(seed))


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


#: Two-player kinds whose random mid-game positions the Python solver settles quickly.
SOLVED_KINDS = [
    (g, o) for g, o in KINDS if not (g == "figures" and o.get("shape") == "rhombus")
] + [("figures", {"rows": 3, "cols": 4, "shape": "rhombus"})]


@pytest.mark.parametrize(("game_id", "options"), SOLVED_KINDS)
def test_core_values_match_the_python_solver(game_id: str, options: dict[str, Any]) -> None:
    game = game_of(game_id, options)
    rng = random.Random(f"solve{game_id}{options}")
    core = CoreSolver(game, table_bytes=8 << 20)
    ref = PySolver(game)
    checked = 0
    for _ in range(30):
        for pos in walk(game, rng)[::3]:
            if len(pos.legal_moves()) > 14:
                continue
            assert core.solve(pos) == ref.solve(pos), pos.history
            checked += 1
    assert checked >= 20


@settings(max_examples=25, deadline=None)
@given(kind=st.sampled_from(SOLVED_KINDS), seed=st.integers(0, 2**32), keep=st.integers(0, 13))
def test_core_values_match_hypothesis(
    kind: tuple[str, dict[str, Any]], seed: int, keep: int
) -> None:
    game = game_of(*kind)
    line = walk(game, random.Random(seed))
    pos = line[max(0, len(line) - 1 - keep)]  # `keep` lines before the end
    assert CoreSolver(game, table_bytes=1 << 20).solve(pos) == PySolver(game).solve(pos)


@pytest.mark.parametrize(
    ("game_id", "options", "count", "open_at_most"),
    [
        ("dots-and-boxes", {"rows": 3, "cols": 3}, 70, 15),
        ("dots-and-triangles", {"size": 4}, 70, 15),
        ("dots-and-boxes", {"rows": 2, "cols": 4}, 60, 16),
    ],
)
def test_the_python_solvers_values_on_random_mid_game_positions(
    game_id: str, options: dict[str, Any], count: int, open_at_most: int
) -> None:
    # 200 positions in all, every one from the middle of a random game
    game = game_of(game_id, options)
    rng = random.Random(f"mid{game_id}")
    core = CoreSolver(game, table_bytes=16 << 20)
    ref = PySolver(game)
    done = 0
    while done < count:
        line = walk(game, rng)
        total = len(line) - 1
        pos = line[rng.randrange(total - open_at_most, total - 4)]
        c, r = core.solve(pos), ref.solve(pos)
        assert (c.value, c.best_moves) == (r.value, r.best_moves), pos.history
        done += 1


def test_a_tiny_table_still_gives_exact_values() -> None:
    # a table far too small for the search: entries are replaced, values stay right
    game = game_of("dots-and-boxes", {"rows": 3, "cols": 3})
    sol = CoreSolver(game, table_bytes=1 << 12).solve(game.initial_state())
    assert sol.value == -3


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("dots-and-boxes", {"rows": 3, "cols": 3}),
        ("dots-and-boxes", {"rows": 2, "cols": 4}),
        ("dots-and-triangles", {"size": 4}),
        ("dots-and-triangles", {"shape": "strip", "length": 8, "border": True}),
    ],
)
def test_the_chain_rule_and_helper_threads_change_no_value(
    game_id: str, options: dict[str, Any]
) -> None:
    # Berlekamp's all-but-two prunes the moves where cells are on offer, and helper threads
    # share the table: neither may change a value or a best move. Positions from random
    # games (so cells are often on offer), against the plain one-thread search.
    game = game_of(game_id, options)
    rng = random.Random(f"chains{game_id}{options}")
    pruned, plain = build_core(game, 4 << 20), build_core(game, 4 << 20)
    offered = 0
    for _ in range(12):
        for pos in walk(game, rng)[4::2]:
            if not pos.legal_moves():
                continue
            pruned.clear()
            plain.clear()
            got = pruned.solve(pos.drawn, pos.reach, threads=2)
            want = plain.solve(pos.drawn, pos.reach, chains=False)
            assert got is not None and want is not None
            assert (got[0], sorted(got[1])) == (want[0], sorted(want[1])), pos.history
            rem = [(m & ~pos.drawn).bit_count() for m in game.board.cell_masks]
            offered += 1 in rem
    assert offered >= 10


def test_a_board_of_more_than_96_lines_keeps_whole_keys() -> None:
    # 7×7 has 112 lines: the table keeps the key's top bits aside; the end of a random game
    # must solve as the Python solver does
    game = game_of("dots-and-boxes", {"rows": 7, "cols": 7})
    rng = random.Random(96)
    for _ in range(3):
        line = walk(game, rng)
        pos = line[len(line) - 13]
        assert CoreSolver(game, table_bytes=1 << 20).solve(pos) == PySolver(game).solve(pos)


#: The kinds whose table keys may list runs alone (up to 64 lines, no touch rule).
ALONE_KINDS = [(g, o) for g, o in KINDS if g != "figures"]


@pytest.mark.parametrize("runs", [1, 3])
@pytest.mark.parametrize(("game_id", "options"), ALONE_KINDS)
def test_runs_alone_keyed_by_their_lengths_change_no_value(
    game_id: str, options: dict[str, Any], runs: int
) -> None:
    # Below the root a run of two-sided cells alone (both ends on the ground, or a loop) is
    # keyed by its length, not its place (`alone`), so positions alike but for where such
    # runs lie share an entry. Forced on for every kind, with one small table kept across
    # the positions (entries shared and replaced), on two threads: the values and best
    # lines of the plain search. runs=3 keys runs hanging from a junction by their lengths
    # too (the line they hang by kept in the key).
    game = game_of(game_id, options)
    rng = random.Random(f"alone{game_id}{options}{runs}")
    alone, plain = build_core(game, 1 << 16), build_core(game, 4 << 20)
    checked = fewer = 0
    for _ in range(8):
        for pos in walk(game, rng)[1::2]:
            if not 6 <= len(pos.legal_moves()) <= 18:
                continue
            plain.clear()
            before = alone.stats()["nodes"]
            got = alone.solve(pos.drawn, pos.reach, alone=runs, threads=2)
            want = plain.solve(pos.drawn, pos.reach, alone=0)
            assert got is not None and want is not None
            assert (got[0], sorted(got[1])) == (want[0], sorted(want[1])), pos.history
            checked += 1
            fewer += alone.stats()["nodes"] - before < plain.stats()["nodes"]
    assert checked >= 20 and fewer >= 3  # the runs alone did share entries


#: Dots and Triangles 6 after quiet play (bench/middle_game_triangles6.json): seed, lines
#: drawn, the value for the player to move (solved offline).
TRIANGLES6 = [
    (20, "a3-a4 b4-b5 d6-e7 b7-c7 f6-g7 b4-c4 d4-e5 a5-a6 c4-d4 d5-e6 b2-c3 c6-d6 b6-c6", 12),
    (24, "b4-b5 c4-d5 d5-d6 e6-f7 a6-b6 c6-d7 b3-c3 c5-c6 c3-d4 f7-g7 d6-e7 b6-c7", 8),
]


@pytest.mark.parametrize(("seed", "moves", "value"), TRIANGLES6)
def test_runs_alone_search_fewer_positions_of_triangles(seed: int, moves: str, value: int) -> None:
    # where every cell has three sides runs alone and runs hanging from a junction are keyed
    # by their lengths by default: the recorded value, in fewer positions than with places
    # kept (about 1.5x fewer there), and than with runs alone only
    game = game_of("dots-and-triangles", {"size": 6})
    state = game.initial_state()
    for move in moves.split():
        nxt = state.play(move)
        assert isinstance(nxt, DotsState)
        state = nxt
    mover = state.order[state.turn]
    score = state.owned[mover].bit_count() - state.owned[1 - mover].bit_count()
    nodes = {}
    for alone in (-1, 0, 1):
        core = build_core(game, 16 << 20)
        got = core.solve(
            state.drawn, state.reach, best=False, hard=True, stabilizer=True, alone=alone
        )
        assert got is not None and score + got[0] == value
        nodes[alone] = core.stats()["nodes"]
    assert nodes[-1] < 0.85 * nodes[0]
    # by default runs hanging from a junction are keyed so too (1.17x and 1.31x fewer here)
    assert nodes[-1] < 0.9 * nodes[1]

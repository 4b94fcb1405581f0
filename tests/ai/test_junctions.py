"""The count of loony positions in the compiled core (`Core.loony`, issue 36).

A loony position: nothing on offer and no quiet line left, so every line drawn hands out a
string of cells. With chains and loops alone the core counts it as Berlekamp does (the same
recursion as `endgame.loony_value`, whose worked examples are in test_endgame.py); with
junctions — cells with three or four sides to go — opening by opening, a junction left with
two arms joining them. Checked here against hand counts, the Python count and the exact
search (which never uses the junction count unless told to).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import vertex
from vertex.ai.dots.core import CoreSolver
from vertex.ai.dots.endgame import components, loony_value, shape
from vertex.ai.dots.kit import DotsKit
from vertex.games.dots.engine import DotsGame, DotsState


def make(game_id: str, **options: Any) -> DotsGame[Any]:
    game = vertex.create_game(game_id, **options)
    assert isinstance(game, DotsGame)
    return game


def open_only(game: DotsGame[Any], names: str) -> int:
    """The drawn lines of a position where only `names` are left open."""
    board = game.board
    keep = 0
    for name in names.split():
        keep |= 1 << board.find_line(name)
    return board.all_lines & ~keep


def loony_positions(game: DotsGame[Any], count: int, seed: int) -> list[DotsState]:
    """Loony positions met in random games (quiet lines first, captures mostly taken)."""
    board = game.board
    core = CoreSolver(game, table_bytes=1 << 20).core
    rng = random.Random(seed)
    out: list[DotsState] = []
    while len(out) < count:
        state = game.initial_state()
        found = []
        while not state.is_over:
            if core.loony(state.drawn) is not None:
                found.append(state)
            moves = state.legal_moves()
            rem = [(m & ~state.drawn).bit_count() for m in board.cell_masks]
            lines = [board.find_line(m) for m in moves]
            caps = [
                m
                for m, ln in zip(moves, lines, strict=True)
                if any(rem[c] == 1 for c in board.line_cells[ln])
            ]
            quiet = [
                m
                for m, ln in zip(moves, lines, strict=True)
                if all(rem[c] > 2 for c in board.line_cells[ln])
            ]
            pool = caps if caps and rng.random() < 0.9 else quiet or moves
            nxt = state.play(rng.choice(pool))
            assert isinstance(nxt, DotsState)
            state = nxt
        out.extend(rng.sample(found, min(2, len(found))))
    return out[:count]


def test_a_junction_with_three_lone_cells_counted_by_hand() -> None:
    # 3×3: the centre cell has three sides to go, each to a lone cell whose other side is the
    # ground (everything else drawn). The mover opens one lone cell; the other takes it, which
    # joins the other two through the centre into a chain of 3, and must open that: +3 - 1.
    game = make("dots-and-boxes", rows=3, cols=3)
    drawn = open_only(game, "b2-c2 b1-c1 b2-b3 a2-a3 c2-c3 d2-d3")
    solver = CoreSolver(game, table_bytes=1 << 20)
    assert solver.core.loony(drawn) == (2, False)
    assert solver.core.solve(drawn, 0, best=False) == (2, [])


def test_chains_alone_are_counted_as_the_python_endgame_counts() -> None:
    # a 3×1 strip with its long sides drawn is one chain of three; two strips, two chains
    game = make("dots-and-boxes", rows=1, cols=3)
    core = CoreSolver(game, table_bytes=1 << 20).core
    assert core.loony(open_only(game, "a1-a2 b1-b2 c1-c2 d1-d2")) == (-3, True)
    for game in (make("dots-and-boxes", rows=4, cols=4), make("dots-and-triangles", size=5)):
        kit = DotsKit(game)
        core = CoreSolver(game, table_bytes=1 << 20).core
        simple = 0
        for state in loony_positions(game, 60, seed=3):
            comps = components(kit, state.drawn)
            got = core.loony(state.drawn)
            assert got is not None
            if comps is None:
                assert got[1] is False  # a junction: not a simple endgame
                continue
            simple += 1
            assert got == (loony_value(*shape(comps)), True)
        assert simple >= 10


def test_a_position_with_a_capture_or_a_quiet_line_is_not_loony() -> None:
    game = make("dots-and-boxes", rows=3, cols=3)
    core = CoreSolver(game, table_bytes=1 << 20).core
    assert core.loony(0) is None  # quiet lines everywhere
    state = game.initial_state()
    for move in ("a1-b1", "a1-a2", "b1-b2"):
        nxt = state.play(move)
        assert isinstance(nxt, DotsState)
        state = nxt
    assert core.loony(state.drawn) is None  # a cell on offer
    misere = CoreSolver(make("dots-and-boxes", rows=3, cols=3, misere=True), table_bytes=1 << 20)
    assert misere.core.loony(open_only(game, "b2-c2 b1-c1 b2-b3 a2-a3 c2-c3 d2-d3")) is None


BOARDS = [
    ("dots-and-boxes", {"rows": 4, "cols": 4}),
    ("dots-and-boxes", {"rows": 5, "cols": 5}),
    ("dots-and-boxes", {"rows": 3, "cols": 6}),
    ("dots-and-triangles", {"size": 6}),
]


@pytest.mark.parametrize(("game_id", "options"), BOARDS, ids=[f"{g}-{o}" for g, o in BOARDS])
def test_the_junction_count_is_the_exact_search_value(
    game_id: str, options: dict[str, int]
) -> None:
    game = make(game_id, **options)
    solver = CoreSolver(game, table_bytes=16 << 20)
    junctions = 0
    for state in loony_positions(game, 80, seed=36):
        got = solver.core.loony(state.drawn)
        assert got is not None
        out = solver.core.solve(state.drawn, state.reach, best=False)
        assert out is not None
        assert got[0] == out[0], state.drawn
        junctions += not got[1]
    assert junctions >= 20


@pytest.mark.parametrize(
    ("game_id", "options", "drawn", "count"),
    [
        ("dots-and-boxes", {"rows": 3, "cols": 3}, 6, 120),
        ("dots-and-boxes", {"rows": 4, "cols": 4}, 16, 40),
        ("dots-and-triangles", {"size": 4}, 8, 80),
    ],
)
def test_searches_with_the_count_and_without_dominated_handouts_agree(
    game_id: str, options: dict[str, int], drawn: int, count: int
) -> None:
    # the exact search as it is, and with `junctions` (the count instead of a search) and
    # `hard` (no lone cell handed out twice, no chain of two handed out from its end):
    # the same value and the same value-keeping lines
    game = make(game_id, **options)
    plain = CoreSolver(game, table_bytes=8 << 20).core
    fast = CoreSolver(game, table_bytes=8 << 20).core
    rng = random.Random(7)
    for _ in range(count):
        state = game.initial_state()
        for _ in range(drawn):
            if state.is_over:
                break
            nxt = state.play(rng.choice(state.legal_moves()))
            assert isinstance(nxt, DotsState)
            state = nxt
        if state.is_over:
            continue
        plain.clear()
        fast.clear()
        a = plain.solve(state.drawn, state.reach)
        b = fast.solve(state.drawn, state.reach, junctions=True, hard=True)
        assert a is not None and b is not None
        assert (a[0], sorted(a[1])) == (b[0], sorted(b[1])), state.drawn


def _quiet_phase_end(game: DotsGame[Any], rng: random.Random) -> DotsState:
    """Quiet play until at most five quiet lines are left, then up to two lines at random:
    long chains and loops on the board while quiet lines remain."""
    board = game.board
    state = game.initial_state()
    target = rng.randint(0, 5)
    while not state.is_over:
        rem = [(m & ~state.drawn).bit_count() for m in board.cell_masks]
        quiet = [
            move
            for move in state.legal_moves()
            if all(rem[c] > 2 for c in board.line_cells[board.find_line(move)])
        ]
        if len(quiet) <= target:
            break
        nxt = state.play(rng.choice(quiet))
        assert isinstance(nxt, DotsState)
        state = nxt
    for _ in range(rng.randint(0, 2)):
        if not state.is_over:
            nxt = state.play(rng.choice(state.legal_moves()))
            assert isinstance(nxt, DotsState)
            state = nxt
    return state


@pytest.mark.parametrize(
    ("game_id", "options", "count"),
    [
        ("dots-and-boxes", {"rows": 3, "cols": 4}, 60),
        ("dots-and-boxes", {"rows": 4, "cols": 4}, 60),
        ("dots-and-triangles", {"size": 4}, 60),
        ("figures", {"rows": 5, "cols": 5}, 30),
    ],
)
def test_one_line_per_long_chain_or_loop_gives_the_plain_answer(
    game_id: str, options: dict[str, int], count: int
) -> None:
    # `hard` hands out a chain of three cells or more (ends apart) or a loop by one of its
    # lines only: wherever it is opened, the taker's best answers end in the same positions.
    # Near the end of the quiet lines, with such runs on the board: the plain search's value
    # and value-keeping lines. (Letting all long runs of a position count as one fails here.)
    game = make(game_id, **options)
    plain = CoreSolver(game, table_bytes=16 << 20).core
    fast = CoreSolver(game, table_bytes=16 << 20).core
    rng = random.Random(5)
    checked = 0
    for _ in range(count):
        state = _quiet_phase_end(game, rng)
        if state.is_over:
            continue
        plain.clear()
        fast.clear()
        a = plain.solve(state.drawn, state.reach)
        b = fast.solve(state.drawn, state.reach, hard=True)
        assert a is not None and b is not None
        assert (a[0], sorted(a[1])) == (b[0], sorted(b[1])), state.drawn
        checked += 1
    assert checked >= count * 3 // 4

"""Perft: move sequences and distinct positions at depths 1–3 (more on tiny boards), for every
board kind of the Dots family and every Vert3x rule set, by an independent brute force
(`tests/games/perft.py`, its own geometry) against the engine. A few counts are also pinned
as numbers that can be checked by hand."""

from __future__ import annotations

from math import perm
from typing import Any

import pytest

import vertex
from tests.games import perft as pf

# ---- the Dots family --------------------------------------------------------------------------


def dots_rules(game_id: str, **options: Any) -> tuple[pf.DotsRules, Any]:
    """The brute force's rules for a table, and the engine's starting state."""
    state = vertex.create_game(game_id, **options).initial_state(seed=5)
    seats = options.get("players", 2)
    extra = options.get("extra_turn", True)
    border = options.get("border", False)
    if game_id == "dots-and-boxes":
        cells = pf.squares(options.get("rows", 3), options.get("cols", 3))
        pre = pf.outline(cells) if border else frozenset()
        return pf.DotsRules(cells, pre, False, extra, seats, tuple(range(seats))), state
    if game_id == "dots-and-triangles":
        if options.get("shape") == "strip":
            n = options["length"]
            cells = pf.strip(n)
            top = {pf.seg((q, 0), (q + 1, 0)) for q in range(n - 1)}
            ends = {pf.seg((0, 0), (0, 1)), pf.seg((n - 1, 0), (n, 1))}
            pre = frozenset(top | ends) if border else frozenset()
        else:
            cells = pf.big_triangle(options.get("size", 4))
            pre = pf.outline(cells) if border else frozenset()
        return pf.DotsRules(cells, pre, False, extra, seats, tuple(range(seats))), state
    assert game_id == "figures"
    rows, cols = options["rows"], options["cols"]
    keep = pf.rhombus(rows, cols) if options.get("shape") == "rhombus" else None
    cells = pf.squares(rows, cols, keep)
    # the order of play comes from the figures drawn by lot: an input here, not a rule
    order = tuple(state.to_dict()["board"]["order"])
    return pf.DotsRules(cells, pf.outline(cells), True, True, seats, order), state


DOTS_CASES: list[tuple[str, dict[str, Any], int]] = [
    ("dots-and-boxes", {"rows": 1, "cols": 1}, 4),
    ("dots-and-boxes", {"rows": 1, "cols": 2}, 4),
    ("dots-and-boxes", {"rows": 2, "cols": 2}, 3),
    ("dots-and-boxes", {"rows": 1, "cols": 2, "extra_turn": False, "players": 3}, 4),
    ("dots-and-boxes", {"rows": 2, "cols": 3, "border": True}, 4),
    ("dots-and-triangles", {"size": 2}, 4),
    ("dots-and-triangles", {"size": 3, "border": True}, 4),
    ("dots-and-triangles", {"size": 3}, 3),
    ("dots-and-triangles", {"shape": "strip", "length": 3}, 4),
    ("dots-and-triangles", {"shape": "strip", "length": 4, "border": True}, 4),
    ("figures", {"rows": 2, "cols": 2}, 4),
    ("figures", {"rows": 3, "cols": 3, "players": 3}, 3),
    ("figures", {"rows": 5, "cols": 5, "shape": "rhombus"}, 3),
]


@pytest.mark.parametrize(("game_id", "options", "depth"), DOTS_CASES)
def test_dots_perft_matches_the_brute_force(
    game_id: str, options: dict[str, Any], depth: int
) -> None:
    rules, state = dots_rules(game_id, **options)
    want = pf.dots_brute(rules, depth)
    got = pf.engine_perft(state, depth, pf.dots_engine_key)
    for d, ((n_want, keys_want), (n_got, keys_got)) in enumerate(zip(want, got, strict=True), 1):
        assert n_got == n_want, f"depth {d}: {n_got} sequences, the brute force has {n_want}"
        assert keys_got == keys_want, f"depth {d}: the positions differ"


def counts(game_id: str, depth: int, **options: Any) -> list[tuple[int, int]]:
    state = vertex.create_game(game_id, **options).initial_state(seed=5)
    return [(n, len(keys)) for n, keys in pf.engine_perft(state, depth, pf.dots_engine_key)]


def test_known_dots_numbers() -> None:
    # 1×1: four lines, so 4·3·2·1 orders; after two lines the position is which two (and
    # seat 0 to move again), after three which three; the fourth line always falls to
    # seat 1 (turns alternate until then), which takes the box: one final position
    assert counts("dots-and-boxes", 4, rows=1, cols=1) == [
        (4, 4), (12, 6), (24, 4), (24, 1),
    ]  # fmt: skip
    # 2×2: twelve lines, no box can close in three lines: ordered and unordered choices
    assert counts("dots-and-boxes", 3, rows=2, cols=2) == [
        (12, 12), (perm(12, 2), 66), (perm(12, 3), 220),
    ]  # fmt: skip
    # the triangle of size 2: nine lines; a triangle can close at the third line
    got = counts("dots-and-triangles", 2, size=2)
    assert got == [(9, 9), (72, 36)]
    # the closed strip of length 4: 3n−2 = 10 lines to play
    assert counts("dots-and-triangles", 1, shape="strip", length=4, border=True) == [(10, 10)]


# ---- Vert3x --------------------------------------------------------------------------------------


def vert3x_rules(**options: Any) -> tuple[pf.Vert3xRules, Any]:
    state = vertex.create_game("vert3x", **options).initial_state(seed=5)
    rules = options.get("rules", "classic")
    per_turn = options.get("lines_per_turn", 1)
    if rules == "classic":
        radius = options.get("radius", 3)
        _, lines = pf.hexagon(radius)
        # two players start on opposite corners: the top-left dot and its mirror image
        start = ((0, 0), (2 * radius, 2 * radius))
        assert state.to_dict()["board"]["start"] == [pf.dot(d) for d in start]
        return (
            pf.Vert3xRules(
                lines,
                connected=True,
                start=start,
                lines_per_turn=per_turn,
                line_points=1,
                triangle_points=3,
            ),
            state,
        )
    if rules == "trianguliche":
        lines = pf.windows(options.get("width", 2), options.get("height", 2))
        return pf.Vert3xRules(lines, vertex_block=True, lines_per_turn=per_turn), state
    lines = pf.diagonal_grid(options.get("size", 15))
    no_cross = options.get("no_cross", True)
    return (
        pf.Vert3xRules(lines, lines_per_turn=per_turn, seal_inside=True, no_cross=no_cross),
        state,
    )


VERT3X_CASES: list[tuple[dict[str, Any], int]] = [
    ({"rules": "classic", "radius": 1}, 3),
    ({"rules": "classic", "radius": 2}, 3),
    ({"rules": "classic", "radius": 3}, 3),
    ({"rules": "classic", "radius": 1, "lines_per_turn": 3}, 4),
    ({"rules": "trianguliche", "width": 1, "height": 1}, 3),
    ({"rules": "trianguliche", "width": 2, "height": 1}, 2),
    ({"rules": "trianguliche", "width": 1, "height": 1, "lines_per_turn": 3}, 4),
    ({"rules": "gyo", "size": 3}, 3),
    ({"rules": "gyo", "size": 4}, 2),
    ({"rules": "gyo", "size": 3, "lines_per_turn": 3}, 4),
    # crossing allowed: only the sealed inside of seat 0's first triangle stops seat 1
    ({"rules": "gyo", "size": 3, "lines_per_turn": 3, "no_cross": False}, 4),
]


@pytest.mark.parametrize(("options", "depth"), VERT3X_CASES)
def test_vert3x_perft_matches_the_brute_force(options: dict[str, Any], depth: int) -> None:
    rules, state = vert3x_rules(**options)
    want = pf.v3_brute(rules, depth)
    got = pf.engine_perft(state, depth, pf.v3_engine_key)
    for d, ((n_want, keys_want), (n_got, keys_got)) in enumerate(zip(want, got, strict=True), 1):
        assert n_got == n_want, f"depth {d}: {n_got} sequences, the brute force has {n_want}"
        assert keys_got == keys_want, f"depth {d}: the positions differ"


def test_known_vert3x_numbers() -> None:
    def v3(depth: int, **options: Any) -> list[tuple[int, int]]:
        state = vertex.create_game("vert3x", **options).initial_state(seed=5)
        return [(n, len(k)) for n, k in pf.engine_perft(state, depth, pf.v3_engine_key)]

    # classic hexagon of radius 1 (7 dots, 12 lines): each player starts at a corner with
    # three lines, and touching the other's lines at a dot (the centre) is allowed
    assert v3(2, rules="classic", radius=1)[:2] == [(3, 3), (9, 9)]
    # GYØ on 3×3 dots: 12 straight and 8 diagonal lines; after seat 0's diagonal the one
    # crossing it is closed to seat 1
    first, second = v3(2, rules="gyo", size=3)
    assert first == (20, 20)
    assert second == (12 * 19 + 8 * 18, 12 * 19 + 8 * 18)

"""The variations (RULES.md §2.0) in play: perft counts on a small board with each one on,
random games with all of them on at once (the invariants), and the computer players."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from typing import Any

import pytest

import vertex
from tests.games.perft import engine_perft, strictly_inside
from vertex.ai import player
from vertex.games.vert3x import Vert3xState

ALL = {"shape_bonus": True, "box_in": True, "overrules": 2, "steal": True, "cover_bonus": True}


def light_key(state: Any) -> Any:
    """Who holds which line, the scores, the overrules used and the seat due."""
    return (state.lines, tuple(state.scores), state.spent, state.to_move)


# Perft from positions on the triangle of size 3 (10 dots, 18 lines), free play, where each
# variation fires within a few plies: it changes the scores reached (overrules: the moves).
BOARD = {"rules": "classic", "shape": "triangle", "size": 3, "connected": False}
# Seat 0 holds five sides of the side-2 triangle a1, a3, c3 (b2-c3 closes it); seat 1 holds
# the small triangle a2, b2, b3 inside it and two lines of the bottom row.
AROUND = ["a1-a2", "a2-b2", "a2-a3", "b2-b3", "a3-b3", "a2-b3", "b3-c3", "a4-b4", "a1-b2"]
AROUND += ["b4-c4"]
# Seat 0 holds the small triangle a2, a3, b3 and the same five sides (so b2-c3 closes a
# triangle around its own one), and b3-c3 of the rhombus b3, c3, c4, b4.
OWN = ["a1-a2", "a4-b4", "a2-a3", "c4-d4", "a3-b3", "a2-b2", "a2-b3", "a3-a4", "b3-c3"]
OWN += ["c3-d4", "a1-b2", "b2-b3"]


def counts(opening: list[str], options: dict[str, Any], depth: int) -> list[tuple[int, ...]]:
    """Per depth: move sequences, distinct positions, and seat 0's best score there."""
    state = vertex.create_game("vert3x", **BOARD, **options).initial_state(seed=0)
    for move in opening:
        state = state.play(move)
    return [
        (n, len(keys), max(k[1][0] for k in keys))
        for n, keys in engine_perft(state, depth, light_key)
    ]


# seat 0's best: b2-c3 closes a1, a3, c3 (6 lines and the outline, 6); box_in adds seat 1's
# three lines inside, steal seat 1's triangle (3); an overrule adds moves (seat 1's lines)
PLAIN_AROUND = [(8, 8, 12), (56, 56, 12), (336, 168, 13)]
# seat 0's best at depth 3: its 6 lines and triangle (9), b2-c3 (1 + 6) and one more line;
# at depth 5 the rhombus a2, a3, b4, b3 (a3-b4, b3-b4 and the triangle a3, b3, b4 inside)
PLAIN_OWN = [(6, 6, 16), (30, 30, 16), (120, 60, 17), (360, 90, 17), (720, 60, 21)]
KNOWN: list[tuple[list[str], dict[str, Any], list[tuple[int, ...]]]] = [
    (AROUND, {}, PLAIN_AROUND),
    (AROUND, {"box_in": True}, [(8, 8, 15), (56, 56, 15), (336, 168, 16)]),
    (AROUND, {"steal": True}, [(8, 8, 15), (56, 56, 15), (336, 168, 16)]),
    (AROUND, {"overrules": 1}, [(10, 10, 12), (126, 125, 12), (1132, 599, 13)]),
    (OWN, {}, PLAIN_OWN),
    # b2-c3 also scores the triangle a2, a3, b3 inside it (+3)
    (
        OWN,
        {"cover_bonus": True},
        [(6, 6, 19), (30, 30, 19), (120, 60, 20), (360, 90, 20), (720, 60, 24)],
    ),
    # a3-b4 then b3-b4 closes the rhombus a2, a3, b4, b3 (+4, once)
    (
        OWN,
        {"shape_bonus": True},
        [(6, 6, 16), (30, 30, 16), (120, 60, 18), (360, 90, 18), (720, 60, 25)],
    ),
]


@pytest.mark.parametrize(("opening", "options", "expected"), KNOWN)
def test_perft_from_a_position(
    opening: list[str], options: dict[str, Any], expected: list[Any]
) -> None:
    assert counts(opening, options, len(expected)) == expected


# ---- random play with every variation on ----------------------------------------------------
CASES = [
    {"rules": "classic", "radius": 2, **ALL},
    {"rules": "classic", "radius": 2, "connected": False, "players": 3, **ALL},
    {"rules": "classic", "radius": 2, "connected": False, "seal_scored": True, **ALL},
    {"rules": "trianguliche", **ALL},
    {"rules": "gyo", "size": 5, **ALL},
    {"rules": "gyo", "size": 4, "players": 3, "no_cross": False, "extra_turn": True, **ALL},
]


def inside(state: Vert3xState, corners: list[int], line: int) -> bool:
    """Some point of the line strictly inside the triangle (exact, in eighths)."""
    geo = state.game.geometry
    tri = [geo.coords(c) for c in corners]
    a, b = (geo.coords(d) for d in geo.board.lines[line])
    return any(
        strictly_inside(
            tri,
            Fraction(a[0] * (8 - k) + b[0] * k, 8),
            Fraction(a[1] * (8 - k) + b[1] * k, 8),
        )
        for k in range(1, 8)
    )


@pytest.mark.parametrize("options", CASES)
@pytest.mark.parametrize("seed", range(4))
def test_random_play_keeps_the_invariants(options: dict[str, Any], seed: int) -> None:
    game = vertex.create_game("vert3x", **options)
    state = game.initial_state(seed=seed)
    assert isinstance(state, Vert3xState)
    rng = random.Random(seed)
    sealed: list[list[int]] = []  # corners of triangles scored so far (seal_scored)
    overruled = 0
    while not state.is_over:
        moves = state.legal_moves()
        move = moves[rng.randrange(len(moves))]
        seat = state.to_move[0]
        line = game.geometry.board.find_line(move.removeprefix("!"))
        if game.options.seal_scored:
            assert not any(inside(state, c, line) for c in sealed), (move, "inside a sealed one")
        nxt = state.play(move)
        assert isinstance(nxt, Vert3xState)
        overruled += move.startswith("!")
        # scores only grow, except a seat whose triangle the mover stole
        robbed = {
            was[0]
            for was, now in zip(state.triangles, nxt.triangles, strict=False)
            if was[0] != now[0]
        }
        assert all(
            now[0] == seat
            for was, now in zip(state.triangles, nxt.triangles, strict=False)
            if was[0] != now[0]
        )
        for s, (before, after) in enumerate(zip(state.scores, nxt.scores, strict=True)):
            if s not in robbed:
                assert after >= before, (move, s)
        assert all(n <= game.options.overrules for n in nxt.spent)
        assert sum(nxt.spent) == overruled
        sealed += [list(tri.corners) for _, tri, _ in nxt.triangles[len(state.triangles) :]]
        state = nxt
    assert all(not state.has_move(s) for s in range(game.seats))
    view = state.to_dict()["board"]
    assert view["overrules"] == [2 - n for n in state.spent]


def test_random_play_uses_every_variation() -> None:
    """Over a few games the variations do fire: overrules played, triangles stolen, shapes."""
    seen = {"overrule": 0, "steal": 0, "shape": 0}
    boards = [{"rules": "classic", "radius": 2, "connected": False}, {"rules": "gyo", "size": 4}]
    for seed, board in itertools.product(range(12), boards):
        game = vertex.create_game("vert3x", **board, **ALL)
        state = game.initial_state(seed=seed)
        assert isinstance(state, Vert3xState)
        rng = random.Random(seed)
        while not state.is_over:
            moves = state.legal_moves()
            nxt = state.play(moves[rng.randrange(len(moves))])
            assert isinstance(nxt, Vert3xState)
            seen["overrule"] += nxt.history[-1][1].startswith("!")
            seen["steal"] += any(
                a[0] != b[0] for a, b in zip(state.triangles, nxt.triangles, strict=False)
            )
            state = nxt
        seen["shape"] += len(state.shapes)
    assert all(seen.values()), seen


# ---- computer players -----------------------------------------------------------------------
@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_players_play_legal_moves_with_every_variation(level: int) -> None:
    game = vertex.create_game("vert3x", rules="classic", radius=1, connected=False, **ALL)
    state = game.initial_state(seed=1)
    bot = player(game, level, seed=3)
    while not state.is_over:
        seat = state.to_move[0]
        move = bot.choose(state, seat, 0.05)
        assert move in state.legal_moves()
        state = state.play(move)


def test_the_search_takes_an_overrule_that_closes_a_triangle() -> None:
    """Seat 0 holds a1-b1 and b1-b2 and seat 1 holds a1-b2: taking it over closes a triangle
    (1 + 3 points) and nothing else scores now — level 4 sees it."""
    game = vertex.create_game("vert3x", rules="classic", radius=1, connected=False, overrules=1)
    state = game.initial_state(seed=0)
    for move in ("a1-b1", "a1-b2", "b1-b2", "b3-c3"):
        state = state.play(move)
    assert "!a1-b2" in state.legal_moves()
    assert player(game, 4, seed=0).choose(state, 0, 5.0) == "!a1-b2"

"""`vert3x` (RULES.md §2): the game object — options in force, board, start dots, scoring."""

from __future__ import annotations

from functools import cached_property

from vertex.core.capabilities import Diagram
from vertex.core.errors import NotationError, OptionsError
from vertex.core.game import Game
from vertex.games.vert3x import VERT3X
from vertex.games.vert3x.engine import Vert3xState
from vertex.games.vert3x.options import Vert3xOptions
from vertex.games.vert3x.scoring import Scoring
from vertex.games.vert3x.variations import Variations
from vertex.lattice.diagonal_grid import diagonal_grid_geometry
from vertex.lattice.geometry import Geometry, spread
from vertex.lattice.names import dot_name, parse_dot
from vertex.lattice.tri_shapes import (
    big_triangle_board,
    custom_board,
    hexagon_board,
    parallelogram_board,
    triangular_geometry,
)
from vertex.lattice.units import Units
from vertex.lattice.windows import window_geometry

# The seed's other variations (RULES.md §2.0) on the hexagon of side 2, the worked examples
# of tests/games/vert3x/test_variations.py; the second player starts at e5 when connected.
_SIDE_TWO = ("a1-b1", "b1-c1", "c1-c2", "c2-c3", "a1-b2", "b2-c3")


def _turns(first: tuple[str, ...], second: tuple[str, ...]) -> tuple[str, ...]:
    out: list[str] = []
    for i, move in enumerate(first):
        out += [move, *second[i : i + 1]]
    return tuple(out)


VARIATION_DIAGRAMS = (
    Diagram(
        "shape_bonus",
        {"radius": 2, "shape_bonus": True},
        _turns(("a1-b1", "b1-b2", "a2-b2", "a1-a2"), ("d5-e5", "d4-d5", "e4-e5")),
    ),
    Diagram(
        "box_in",
        {"radius": 2, "connected": False, "box_in": True},
        _turns(_SIDE_TWO, ("b1-b2", "b2-c2", "d5-e5", "d4-d5", "e4-e5")),
    ),
    Diagram(
        "overrules",
        {"radius": 2, "connected": False, "overrules": 1},
        ("a1-b1", "a1-b2", "b1-b2", "d5-e5", "!a1-b2"),
    ),
    Diagram(
        "steal",
        {"radius": 2, "connected": False, "steal": True},
        _turns(_SIDE_TWO, ("b1-b2", "b2-c2", "b1-c2", "d5-e5", "e4-e5")),
    ),
    Diagram(
        "cover_bonus",
        {"radius": 2, "cover_bonus": True},
        _turns(
            ("a1-b1", "b1-b2", "a1-b2", "b1-c1", "c1-c2", "c2-c3", "b2-c3"),
            ("d5-e5", "d4-d5", "e4-e5", "c5-d5", "d4-e4", "c4-d4"),
        ),
    ),
)


class Vert3x(Game[Vert3xOptions]):
    info = VERT3X
    example = ({"radius": 2}, 10)
    #: Option sets the random-play test runs: each rule set, shapes and switches.
    random_play_cases = (
        {"rules": "classic", "radius": 2},
        {"rules": "classic", "shape": "triangle", "size": 3, "players": 3, "multiplier": True},
        {"rules": "classic", "shape": "parallelogram", "width": 3, "height": 2, "extra_turn": True},
        {"rules": "classic", "shape": "custom", "cells": ["a1-b2-a2", "a1-b1-b2", "b1-c2-b2"]},
        {"rules": "classic", "radius": 1, "connected": False, "lines_per_turn": 2},
        {"rules": "trianguliche"},
        {"rules": "trianguliche", "width": 1, "height": 2, "players": 3, "extra_turn": True},
        {"rules": "gyo", "size": 5},
        {"rules": "gyo", "size": 4, "players": 4, "no_cross": False, "connected": True},
        {"rules": "gyo", "size": 4, "vertex_block": True, "lines_per_turn": 3, "extra_turn": True},
        # a rule of one set on another's board
        {"rules": "classic", "radius": 2, "scoring": "units", "seal_scored": True},
        {"rules": "trianguliche", "scoring": "units", "line_points": True},
        {"rules": "gyo", "size": 4, "scoring": "outline", "multiplier": True, "claims": False},
    )
    diagrams = (
        # Classic: the first player (from start dot a1) closes a small triangle: 3 lines
        # (3 points) and its outline (3 more); the second player has 2 lines from e5.
        Diagram(
            "classic",
            {"rules": "classic", "radius": 2},
            ("a1-b1", "d5-e5", "b1-b2", "d4-d5", "a1-b2"),
        ),
        # Trianguliche: a 1× triangle (1 point) for the second player and a 2× triangle
        # (2 points) for the first; their dots are closed to the other player.
        Diagram(
            "trianguliche",
            {"rules": "trianguliche"},
            ("a1-b1", "d4-e4", "b1-c1", "e4-e5", "a1-b2", "d4-e5", "b2-c1"),
        ),
        # GYØ, the rulebook's worked example: D (second player) owns the middle unit of a
        # triangle with legs 2; T (first player) completes the big one and scores 3.
        Diagram(
            "gyo",
            {"rules": "gyo", "size": 4},
            (
                "a1-b1",
                "b1-b2",
                "b1-c1",
                "a2-b2",
                "b2-c1",
                "a2-b1",
                "a3-b2",
                "d3-d4",
                "a2-a3",
                "d2-d3",
                "a1-a2",
            ),
        ),
        *VARIATION_DIAGRAMS,
    )

    def __init__(self, options: Vert3xOptions) -> None:
        super().__init__(options)
        # build the board now (cached per board), and report a start dot off the board now
        self.geometry  # noqa: B018
        self.start_dots  # noqa: B018

    @property
    def seats(self) -> int:
        return self.options.players

    def move_catalogue(self) -> list[str]:
        names = list(self.geometry.board.line_names)
        return names + [f"!{n}" for n in names] if self.options.overrules else names

    @cached_property
    def variations(self) -> Variations:
        """The board's tables for the seed's other variations (RULES.md §2.0)."""
        return Variations(self.geometry)

    @cached_property
    def geometry(self) -> Geometry:
        o = self.options
        kind = o.rule_set.board
        if kind == "windows":
            assert o.width is not None and o.height is not None
            return window_geometry(o.width, o.height)
        if kind == "diagonal-grid":
            assert o.size is not None
            return diagonal_grid_geometry(o.size)
        if o.shape == "triangle":
            assert o.size is not None
            board = big_triangle_board(o.size)
        elif o.shape == "parallelogram":
            assert o.width is not None and o.height is not None
            board = parallelogram_board(o.width, o.height)
        elif o.shape == "custom":
            assert o.cells is not None
            board = custom_board(tuple(o.cells))
        else:
            assert o.radius is not None
            board = hexagon_board(o.radius)
        return triangular_geometry(board)

    @cached_property
    def scoring(self) -> Scoring:
        o = self.options
        units = Units.of(self.geometry) if o.scoring == "units" else None
        return Scoring(o.scoring, o.multiplier, o.line_points, o.claims, units)

    @cached_property
    def start_dots(self) -> tuple[int, ...] | None:
        """Each seat's start dot (dot index) when play is connected, else None."""
        o = self.options
        if not o.connected:
            return None
        geo = self.geometry
        if o.start == "auto":
            return spread(geo.outline, o.players)
        out = []
        for name in o.start:
            try:
                dot = geo.board.dot_index.get(parse_dot(name))
            except NotationError as exc:
                raise OptionsError(
                    f"bad options for vert3x: option 'start': {exc}",
                    "start",
                    "bad-dot",
                    {"dot": name},
                ) from None
            if dot is None:
                raise OptionsError(
                    f"bad options for vert3x: option 'start': there is no dot {name!r} "
                    "on this board",
                    "start",
                    "no-dot",
                    {"dot": name},
                )
            out.append(dot)
        return tuple(out)

    @cached_property
    def start_lines(self) -> tuple[int, ...]:
        """Per seat, the lines at its start dot (0 when play is not connected)."""
        if self.start_dots is None:
            return (0,) * self.seats
        return tuple(self.geometry.board.dot_lines[d] for d in self.start_dots)

    def start_names(self) -> list[str] | None:
        if self.start_dots is None:
            return None
        return [dot_name(*self.geometry.board.dots[d]) for d in self.start_dots]

    def initial_state(self, seed: int = 0) -> Vert3xState:
        return Vert3xState.start(self, seed)

"""Vert3x options: presets per rule set, every option overridable, clear errors."""

from __future__ import annotations

from typing import Any

import pytest

import vertex
from vertex import OptionsError


def opts(**options: Any) -> dict[str, Any]:
    return vertex.create_game("vert3x", **options).options_dict()


def test_presets() -> None:
    classic = opts()
    assert classic["rules"] == "classic" and classic["shape"] == "hexagon"
    assert (classic["radius"], classic["connected"], classic["no_cross"]) == (3, True, True)
    assert classic["vertex_block"] is False and classic["extra_turn"] is False
    tri = opts(rules="trianguliche")
    assert (tri["width"], tri["height"], tri["connected"], tri["vertex_block"]) == (
        2,
        2,
        False,
        True,
    )
    gyo = opts(rules="gyo")
    assert (gyo["size"], gyo["connected"], gyo["no_cross"], gyo["extra_turn"]) == (
        7,
        False,
        True,
        False,
    )


def test_every_option_overrides_its_preset() -> None:
    got = opts(
        rules="trianguliche",
        width=3,
        height=1,
        players=6,
        connected=True,
        start="auto",
        no_cross=False,
        vertex_block=False,
        extra_turn=True,
        lines_per_turn=3,
    )
    assert got["connected"] is True and got["vertex_block"] is False
    assert got["no_cross"] is False and got["extra_turn"] is True
    assert (got["players"], got["lines_per_turn"], got["width"], got["height"]) == (6, 3, 3, 1)
    assert opts(rules="gyo", connected=True, start=["a1", "c3"], size=3)["start"] == ["a1", "c3"]
    assert opts(multiplier=True, shape="parallelogram", width=2, height=5)["multiplier"] is True


def test_options_in_force_replay_to_the_same_game() -> None:
    game = vertex.create_game("vert3x", rules="gyo", size=6)
    again = vertex.create_game("vert3x", **game.options_dict())
    assert again == game


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"rules": "chess"}, "rules"),
        ({"players": 1}, "players"),
        ({"players": 7}, "players"),
        ({"radius": 9}, "'radius' for rules=classic shape=hexagon must be 1–8"),
        ({"radius": 0}, "must be 1–8"),
        ({"rules": "gyo", "size": 2}, "'size' for rules=gyo must be 3–30"),
        ({"rules": "gyo", "size": 31}, "3–30"),
        ({"rules": "gyo", "radius": 3}, "'radius' does not apply to rules=gyo"),
        ({"rules": "gyo", "shape": "hexagon"}, "'shape' is for rules=classic"),
        ({"rules": "trianguliche", "width": 9}, "1–8"),
        ({"shape": "triangle", "radius": 2}, "'radius' does not apply"),
        ({"shape": "custom"}, "needs 'cells'"),
        ({"shape": "custom", "cells": ["a1-b1-c1"]}, "not a small triangle"),
        ({"shape": "custom", "cells": ["a1-b2"]}, "three dot names"),
        ({"shape": "custom", "cells": ["b2-c3-b3"]}, "top row is 1"),
        ({"cells": ["a1-b2-a2"]}, "'cells' is for shape=custom"),
        ({"start": ["a1"]}, "one dot per seat"),
        ({"start": ["a1", "a1"]}, "same dot"),
        ({"start": ["a1", "z9"]}, "no dot 'z9'"),
        ({"start": ["a1", "1a"]}, "not a dot name"),
        ({"rules": "gyo", "start": ["a1", "b1"]}, "only matter when connected"),
        ({"rules": "gyo", "multiplier": True}, "'multiplier' is a classic"),
        ({"lines_per_turn": 0}, "lines_per_turn"),
        ({"no_cross": "yes"}, "no_cross"),
        ({"colour": "red"}, "unknown option 'colour'"),
    ],
)
def test_bad_options_are_explained(options: dict[str, Any], says: str) -> None:
    with pytest.raises(OptionsError, match=says):
        vertex.create_game("vert3x", **options)


def test_custom_board() -> None:
    game = vertex.create_game("vert3x", shape="custom", cells=["a1-b2-a2", "a1-b1-b2"])
    board = game.geometry.board  # type: ignore[attr-defined]
    assert (len(board.dots), len(board.lines), len(board.cells)) == (4, 5, 2)


def test_custom_boards_are_bounded_and_in_one_piece() -> None:
    with pytest.raises(OptionsError, match="at least 2 small triangles"):
        vertex.create_game("vert3x", shape="custom", cells=["a1-b2-a2"])
    many = [f"a{r}-b{r + 1}-a{r + 1}" for r in range(1, 10_001)]
    with pytest.raises(OptionsError, match="at most 384 small triangles") as err:
        vertex.create_game("vert3x", shape="custom", cells=many)
    assert err.value.option == "cells"
    with pytest.raises(OptionsError, match="in pieces — d1-e2-d2 does not touch") as err:
        vertex.create_game("vert3x", shape="custom", cells=["a1-b2-a2", "a1-b1-b2", "d1-e2-d2"])
    assert err.value.option == "cells"
    # joined at a dot is one piece: a1-b2-a2 and b2-c3-b3 meet at b2
    vertex.create_game("vert3x", shape="custom", cells=["a1-b2-a2", "b2-c3-b3"])
    game = vertex.create_game("vert3x", shape="custom", cells=["a1-b2-a2", "a1-b1-b2"])
    assert len(game.geometry.board.cells) == 2

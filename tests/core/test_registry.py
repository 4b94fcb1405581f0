"""The registry and list_games: every game with its options schema and defaults."""

from __future__ import annotations

import vertex
from vertex.core import game_ids


def test_list_games() -> None:
    games = {g["id"]: g for g in vertex.list_games()}
    assert set(games) == set(game_ids())
    boxes = games["dots-and-boxes"]
    assert boxes["name"] == "Dots and Boxes"
    assert boxes["defaults"] == {
        "rows": 3, "cols": 3, "players": 2, "misere": False, "border": False, "extra_turn": True,
    }  # fmt: skip
    props = boxes["options"]["properties"]
    assert props["rows"]["minimum"] == 1 and props["rows"]["maximum"] == 12
    assert boxes["options"]["additionalProperties"] is False
    assert games["figures"]["defaults"]["rows"] == 8
    assert games["dots-and-triangles"]["options"]["properties"]["shape"]["enum"] == [
        "triangle", "strip",
    ]  # fmt: skip
    for g in games.values():
        assert g["summary"] and g["name"]


def test_games_equal_by_options() -> None:
    a = vertex.create_game("dots-and-boxes", rows=2)
    assert a == vertex.create_game("dots-and-boxes", rows=2, cols=3)
    assert a != vertex.create_game("dots-and-boxes", rows=3)

"""Each Dots-family game names what a seat claims and counts (board view `unit`), so the page
says "wins by 3 boxes" in the game's own word without a list of game ids (issue 33, item 13)."""

from __future__ import annotations

import pytest

import vertex


@pytest.mark.parametrize(
    ("game", "options", "unit"),
    [
        ("dots-and-boxes", {}, "box"),
        ("dots-and-triangles", {}, "triangle"),
        ("dots-and-triangles", {"shape": "strip", "length": 3}, "triangle"),
        ("figures", {}, "figure"),
    ],
)
def test_the_board_view_names_the_unit(game: str, options: dict[str, object], unit: str) -> None:
    state = vertex.create_game(game, **options).initial_state(1)
    assert state.to_dict()["board"]["unit"] == unit
    after = state.play(state.legal_moves()[0])
    assert after.to_dict()["board"]["unit"] == unit

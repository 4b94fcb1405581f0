"""What the page and the terminal get: the board view and the text view."""

from __future__ import annotations

import json

from vertex.terminal.registry import render

from .helpers import card_off, new, play_planned_until


def test_board_view_has_what_the_3d_page_needs() -> None:
    state = play_planned_until(new(players=2, tremor_mm=0.45), 1, 3)
    state = state.play(card_off(state, 1), seat=1)  # type: ignore[assignment]
    d = state.to_dict()
    assert json.loads(json.dumps(d)) == d
    assert d["legal_moves"] is None and d["to_move"] == [0]
    board = d["board"]
    assert board["die"] == {"face": "S+M", "size": "L", "size_name": "large", "rolls": ["S+M"]}
    assert board["step_name"] == "card" and board["placed"] == [1]
    assert board["supply"] == {"S": 30, "M": 30, "L": 24}
    tower = board["towers"][0]
    assert set(tower) >= {"standing", "levels", "height_mm", "mulligan_used", "pieces", "keyframes"}
    piece = tower["pieces"][0]
    assert piece["kind"] == "L" and piece["level"] == 1
    assert len(piece["position_mm"]) == 3 and len(piece["quaternion"]) == 4
    frames = tower["keyframes"]
    assert frames["times"][0] == 0.0 and len(frames["frames"]) == len(frames["times"])
    assert all(len(f) == len(frames["pieces"]) for f in frames["frames"])
    assert all(len(p) == 7 for f in frames["frames"] for p in f)


def test_text_view_shows_towers_as_numbers() -> None:
    state = play_planned_until(new(players=1, tremor_mm=0.0), 2, 0)
    text = render(state)
    assert "level 2, pyramid 1 — die L: large pyramids" in text
    assert "seat 0: standing · levels 1 · height 44.75 mm" in text
    assert "level 2 builds on the level-1 card" in text
    assert "suggested for seat 0: pyramid x=" in text

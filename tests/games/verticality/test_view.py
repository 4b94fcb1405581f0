"""What the page and the terminal get: the board view and the text view."""

from __future__ import annotations

import json

from vertex.games.verticality.notation import make_aim
from vertex.games.verticality.plan import plan_aim
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


def test_a_recorded_fall_has_keyframes_30_a_second_of_simulated_time() -> None:
    # Seed 194, tremor 0: two planned levels, then a pyramid aimed 20 mm off the plan tips the
    # level-2 card over: a fall of some 0.65 s of simulated time.
    state = play_planned_until(new(players=1, tremor_mm=0.0), 3, 0)
    aim = plan_aim(state, 0)
    fell = state.play(str(make_aim("pyramid", aim.x + 20, aim.y, aim.rot)), seat=0)
    tower = fell.to_dict()["board"]["towers"][0]
    assert not tower["standing"] and "slid off" in tower["last_event"]
    times = tower["keyframes"]["times"]
    assert times[-1] > 0.5
    # frame k at k/30 s (to the 1 ms step), the last one where the simulation stopped
    assert times[:-1] == [round(k / 30, 3) for k in range(len(times) - 1)]
    assert 0 < times[-1] - times[-2] <= 1 / 30
    assert len(times) >= 30 * times[-1]
    # every frame has a pose for every body that moved (the page interpolates between them)
    frames = tower["keyframes"]["frames"]
    assert len(frames) == len(times) and all(
        len(f) == len(tower["keyframes"]["pieces"]) for f in frames
    )

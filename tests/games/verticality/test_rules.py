"""Verticality rules: the die, the supply, the touching rule, falls, mulligans and the winner."""

from __future__ import annotations

import copy

import pytest

from vertex.core.errors import IllegalMove, NotationError
from vertex.games.verticality import VerticalityState
from vertex.games.verticality.rules import FACE_SIZE, FACES, tremor
from vertex.games.verticality.tower import MM

from .helpers import SEED_LLMMS, card_off, new, planned, play_planned_until


def test_die_faces_and_the_third_size() -> None:
    assert FACES == ("S", "M", "L", "S+M", "S+L", "M+L")
    assert FACE_SIZE == {"S": "S", "M": "M", "L": "L", "S+M": "L", "S+L": "M", "M+L": "S"}


def test_the_die_picks_each_level_size() -> None:
    state = new(players=1, tremor_mm=0.0)
    assert state.rolls == ("S+M",) and state.size == "L"  # a two-size face: the third size
    sizes = []
    for level in range(1, 6):
        state = play_planned_until(state, level, 0)
        sizes.append(state.size)
    assert sizes == ["L", "L", "M", "M", "S"]


def test_a_planned_five_level_tower_stands_without_tremor() -> None:
    state = play_planned_until(new(players=1, tremor_mm=0.0), 6, 0)
    assert not state.is_over
    tower = state.towers[0]
    assert tower.standing and tower.levels == 5 and not tower.mulligan_used
    assert tower.lean() < 1.0
    # 2 × 44.45 + 2 × 34.93 + 25.40 mm of pyramids and five 0.3 mm cards
    assert tower.built / MM == pytest.approx(185.66, abs=0.5)
    assert state.supply == {"S": 27, "M": 24, "L": 24}
    board = state.to_dict()["board"]
    view = board["towers"][0]
    assert view["levels"] == 5 and view["standing"] and view["height_mm"] > 185
    assert [p["kind"] for p in view["pieces"][:4]] == ["L", "L", "L", "card"]
    assert len(view["pieces"][0]["position_mm"]) == 3 and len(view["pieces"][0]["quaternion"]) == 4


def test_a_card_off_its_pyramids_slides_then_the_mulligan_then_out() -> None:
    state = play_planned_until(new(players=1, tremor_mm=0.0), 1, 3)
    assert state.to_dict()["board"]["step_name"] == "card"
    slid = state.play(card_off(state, 0), seat=0)
    assert isinstance(slid, VerticalityState)
    tower = slid.towers[0]
    assert tower.standing and tower.mulligan_used and tower.levels == 0
    assert [p.kind for p in tower.pieces] == ["L", "L", "L"]  # the card is back in hand
    assert (slid.level, slid.step, slid.to_move) == (1, 3, (0,))  # place it again
    assert "mulligan" in slid.to_dict()["board"]["events"][0]
    again = slid.play(card_off(slid, 0), seat=0)
    assert again.is_over and not again.towers[0].standing  # type: ignore[attr-defined]
    assert "second time" in again.towers[0].last_event  # type: ignore[attr-defined]
    good = slid.play(planned(slid, 0), seat=0)
    assert good.towers[0].levels == 1 and good.level == 2  # type: ignore[attr-defined]


def test_touching_rule_and_skyscraper_style() -> None:
    state = play_planned_until(new(players=1, tremor_mm=0.0), 1, 1)
    far = "pyramid x=60 y=0 rot=0"
    with pytest.raises(IllegalMove, match="touching rule"):
        state.play(far, seat=0)
    sky = play_planned_until(new(players=1, tremor_mm=0.0, skyscraper=True), 1, 1)
    placed = sky.play(far, seat=0)
    assert len(placed.towers[0].pieces) == 2  # type: ignore[attr-defined]


def test_refused_aims_change_nothing() -> None:
    state = play_planned_until(new(players=1, tremor_mm=0.0), 2, 0)
    before, history = state.to_dict(), list(state.history)
    for move, reason in [
        ("pyramid x=60 y=0 rot=0", "lower level"),  # off the level-1 card
        ("card x=0 y=0 rot=0", "not a card"),
        ("pyramid x=0", "lacks y"),
        ("pyramid x=0 y=200", "off your base"),
        ("tower x=0 y=0", "names the piece"),
        ("pyramid x=0 y=0 haste=2", "haste"),
    ]:
        with pytest.raises(IllegalMove, match=reason):
            state.play(move, seat=0)
    assert state.to_dict() == before and list(state.history) == history and len(history) > 0


def test_nudging_pushes_a_piece_and_deep_aims_are_refused() -> None:
    state = play_planned_until(new(players=1, tremor_mm=0.0), 1, 1)
    first = state.towers[0].pieces[0].pose
    fx, fy = first[0] / MM, first[1] / MM
    with pytest.raises(IllegalMove, match="pass through"):
        state.play(f"pyramid x={fx + 15:.2f} y={fy:.2f} rot=0", seat=0)
    nudged = state.play(f"pyramid x={fx + 23.4:.2f} y={fy:.2f} rot=0", seat=0)  # 2 mm in
    moved = nudged.towers[0].pieces[0].pose  # type: ignore[attr-defined]
    assert moved[0] / MM < fx - 0.2  # pushed aside
    assert nudged.towers[0].standing  # type: ignore[attr-defined]


def test_steps_wait_for_every_standing_player() -> None:
    state = new(players=3, tremor_mm=0.0)
    assert state.to_move == (0, 1, 2) and state.legal_moves() is None
    after = state.play(planned(state, 1), seat=1)
    assert after.to_move == (0, 2)
    assert all(not t.pieces for t in after.towers)  # type: ignore[attr-defined]
    with pytest.raises(IllegalMove, match="not seat 1's turn"):
        after.play(planned(state, 1), seat=1)
    after = after.play(planned(state, 2), seat=2)
    after = after.play(planned(state, 0), seat=0)
    assert after.to_move == (0, 1, 2) and after.step == 1  # type: ignore[attr-defined]
    assert all(len(t.pieces) == 1 for t in after.towers)  # type: ignore[attr-defined]


def test_supply_rerolls_and_pieces_coming_back() -> None:
    state = new(players=6, tremor_mm=0.0)
    assert state.size == "L"
    state = play_planned_until(state, 2, 0)
    assert state.supply == {"S": 30, "M": 30, "L": 12}  # 6 players × 3 large
    # level 2: the die shows L first, but 12 < 3 × 6 large are left: rolled again
    assert state.level == 2 and state.rolls == ("L", "S+L") and state.size == "M"
    state = play_planned_until(state, 2, 3)
    assert state.supply == {"S": 30, "M": 12, "L": 12}
    # seat 5's card slides twice; the others wait for its second try
    for seat in range(5):
        state = state.play(planned(state, seat), seat=seat)  # type: ignore[assignment]
    state = state.play(card_off(state, 5), seat=5)  # type: ignore[assignment]
    assert state.to_move == (5,) and state.towers[5].mulligan_used and state.step == 3
    state = state.play(card_off(state, 5), seat=5)  # type: ignore[assignment]
    assert not state.towers[5].standing
    # its three large and three medium pyramids are back; level 3 has five builders
    assert state.supply == {"S": 30, "M": 15, "L": 15}
    assert state.level == 3 and state.to_move == (0, 1, 2, 3, 4)


def test_the_tie_break_when_all_remaining_towers_fall_together() -> None:
    for first, winner in ((1, 1), (0, 0)):
        state = play_planned_until(new(players=2, tremor_mm=0.0), 1, 3)
        other = 1 - first
        state = state.play(card_off(state, first), seat=first)  # type: ignore[assignment]
        state = state.play(card_off(state, other), seat=other)  # type: ignore[assignment]
        assert state.to_move == (0, 1)  # both use their mulligan
        state = state.play(card_off(state, other), seat=other)  # type: ignore[assignment]
        state = state.play(card_off(state, first), seat=first)  # type: ignore[assignment]
        assert state.is_over and state.winners == (winner,)


def test_last_tower_standing_wins() -> None:
    state = play_planned_until(new(players=2, tremor_mm=0.0), 1, 3)
    state = state.play(planned(state, 0), seat=0)  # type: ignore[assignment]
    state = state.play(card_off(state, 1), seat=1)  # type: ignore[assignment]
    state = state.play(card_off(state, 1), seat=1)  # type: ignore[assignment]
    assert state.is_over and state.winners == (0,)
    assert state.scores == (1.0, 0.0)


def test_solo_style_result() -> None:
    state = play_planned_until(new(players=1, tremor_mm=0.0), 3, 3)
    state = state.play(card_off(state, 0), seat=0)  # type: ignore[assignment]
    state = state.play(card_off(state, 0), seat=0)  # type: ignore[assignment]
    assert state.is_over and state.winners == ()  # solo has no winner (issue 33, item 15)
    result = state.result()
    assert result["solo"] is True and result["levels"] == [2]
    # the height reached: two large levels, two cards and the medium pyramids of level 3
    assert result["height_mm"][0] == pytest.approx(2 * 44.45 + 34.93 + 0.6, abs=0.1)


def test_tremor_is_seeded_by_table_seat_and_step_and_scaled_by_haste() -> None:
    calm = tremor(7, 0, 3, 0.45, 0.0)
    assert calm == tremor(7, 0, 3, 0.45, 0.0)
    assert calm != tremor(7, 1, 3, 0.45, 0.0) and calm != tremor(7, 0, 4, 0.45, 0.0)
    rushed = tremor(7, 0, 3, 0.45, 1.0)
    assert rushed == pytest.approx(tuple(2 * v for v in calm))
    assert tremor(7, 0, 3, 0.0, 1.0) == (0.0, 0.0, 0.0)
    xs = [tremor(1, 0, step, 0.45, 0.0)[0] for step in range(4000)]
    mean = sum(xs) / len(xs)
    sigma = (sum((x - mean) ** 2 for x in xs) / len(xs)) ** 0.5
    assert abs(mean) < 0.03 and sigma == pytest.approx(0.45, rel=0.05)


def test_notation_is_canonical() -> None:
    state = new(players=1, tremor_mm=0.0)
    after = state.play("PYRAMID  y=-3.004 rot=390 x=12.5", seat=0)
    assert after.history == ((0, "pyramid x=12.5 y=-3 rot=30"),)
    with pytest.raises(NotationError):
        state.play("pyramid x=1 x=2 y=0", seat=0)
    schema = state.game.move_schema()
    assert "pyramid x=<mm>" in schema["description"] and schema["type"] == "string"
    assert SEED_LLMMS == 194


def test_natural_forces_shake_the_table_when_the_supply_is_used_up() -> None:
    state = play_planned_until(new(players=2, tremor_mm=0.45, seed=5), 1, 3)
    # As if the supply were nearly gone: no size has 3 pyramids for each of 2 builders.
    short = copy.copy(state)
    short.supply = {"S": 2, "M": 1, "L": 0}
    for seat in (0, 1):
        short = short.play(planned(short, seat), seat=seat)  # type: ignore[assignment]
    assert short.shakes >= 1
    events = " ".join(short.events)
    assert "shaken at" in events
    fallen = [s for s, t in enumerate(short.towers) if not t.standing]
    assert fallen  # shaking went on until a tower fell
    if short.is_over:
        assert len(short.winners) == 1
    else:
        assert short.level == 2 and short.supply[short.size] >= 3


def test_an_aim_3_mm_from_touching_snaps_against_its_neighbour_and_is_played() -> None:
    from vertex.physics import yaw_pose
    from vertex.physics.geometry import gap, pyramid_footprint

    state = play_planned_until(new(players=1, tremor_mm=0.0), 1, 1)
    first = state.towers[0].pieces[0]
    fx, fy = first.pose[0] / MM, first.pose[1] / MM
    # an L pyramid beside an L one, straight along x: touching at 44.45 mm apart (rot 0)
    base = pyramid_footprint(first.kind, yaw_pose(0.0, 0.0, 0.0, 0.0))
    side = (max(p[0] for p in base) - min(p[0] for p in base)) / MM
    rot = round(first_yaw(first.pose), 2)
    aim = f"pyramid x={fx + side + 3:.2f} y={fy:.2f} rot={rot}"  # 3 mm short of touching
    snapped = state.check_aim(aim, 0)
    assert snapped != aim and snapped.startswith("pyramid ")
    x = float(snapped.split("x=")[1].split()[0])
    y = float(snapped.split("y=")[1].split()[0])
    foot = pyramid_footprint(state.size, yaw_pose(x * MM, y * MM, 0.0, rot))
    between = gap(foot, pyramid_footprint(first.kind, first.pose)) / MM
    assert 0.4 < between < 0.6  # against it, inside the 1 mm touching tolerance
    assert y == pytest.approx(fy, abs=0.05)  # moved straight towards it, not sideways
    played = state.play(aim, seat=0)
    assert played.history[-1] == (0, snapped)  # type: ignore[attr-defined]
    assert len(played.towers[0].pieces) == 2  # type: ignore[attr-defined]
    # 8 mm short is too far for a hand's nudge: refused, saying by how much, rounded up
    with pytest.raises(IllegalMove, match="touching rule") as err:
        state.check_aim(f"pyramid x={fx + side + 8:.2f} y={fy:.2f} rot={rot}", 0)
    assert err.value.params["gap_mm"] == pytest.approx(8.0, abs=0.11)


def first_yaw(pose: tuple[float, ...]) -> float:
    from vertex.physics.geometry import yaw_deg

    return yaw_deg(pose) % 90

"""Static stability: the simulated world holds and tips where a real table's statics says.

A card resting on three pyramid tips stands while the centre of mass of everything it carries
(itself included) lies inside the triangle of the tips; it tips once the centre of mass crosses
an edge. Friction holds a piece on a slope up to tan θ = μ, without creeping before. The numbers
below are computed by hand from the real sizes and masses, then simulated.
"""

from __future__ import annotations

import math

import mujoco
import numpy as np
import pytest

from vertex.physics import PYRAMIDS, settle, tilt_deg, yaw_pose
from vertex.physics.geometry import apex, card_top_z
from vertex.physics.pieces import CARD_MASS, CARD_THICKNESS
from vertex.physics.world import model_xml

MM = 1e-3
#: Small pyramids of the level below, a tight triangle 0.3 mm apart: b is the spacing.
B = PYRAMIDS["S"].base / MM + 0.3  # 14.59 mm
#: The tips: (±b/2, −b/3) and (0, 2b/3). From the triangle's centre, the edge is b/3 away
#: towards +x (the edge from (b/2, −b/3) to (0, 2b/3) crosses y = 0 at x = b/3) and towards −y
#: (the edge y = −b/3); the vertex is 2b/3 away towards +y.
EDGE = B / 3  # 4.863 mm
VERTEX = 2 * B / 3  # 9.727 mm
#: Three large pyramids (3 × 4.4 g) on the card (1.75 g, at the centre): their centre of mass
#: may go d = boundary × (13.2 + 1.75) / 13.2 from the centre before the card tips.
LOAD_G = 3 * PYRAMIDS["L"].mass * 1e3
CARD_G = CARD_MASS * 1e3
SCALE = (LOAD_G + CARD_G) / LOAD_G


def card_on_small_tips() -> tuple[list[str], list]:
    kinds = ["S", "S", "S"]
    poses = [yaw_pose(x * MM, y * MM, 0.0, 0.0) for x, y in ((-B / 2, -B / 3), (B / 2, -B / 3))]
    poses.append(yaw_pose(0.0, VERTEX * MM, 0.0, 0.0))
    poses = list(settle(kinds, poses).poses)
    top = max(apex("S", p)[2] for p in poses)
    kinds.append("card")
    poses.append(yaw_pose(0.0, 0.0, top + CARD_THICKNESS / 2, 0.0))
    return kinds, list(settle(kinds, poses).poses)


def three_large_stand(base: tuple[list[str], list], d_mm: float, towards_deg: float) -> bool:
    """Three large pyramids in a tight triangle, its centre d_mm from the card's centre."""
    kinds, poses = base
    b = PYRAMIDS["L"].base + 0.3 * MM
    t = math.radians(towards_deg)
    cx, cy = d_mm * MM * math.cos(t), d_mm * MM * math.sin(t)
    z = card_top_z(poses[-1], cx, cy)
    load = [yaw_pose(cx + x, cy + y, z, 0.0) for x, y in ((-b / 2, -b / 3), (b / 2, -b / 3))]
    load.append(yaw_pose(cx, cy + 2 * b / 3, z, 0.0))
    result = settle([*kinds, "L", "L", "L"], [*poses, *load])
    return not result.fell and tilt_deg(result.poses[3]) < 5.0


def test_the_hand_computation() -> None:
    assert pytest.approx(4.863, abs=1e-3) == EDGE and pytest.approx(9.727, abs=1e-3) == VERTEX
    assert pytest.approx(5.508, abs=1e-3) == EDGE * SCALE
    assert pytest.approx(11.016, abs=1e-3) == VERTEX * SCALE


@pytest.mark.parametrize(
    ("towards_deg", "boundary"), [(0.0, EDGE), (270.0, EDGE), (90.0, VERTEX)], ids=str
)
def test_a_card_on_three_tips_tips_where_statics_says(towards_deg: float, boundary: float) -> None:
    base = card_on_small_tips()
    assert tilt_deg(base[1][-1]) < 0.01
    limit = boundary * SCALE
    assert three_large_stand(base, 0.0, towards_deg)  # centred: a real table holds it
    assert three_large_stand(base, 0.97 * limit, towards_deg)
    assert not three_large_stand(base, 1.03 * limit, towards_deg)


def slope_model(kinds: tuple[str, ...], degrees: float) -> tuple[object, object]:
    model = mujoco.MjModel.from_xml_string(model_xml(kinds))
    t = math.radians(degrees)
    model.opt.gravity[:] = (9.81 * math.sin(t), 0.0, -9.81 * math.cos(t))
    return model, mujoco.MjData(model)


def slip_on_slope(degrees: float, seconds: float = 0.5) -> float:
    """How far (mm) a small pyramid slips on a card lying on a table tilted `degrees`."""
    model, data = slope_model(("card", "S"), degrees)
    poses = [yaw_pose(0, 0, CARD_THICKNESS / 2, 0), yaw_pose(0, 0, CARD_THICKNESS, 0)]
    data.qpos[:] = np.array(poses).reshape(-1)  # type: ignore[attr-defined]
    mujoco.mj_step(model, data, nstep=round(seconds / 0.001))
    return float(data.qpos[7] - data.qpos[0]) / MM  # type: ignore[attr-defined]


def test_friction_of_plastic_on_card_holds_up_to_its_angle() -> None:
    # μ = 0.4 (the larger of the pyramid's 0.4 and the card's 0.35): tan θ = 0.4 at 21.8°.
    # Paper on hard materials measures 0.28–0.49 by the same tilting test.
    assert math.degrees(math.atan(0.4)) == pytest.approx(21.8, abs=0.05)
    # Simulated: a few hundredths of a millimetre of creep well below the angle, slipping
    # between 20° and 23°, that is μ within 0.36–0.42.
    assert slip_on_slope(15.0) < 0.05
    assert slip_on_slope(20.0) < 0.4
    assert slip_on_slope(23.0) > 5.0


def creep_on_tips(load_g: float, lean_deg: float, seconds: float) -> float:
    """How far (mm) a card on three small tips slides over them in `seconds`, carrying a large
    pyramid made to weigh `load_g` grams, on a table leaning `lean_deg` (after a settle)."""
    b = PYRAMIDS["S"].base + 0.3 * MM
    h = PYRAMIDS["S"].height
    kinds = ("S", "S", "S", "card", "L")
    tips = [yaw_pose(x, y, 0, 0) for x, y in ((-b / 2, -b / 3), (b / 2, -b / 3), (0, 2 * b / 3))]
    top = [yaw_pose(0, 0, h + CARD_THICKNESS / 2, 0), yaw_pose(0, 0, h + CARD_THICKNESS, 0)]
    model, data = slope_model(kinds, 0.0)
    scale = load_g * 1e-3 / model.body_mass[5]  # type: ignore[attr-defined]
    model.body_mass[5] *= scale  # type: ignore[attr-defined]
    model.body_inertia[5] *= scale  # type: ignore[attr-defined]
    data.qpos[:] = np.array(tips + top).reshape(-1)  # type: ignore[attr-defined]
    mujoco.mj_step(model, data, nstep=300)
    t = math.radians(lean_deg)
    model.opt.gravity[:] = (9.81 * math.sin(t), 0.0, -9.81 * math.cos(t))  # type: ignore[attr-defined]
    mujoco.mj_step(model, data, nstep=200)
    before = float(data.qpos[21] - data.qpos[0])  # type: ignore[attr-defined]
    mujoco.mj_step(model, data, nstep=round(seconds / 0.001))
    return (float(data.qpos[21] - data.qpos[0]) - before) / MM  # type: ignore[attr-defined]


def test_a_card_on_tips_does_not_creep_under_a_slight_lean() -> None:
    """A lean of 2° pushes the card along its tips with 3.5 % of its weight, a tenth of what
    friction holds: a real card does not move. Soft contacts creep: 0.11 mm/s with the first
    contact settings, 0.021 mm/s with the stiffer contacts, 0.002 mm/s with friction stiffer
    than the normal (physics/world.py IMPRATIO)."""
    assert abs(creep_on_tips(PYRAMIDS["L"].mass * 1e3, 2.0, 2.0)) < 0.01


def test_a_card_under_a_tall_towers_load_does_not_creep() -> None:
    """A 20-level tower weighs about 200 g (levels of 8.5 g of pyramids and a 1.75 g card). A
    card low in it, on tips, leaning 0.5° (tangential/normal 0.009, where friction holds up to
    0.4) must not move: under that load the creep was 0.35 mm in 2 s, which added up over a
    tall tower's placements until a card slid off; it is now under 0.05 mm. Friction still
    lets go where it should: past tan θ = μ (25°) the card slides off, loaded or not."""
    assert abs(creep_on_tips(200.0, 0.5, 2.0)) < 0.05
    assert abs(creep_on_tips(200.0, 2.0, 2.0)) < 0.2
    assert creep_on_tips(200.0, 25.0, 1.0) > 50.0
    assert creep_on_tips(PYRAMIDS["L"].mass * 1e3, 25.0, 1.0) > 50.0


def leaning_stack(levels: int, shift_mm: float) -> tuple[list[str], list]:
    """Medium tight triangles, each level shifted `shift_mm` along +x from the one below."""
    spec = PYRAMIDS["M"]
    b = spec.base + 0.3 * MM
    kinds: list[str] = []
    poses: list = []
    z = 0.0
    for k in range(levels):
        ox = k * shift_mm * MM
        for x, y in ((-b / 2, -b / 3), (b / 2, -b / 3), (0.0, 2 * b / 3)):
            kinds.append("M")
            poses.append(yaw_pose(ox + x, y, z, 0.0))
        z += spec.height
        kinds.append("card")
        poses.append(yaw_pose(ox, 0.0, z + CARD_THICKNESS / 2, 0.0))
        z += CARD_THICKNESS
    return kinds, poses


def leaning_limit(levels: int) -> float:
    """The shift (mm) at which the level-1 card's load reaches the edge of its tips.

    Card k (0-based) carries itself and levels k+1…; each level weighs 3 × 2.7 + 1.75 g and
    sits k × shift further out, so the load's centre of mass is (levels − 1) / 2 × shift × w
    from the card's own centre, w = the upper levels' share of the weight. The edge is b/3 away
    along +x (as for the small triangle above).
    """
    b = PYRAMIDS["M"].base / MM + 0.3
    level_g = 3 * PYRAMIDS["M"].mass * 1e3 + CARD_G
    upper = (levels - 1) * level_g
    # centre of mass of the upper levels: mean of shifts 1..levels-1 = levels / 2 × shift
    return (b / 3) * (upper + CARD_G) / (upper * levels / 2)


def test_a_leaning_tower_stands_as_long_as_statics_says() -> None:
    levels = 8
    limit = leaning_limit(levels)
    assert limit == pytest.approx(1.72, abs=0.01)
    kinds, poses = leaning_stack(levels, 0.85 * limit)
    held = settle(kinds, poses)
    assert not held.fell and max(tilt_deg(p) for p in held.poses) < 0.2
    kinds, poses = leaning_stack(levels, 1.05 * limit)
    assert settle(kinds, poses).fell

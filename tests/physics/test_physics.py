"""The MuJoCo world: real sizes and masses, settling, keyframes, shaking and determinism."""

from __future__ import annotations

import json
import subprocess
import sys

import mujoco
import pytest

from vertex.physics import CAP_S, PYRAMIDS, TIMESTEP, build_model, settle, tilt_deg, yaw_pose
from vertex.physics.geometry import (
    apex,
    card_top_z,
    gap,
    penetration,
    pyramid_footprint,
    yaw_deg,
)
from vertex.physics.pieces import CARD_MASS, CARD_THICKNESS, shell_inertia

MM = 1e-3


def planned_tower(sizes: list[str], card_off_mm: float = 0.0) -> tuple[list[str], list]:
    """Build a tower piece by piece the way a careful player would; the top card may be off."""
    kinds: list[str] = []
    poses: list = []
    surface = 0.0
    for n, size in enumerate(sizes):
        b = PYRAMIDS[size].base
        for x, y in ((-b / 2, -b / 3), (b / 2, -b / 3), (0.0, 2 * b / 3)):
            kinds.append(size)
            poses.append(yaw_pose(x, y, surface + MM, 0.0))
            poses = list(settle(kinds, poses).poses)
        top = max(apex(k, p)[2] for k, p in zip(kinds[-3:], poses[-3:], strict=True))
        off = card_off_mm * MM if n == len(sizes) - 1 else 0.0
        kinds.append("card")
        poses.append(yaw_pose(off, 0.0, top + CARD_THICKNESS / 2 + MM, 0.0))
        poses = list(settle(kinds, poses).poses)
        surface = card_top_z(poses[-1], 0.0, 0.0)
    return kinds, poses


def test_model_has_real_sizes_masses_and_a_small_step() -> None:
    model = build_model(("S", "M", "L", "card"))
    assert model.opt.timestep <= 0.001
    assert TIMESTEP <= 0.001 and CAP_S == 3.0
    masses = [round(float(m), 6) for m in model.body_mass[1:]]
    assert masses == [0.0014, 0.0027, 0.0044, 0.00175]
    assert [model.geom_type[i] for i in range(1, 5)] == [
        mujoco.mjtGeom.mjGEOM_MESH,
        mujoco.mjtGeom.mjGEOM_MESH,
        mujoco.mjtGeom.mjGEOM_MESH,
        mujoco.mjtGeom.mjGEOM_BOX,
    ]
    # the card: 63.5 × 88.9 × 0.3 mm
    assert [round(float(v) * 2 / MM, 3) for v in model.geom_size[4]] == [63.5, 88.9, 0.3]
    # a large pyramid's mesh spans its 25.40 mm base and 44.45 mm height
    verts = model.mesh_vert[model.mesh_vertadr[2] : model.mesh_vertadr[2] + 5]
    assert round(float(verts[:, 0].max() - verts[:, 0].min()) / MM, 2) == 25.40
    assert round(float(verts[:, 2].max() - verts[:, 2].min()) / MM, 2) == 44.45
    assert CARD_MASS == 1.75e-3


def test_hollow_pyramids_carry_their_mass_at_a_third_of_the_height() -> None:
    for size, spec in PYRAMIDS.items():
        com, moments = shell_inertia(size)
        assert com[0] == pytest.approx(0.0, abs=1e-12)
        assert com[2] == pytest.approx(spec.height / 3, rel=1e-9)
        assert moments[0] == pytest.approx(moments[1], rel=1e-9)
        assert all(m > 0 for m in moments)
    # model picks it up: body_ipos is the centre of mass
    model = build_model(("L",))
    assert float(model.body_ipos[1][2]) == pytest.approx(44.45e-3 / 3, rel=1e-6)


def test_a_pyramid_dropped_on_the_table_rests_upright_quickly() -> None:
    result = settle(["M"], [yaw_pose(0.01, -0.02, MM, 30.0)])
    assert result.at_rest and not result.fell
    assert result.time < 0.2
    pose = result.poses[0]
    assert abs(pose[2]) < 0.05 * MM  # down on the table (soft contact: microns)
    assert pose[0] == pytest.approx(0.01, abs=0.01 * MM)
    assert tilt_deg(pose) < 0.1
    assert yaw_deg(pose) == pytest.approx(30.0, abs=0.1)
    frames = result.keyframes
    assert frames.times[0] == 0.0 and frames.times[-1] == pytest.approx(result.time)
    assert frames.bodies == (0,)
    assert len(frames.poses) == len(frames.times)


def test_a_planned_five_level_tower_stands() -> None:
    kinds, poses = planned_tower(["L", "L", "M", "M", "S"])
    assert len(kinds) == 20
    assert max(tilt_deg(p) for p in poses) < 1.0
    # the height adds up: 2 × 44.45 + 2 × 34.93 + 25.40 + 5 cards of 0.3 mm ≈ 185.7 mm
    assert card_top_z(poses[-1], 0, 0) / MM == pytest.approx(185.66, abs=0.3)
    again = settle(kinds, poses)  # rebuilt from settled poses: nothing moves
    assert again.at_rest
    pairs = zip(poses, again.poses, strict=True)
    moved = max(abs(a - b) for p, q in pairs for a, b in zip(p, q, strict=True))
    assert moved < 0.01 * MM


def test_a_card_aimed_40_mm_off_slides_to_the_table() -> None:
    _, poses = planned_tower(["L"], card_off_mm=40.0)
    assert card_top_z(poses[-1], 0, 0) < 5 * MM or tilt_deg(poses[-1]) > 15
    assert max(tilt_deg(p) for p in poses[:3]) < 5  # the pyramids stay put


def test_a_settle_stops_at_the_cap_or_soon_after_a_fall() -> None:
    # a large pyramid balanced on its tip falls over
    upside = (0.0, 0.0, 44.45e-3 + MM, 0.0, 1.0, 0.0, 0.0)
    result = settle(["L"], [upside])
    assert result.fell and result.time <= CAP_S
    assert result.keyframes.bodies == (0,)


def test_a_trial_settle_gives_up_as_soon_as_the_tower_comes_down() -> None:
    # A large pyramid dropped 20 mm off the middle of a two-level tower's top card tips it:
    # watched to a trial's 0.5 s cap, the pieces below move 80 mm; a trial (give_up_mm) needs
    # only the verdict and stops once a piece below has moved 3 mm. A drop that stands (the
    # middle) is the same settle with or without it, pose for pose.
    kinds, poses = planned_tower(["L", "L"])
    for off_mm, falls in ((20.0, True), (0.0, False)):
        x = off_mm * MM
        drop = yaw_pose(x, 0.0, card_top_z(poses[-1], x, 0.0) + MM, 0.0)
        watched = settle([*kinds, "L"], [*poses, drop], cap_s=0.5)
        trial = settle([*kinds, "L"], [*poses, drop], cap_s=0.5, give_up_mm=3.0)
        assert trial.gave_up is falls and not watched.gave_up
        if falls:
            assert watched.fell and watched.time == pytest.approx(0.5)
            assert trial.time == pytest.approx(0.08)
        else:
            assert watched.at_rest and trial.poses == watched.poses
            assert trial.time == watched.time == pytest.approx(0.055)


def test_shaking_brings_a_tower_down() -> None:
    kinds, poses = planned_tower(["L", "S"])
    calm = settle(kinds, poses, shake=0.5)
    assert not calm.fell
    hard = settle(kinds, poses, shake=15.0)
    assert hard.fell


def test_footprint_geometry() -> None:
    b = PYRAMIDS["L"].base
    a = pyramid_footprint("L", yaw_pose(0, 0, 0, 0))
    near = pyramid_footprint("L", yaw_pose(b + 0.5 * MM, 0, 0, 0))
    into = pyramid_footprint("L", yaw_pose(b - 3 * MM, 0, 0, 0))
    turned = pyramid_footprint("L", yaw_pose(0, b / 2 + b / 2**0.5 + 0.7 * MM, 0, 45))
    assert gap(a, near) == pytest.approx(0.5 * MM)
    assert gap(a, into) == 0.0 and penetration(a, into) == pytest.approx(3 * MM)
    assert penetration(a, near) == 0.0
    # a square turned 45° reaches b/√2 from its centre: its tip stops 0.7 mm short
    assert gap(a, turned) == pytest.approx(0.7 * MM, rel=1e-6)


SCRIPT = """
import json, sys
sys.path.insert(0, {src!r})
from tests.physics.test_physics import planned_tower
kinds, poses = planned_tower(["L", "M", "S"], card_off_mm=12.0)
print(json.dumps([[x.hex() for x in p] for p in poses]))
"""


def test_bit_identical_in_one_process_and_across_processes() -> None:
    first = planned_tower(["L", "M", "S"], card_off_mm=12.0)[1]
    second = planned_tower(["L", "M", "S"], card_off_mm=12.0)[1]
    assert first == second  # float equality, piece by piece: bit for bit
    mine = [[x.hex() for x in p] for p in first]
    import pathlib

    root = str(pathlib.Path(__file__).resolve().parents[2])
    outputs = []
    for _ in range(2):
        done = subprocess.run(
            [sys.executable, "-c", SCRIPT.format(src=root)],
            capture_output=True,
            text=True,
            check=True,
            cwd=root,
        )
        outputs.append(json.loads(done.stdout))
    assert outputs[0] == outputs[1] == mine

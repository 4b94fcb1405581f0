"""The MuJoCo world of one tower: build it from poses, let it settle, read the poses back.

The game keeps nothing but poses. Each placement builds a model holding the pieces of one tower
(compiled models are cached by the list of piece kinds: a model does not depend on the poses),
writes the poses straight into qpos (bit for bit, no text round trip), steps until every body is
at rest or 3 s have passed, and returns the new poses with keyframes of the settle. A fresh
MjData each time and a single thread make the result a pure function of the input.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import mujoco
import numpy as np

from vertex.physics.geometry import Pose
from vertex.physics.pieces import (
    CARD_LENGTH,
    CARD_MASS,
    CARD_THICKNESS,
    CARD_WIDTH,
    PYRAMIDS,
    SIZES,
    Kind,
    shell_inertia,
)

#: Simulation step (s). Contacts use a 4 ms time constant, at least twice the step, as MuJoCo
#: advises; 1 ms keeps a 1 mm drop to 0.14 mm per step, under half a card's thickness.
TIMESTEP = 0.001
#: Longest settle (s of simulated time).
CAP_S = 3.0
#: At rest: every body slower than these for REST_S in a row.
REST_LINEAR = 1e-3  # m/s
REST_ANGULAR = 0.05  # rad/s
REST_S = 0.02
#: Checks happen every CHUNK steps (one Python round trip per chunk).
CHUNK = 5
#: Keyframes per simulated second.
FPS = 30
#: Once a pyramid tips past this, the tower is down; simulate FALL_GRACE_S more for the
#: animation and stop (the pieces go back to the supply, so where they end does not matter).
FALL_TILT_DEG = 25.0
FALL_GRACE_S = 0.6
#: Shaking ("natural forces"): a horizontal swaying of the table for SHAKE_S seconds.
SHAKE_S = 1.0
SHAKE_HZ = 4.0

#: Contact softness. MuJoCo's soft contacts let a body slip under any tangential force, as if
#: friction were a stiff damper: with impedance 0.95–0.99 a card on three tips crept 0.027 mm/s
#: under a 0.5° lean (tangential/normal 0.009, where friction 0.4 holds outright), and a tower
#: whose every card had its load 2.7 mm inside its tips slid apart over two seconds. Impedance
#: 0.99–0.999 cuts the creep fivefold and the sinking of a tip under a 10-level tower from
#: 0.020 to 0.004 mm; the statics stay exact (tests/physics/test_stability.py, bench/RESULTS.md).
SOLIMP = "0.99 0.999 0.0005"
SOLREF = "0.004 1"
#: Friction's impedance over the normal's. Even so, a lower card's tips crept under a 20-level
#: load (0.02 mm/s, adding up to millimetres over a tall tower's placements), and the settle
#: after a drop never came to rest. Stiffer friction (10× the normal's) stops the creep: a
#: loaded card on tips holds still, and a drop rests sooner. The friction coefficients and the
#: tipping points are unchanged (tests/physics/test_stability.py). MuJoCo's no-slip pass
#: (`noslip_iterations`) stopped the creep too but left a tall tower chattering (mm/s, contacts
#: making and breaking) to the 3 s cap.
IMPRATIO = 10

PYRAMID_FRICTION = "0.4 0.005 0.0001"
CARD_FRICTION = "0.35 0.005 0.0001"
TABLE_FRICTION = "0.5 0.005 0.0001"


@dataclass(frozen=True, slots=True)
class Keyframes:
    """The motion of a settle, sampled FPS times a second: only the bodies that moved."""

    times: tuple[float, ...]
    bodies: tuple[int, ...]
    poses: tuple[tuple[Pose, ...], ...]  # poses[frame][k] is body bodies[k]


@dataclass(frozen=True, slots=True)
class Settle:
    poses: tuple[Pose, ...]
    keyframes: Keyframes
    time: float  # simulated seconds
    at_rest: bool
    fell: bool  # a pyramid tipped past FALL_TILT_DEG (the settle stopped early)
    #: Stopped as soon as the tower was seen coming down (`give_up_mm`): a trial's verdict.
    gave_up: bool = False


def settle(
    kinds: Sequence[Kind],
    poses: Sequence[Pose],
    shake: float = 0.0,
    cap_s: float = CAP_S,
    give_up_mm: float | None = None,
) -> Settle:
    """Simulate the pieces from `poses` until they rest; `shake` (m/s²) sways the table first.
    `cap_s` shortens the longest settle (a player's trial drop need not watch a slow fall to
    its end). With `give_up_mm`, stop (`gave_up`) as soon as a piece other than the last (the
    one dropped) has moved that far, or a pyramid has tipped: a trial needs only the verdict,
    and a tall tower coming down costs seconds of CPU to simulate (bench/RESULTS.md)."""
    if len(kinds) != len(poses):
        raise ValueError("one pose per piece")
    if not kinds:
        return Settle((), Keyframes((0.0,), (), ((),)), 0.0, True, False)
    model = build_model(tuple(kinds))
    data = mujoco.MjData(model)
    n = len(kinds)
    qpos = np.array(poses, dtype=np.float64).reshape(-1)
    data.qpos[:] = qpos
    mujoco.mj_forward(model, data)
    start = qpos.reshape(n, 7).copy()
    pyramid = np.array([k != "card" for k in kinds])
    masses = model.body_mass[1:].copy()

    frames: list[np.ndarray] = [start.copy()]
    times: list[float] = [0.0]
    frame = 1  # the next keyframe: frame k is taken at step round(k / (FPS * TIMESTEP))
    cap = round(min(cap_s, CAP_S) / TIMESTEP)
    shake_steps = round(SHAKE_S / TIMESTEP) if shake > 0 else 0
    still_needed = max(1, math.ceil(REST_S / (CHUNK * TIMESTEP)))
    still = 0
    steps = 0
    fell_at: int | None = None
    at_rest = False
    gave_up = False
    give_up = None if give_up_mm is None else give_up_mm * 1e-3
    min_up = math.cos(math.radians(FALL_TILT_DEG))
    while steps < cap:
        if steps < shake_steps:
            _apply_shake(data, masses, shake, steps * TIMESTEP)
        elif shake_steps and steps == shake_steps:
            data.xfrc_applied[:] = 0.0
        # Step to the end of the chunk, stopping on the way at every keyframe's step: the same
        # steps as one call (mj_step is deterministic), frames exactly 1/FPS s apart.
        end = steps + CHUNK
        while (at := _frame_step(frame)) <= end:
            if at > steps:
                mujoco.mj_step(model, data, nstep=at - steps)
                steps = at
            frames.append(data.qpos.reshape(n, 7).copy())
            times.append(steps * TIMESTEP)
            frame += 1
        if end > steps:
            mujoco.mj_step(model, data, nstep=end - steps)
            steps = end
        q = data.qpos.reshape(n, 7)
        if fell_at is None:
            up = 1.0 - 2.0 * (q[:, 4] ** 2 + q[:, 5] ** 2)
            if np.any(pyramid & (up < min_up)):
                fell_at = steps
                if give_up is not None:
                    gave_up = True
                    break
        elif steps - fell_at >= round(FALL_GRACE_S / TIMESTEP):
            break
        if give_up is not None and np.abs(q[:-1, :3] - start[:-1, :3]).max() > give_up:
            gave_up = True
            break
        if steps <= shake_steps:
            continue
        v = data.qvel.reshape(n, 6)
        if np.abs(v[:, :3]).max() < REST_LINEAR and np.abs(v[:, 3:]).max() < REST_ANGULAR:
            still += 1
            if still >= still_needed:
                at_rest = True
                break
        else:
            still = 0
    final = data.qpos.reshape(n, 7).copy()
    if times[-1] != steps * TIMESTEP:
        frames.append(final)
        times.append(steps * TIMESTEP)
    return Settle(
        poses=tuple(_pose(row) for row in final),
        keyframes=_keyframes(times, frames, start),
        time=steps * TIMESTEP,
        at_rest=at_rest,
        fell=fell_at is not None,
        gave_up=gave_up,
    )


def _frame_step(k: int) -> int:
    return round(k / (FPS * TIMESTEP))


def _apply_shake(data: Any, masses: np.ndarray, strength: float, t: float) -> None:
    # A table swaying in a slowly turning direction: every piece feels the same horizontal
    # acceleration, which is what shaking the table does in the table's frame.
    phase = 2 * math.pi * SHAKE_HZ * t
    turn = 0.7 * t
    a = strength * math.sin(phase)
    data.xfrc_applied[1:, 0] = masses * a * math.cos(turn)
    data.xfrc_applied[1:, 1] = masses * a * math.sin(turn)


def _keyframes(times: list[float], frames: list[np.ndarray], start: np.ndarray) -> Keyframes:
    stacked = np.stack(frames)
    moved = np.abs(stacked - start[None, :, :]).max(axis=(0, 2)) > 1e-5
    bodies = tuple(int(i) for i in np.flatnonzero(moved))
    poses = tuple(tuple(_pose(frame[i]) for i in bodies) for frame in frames)
    return Keyframes(times=tuple(times), bodies=bodies, poses=poses)


def _pose(row: np.ndarray) -> Pose:
    v = row.tolist()
    return (v[0], v[1], v[2], v[3], v[4], v[5], v[6])


@lru_cache(maxsize=256)
def build_model(kinds: tuple[Kind, ...]) -> Any:
    """The compiled model for a tower of these pieces (poses are set in qpos, not here)."""
    return mujoco.MjModel.from_xml_string(model_xml(kinds))


def model_xml(kinds: Sequence[Kind]) -> str:
    meshes = []
    for size in SIZES:
        spec = PYRAMIDS[size]
        a = spec.base / 2
        verts = [(-a, -a, 0.0), (a, -a, 0.0), (a, a, 0.0), (-a, a, 0.0), (0.0, 0.0, spec.height)]
        text = " ".join(_num(c) for v in verts for c in v)
        meshes.append(f'<mesh name="pyramid{size}" vertex="{text}"/>')
    bodies = []
    for i, kind in enumerate(kinds):
        if kind == "card":
            half = f"{_num(CARD_WIDTH / 2)} {_num(CARD_LENGTH / 2)} {_num(CARD_THICKNESS / 2)}"
            geom = (
                f'<geom type="box" size="{half}" mass="{_num(CARD_MASS)}" '
                f'friction="{CARD_FRICTION}"/>'
            )
        elif kind in PYRAMIDS:
            com, moments = shell_inertia(kind)
            geom = (
                f'<inertial pos="{" ".join(_num(c) for c in com)}" '
                f'mass="{_num(PYRAMIDS[kind].mass)}" '
                f'diaginertia="{" ".join(_num(m) for m in moments)}"/>'
                f'<geom type="mesh" mesh="pyramid{kind}" friction="{PYRAMID_FRICTION}"/>'
            )
        else:
            raise ValueError(f"unknown piece kind {kind!r}")
        bodies.append(f'<body name="piece{i}"><freejoint/>{geom}</body>')
    return (
        '<mujoco model="tower">'
        f'<option timestep="{_num(TIMESTEP)}" gravity="0 0 -9.81" impratio="{IMPRATIO}"/>'
        f'<default><geom solref="{SOLREF}" solimp="{SOLIMP}" condim="3"/></default>'
        f"<asset>{''.join(meshes)}</asset>"
        "<worldbody>"
        f'<geom name="table" type="plane" size="2 2 0.01" friction="{TABLE_FRICTION}"/>'
        f"{''.join(bodies)}"
        "</worldbody></mujoco>"
    )


def _num(x: float) -> str:
    return repr(float(x))

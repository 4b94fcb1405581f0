"""Where to put the next piece: the aims the computer players, random play and the step clock use.

`plan_aim` and `candidate_aims` ask the statics planner (`planner.Planner`: the layout of a whole
level, its margin over every card below, the future it leaves) for the best aims the rules accept.
`plan_aim(..., counterbalance=False)` is the old quick plan (a tight triangle at the level's
centre, a card on the tips), which random play scatters.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Literal

from vertex.core.errors import IllegalMove
from vertex.core.rng import Rng
from vertex.games.verticality.notation import BASE_HALF_MM, Aim, make_aim
from vertex.games.verticality.tower import MM, Piece, Tower, level_centre
from vertex.physics import PYRAMIDS
from vertex.physics.geometry import apex, yaw_deg

if TYPE_CHECKING:
    from vertex.games.verticality.game import VerticalityState

from vertex.games.verticality.planner import CAREFUL, GAP_MM, Care, Planner


# ---- the plan ----------------------------------------------------------------------------------
def plan_aim(
    state: VerticalityState,
    seat: int,
    *,
    counterbalance: bool = True,
    gap_mm: float = GAP_MM,
    haste: float = 0.0,
    care: Care | None = None,
) -> Aim:
    """The planned aim for `seat`'s piece in the current step."""
    if not counterbalance:
        return _quick_aim(state, seat, gap_mm, haste)
    if care is None:
        care = CAREFUL if gap_mm == GAP_MM else Care(gap_mm=gap_mm)
    for aim in candidate_aims(state, seat, care, haste=haste, count=1):
        return aim
    return _quick_aim(state, seat, gap_mm, haste)


def candidate_aims(
    state: VerticalityState, seat: int, care: Care = CAREFUL, *, haste: float = 0.0, count: int = 6
) -> list[Aim]:
    """The best `count` aims the rules accept for the current step, best first.

    Distinct plans (other layouts, orders, turns, card spots), for a player who tries them in
    the simulator before choosing (`vertex.ai.tower`, the ceiling search in `bench/`).
    """
    tower = state.towers[seat]
    level, step, size = state.level, state.step, state.size
    plans = Planner(tower, level, care)
    spots = plans.card_spots() if step == 3 else plans.pyramid_spots(size)
    piece: Literal["pyramid", "card"] = "card" if step == 3 else "pyramid"
    out: list[Aim] = []
    for x, y, rot, _score in spots:
        aim = make_aim(piece, clamp(x), clamp(y), rot, haste)
        if aim in out or not fits(state, seat, aim):
            continue
        out.append(aim)
        if len(out) >= count:
            break
    return out


# ---- the quick plan, the rules' check, random aims ----------------------------------------------
def _quick_aim(state: VerticalityState, seat: int, gap_mm: float, haste: float) -> Aim:
    """A tight triangle at the level's centre, each pyramid against those that landed; the card
    centred on the tips."""
    tower = state.towers[seat]
    level, step, size = state.level, state.step, state.size
    if step == 3:
        return _card_aim(tower, level, haste)
    b = PYRAMIDS[size].base / MM + gap_mm
    mates = tower.pyramids_of(level)
    if step == 0 or not mates:
        cx, cy, heading = level_centre(tower, level)
        x, y = _local(cx, cy, heading, -b / 2, -b / 3)
        return make_aim("pyramid", clamp(x), clamp(y), heading, haste)
    first = mates[0]
    fx, fy = first.pose[0] / MM, first.pose[1] / MM
    heading = yaw_deg(first.pose)
    if len(mates) == 1:
        x, y = _local(fx, fy, heading, b, 0.0)
    else:
        sx, sy = mates[1].pose[0] / MM, mates[1].pose[1] / MM
        mx, my = (fx + sx) / 2, (fy + sy) / 2
        dx, dy = sx - fx, sy - fy
        length = math.hypot(dx, dy) or 1.0
        # Against both: on the left of first → second, as far as the pair's own spacing.
        x, y = mx - dy / length * b, my + dx / length * b
    aim = make_aim("pyramid", clamp(x), clamp(y), heading, haste)
    return _first_that_fits(state, seat, [aim, *_around(mates, b, heading, haste)], aim)


def _around(mates: list[Piece], b: float, heading: float, haste: float) -> list[Aim]:
    """Spots against each placed pyramid of the level, all round it (when the plan's spot is
    off the card): side centres first, then along the sides, then nudging 2 mm into it."""
    out = []
    for reach in (b, b - 2.0):
        for mate in mates:
            mx, my = mate.pose[0] / MM, mate.pose[1] / MM
            for along in (0.0, 0.25, -0.25, 0.5, -0.5, 0.75, -0.75, 0.9, -0.9):
                a = along * b
                for dx, dy in ((reach, a), (-reach, a), (a, reach), (a, -reach)):
                    x, y = _local(mx, my, heading, dx, dy)
                    out.append(make_aim("pyramid", clamp(x), clamp(y), heading, haste))
    return out


def _card_aim(tower: Tower, level: int, haste: float) -> Aim:
    tips = [apex(p.kind, p.pose) for p in tower.pyramids_of(level)]
    if not tips:
        cx, cy, heading = level_centre(tower, level)
        return make_aim("card", cx, cy, heading, haste)
    x = sum(t[0] for t in tips) / len(tips) / MM
    y = sum(t[1] for t in tips) / len(tips) / MM
    heading = yaw_deg(tower.pyramids_of(level)[0].pose)
    return make_aim("card", clamp(x), clamp(y), heading, haste)


def _first_that_fits(state: VerticalityState, seat: int, aims: list[Aim], otherwise: Aim) -> Aim:
    for aim in aims:
        if fits(state, seat, aim):
            return aim
    return otherwise


def fits(state: VerticalityState, seat: int, aim: Aim) -> bool:
    """Whether the rules accept `aim` now (no simulation)."""
    try:
        state.towers[seat].check(
            state.level, state.step, state.size, aim, state.game.options.skyscraper, snap=False
        )
    except IllegalMove:
        return False
    return True


def random_aim(state: VerticalityState, seat: int, rng: Rng) -> tuple[Aim, Rng]:
    """A sensible random aim: the plan, scattered by a clumsy hand, that the rules accept.

    Scatter is wide enough that towers fall after a few levels, so random games end soon.
    """
    plan = plan_aim(state, seat, counterbalance=False)
    spread = 6.0 if plan.piece == "card" else 2.5
    for _ in range(12):
        dx, rng = rng.random()
        dy, rng = rng.random()
        dr, rng = rng.random()
        dh, rng = rng.random()
        aim = make_aim(
            plan.piece,
            clamp(plan.x + (2 * dx - 1) * spread),
            clamp(plan.y + (2 * dy - 1) * spread),
            plan.rot + (2 * dr - 1) * 10.0,
            round(dh, 2),
        )
        if fits(state, seat, aim):
            return aim, rng
    return plan, rng


def _local(cx: float, cy: float, heading: float, dx: float, dy: float) -> tuple[float, float]:
    t = math.radians(heading)
    c, s = math.cos(t), math.sin(t)
    return (cx + c * dx - s * dy, cy + s * dx + c * dy)


def clamp(v: float) -> float:
    """An aim's coordinate (mm) kept on the base."""
    return max(-BASE_HALF_MM, min(BASE_HALF_MM, v))

"""Where to put the next piece: the aims the computer players, random play and the step clock use.

The plan is the one a careful builder follows: the three pyramids of a level in a tight
triangle (two side by side, the third against both), each aimed against the pieces as they
actually landed, a hair's gap apart so the touching rule holds without nudging; the card
centred over the three tips. Counterbalancing shifts a level so the weight above each card
stays over the tips that hold it, which matters when big pyramids go onto small ones.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from vertex.core.errors import IllegalMove
from vertex.core.rng import Rng
from vertex.games.verticality.notation import BASE_HALF_MM, Aim, make_aim
from vertex.games.verticality.tower import MM, Piece, Tower, level_centre
from vertex.physics import PYRAMIDS
from vertex.physics.geometry import apex, yaw_deg
from vertex.physics.pieces import CARD_MASS

if TYPE_CHECKING:
    from vertex.games.verticality.game import VerticalityState

#: Gap left between pyramids of a level (mm): inside the 1 mm touching tolerance.
GAP_MM = 0.3


def plan_aim(
    state: VerticalityState,
    seat: int,
    *,
    counterbalance: bool = True,
    gap_mm: float = GAP_MM,
    haste: float = 0.0,
) -> Aim:
    """The planned aim for `seat`'s piece in the current step."""
    tower = state.towers[seat]
    level, step, size = state.level, state.step, state.size
    if step == 3:
        return _card_aim(tower, level, haste)
    b = PYRAMIDS[size].base / MM + gap_mm
    mates = tower.pyramids_of(level)
    if step == 0 or not mates:
        cx, cy, heading = level_centre(tower, level)
        if counterbalance and level > 1:
            cx, cy, heading = _balanced_layout(tower, level, size, b, (cx, cy, heading))
        x, y = _local(cx, cy, heading, -b / 2, -b / 3)
        aim = make_aim("pyramid", _clamp(x), _clamp(y), heading, haste)
        centred = _centred(tower, level, heading, b, haste)
        return _first_that_fits(state, seat, [aim, centred], centred)
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
    aim = make_aim("pyramid", _clamp(x), _clamp(y), heading, haste)
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
                    out.append(make_aim("pyramid", _clamp(x), _clamp(y), heading, haste))
    return out


def _card_aim(tower: Tower, level: int, haste: float) -> Aim:
    tips = [apex(p.kind, p.pose) for p in tower.pyramids_of(level)]
    if not tips:
        cx, cy, heading = level_centre(tower, level)
        return make_aim("card", cx, cy, heading, haste)
    x = sum(t[0] for t in tips) / len(tips) / MM
    y = sum(t[1] for t in tips) / len(tips) / MM
    heading = yaw_deg(tower.pyramids_of(level)[0].pose)
    return make_aim("card", _clamp(x), _clamp(y), heading, haste)


def _balanced_centre(
    tower: Tower, level: int, size: str, centre: tuple[float, float]
) -> tuple[float, float]:
    """Where this level's triangle should sit so the card below carries its load centred.

    The card of the level below rests on the tips of its pyramids; the weight it carries (the
    card itself, the new level's pyramids and the next card above them) should sit over the
    middle of those tips, so a card that landed off-centre is made up for by the level above.
    """
    tips = [apex(p.kind, p.pose) for p in tower.pyramids_of(level - 1)]
    card = tower.card_of(level - 1)
    if not tips or card is None:
        return centre
    tx = sum(t[0] for t in tips) / len(tips) / MM
    ty = sum(t[1] for t in tips) / len(tips) / MM
    load = 3 * PYRAMIDS[size].mass + CARD_MASS
    total = load + CARD_MASS
    px = (total * tx - CARD_MASS * card.pose[0] / MM) / load
    py = (total * ty - CARD_MASS * card.pose[1] / MM) / load
    return (px, py)


def _balanced_layout(
    tower: Tower, level: int, size: str, b: float, start: tuple[float, float, float]
) -> tuple[float, float, float]:
    """Centre and heading of this level's triangle that keep the load over the tips below.

    The card underneath rests on the three tips of the level below. While the level goes up
    one pyramid at a time its weight is lopsided, most of all when big pyramids go onto small
    ones, so every stage (one pyramid, two, three and the next card) must keep the centre of
    mass of the card and what it carries inside the tips' triangle. Search shifts and turns of
    the triangle for the widest worst-stage margin; the triangle must stay on the card.
    """
    card = tower.card_of(level - 1)
    tips = [apex(p.kind, p.pose) for p in tower.pyramids_of(level - 1)]
    if card is None or len(tips) < 3:
        return start
    support = _ccw([(t[0] / MM, t[1] / MM) for t in tips])
    card_xy = (card.pose[0] / MM, card.pose[1] / MM)
    mass = PYRAMIDS[size].mass
    slots = ((-b / 2, -b / 3), (b / 2, -b / 3), (0.0, 2 * b / 3))
    best, best_margin = start, -math.inf
    cx0, cy0, h0 = start
    for turn in (0.0, 90.0, 180.0, 270.0):
        heading = (h0 + turn) % 360.0
        for i in range(-12, 13):
            for j in range(-12, 13):
                cx, cy = cx0 + i, cy0 + j
                spots = [_local(cx, cy, heading, dx, dy) for dx, dy in slots]
                if not _on_card(tower, level, size, spots, heading):
                    continue
                margin = math.inf
                loads = [(card_xy, CARD_MASS)]
                for spot in spots:
                    loads.append((spot, mass))
                    margin = min(margin, _margin(support, _centre_of(loads)))
                loads.append(((cx, cy), CARD_MASS))
                margin = min(margin, _margin(support, _centre_of(loads)))
                # prefer the smallest shift among equals: margins are compared to 0.01 mm
                if margin > best_margin + 0.01:
                    best, best_margin = (cx, cy, heading), margin
    return best


def _on_card(
    tower: Tower, level: int, size: str, spots: list[tuple[float, float]], heading: float
) -> bool:
    from vertex.physics.geometry import card_footprint, inside, pyramid_footprint, yaw_pose

    card = tower.card_of(level - 1)
    assert card is not None
    edge = card_footprint(card.pose)
    for x, y in spots:
        foot = pyramid_footprint(size, yaw_pose(x * MM, y * MM, 0.0, heading))
        if not all(inside(edge, c) for c in foot):
            return False
    return True


def _centre_of(loads: list[tuple[tuple[float, float], float]]) -> tuple[float, float]:
    total = sum(m for _, m in loads)
    return (
        sum(p[0] * m for p, m in loads) / total,
        sum(p[1] * m for p, m in loads) / total,
    )


def _ccw(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    mx = sum(p[0] for p in points) / len(points)
    my = sum(p[1] for p in points) / len(points)
    return sorted(points, key=lambda p: math.atan2(p[1] - my, p[0] - mx))


def _margin(poly: list[tuple[float, float]], p: tuple[float, float]) -> float:
    """Signed distance from p to the edges of a counter-clockwise polygon (> 0 inside)."""
    best = math.inf
    for i in range(len(poly)):
        ax, ay = poly[i]
        bx, by = poly[(i + 1) % len(poly)]
        length = math.hypot(bx - ax, by - ay) or 1.0
        best = min(best, ((bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax)) / length)
    return best


def _centred(tower: Tower, level: int, heading: float, b: float, haste: float) -> Aim:
    cx, cy, _ = level_centre(tower, level)
    x, y = _local(cx, cy, heading, -b / 2, -b / 3)
    return make_aim("pyramid", _clamp(x), _clamp(y), heading, haste)


def _first_that_fits(state: VerticalityState, seat: int, aims: list[Aim], otherwise: Aim) -> Aim:
    for aim in aims:
        if fits(state, seat, aim):
            return aim
    return otherwise


def fits(state: VerticalityState, seat: int, aim: Aim) -> bool:
    """Whether the rules accept `aim` now (no simulation)."""
    try:
        state.towers[seat].check(
            state.level, state.step, state.size, aim, state.game.options.skyscraper
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
            _clamp(plan.x + (2 * dx - 1) * spread),
            _clamp(plan.y + (2 * dy - 1) * spread),
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


def _clamp(v: float) -> float:
    return max(-BASE_HALF_MM, min(BASE_HALF_MM, v))

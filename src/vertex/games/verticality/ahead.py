"""The look ahead: a level's layout weighed with what it leaves for the next level.

`lookahead_aims` weighs each layout by the best plan the next level could then have, for
each size the die may roll (what the strongest computer player does for a level's first
pyramid): distinct layouts (one of each triangle and heading), the best by their own score and,
when larger pyramids may follow, the widest triangles of tips that stand. `follow_scored` weighs
a level's second and third pyramids the same way; `after_first` what a first pyramid landed off
its aim leaves for the other two.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from vertex.games.verticality.notation import Aim, make_aim
from vertex.games.verticality.plan import candidate_aims, clamp, fits
from vertex.games.verticality.planner import CAREFUL, Care, Planner
from vertex.games.verticality.rules import PER_LEVEL
from vertex.games.verticality.statics import (
    incentre,
    inradius,
)
from vertex.games.verticality.tower import MM, Piece
from vertex.physics import SIZES, yaw_pose

if TYPE_CHECKING:
    from vertex.games.verticality.game import VerticalityState

#: A look ahead counts this much of the next level's plan score ...
LOOKAHEAD_WEIGHT = 0.5
#: ... and without tremor, for a layout whose own plan has a margin (scores 0 or more), as much
#: as the level's own: the level stands as planned, and a tower is lost at the level after (at
#: 0.5, tremor 0: 17 of 20 towers to the supply's end, 20 with this). With tremor the hand eats
#: the level's own margin first (1.0 at 0.45 mm: 16 of 20, not 18), and a level with no margin
#: must first stand (a large level at 1.0 took a first pyramid scoring -1.79 for what it left the
#: next level, over -0.36, and fell: bench/RESULTS.md, eighth round).
STILL_WEIGHT = 1.0
#: Of the layouts a look ahead weighs, this share are the best by their own score; the rest
#: are the widest (a wide triangle of tips is what large pyramids on the next level need).
BY_SCORE = 0.5
#: When larger pyramids may follow, this many of the widest triangles of tips that stand are
#: weighed beside the best layouts.
WIDE = 24
#: ... those whose own plan scores at least this (a margin about 1.2 mm).
WIDE_OWN = 0.5
#: ... and of those, the ones whose tips' triangle has this inradius (mm) first, best by their
#: own score: what three large pyramids on the next level need (bench/RESULTS.md).
WIDE_MM = 5.0


def lookahead_aims(
    state: VerticalityState, seat: int, care: Care = CAREFUL, *, count: int = 6
) -> list[Aim]:
    """First-pyramid aims of `count` layouts (the best by their own score and the widest),
    ranked by their score plus what each leaves for the next level, for the sizes the die can
    still roll (`Planner.next_level`); other steps: `candidate_aims`."""
    if state.step != 0:
        return candidate_aims(state, seat, care, count=count)
    return [aim for _, _, aim in lookahead_scored(state, seat, care, count=count)]


def lookahead_scored(
    state: VerticalityState, seat: int, care: Care = CAREFUL, *, count: int = 6
) -> list[tuple[float, float, Aim]]:
    """`lookahead_aims` with each layout's (total, own score), best total first (step 0)."""
    tower = state.towers[seat]
    plans = Planner(tower, state.level, care)
    odds = next_sizes(state)
    # larger pyramids may follow: the widest triangles of tips are weighed too (three large
    # pyramids on small tips need an inradius over 5 mm: bench/RESULTS.md)
    larger = any(SIZES.index(s) > SIZES.index(state.size) for s in odds)
    layouts = plans.layouts(state.size, wide=WIDE if larger else 0)
    by_score = max(1, math.ceil(count * BY_SCORE))
    widest = sorted(
        (lay for lay in layouts[by_score:] if lay[2] >= WIDE_OWN),  # standing with some margin
        key=_wide_first,
    )
    ranked: list[tuple[float, float, Aim]] = []
    shapes: set[tuple[object, ...]] = set()
    # the best by their own score, the widest, then (too few wide ones stand) more of the best
    for pool, wanted in ((layouts, by_score), (widest, count), (layouts, count)):
        for layout in pool:
            if len(ranked) >= wanted:
                break
            where, heading, score = layout
            # one layout of a shape (the same triangle, turned alike, a little shifted)
            shape = _shape(where, heading)
            x, y = clamp(float(where[0, 0])), clamp(float(where[0, 1]))
            aim = make_aim("pyramid", x, y, heading)
            if shape in shapes or any(a == aim for *_, a in ranked) or not fits(state, seat, aim):
                continue
            shapes.add(shape)
            ahead = plans.next_level(state.size, layout, odds) if odds else 0.0
            ranked.append((score + ahead_weight(state, score) * ahead, score, aim))
    ranked.sort(key=lambda r: -r[0])
    return ranked


def follow_scored(
    state: VerticalityState, seat: int, care: Care = CAREFUL, *, count: int = 4
) -> list[tuple[float, float, Aim]]:
    """A level's second or third pyramid: the best `count` aims by their own score, each
    weighed with what the level it completes leaves for the next (as `lookahead_scored`
    weighs a level's first), best total first, with each one's (total, own score)."""
    plans = Planner(state.towers[seat], state.level, care)
    k = len(plans.placed)
    odds = next_sizes(state)
    ranked: list[tuple[float, float, Aim]] = []
    for layout in plans.rest_of_level(state.size):
        if len(ranked) >= count:
            break
        where, heading, score = layout
        aim = make_aim("pyramid", clamp(float(where[k, 0])), clamp(float(where[k, 1])), heading)
        if any(a == aim for *_, a in ranked) or not fits(state, seat, aim):
            continue
        ahead = plans.next_level(state.size, layout, odds) if odds else 0.0
        ranked.append((score + ahead_weight(state, score) * ahead, score, aim))
    ranked.sort(key=lambda r: -r[0])
    return ranked


def _wide_first(layout: tuple[np.ndarray, float, float]) -> tuple[int, float]:
    """The order of the wide layouts a look ahead weighs: those wide enough for large pyramids
    next (inradius WIDE_MM or more) best by their own score, then the rest widest first. The
    widest first alone passed over a 5.7 mm layout scoring 2.2 whose large level after it had
    a plan (+0.24) for a 6.2 mm one scoring 1.4 (seed 17, tremor 0.45: bench/RESULTS.md)."""
    where, _, score = layout
    width = float(inradius(where[0], where[1], where[2]))
    return (0, -score) if width >= WIDE_MM else (1, -width)


def _shape(where: np.ndarray, heading: float) -> tuple[object, ...]:
    """A layout's shape: its heading and its triangle of pyramids about their incentre, to
    the millimetre, in any order (the same triangle a little shifted is the same shape; the
    same inradius turned or mirrored is not: the next level can differ by 9 points)."""
    mid = incentre(where[0], where[1], where[2])
    corners = sorted((round(float(x - mid[0])), round(float(y - mid[1]))) for x, y in where)
    return (round(heading) % 360, *corners)


def after_first(
    state: VerticalityState,
    seat: int,
    aim: Aim,
    noise: tuple[float, float, float],
    care: Care = CAREFUL,
) -> float:
    """The best plan score left for a level's second and third pyramids and its card if its
    first pyramid lands at `aim` shifted by `noise` (dx mm, dy mm, drot deg): the statics
    alone, the pyramid upright on the card below where it lands (no simulation)."""
    tower = state.towers[seat]
    x, y = (aim.x + noise[0]) * MM, (aim.y + noise[1]) * MM
    z = tower.surface_z(state.level, x, y)
    first = Piece(state.size, state.level, yaw_pose(x, y, z, aim.rot + noise[2]))  # type: ignore[arg-type]
    shifted = replace(tower, pieces=(*tower.pieces, first))
    spots = Planner(shifted, state.level, care).pyramid_spots(state.size)
    return max(-20.0, spots[0][3]) if spots else -20.0


def next_sizes(state: VerticalityState) -> dict[str, float]:
    """The odds of each size for the next level, once this level's pyramids are taken from the
    supply: the die shows each size on two faces and is rolled again for a size the supply can
    no longer give (RULES.md §4), so the sizes left are equally likely. Empty after the last
    level the supply allows."""
    supply = dict(state.supply)
    standing = [t for t in state.towers if t.standing]
    builders = len(standing)
    supply[state.size] -= sum(PER_LEVEL - len(t.pyramids_of(state.level)) for t in standing)
    left = [s for s in SIZES if supply[s] >= PER_LEVEL * builders]
    return {s: 1.0 / len(left) for s in left}


def ahead_weight(state: VerticalityState, own: float) -> float:
    """How much of the next level's plan score a layout scoring `own` counts (a look ahead)."""
    if state.game.options.tremor_mm == 0.0 and own >= 0.0:
        return STILL_WEIGHT
    return LOOKAHEAD_WEIGHT

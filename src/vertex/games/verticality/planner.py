"""The statics planner: where a level's pyramids and its card go on one tower, and how good a
plan is (the computer players, random play and the step clock reach it through `plan`).

A card rests on the three tips of the pyramids below it, so it stands as long as the centre of
mass of everything it carries (itself included) lies inside the triangle of those tips; that
holds for every card of the tower at once, and at every stage of a level, not only when it is
complete (`bench/RESULTS.md` and `tests/physics/test_stability.py` show that the simulated
world tips exactly where this statics says). A careful builder therefore plans a level as a
whole before placing its first pyramid:

- the **layout**: where each of the three pyramids goes and in which **order** (the first one
  near the middle of the support, the others on opposite sides so the load swings back), each
  touching one already placed, a small gap apart; square pyramids may be turned, and the tips'
  triangle may be wide (pyramids touching corner to corner) or tight;
- the **margin** of a plan: the least distance, over every card below and every stage of the
  level (one pyramid, two, three, then the next card), from the load's centre of mass to the
  edge of the tips' triangle holding it. Large pyramids on a level of small ones are the hard
  case: only some layouts and orders keep every stage over the tips;
- the **future**: a wide triangle of tips, standing over all the supports below, leaves room
  for the next level, whatever the die rolls.

The best plan maximises the margin (up to a comfortable cap, and steeply below 1.5 mm) plus a
share of the future; the card's own rest on the new tips counts in the margin. Each step plans
again from the pieces as they actually landed (the hand trembles), so the second and third
pyramids make up for where the first one went. The card is centred on the tips' incentre and
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from vertex.games.verticality.layouts import (
    CLEAR_MM,
    contact_distances,
    contact_hull,
    layout_library,
    polygon_gaps,
)
from vertex.games.verticality.statics import (
    CARD_G,
    Stacked,
    Support,
    base_xy,
    incentre,
    inradius,
    rotate,
    supports,
    tip_xy,
)
from vertex.games.verticality.tower import MM, Piece, Tower, level_centre
from vertex.physics import PYRAMIDS, SIZES, yaw_pose
from vertex.physics.geometry import card_top_z, yaw_deg
from vertex.physics.pieces import CARD_LENGTH, CARD_THICKNESS, CARD_WIDTH

if TYPE_CHECKING:
    pass


#: Gap aimed for between a new pyramid and the one it touches (mm): inside the 1 mm touching
#: tolerance, wide enough that a trembling hand (σ 0.45 mm) rarely lands it on its neighbour.
GAP_MM = 0.85
#: Footprints stay this far inside the card below (mm); the tips this far inside their card.
EDGE_MM = 1.0
LATER_EDGE_MM = 2.0
TIP_EDGE_MM = 4.0
#: A plan's margin counts up to this (mm); beyond it the future decides. Below SAFE_MM (what
#: a drop and a trembling hand can take away) each millimetre counts STEEP times more.
OWN_CAP = 2.5
SAFE_MM = 1.5
STEEP = 3.0
#: The card lands within this (mm) of its aim: the tips' inradius must leave it room.
CARD_RESERVE_MM = 1.0
#: ... and the future (the width of the new triangle of tips, in mm) up to this, at this weight.
FUTURE_CAP = 8.0
FUTURE_WEIGHT = 0.35

HALF_W = CARD_WIDTH / MM / 2
HALF_L = CARD_LENGTH / MM / 2


@dataclass(frozen=True, slots=True)
class Care:
    """How carefully a plan is made (the computer players' levels differ in this)."""

    #: Layout shapes: "tight" (three pyramids touching each other) or "any" (also wide ones).
    shapes: str = "any"
    #: Headings tried for the first pyramid of a level, relative to the card below (degrees).
    turns: tuple[float, ...] = (0.0, 15.0, 30.0, 45.0, 60.0, 75.0)
    #: Only the card right below counts (the careless way), or every card of the tower.
    all_cards: bool = True
    future: float = FUTURE_WEIGHT
    gap_mm: float = GAP_MM
    #: Refine the best layouts to 0.08 mm (or stop at 1 mm: enough to judge a level ahead).
    fine: bool = True
    #: How many layouts the coarse round keeps for the finer ones (over every card below).
    keep: int = 48
    #: A plan's margin counts up to this (mm); beyond it the future decides.
    own_cap: float = OWN_CAP


CAREFUL = Care()
#: The quicker plan used to judge what a layout leaves for the next level.
LOOKAHEAD = Care(turns=(0.0, 45.0), fine=False)
#: ... and a next level whose best plan scores below zero (a thin margin: it may well fall,
#: and a fall ends the tower) this many times more.
AHEAD_STEEP = 3.0


@lru_cache(maxsize=256)
def _turned(
    size: str, gap_mm: float, shapes: str, heading0: float, turns: tuple[float, ...]
) -> tuple[np.ndarray, tuple[np.ndarray, ...], np.ndarray, np.ndarray]:
    """The layout library turned by each of `turns` from `heading0`: every layout's heading,
    where the three pyramids go relative to the first, the tips' inradius (N, 1) and incentre
    (relative to the first), the same wherever the layout goes. A look ahead asks for the same
    few turnings once a layout it weighs."""
    q2, q3 = layout_library(size, gap_mm, shapes)
    headings = heading0 + np.repeat(np.array(turns, dtype=float), len(q2))
    r2 = np.concatenate([rotate(q2, heading0 + t) for t in turns])
    r3 = np.concatenate([rotate(q3, heading0 + t) for t in turns])
    offsets = (np.zeros_like(r2), r2, r3)  # relative to the first pyramid
    out = (headings, offsets, inradius(*offsets)[:, None], incentre(*offsets))
    for a in (headings, *offsets, *out[2:]):
        a.flags.writeable = False  # shared by every plan that asks
    return out


class Planner:
    """The statics of one tower while `level` is being built (units: mm and grams)."""

    def __init__(self, tower: Tower, level: int, care: Care = CAREFUL) -> None:
        self.tower = tower
        self.level = level
        self.care = care
        self.placed = tower.pyramids_of(level)
        self.below = tower.card_of(level - 1)
        sups = supports(tower, level)
        if not care.all_cards:
            sups = sups[-1:]
        self.supports = sups
        self._stacks = (
            Stacked.of(sups) if sups else None,
            Stacked.of(sups[-1:]) if sups else None,
        )

    def _stacked(self, coarse: bool) -> Stacked | None:
        """Every card below (or, coarse, the one right below), stacked; None on the table."""
        return self._stacks[1] if coarse else self._stacks[0]

    # -- pyramids -------------------------------------------------------------------------------
    def pyramid_spots(self, size: str) -> list[tuple[float, float, float, float]]:
        """(x, y, heading, score) of the next pyramid, best first."""
        k = len(self.placed)
        if k == 0:
            return self._first(size)
        if k == 1:
            return self._second(size)
        return self._third(size)

    def _first(self, size: str) -> list[tuple[float, float, float, float]]:
        return [(float(p[0, 0]), float(p[0, 1]), h, v) for p, h, v in self.layouts(size)]

    def layouts(self, size: str, wide: int = 0) -> list[tuple[np.ndarray, float, float]]:
        """Whole plans for this level: (where the three pyramids go, in order (3, 2); their
        heading; score), best first; with `wide`, also that many of the widest triangles of
        tips that stand (what larger pyramids on the next level need)."""
        m = PYRAMIDS[size].mass * 1e3
        heading0 = 0.0 if self.below is None else yaw_deg(self.below.pose)
        care = self.care
        headings, offsets, width, centre = _turned(
            size, care.gap_mm, care.shapes, heading0, care.turns
        )
        t = self._start(m, offsets)
        h = headings[:, None]
        # Coarse, every layout, the card right below only; then the best layouts, finer, with
        # every card of the tower.
        rounds: tuple[tuple[float, int, bool], ...] = (
            (3.0, 2, True),
            (1.0, 3, False),
            (0.25, 3, False),
            (0.08, 2, False),
        )
        if not self.care.fine:
            rounds = rounds[:2]
        keep = np.arange(len(t))
        for step_mm, half, coarse in rounds:
            grid = np.arange(-half, half + 1) * step_mm
            gx, gy = np.meshgrid(grid, grid)
            d = np.stack([gx.ravel(), gy.ravel()], axis=-1)  # (T, 2)
            pos = t[keep][:, None, :] + d[None, :, :]  # (N, T, 2)
            sub = [pos + o[keep][:, None, :] for o in offsets]
            card = pos + centre[keep][:, None, :]
            score = self._score(
                m, size, h[keep], sub, coarse=coarse, width=width[keep], centre=card
            )
            best = np.argmax(score, axis=1)
            t[keep] = pos[np.arange(len(keep)), best]
            if coarse:
                top = score[np.arange(len(keep)), best]
                order = np.argsort(-top, kind="stable")
                kept = keep[order[: self.care.keep]]
                if wide:
                    # the widest of the rest whose worst stage keeps some margin
                    rest = order[self.care.keep :]
                    rest = rest[top[rest] > 0.0]
                    w = width[keep[rest], 0]
                    rest = rest[np.argsort(-w, kind="stable")]
                    kept = np.concatenate([kept, keep[rest[:wide]]])
                keep = kept
        sub = [t[keep][:, None, :] + o[keep][:, None, :] for o in offsets]
        card = t[keep][:, None, :] + centre[keep][:, None, :]
        final = self._score(m, size, h[keep], sub, width=width[keep], centre=card)[:, 0]
        out = []
        for i in np.argsort(-final, kind="stable"):
            k = keep[i]
            where = np.stack([t[k], t[k] + offsets[1][k], t[k] + offsets[2][k]])
            out.append((where, float(headings[k]) % 360.0, float(final[i])))
        return out

    def next_level(
        self,
        size: str,
        layout: tuple[np.ndarray, float, float],
        odds: dict[str, float] | None = None,
    ) -> float:
        """How good a plan the next level could have if this one is built as `layout`: the
        best first-pyramid plan score there for each size the die may roll (`odds`: every size
        equally likely if not given), a score below zero counting AHEAD_STEEP times."""
        where, heading, _ = layout
        pieces = list(self.tower.pieces)
        for x, y in where[len(self.placed) :]:  # those already standing are in the tower
            z = 0.0 if self.below is None else card_top_z(self.below.pose, x * MM, y * MM)
            pieces.append(Piece(size, self.level, yaw_pose(x * MM, y * MM, z, heading)))  # type: ignore[arg-type]
        centre = incentre(where[0], where[1], where[2])
        top = max(p.pose[2] for p in pieces[-3:]) + PYRAMIDS[size].height + CARD_THICKNESS / 2
        card = yaw_pose(centre[0] * MM, centre[1] * MM, top, heading)
        planned = replace(self.tower, pieces=(*pieces, Piece("card", self.level, card)))
        after = Planner(
            planned,
            self.level + 1,
            replace(LOOKAHEAD, own_cap=self.care.own_cap),
        )
        worth = 0.0
        for s, p in (odds or dict.fromkeys(SIZES, 1.0 / len(SIZES))).items():
            plans = after.pyramid_spots(s)
            best = max(-5.0, plans[0][3]) if plans else -5.0
            worth += p * (best if best >= 0 else AHEAD_STEEP * best)
        return worth

    def _start(self, m: float, offsets: tuple[np.ndarray, ...]) -> np.ndarray:
        """Where the first pyramid goes for the finished level to sit over the middle below."""
        n = len(offsets[0])
        if not self.supports:
            # on the table: the tips' triangle centred on the base
            tips = np.stack(offsets, axis=1)
            return np.asarray(-incentre(tips[:, 0], tips[:, 1], tips[:, 2]))
        sup = self.supports[-1]
        target = sup.centre
        total = sup.mass + 3 * m + CARD_G
        rest = sum(offsets[1:]) * m + CARD_G * sum(offsets) / 3
        t = (target * total - sup.moment - rest) / (3 * m + CARD_G)
        return np.asarray(t.reshape(n, 2))

    def rest_of_level(self, size: str) -> list[tuple[np.ndarray, float, float]]:
        """With one or two of this level's pyramids standing, the plans for the next one as
        whole layouts: (where the three pyramids go, their heading, score), best first."""
        if len(self.placed) == 1:
            return self._second_layouts(size)
        done = np.stack([base_xy(p) for p in self.placed[:2]])
        return [
            (np.concatenate([done, np.array([[x, y]])]), heading, score)
            for x, y, heading, score in self._third(size)
        ]

    def _second(self, size: str) -> list[tuple[float, float, float, float]]:
        return [
            (float(where[1, 0]), float(where[1, 1]), heading, score)
            for where, heading, score in self._second_layouts(size)
        ]

    def _second_layouts(self, size: str) -> list[tuple[np.ndarray, float, float]]:
        m = PYRAMIDS[size].mass * 1e3
        first = self.placed[0]
        p1 = base_xy(first)
        heading = yaw_deg(first.pose)
        q2, q3 = layout_library(size, self.care.gap_mm, self.care.shapes)
        r2, r3 = rotate(q2, heading), rotate(q3, heading)
        x1 = np.broadcast_to(p1, r2.shape)
        pos = [x1[:, None, :], (p1 + r2)[:, None, :], (p1 + r3)[:, None, :]]
        s = self._score(m, size, np.full((len(r2), 1), heading), pos, done=1)[:, 0]
        return [
            (np.stack([p1, p1 + r2[i], p1 + r3[i]]), heading % 360.0, float(s[i]))
            for i in np.argsort(-s, kind="stable")[:24]
        ]

    def _third(self, size: str) -> list[tuple[float, float, float, float]]:
        m = PYRAMIDS[size].mass * 1e3
        mates = self.placed[:2]
        gap_mm = self.care.gap_mm
        found = []
        for i, mate in enumerate(mates):
            other = mates[1 - i]
            heading = yaw_deg(mate.pose)
            phis = heading + np.arange(0.0, 360.0, 5.0)
            hull = contact_hull(size, heading, mate.kind, heading)
            p = base_xy(mate) + contact_distances(hull, phis, gap_mm)[:, None] * np.stack(
                [np.cos(np.radians(phis)), np.sin(np.radians(phis))], axis=-1
            )
            clear = contact_hull(size, heading, other.kind, yaw_deg(other.pose))
            ok = polygon_gaps(clear, p - base_xy(other)) >= CLEAR_MM
            found.append((p[ok], np.full(int(ok.sum()), heading)))
        p = np.concatenate([f[0] for f in found])
        headings = np.concatenate([f[1] for f in found])
        if not len(p):
            return []
        a, b = base_xy(mates[0]), base_xy(mates[1])
        pos = [np.broadcast_to(a, p.shape)[:, None], np.broadcast_to(b, p.shape)[:, None]]
        s = self._score(m, size, 0.0, [*pos, p[:, None, :]], done=2, check_card=False)[:, 0]
        s = s + self._on_card(size, p, headings)
        order = np.argsort(-s, kind="stable")
        return [
            (float(p[i, 0]), float(p[i, 1]), headings[i] % 360.0, float(s[i])) for i in order[:24]
        ]

    def _score(
        self,
        m: float,
        size: str,
        heading: np.ndarray | float,
        pos: Sequence[np.ndarray],
        done: int = 0,
        check_card: bool = True,
        coarse: bool = False,
        width: np.ndarray | None = None,
        centre: np.ndarray | None = None,
    ) -> np.ndarray:
        """Score of layouts: pos[i] (..., 2) is where pyramid i goes; the first `done` stand.

        The margin of every remaining stage over every card below (mm, capped), plus the
        future's share, minus a penalty for footprints off the card.
        """
        x1, x2, x3 = pos
        shape = np.broadcast_shapes(x1.shape, x2.shape, x3.shape)[:-1]
        # `width` and `centre` (the tips' inradius and incentre) may come worked out
        card = incentre(x1, x2, x3) if centre is None else centre
        own = np.full(shape, self.care.own_cap)
        sups = self._stacked(coarse)
        if sups is not None:
            # every card below at once (the level's pieces already standing are in its load)
            k = len(sups.mass)
            mass = sups.mass
            moment = sups.moment.reshape(k, *(1,) * len(shape), 2)
            stages = []
            for i, x in enumerate((x1, x2, x3)):
                if i < done:
                    continue
                mass = mass + m
                moment = moment + m * x
                stages.append((mass, moment))
            stages.append((mass + CARD_G, moment + CARD_G * card))
            for mass_k, moment_k in stages:
                load = moment_k / mass_k.reshape(k, *(1,) * (moment_k.ndim - 1))
                own = np.minimum(own, sups.margin(load).min(axis=0))
        # the card, centred on the incentre, rests on the new tips by their inradius
        width = inradius(x1, x2, x3) if width is None else width
        own = np.minimum(own, width - CARD_RESERVE_MM)
        future = np.minimum(width, FUTURE_CAP)
        if sups is not None and self.care.future > 0:
            at = np.broadcast_to(card, (len(sups.mass), *card.shape))
            future = np.minimum(future, sups.margin(at).min(axis=0))
        score = _utility(own, self.care.own_cap) + self.care.future * future
        if check_card and self.below is not None:
            h = np.asarray(heading)  # broadcast late: the trigonometry once a layout
            for i, x in enumerate((x1, x2, x3)):
                if i >= done:
                    # pieces after the next want more room: the hand will shift them
                    spare = EDGE_MM + LATER_EDGE_MM * (i - done)
                    score = score + self._on_card(size, x, h, spare)
        return np.asarray(score)

    def _on_card(
        self, size: str, x: np.ndarray, heading: np.ndarray, spare: float = EDGE_MM
    ) -> np.ndarray:
        """0 where a pyramid at x (turned `heading`) stands `spare` mm inside the card below,
        less (2 a millimetre) closer to the edge, and a large penalty within EDGE_MM of it."""
        if self.below is None:
            return np.zeros(x.shape[:-1])
        cx, cy = base_xy(self.below)
        ch = math.radians(yaw_deg(self.below.pose))
        c, s = math.cos(ch), math.sin(ch)
        dx, dy = x[..., 0] - cx, x[..., 1] - cy
        lx, ly = c * dx + s * dy, -s * dx + c * dy
        rel = np.radians(heading - math.degrees(ch))
        ext = PYRAMIDS[size].base / MM / 2 * (np.abs(np.cos(rel)) + np.abs(np.sin(rel)))
        room = np.minimum(HALF_W - np.abs(lx), HALF_L - np.abs(ly)) - ext
        soft = 2.0 * np.minimum(room - spare, 0.0)
        return np.asarray(np.where(room < EDGE_MM, -1000.0 + room, soft))

    # -- the card -------------------------------------------------------------------------------
    def card_spots(self) -> list[tuple[float, float, float, float]]:
        """(x, y, heading, score) of this level's card, best first."""
        pyramids = self.placed
        if len(pyramids) < 3:
            cx, cy, heading = level_centre(self.tower, self.level)
            if pyramids:
                tips = np.array([tip_xy(p) for p in pyramids])
                cx, cy = float(tips[:, 0].mean()), float(tips[:, 1].mean())
            return [(cx, cy, heading, 0.0)]
        tips = np.array([tip_xy(p) for p in pyramids])
        middle = incentre(tips[0], tips[1], tips[2])
        own_sup = Support.of(tips, 0.0, np.zeros(2))
        h0 = yaw_deg(pyramids[0].pose)
        grid = np.arange(-8, 9) * 0.5
        gx, gy = np.meshgrid(grid, grid)
        spots = middle + np.stack([gx.ravel(), gy.ravel()], axis=-1)
        off = np.hypot(spots[:, 0] - middle[0], spots[:, 1] - middle[1])
        # the card's own rest and every card below carrying it: the same at every heading
        own = np.minimum(own_sup.margin(spots), self.care.own_cap)
        for sup in self.supports:
            load = (sup.moment + CARD_G * spots) / (sup.mass + CARD_G)
            own = np.minimum(own, sup.margin(load))
        steady = _utility(own, self.care.own_cap)
        out = []
        for turn in range(0, 180, 15):
            heading = h0 + turn
            t = math.radians(heading)
            c, s = math.cos(t), math.sin(t)
            # the tips well inside the card
            room = np.full(len(spots), np.inf)
            for tip in tips:
                dx, dy = tip[0] - spots[:, 0], tip[1] - spots[:, 1]
                lx, ly = c * dx + s * dy, -s * dx + c * dy
                room = np.minimum(room, np.minimum(HALF_W - np.abs(lx), HALF_L - np.abs(ly)))
            # Centred on the incentre (where the next level will centre) unless the cards below
            # want it shifted; turned to leave the most room round the incentre.
            dx, dy = middle[0] - spots[:, 0], middle[1] - spots[:, 1]
            lx, ly = c * dx + s * dy, -s * dx + c * dy
            around = np.minimum(HALF_W - np.abs(lx), HALF_L - np.abs(ly))
            score = steady - 0.02 * off + 0.01 * np.minimum(around, 30.0)
            score = np.where(room < TIP_EDGE_MM, -1000.0 + room, score)
            for i in np.argsort(-score, kind="stable")[:4]:
                out.append((float(spots[i, 0]), float(spots[i, 1]), heading % 360.0, score[i]))
        out.sort(key=lambda c: -c[3])
        return [(x, y, h, float(v)) for x, y, h, v in out]


def _utility(own: np.ndarray, cap: float = OWN_CAP) -> np.ndarray:
    """What a worst-stage margin (mm) is worth: capped, and steep where it is thin."""
    return np.asarray(np.minimum(own, cap) + (STEEP - 1) * np.minimum(own - SAFE_MM, 0.0))

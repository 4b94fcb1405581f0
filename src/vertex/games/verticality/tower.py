"""One player's tower: its pieces as poses, how a placement is checked, simulated and judged.

Everything here is relative to the player's base (the origin). Judging uses the poses after
the settle, piece by piece against what it stands on, so a slowly leaning tower is not taken
for a fallen one and a fallen piece is never missed:
- a pyramid has fallen when it tilts more than 25° or its base is more than 3 mm below the card
  it stood on (it dropped to a lower level);
- a card is off when it tilts more than 15° or no pyramid of its level still holds it up.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from vertex.core.errors import IllegalMove
from vertex.games.verticality.notation import Aim, make_aim
from vertex.physics import CAP_S, PYRAMIDS, Keyframes, Kind, Pose, settle, tilt_deg, yaw_pose
from vertex.physics.geometry import (
    apex,
    card_footprint,
    card_top_z,
    gap,
    inside,
    nearest_points,
    penetration,
    pyramid_footprint,
    rotate,
    yaw_deg,
)
from vertex.physics.pieces import CARD_THICKNESS

MM = 1e-3
#: Pieces come down from this height above what they land on (m).
DROP = 1.0 * MM
#: Touching rule: a gap this small (m) between footprints still counts as touching.
TOUCH = 1.0 * MM
#: Nudging: a new pyramid may be aimed this deep (m) into a piece of its level, no deeper.
NUDGE_MAX = 4.0 * MM
#: Snapping: a pyramid aimed this close (m) to one of its level but not touching is moved
#: straight towards it, as a hand nudges a pyramid against another, to stand SNAP_GAP apart
#: (inside the touching tolerance, clear of the neighbour for a steady hand).
SNAP = 5.0 * MM
SNAP_GAP = 0.5 * MM
FALL_TILT = 25.0
CARD_TILT = 15.0
#: How far below its support a piece may sink before it counts as dropped a level (m).
DROP_TOL = 3.0 * MM

Outcome = Literal["placed", "slid", "fell"]


@dataclass(frozen=True, slots=True)
class Piece:
    kind: Kind  # "S", "M", "L" or "card"
    level: int  # 1-based
    pose: Pose


@dataclass(frozen=True, slots=True)
class Tower:
    pieces: tuple[Piece, ...] = ()
    levels: int = 0  # levels completed (card placed and holding)
    standing: bool = True
    mulligan_used: bool = False
    #: Height (m) of the tower after its last good placement: a fallen tower keeps it.
    built: float = 0.0
    #: The step (counted over the game) in which the tower fell, if it did.
    fell_at: int | None = None
    #: The last settle, for the page to animate, and what it came to.
    keyframes: Keyframes | None = None
    last_event: str = ""
    #: How it fell, for words in the player's language: cause ("card" slid off, a pyramid
    #: "tipped" or "dropped"), the level, and whether a shake (m/s²) or a second slide did it.
    fall: dict[str, Any] | None = field(default=None, compare=False)

    # ---- what stands where -------------------------------------------------------------
    def pyramids_of(self, level: int) -> list[Piece]:
        return [p for p in self.pieces if p.level == level and p.kind != "card"]

    def card_of(self, level: int) -> Piece | None:
        for p in self.pieces:
            if p.level == level and p.kind == "card":
                return p
        return None

    def height(self) -> float:
        """Highest point of the tower above the table (m)."""
        best = 0.0
        for p in self.pieces:
            if p.kind == "card":
                best = max(best, p.pose[2] + CARD_THICKNESS / 2)
            else:
                best = max(best, apex(p.kind, p.pose)[2])
        return best

    def lean(self) -> float:
        """Tilt of the top card, or of the steepest pyramid when no card is placed (degrees)."""
        card = self.card_of(self.levels)
        if card is not None:
            return tilt_deg(card.pose)
        return max((tilt_deg(p.pose) for p in self.pieces), default=0.0)

    def returned(self) -> dict[str, int]:
        """Pyramids by size, as they go back to the supply."""
        out = {"S": 0, "M": 0, "L": 0}
        for p in self.pieces:
            if p.kind != "card":
                out[p.kind] += 1
        return out

    def surface_z(self, level: int, x: float, y: float) -> float:
        """Height of the surface of `level` above (x, y): the table or the card below."""
        card = self.card_of(level - 1)
        return 0.0 if card is None else card_top_z(card.pose, x, y)

    # ---- placing -----------------------------------------------------------------------
    def check(
        self, level: int, step: int, size: str, aim: Aim, skyscraper: bool, snap: bool = True
    ) -> Aim:
        """The aim to play: `aim` itself, or (with `snap`) moved against its nearest neighbour
        when it misses the touching rule by at most SNAP; IllegalMove (saying why) for an aim
        the rules forbid, before any simulation. The planner checks without snapping: its
        aims touch already, and its scattered random aims keep their scatter."""
        if not snap:
            self._check(level, step, size, aim, skyscraper)
            return aim
        try:
            self._check(level, step, size, aim, skyscraper)
            return aim
        except IllegalMove as refusal:
            if refusal.reason != "touching" or float(refusal.params["gap_mm"]) > SNAP / MM:
                raise
            snapped = self._snapped(level, size, aim)
            if snapped is None:
                raise
            try:
                self._check(level, step, size, snapped, skyscraper)
            except IllegalMove:
                raise refusal from None
            return snapped

    def _snapped(self, level: int, size: str, aim: Aim) -> Aim | None:
        """`aim` moved straight towards the nearest pyramid of its level (along the line of
        their nearest points) until it stands SNAP_GAP from it; None if there is none."""
        foot = pyramid_footprint(size, yaw_pose(aim.x * MM, aim.y * MM, 0.0, aim.rot))
        mates = [pyramid_footprint(m.kind, m.pose) for m in self.pyramids_of(level)]
        if not mates:
            return None
        mate = min(mates, key=lambda m: gap(foot, m))
        (px, py), (qx, qy) = nearest_points(foot, mate)
        distance = math.hypot(qx - px, qy - py)
        if distance <= SNAP_GAP:
            return None
        move = (distance - SNAP_GAP) / distance
        x = aim.x + (qx - px) * move / MM
        y = aim.y + (qy - py) * move / MM
        return make_aim(aim.piece, x, y, aim.rot, aim.haste)

    def _check(self, level: int, step: int, size: str, aim: Aim, skyscraper: bool) -> None:
        if aim.piece == "card":
            if step != 3:
                raise IllegalMove(
                    f"this step places pyramid {step + 1} of level {level}, not a card",
                    "pyramid-now",
                    {"pyramid": step + 1, "level": level},
                )
            return
        if step == 3:
            raise IllegalMove(
                f"this step places the card of level {level}, not a pyramid",
                "card-now",
                {"level": level},
            )
        pose = yaw_pose(aim.x * MM, aim.y * MM, 0.0, aim.rot)
        foot = pyramid_footprint(size, pose)
        below = self.card_of(level - 1)
        if below is not None and not all(inside(card_footprint(below.pose), c) for c in foot):
            raise IllegalMove(
                f"aiming into a lower level: the pyramid must stand wholly on your level-"
                f"{level - 1} card (card centre at {_mm(below.pose[0])}, {_mm(below.pose[1])} mm)",
                "lower-level",
                {"level": level - 1},
            )
        mates = self.pyramids_of(level)
        for mate in mates:
            depth = penetration(foot, pyramid_footprint(mate.kind, mate.pose))
            if depth > NUDGE_MAX:
                raise IllegalMove(
                    f"aimed {depth / MM:.1f} mm into the pyramid at {_mm(mate.pose[0])}, "
                    f"{_mm(mate.pose[1])} mm: pieces cannot pass through each other (nudge at "
                    f"most {NUDGE_MAX / MM:g} mm deep)",
                    "overlap",
                    {"depth_mm": round(depth / MM, 1), "nudge_mm": NUDGE_MAX / MM},
                )
        if mates and not skyscraper:
            nearest = min(gap(foot, pyramid_footprint(m.kind, m.pose)) for m in mates)
            if nearest > TOUCH:
                # rounded up, to the tenth that decides: 1.04 mm reads 1.1, never "1 mm"
                gap_mm = math.ceil(round(nearest / MM, 6) * 10) / 10
                raise IllegalMove(
                    f"touching rule: each pyramid must touch another of its level, and this one "
                    f"would stand {gap_mm:.1f} mm from the nearest (aim closer, within "
                    f"{TOUCH / MM:g} mm)",
                    "touching",
                    {"gap_mm": gap_mm, "within_mm": TOUCH / MM},
                )

    def card_rest(self, level: int, aim: Aim) -> None:
        """IllegalMove ("card-unsupported") unless a card aimed at `aim` rests on the level's
        pyramids: all their tips under it and its centre over the triangle they make, so it
        would not slide off at once. The aim check says so before the card is dropped; a
        card played there anyway is dropped and judged (it slides: the mulligan)."""
        tips = [apex(p.kind, p.pose)[:2] for p in self.pyramids_of(level)]
        if not tips:
            return
        centre = (aim.x * MM, aim.y * MM)
        foot = card_footprint(yaw_pose(centre[0], centre[1], 0.0, aim.rot))
        under = [t for t in tips if inside(foot, t)]
        hull = _hull(tips)
        if len(under) == len(tips) and len(hull) >= 3 and inside(hull, centre):
            return
        mx = sum(t[0] for t in tips) / len(tips) / MM
        my = sum(t[1] for t in tips) / len(tips) / MM
        raise IllegalMove(
            f"the card would not rest on your pyramids: {len(under)} of their {len(tips)} tips "
            f"are under it and its centre must be over the triangle they make (their middle "
            f"is at {mx:.1f}, {my:.1f} mm)",
            "card-unsupported",
            {"under": len(under), "tips": len(tips), "x": round(mx, 1), "y": round(my, 1)},
        )

    def place(
        self,
        level: int,
        size: str,
        aim: Aim,
        noise: tuple[float, float, float],
        step_no: int,
        cap_s: float = CAP_S,
        give_up_mm: float | None = None,
    ) -> tuple[Tower, Outcome]:
        """Drop the aimed piece (with the tremor `noise`: dx mm, dy mm, drot deg) and settle
        (for at most `cap_s` simulated seconds: a player's trials look at less than the game;
        with `give_up_mm`, a trial's drop that moves a piece below that far is "fell" at once,
        the tower returned being where the simulation stopped)."""
        x = (aim.x + noise[0]) * MM
        y = (aim.y + noise[1]) * MM
        rot = aim.rot + noise[2]
        if aim.piece == "card":
            tops = [apex(p.kind, p.pose)[2] for p in self.pyramids_of(level)]
            z = max(tops, default=self.surface_z(level, x, y)) + CARD_THICKNESS / 2 + DROP
            new = Piece("card", level, yaw_pose(x, y, z, rot))
        else:
            flat = yaw_pose(x, y, 0.0, rot)
            z = max(self.surface_z(level, cx, cy) for cx, cy in pyramid_footprint(size, flat))
            new = Piece(size, level, yaw_pose(x, y, z + DROP, rot))  # type: ignore[arg-type]
        pieces = (*self.pieces, new)
        kinds, poses = [p.kind for p in pieces], [p.pose for p in pieces]
        result = settle(kinds, poses, cap_s=cap_s, give_up_mm=give_up_mm)
        settled = tuple(replace(p, pose=q) for p, q in zip(pieces, result.poses, strict=True))
        tower = replace(self, pieces=settled, keyframes=result.keyframes)
        if result.gave_up:
            return replace(tower, standing=False, last_event="came down in a trial"), "fell"
        failure = tower.failure(top_card_level=level if aim.piece == "card" else None)
        if failure is None:
            levels = level if aim.piece == "card" else self.levels
            placed = replace(tower, levels=levels, last_event="placed")
            return replace(placed, built=placed.height()), "placed"
        what, reason, cause, at_level = failure
        if what == "slid" and not self.mulligan_used:
            kept = settled[:-1]
            event = f"{reason}: mulligan used, place the card again"
            return replace(tower, pieces=kept, mulligan_used=True, last_event=event), "slid"
        if what == "slid":
            reason += " for the second time"
        fall = {"cause": cause, "level": at_level, "twice": what == "slid", "shaken": None}
        fallen = replace(tower, standing=False, fell_at=step_no, last_event=reason, fall=fall)
        return fallen, "fell"

    def shake(self, strength: float, step_no: int) -> Tower:
        """Natural forces: sway the table with `strength` (m/s²) and see what still stands."""
        result = settle([p.kind for p in self.pieces], [p.pose for p in self.pieces], strength)
        settled = tuple(replace(p, pose=q) for p, q in zip(self.pieces, result.poses, strict=True))
        tower = replace(self, pieces=settled, keyframes=result.keyframes)
        failure = tower.failure(top_card_level=None)
        if failure is None:
            return replace(tower, last_event=f"withstood a shake of {strength:g} m/s²")
        event = f"shaken at {strength:g} m/s²: {failure[1]}"
        fall = {"cause": failure[2], "level": failure[3], "twice": False, "shaken": strength}
        return replace(tower, standing=False, fell_at=step_no, last_event=event, fall=fall)

    def failure(self, top_card_level: int | None) -> tuple[str, str, str, int] | None:
        """("fell" | "slid", reason, cause, level) for the first piece out of place, or None.

        `top_card_level` names the card just placed: if it alone is off, that is a slide (the
        mulligan case); any other card off takes the pyramids on it down, a fall.
        """
        slid: tuple[str, str, str, int] | None = None
        for p in self.pieces:
            if p.kind == "card":
                reason = self._card_off(p)
                if reason is None:
                    continue
                if p.level == top_card_level:
                    slid = ("slid", f"the level-{p.level} card {reason}", "card", p.level)
                else:
                    return ("fell", f"the level-{p.level} card {reason}", "card", p.level)
            else:
                tilt = tilt_deg(p.pose)
                if tilt > FALL_TILT:
                    why = f"a level-{p.level} pyramid tipped over ({tilt:.0f}°)"
                    return ("fell", why, "tipped", p.level)
                if p.level > 1:
                    support = self.surface_z(p.level, p.pose[0], p.pose[1])
                    if p.pose[2] < support - DROP_TOL:
                        why = f"a level-{p.level} pyramid dropped below its level"
                        return ("fell", why, "dropped", p.level)
        return slid

    def _card_off(self, card: Piece) -> str | None:
        tilt = tilt_deg(card.pose)
        if tilt > CARD_TILT:
            return f"slid off (tilted {tilt:.0f}°)"
        foot = card_footprint(card.pose)
        nx, ny, nz = rotate(card.pose, (0.0, 0.0, 1.0))
        bottom = card.pose[2] - CARD_THICKNESS / 2
        for p in self.pyramids_of(card.level):
            ax, ay, az = apex(p.kind, p.pose)
            if not inside(foot, (ax, ay)):
                continue
            under = bottom - (nx * (ax - card.pose[0]) + ny * (ay - card.pose[1])) / nz
            if abs(under - az) <= DROP_TOL:
                return None
        return "slid off its pyramids"


def level_centre(tower: Tower, level: int) -> tuple[float, float, float]:
    """Centre (mm) and heading (degrees) of the surface of `level`."""
    card = tower.card_of(level - 1)
    if card is None:
        return (0.0, 0.0, 0.0)
    return (card.pose[0] / MM, card.pose[1] / MM, yaw_deg(card.pose) % 360.0)


def size_base(size: str) -> float:
    return PYRAMIDS[size].base


def _mm(v: float) -> str:
    return f"{v / MM:.1f}"


def _hull(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The convex hull of `points`, counter-clockwise (monotone chain); collinear points and
    duplicates dropped."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return pts

    def cross(o: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[tuple[float, float]] = []
    upper: list[tuple[float, float]] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]

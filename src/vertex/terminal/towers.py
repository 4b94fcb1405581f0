"""Text view of towers on a simulated table (Verticality), from the board view: each tower as
numbers (levels, height, lean, pieces), enough to play Solo style at the terminal and to debug
the physics. A suggested aim (where the game would drop the piece, `Aiming.default_aim`) is
shown for every seat due, to copy or adjust."""

from __future__ import annotations

import math
from typing import Any

from vertex.core.game import State
from vertex.terminal.registry import text_board


def tilt_deg(quaternion: list[float]) -> float:
    """Angle between a piece's up axis and the vertical (quaternion w, x, y, z)."""
    _, x, y, _ = quaternion
    return math.degrees(math.acos(max(-1.0, min(1.0, 1.0 - 2.0 * (x * x + y * y)))))


def yaw_deg(quaternion: list[float]) -> float:
    """Heading of a piece's x axis about the vertical, in degrees (-180, 180]."""
    w, x, y, z = quaternion
    return math.degrees(math.atan2(2.0 * (x * y + w * z), 1.0 - 2.0 * (y * y + z * z)))


@text_board("towers")
def towers_text(state: State) -> str:
    view = state.to_dict()
    board = view["board"]
    die = board["die"]
    rolled = die["rolls"]
    reroll = f" (rolled {', '.join(rolled[:-1])} first: too few left)" if len(rolled) > 1 else ""
    supply = " · ".join(f"{s} {n}" for s, n in board["supply"].items())
    out = [
        f"level {board['level']}, {board['step_name']} — die {die['face']}: "
        f"{die['size_name']} pyramids{reroll}",
        f"supply {supply} · tremor {board['tremor_mm']:g} mm"
        + (" · skyscraper style" if board["skyscraper"] else ""),
    ]
    forces = board["natural_forces"]
    if forces["shakes"]:
        out.append(
            f"natural forces: {forces['shakes']} shakes, last at {forces['strength']:g} m/s²"
        )
    for tower in board["towers"]:
        out.extend(_tower_lines(view, tower))
    for event in board["events"]:
        out.append(f"! {event}")
    aiming = state.aiming()
    if not view["is_over"]:
        out.append(
            "aim: pyramid|card x=<mm> y=<mm> rot=<deg> [haste=0..1], from the centre of your base"
        )
        if aiming is not None:
            for seat in view["to_move"]:
                out.append(f"  suggested for seat {seat}: {aiming.default_aim(seat)}")
    return "\n".join(out)


def _tower_lines(view: dict[str, Any], tower: dict[str, Any]) -> list[str]:
    board = view["board"]
    seat = tower["seat"]
    status = (
        "standing"
        if tower["standing"]
        else f"FELL at step {tower['fell_at_step']} ({tower['last_event']})"
    )
    placed = " [placed]" if seat in board["placed"] else ""
    lines = [
        f"seat {seat}: {status} · levels {tower['levels']} · height {tower['height_mm']:.2f} mm"
        f" · lean {tower['tilt_deg']:.1f}° · "
        f"mulligan {'used' if tower['mulligan_used'] else 'unused'}" + placed
    ]
    pieces = tower["pieces"]
    top = max((p["level"] for p in pieces), default=0)
    for level in range(1, top + 1):
        text = "  ".join(_piece(p) for p in pieces if p["level"] == level)
        lines.append(f"   level {level}: {text}")
    level = board["level"]
    if tower["standing"] and not view["is_over"]:
        card = next((p for p in pieces if p["level"] == level - 1 and p["kind"] == "card"), None)
        if card is None:
            x = y = heading = 0.0
        else:
            x, y = card["position_mm"][0], card["position_mm"][1]
            heading = yaw_deg(card["quaternion"]) % 360.0
        where = "the table" if level == 1 else f"the level-{level - 1} card"
        lines.append(
            f"   level {level} builds on {where}: centre ({x:.1f}, {y:.1f}), turned {heading:.0f}°"
        )
    return lines


def _piece(p: dict[str, Any]) -> str:
    x, y, z = p["position_mm"]
    tilt = tilt_deg(p["quaternion"])
    return f"{p['kind']} ({x:.1f}, {y:.1f}, z {z:.1f})" + (
        f" tilt {tilt:.0f}°" if tilt >= 1 else ""
    )

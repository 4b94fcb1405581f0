"""Text view of Verticality: each tower as numbers (levels, height, lean, pieces), enough to
play Solo style at the terminal and to debug the physics. A suggested aim (the planner's) is
shown for every seat due, to copy or adjust."""

from __future__ import annotations

from vertex.core.game import State
from vertex.games.verticality.game import VerticalityState
from vertex.games.verticality.plan import plan_aim
from vertex.games.verticality.rules import SIZE_NAMES
from vertex.games.verticality.tower import MM, Tower, level_centre
from vertex.physics import tilt_deg
from vertex.terminal.registry import text_board


@text_board("verticality")
def verticality_text(state: State) -> str:
    assert isinstance(state, VerticalityState)
    board = state.to_dict()["board"]
    die = board["die"]
    rolled = die["rolls"]
    reroll = f" (rolled {', '.join(rolled[:-1])} first: too few left)" if len(rolled) > 1 else ""
    supply = " · ".join(f"{s} {n}" for s, n in state.supply.items())
    options = state.game.options
    out = [
        f"level {state.level}, {board['step_name']} — die {die['face']}: "
        f"{SIZE_NAMES[state.size]} pyramids{reroll}",
        f"supply {supply} · tremor {options.tremor_mm:g} mm"
        + (" · skyscraper style" if options.skyscraper else ""),
    ]
    if state.shakes:
        strength = board["natural_forces"]["strength"]
        out.append(f"natural forces: {state.shakes} shakes, last at {strength:g} m/s²")
    for seat, tower in enumerate(state.towers):
        out.extend(_tower_lines(state, seat, tower))
    for event in state.events:
        out.append(f"! {event}")
    if not state.is_over:
        out.append(
            "aim: pyramid|card x=<mm> y=<mm> rot=<deg> [haste=0..1], from the centre of your base"
        )
        for seat in state.to_move:
            out.append(f"  suggested for seat {seat}: {plan_aim(state, seat)}")
    return "\n".join(out)


def _tower_lines(state: VerticalityState, seat: int, tower: Tower) -> list[str]:
    status = "standing" if tower.standing else f"FELL at step {tower.fell_at} ({tower.last_event})"
    placed = " [placed]" if seat in state.due and state.aims[seat] is not None else ""
    lines = [
        f"seat {seat}: {status} · levels {tower.levels} · height {tower.built / MM:.1f} mm · "
        f"lean {tower.lean():.1f}° · mulligan {'used' if tower.mulligan_used else 'unused'}"
        + placed
    ]
    top = max((p.level for p in tower.pieces), default=0)
    for level in range(1, top + 1):
        pieces = [p for p in tower.pieces if p.level == level]
        text = "  ".join(
            f"{p.kind} ({p.pose[0] / MM:.1f}, {p.pose[1] / MM:.1f}, z {p.pose[2] / MM:.1f})"
            + (f" tilt {tilt_deg(p.pose):.0f}°" if tilt_deg(p.pose) >= 1 else "")
            for p in pieces
        )
        lines.append(f"   level {level}: {text}")
    if tower.standing and not state.is_over:
        x, y, heading = level_centre(tower, state.level)
        where = "the table" if state.level == 1 else f"the level-{state.level - 1} card"
        lines.append(
            f"   level {state.level} builds on {where}: centre ({x:.1f}, {y:.1f}), "
            f"turned {heading:.0f}°"
        )
    return lines

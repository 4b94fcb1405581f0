"""Why a line is not playable now, for the page (RULES.md §2): a code per undrawn line.

The page knows no rules, so the board view states for every undrawn line the seat due may not
draw the first rule it breaks, in the order `Vert3xState.why_illegal` checks them:

- `inside-scored`: part of it lies inside a scored triangle (`seal_scored`);
- `crosses`: it crosses another seat's line (`seat`, and that `line`);
- `vertex-held`: one of its dots is held by another seat (`seat`, and that `dot`);
- `no-start-contact`: the seat's first line must touch its start dot (`dot`);
- `not-connected`: it shares no dot with the seat's lines.

Each reason is a handful of mask operations over the board's lines, so the whole table costs
about as much as `legal_moves()`; only the (few) blocked lines are then named one by one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from vertex.games.vert3x.bits import bits as _bits
from vertex.lattice.names import dot_name

if TYPE_CHECKING:
    from vertex.games.vert3x.engine import Vert3xState

#: The reason codes, in the order they are checked.
CODES = ("inside-scored", "crosses", "vertex-held", "no-start-contact", "not-connected")

Reason = dict[str, Any]


def blocked_lines(state: Vert3xState) -> dict[str, Reason]:
    """{line name: {"reason": code, …}} for the seat due ({} when the game is over).

    `seat` is there when another seat is the cause (`crosses`, `vertex-held`); the table is
    sent with every state, so reasons that name no seat carry no `seat` key at all.
    """
    seat = state.seat
    if seat is None:
        return {}
    game = state.game
    opts = game.options
    geo = game.geometry
    board = geo.board
    names = board.line_names
    out: dict[str, Reason] = {}
    # lines still to explain: undrawn and not legal
    left = board.all_lines & ~state.drawn & ~state.legal_mask(seat)

    def take(mask: int, reason: Reason | None = None, each: Any = None) -> None:
        nonlocal left
        mask &= left
        if not mask:
            return
        left &= ~mask
        for i in _bits(mask):
            out[names[i]] = each(i) if each is not None else dict(reason or {})

    take(state.inside, {"reason": "inside-scored"})
    others = [t for t in range(game.seats) if t != seat]
    if opts.no_cross:
        for t in others:
            mine = state.lines[t]

            def crossing(i: int, t: int = t, mine: int = mine) -> Reason:
                hit = geo.crossing[i] & mine
                return {"reason": "crosses", "seat": t, "line": names[_lowest(hit)]}

            take(state.crossed[t], each=crossing)
    if opts.vertex_block:
        for t in others:
            theirs = state.lines[t]

            def held(i: int, t: int = t, theirs: int = theirs) -> Reason:
                dot = next(d for d in board.lines[i] if board.dot_lines[d] & theirs)
                return {"reason": "vertex-held", "seat": t, "dot": dot_name(*board.dots[dot])}

            take(state.near[t], each=held)
    if opts.connected and left:
        if not state.lines[seat] and game.start_dots is not None:
            start = dot_name(*board.dots[game.start_dots[seat]])
            take(left, {"reason": "no-start-contact", "dot": start})
        else:
            take(left, {"reason": "not-connected"})
    # every rule is above: a line left here would be a bug in this table, not in the engine
    assert not left, f"no reason for lines {[names[i] for i in _bits(left)]}"
    return out


def _lowest(mask: int) -> int:
    """The index of the lowest set bit (cheap on wide masks, unlike listing every bit)."""
    return (mask & -mask).bit_length() - 1

"""Playouts for the Dots family on plain lists: random, and the knowledgeable one MCTS uses.

A uniformly random playout is a random order of the lines left, so it is one shuffle and one
pass. The knowledgeable playout takes every cell offered, draws random quiet lines (lines
that offer nothing) while there are any, and once every line is a handout and the board is
only chains and loops it counts the rest exactly (`endgame.loony_value`) — so the long-chain
fight decides the playout, as it decides real games.
"""

from __future__ import annotations

import random

from vertex.ai.dots.endgame import components, loony_value
from vertex.ai.dots.kit import DotsKit, Pos, lines_of


def random_playout(
    kit: DotsKit, pos: Pos, rng: random.Random, trace: list[int] | None = None
) -> list[int]:
    """Uniformly random lines to the end; cells per turn index. `trace`, if given, gets the
    lines in the order drawn (for tests that replay a playout in the engine)."""
    if kit.touch_rule:
        return _random_touch(kit, pos, rng, trace)
    masks = kit.cell_masks
    line_cells = kit.line_cells
    rem = [(m & ~pos.drawn).bit_count() for m in masks]
    scores = list(pos.scores)
    turn = pos.turn
    seats = kit.seats
    extra = kit.extra_turn
    order = lines_of(kit.all_lines & ~pos.drawn)
    shuffle(order, rng)
    if trace is not None:
        trace.extend(order)  # every line left is drawn, in this order
    for line in order:
        got = 0
        for c in line_cells[line]:
            r = rem[c] - 1
            rem[c] = r
            if not r:
                got += 1
        if got:
            scores[turn] += got
            if extra:
                continue
        turn = (turn + 1) % seats
    return scores


def _random_touch(kit: DotsKit, pos: Pos, rng: random.Random, trace: list[int] | None) -> list[int]:
    p = pos
    while True:
        free = lines_of(kit.open_lines(p))
        if not free:
            return list(p.scores)
        line = free[rng.randrange(len(free))]
        if trace is not None:
            trace.append(line)
        p = kit.play(p, line)


def smart_playout(
    kit: DotsKit, pos: Pos, rng: random.Random, trace: list[int] | None = None
) -> list[int]:
    """Take what is offered, play quiet lines at random, count simple endgames exactly.

    `trace`, if given, gets the lines drawn in order; it stops short of the end when the
    rest was counted exactly (an endgame of chains and loops only)."""
    masks = kit.cell_masks
    line_cells = kit.line_cells
    drawn = pos.drawn
    reach = pos.reach
    touch = kit.touch_rule
    line_reach = kit.line_reach
    rem = kit.remaining(drawn)
    pair = kit.line_pair
    scores = list(pos.scores)
    turn = pos.turn
    seats = kit.seats
    extra = kit.extra_turn
    exact = seats == 2 and extra and not kit.misere and not touch
    pending = lines_of(kit.all_lines & ~drawn)
    shuffle(pending, rng)
    later: list[int] = []  # not yet reachable (touch rule)
    unsafe: list[int] = []
    offered = [c for c, r in enumerate(rem) if r == 1]
    rnd = rng.random
    i = 0
    while True:
        # take every cell on offer (the extra turn keeps the move)
        while offered:
            c = offered.pop()
            if rem[c] != 1:
                continue
            line = (masks[c] & ~drawn).bit_length() - 1
            if trace is not None:
                trace.append(line)
            drawn |= 1 << line
            if touch:
                reach |= line_reach[line]
            got = 0
            for d in line_cells[line]:
                r = rem[d] - 1
                rem[d] = r
                if not r:
                    got += 1
                elif r == 1:
                    offered.append(d)
            scores[turn] += got
            if not extra:
                turn = (turn + 1) % seats
        # a quiet line, if any is left
        pick = -1
        while pick < 0:
            while i < len(pending):
                line = pending[i]
                i += 1
                if drawn >> line & 1:
                    continue
                if touch and not reach >> line & 1:
                    later.append(line)
                    continue
                a, b = pair[line]
                if rem[a] > 2 and rem[b] > 2:
                    pick = line
                    break
                unsafe.append(line)
            if pick >= 0 or not later or not any(reach >> ln & 1 for ln in later):
                break
            pending, later, i = later, [], 0
        if pick < 0:
            if exact and all(r == 2 or not r for r in rem[:-1]):
                comps = components(kit, drawn)
                if comps is not None:
                    left = sum(1 for r in rem[:-1] if r)
                    chains = tuple(sorted(c.size for c in comps if not c.loop))
                    loops = tuple(sorted(c.size for c in comps if c.loop))
                    v = loony_value(chains, loops)
                    scores[turn] += (left + v) // 2
                    scores[1 - turn] += (left - v) // 2
                    return scores
            # a handout at random
            unreachable: list[int] = []
            while unsafe:
                j = int(rnd() * len(unsafe))
                line = unsafe[j]
                unsafe[j] = unsafe[-1]
                unsafe.pop()
                if drawn >> line & 1:
                    continue
                if touch and not reach >> line & 1:
                    unreachable.append(line)
                    continue
                pick = line
                break
            unsafe.extend(unreachable)
            if pick < 0:
                return scores
        if trace is not None:
            trace.append(pick)
        drawn |= 1 << pick
        if touch:
            reach |= line_reach[pick]
        got = 0
        for d in line_cells[pick]:
            r = rem[d] - 1
            rem[d] = r
            if not r:
                got += 1
            elif r == 1:
                offered.append(d)
        if got:
            scores[turn] += got
            if extra:
                continue
        turn = (turn + 1) % seats


def shuffle(items: list[int], rng: random.Random) -> None:
    """Fisher-Yates with one float per swap (quicker than `Random.shuffle`, same spread
    for our purpose: the tiny bias of float scaling does not matter in a playout)."""
    rnd = rng.random
    for i in range(len(items) - 1, 0, -1):
        j = int(rnd() * (i + 1))
        items[i], items[j] = items[j], items[i]

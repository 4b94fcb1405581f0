"""The Dots family in the MCTS: integer positions, pruned move lists, knowledgeable playouts.

Seats inside the search are turn indices (the engine's `order`), so rewards line up with
`Pos.scores`. Move pruning follows the strategy books, for normal play with extra turns:
- a cell that can be taken without offering another is taken (it is never worse);
- with cells on offer the choices are: take one, or decline the last two (the double-deal);
- otherwise, while quiet lines (offering nothing) remain, only quiet lines;
- when every line is a handout and the board is only chains and loops, one opening per
  distinct chain or loop, opened the best way (a 2-chain in the middle).
"""

from __future__ import annotations

import random

from vertex.ai.dots.endgame import components
from vertex.ai.dots.kit import DotsKit, Pos, lines_of
from vertex.ai.dots.playout import random_playout, smart_playout


class DotsAdapter:
    def __init__(self, kit: DotsKit, smart: bool = True) -> None:
        self.kit = kit
        self.normal = not kit.misere and kit.extra_turn
        self.smart = smart and not kit.misere
        self.total = max(kit.live_cells, 1)

    def mover(self, pos: Pos) -> int:
        return pos.turn if self.kit.open_lines(pos) else -1

    def play(self, pos: Pos, move: int) -> Pos:
        return self.kit.play(pos, move)

    def name(self, pos: Pos, move: int) -> str:
        return self.kit.names[move]

    def moves(self, pos: Pos) -> list[int]:
        kit = self.kit
        free = lines_of(kit.open_lines(pos))
        if not self.normal or not self.smart:
            return free
        return candidate_lines(kit, pos.drawn, free)

    def rollout(self, pos: Pos, rng: random.Random) -> list[float]:
        kit = self.kit
        scores = smart_playout(kit, pos, rng) if self.smart else random_playout(kit, pos, rng)
        return self.rewards(scores)

    def rewards(self, scores: list[int]) -> list[float]:
        """Mostly the share of the win, a little the margin (more cells, or fewer in misère)."""
        best = min(scores) if self.kit.misere else max(scores)
        winners = [i for i, v in enumerate(scores) if v == best]
        n = len(scores)
        share = 1.0 / len(winners) if len(winners) < n else 1.0 / n
        out = []
        for i, v in enumerate(scores):
            frac = v / self.total
            if self.kit.misere:
                frac = 1.0 - frac
            out.append((0.9 * share if i in winners else 0.0) + 0.1 * frac)
        return out


def candidate_lines(kit: DotsKit, drawn: int, free: list[int]) -> list[int]:
    """The lines worth considering in normal play (see the module notes)."""
    masks = kit.cell_masks
    line_cells = kit.line_cells
    pair = kit.line_pair
    rem = kit.remaining(drawn)
    takes: list[int] = []
    declines: list[int] = []
    quiet: list[int] = []
    for line in free:
        a, b = pair[line]
        ra, rb = rem[a], rem[b]
        if ra == 1 or rb == 1:
            if ra != 2 and rb != 2:
                return [line]  # a free cell: take it
            takes.append(line)
        elif ra > 2 and rb > 2:
            quiet.append(line)
    if takes:
        # decline: leave the last two cells of a chain as a domino by drawing the far side
        for line in takes:
            for n in line_cells[line]:
                if rem[n] == 2:
                    far = (masks[n] & ~drawn) & ~(1 << line)
                    d = far.bit_length() - 1
                    if d >= 0 and all(rem[c] != 2 for c in line_cells[d] if c != n):
                        declines.append(d)
        return takes + [d for d in dict.fromkeys(declines) if d not in takes]
    if quiet:
        return quiet
    comps = components(kit, drawn) if not kit.touch_rule else None
    if comps:
        seen: set[tuple[bool, int]] = set()
        out = []
        for comp in comps:
            k = (comp.loop, comp.size)
            if k not in seen:
                seen.add(k)
                out.append(comp.opening_line())
        return out
    return free

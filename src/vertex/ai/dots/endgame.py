"""Simple loony endgames: when every move gives cells away, count chains and loops exactly.

When no cell can be taken and every unclaimed cell has exactly two undrawn sides, the board is
a set of independent chains (ending on the outside) and loops. The player to move must open
one; the other takes it all, or keeps control by taking all but two (all but four of a loop)
and handing those back — the double-deal. A short recursion over the multiset of chain and
loop lengths gives the exact value (two players, normal play, extra turn on capture).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from vertex.ai.dots.kit import DotsKit


@dataclass(frozen=True, slots=True)
class Component:
    """A chain (`loop=False`) or loop: its cells in order and its undrawn lines in order.

    A chain of n cells has n+1 lines: the ends (`lines[0]`, `lines[-1]`) lead outside.
    A loop of n cells has n lines.
    """

    loop: bool
    cells: tuple[int, ...]
    lines: tuple[int, ...]

    @property
    def size(self) -> int:
        return len(self.cells)

    def opening_line(self) -> int:
        """How to open it best: a 2-chain in the middle (hard-hearted), else at an end."""
        if not self.loop and self.size == 2:
            return self.lines[1]
        return self.lines[0]


def components(kit: DotsKit, drawn: int) -> list[Component] | None:
    """The chains and loops, or None when the position is not a simple loony endgame."""
    masks = kit.cell_masks
    free_lines: dict[int, list[int]] = {}
    for c, m in enumerate(masks):
        rem = m & ~drawn
        if not rem:
            continue
        if rem.bit_count() != 2:
            return None
        low = rem & -rem
        free_lines[c] = [low.bit_length() - 1, (rem ^ low).bit_length() - 1]
    if not free_lines:
        return []
    line_cells = kit.line_cells

    def across(line: int, cell: int) -> int:
        for other in line_cells[line]:
            if other != cell:
                return other
        return -1  # the outside

    seen: set[int] = set()
    out: list[Component] = []
    # chains: start from every cell with a side to the outside
    for c, (a, b) in free_lines.items():
        if c in seen:
            continue
        for first in (a, b):
            if across(first, c) == -1:
                break
        else:
            continue
        cells = [c]
        lines = [first]
        seen.add(c)
        line = b if first == a else a
        cur = c
        while True:
            lines.append(line)
            nxt = across(line, cur)
            if nxt == -1:
                break
            seen.add(nxt)
            cells.append(nxt)
            x, y = free_lines[nxt]
            line = y if x == line else x
            cur = nxt
        out.append(Component(False, tuple(cells), tuple(lines)))
    # what is left is loops
    for c, (a, _) in free_lines.items():
        if c in seen:
            continue
        cells = [c]
        lines = [a]
        seen.add(c)
        line, cur = a, c
        while True:
            nxt = across(line, cur)
            if nxt == c:
                break
            seen.add(nxt)
            cells.append(nxt)
            x, y = free_lines[nxt]
            line = y if x == line else x
            lines.append(line)
            cur = nxt
        out.append(Component(True, tuple(cells), tuple(lines)))
    return out


def shape(comps: list[Component]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    chains = tuple(sorted(c.size for c in comps if not c.loop))
    loops = tuple(sorted(c.size for c in comps if c.loop))
    return chains, loops


def open_value(loop: bool, n: int, rest: int) -> int:
    """The opener's net for opening one component when the rest is worth `rest` to the
    player who must open next: the other side takes all, or declines the last two (four in a
    loop) to keep control. A 2-chain opened in the middle leaves no such choice."""
    if loop:
        return -max(n + rest, n - 8 - rest)
    if n <= 2:
        return -(n + rest)
    return -max(n + rest, n - 4 - rest)


@lru_cache(maxsize=200_000)
def loony_value(chains: tuple[int, ...], loops: tuple[int, ...]) -> int:
    """Net cells for the player who must open a component, both sides playing perfectly."""
    if not chains and not loops:
        return 0
    best = -(10**9)
    for i, n in enumerate(chains):
        if not i or chains[i - 1] != n:
            rest = loony_value((*chains[:i], *chains[i + 1 :]), loops)
            best = max(best, open_value(False, n, rest))
    for i, n in enumerate(loops):
        if not i or loops[i - 1] != n:
            rest = loony_value(chains, (*loops[:i], *loops[i + 1 :]))
            best = max(best, open_value(True, n, rest))
    return best


def best_opening(comps: list[Component]) -> tuple[int, Component]:
    """The exact value and the component to open (with `opening_line()`)."""
    chains, loops = shape(comps)
    best: tuple[int, Component] | None = None
    for comp in comps:
        rest_c = list(chains)
        rest_l = list(loops)
        (rest_l if comp.loop else rest_c).remove(comp.size)
        v = open_value(comp.loop, comp.size, loony_value(tuple(rest_c), tuple(rest_l)))
        if best is None or v > best[0]:
            best = (v, comp)
    assert best is not None
    return best

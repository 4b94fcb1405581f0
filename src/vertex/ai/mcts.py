"""Monte Carlo tree search (UCT) for 2–6 players, over any game through a small adapter.

Every node keeps a total reward per seat, and the seat to move at a node picks the child that
is best for itself (max^n): no two-player negamax assumption. A game plugs in through an
`Adapter` — positions, moves, a rollout policy — so the generic adapter on the public `State`
covers every discrete game and the Dots family brings its own fast one. The tree is kept
between moves and re-rooted at the position actually reached.
"""

from __future__ import annotations

import math
import random
import time
from typing import Generic, Protocol, TypeVar

P = TypeVar("P")
M = TypeVar("M")


class Adapter(Protocol[P, M]):
    """What the search needs from a game, in the game's own currency."""

    def mover(self, pos: P) -> int:
        """The seat (index into rewards) to move; -1 once the game is over."""

    def moves(self, pos: P) -> list[M]:
        """Moves worth searching (may prune dominated ones), never empty before the end."""

    def play(self, pos: P, move: M) -> P: ...

    def rollout(self, pos: P, rng: random.Random) -> list[float]:
        """Play to the end (or estimate): a reward in [0, 1] per seat."""

    def name(self, pos: P, move: M) -> str:
        """The move in canonical notation."""


class Node(Generic[P, M]):
    __slots__ = ("children", "mover", "n", "pos", "untried", "w")

    def __init__(self, pos: P, mover: int, untried: list[M], seats: int) -> None:
        self.pos = pos
        self.mover = mover
        self.untried = untried
        self.children: list[tuple[M, Node[P, M]]] = []
        self.n = 0
        self.w = [0.0] * seats


class Mcts(Generic[P, M]):
    """UCT with a reusable tree. `exploration` is the UCB constant on rewards in [0, 1]."""

    def __init__(self, adapter: Adapter[P, M], seats: int, exploration: float = 0.7) -> None:
        self.adapter = adapter
        self.seats = seats
        self.c = exploration
        self.root: Node[P, M] | None = None
        self.iterations = 0

    def new_node(self, pos: P, rng: random.Random) -> Node[P, M]:
        mover = self.adapter.mover(pos)
        moves = self.adapter.moves(pos) if mover >= 0 else []
        if len(moves) > 1:
            rng.shuffle(moves)
        return Node(pos, mover, moves, self.seats)

    def set_root(self, pos: P, path: list[str] | None, rng: random.Random) -> Node[P, M]:
        """Re-root at `pos`, following `path` (move names since the old root) when given."""
        node = self.root if path is not None else None
        for name in path or []:
            if node is None:
                break
            node = self._child_named(node, name)
        if node is None or node.pos != pos:
            node = self.new_node(pos, rng)
        self.root = node
        return node

    def _child_named(self, node: Node[P, M], name: str) -> Node[P, M] | None:
        for move, child in node.children:
            if self.adapter.name(node.pos, move) == name:
                return child
        return None

    def search(
        self,
        rng: random.Random,
        iterations: int | None = None,
        deadline: float | None = None,
    ) -> None:
        """Run simulations until `iterations` are done or `deadline` (monotonic) passes."""
        root = self.root
        assert root is not None
        adapter = self.adapter
        c = self.c
        done = 0
        while True:
            if iterations is not None and done >= iterations:
                break
            if deadline is not None and time.monotonic() >= deadline:
                break
            done += 1
            node = root
            path = [node]
            # selection
            while not node.untried and node.children:
                log_n = math.log(node.n)
                me = node.mover
                best = -1.0
                pick = node.children[0][1]
                for _, child in node.children:
                    score = child.w[me] / child.n + c * math.sqrt(log_n / child.n)
                    if score > best:
                        best = score
                        pick = child
                node = pick
                path.append(node)
            # expansion
            if node.untried:
                move = node.untried.pop()
                child = self.new_node(adapter.play(node.pos, move), rng)
                node.children.append((move, child))
                node = child
                path.append(node)
            reward = adapter.rollout(node.pos, rng)
            for nd in path:
                nd.n += 1
                w = nd.w
                for s in range(len(w)):
                    w[s] += reward[s]
        self.iterations += done

    def best(self) -> M:
        """The most visited move at the root."""
        root = self.root
        assert root is not None
        if not root.children:
            return root.untried[-1]
        return max(root.children, key=lambda mc: mc[1].n)[0]

    def stats(self) -> list[tuple[str, int, float]]:
        """(move, visits, mean reward for the mover) per root child, most visited first."""
        root = self.root
        assert root is not None
        rows = [
            (self.adapter.name(root.pos, m), ch.n, ch.w[root.mover] / max(ch.n, 1))
            for m, ch in root.children
        ]
        return sorted(rows, key=lambda r: -r[1])

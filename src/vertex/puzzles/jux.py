"""Juxtapose puzzles by exact search to a small depth: wins in 1–3 and defences.

A win here ends the game at once, so "win within n of my moves whatever the other does"
is a short AND/OR search, exact to its depth (there is no solver for the whole game; the
goals are stated so that the search settles them: `win` within a depth, or `survive` —
leave the other no win at once). Drop-phase positions branch ~200 ways, so their wins are
looked for in one move only; slide-phase ones (~45 ways) up to three.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from vertex.games.juxtapose.game import MOVE_NAMES, SIZE, JuxtaposeState, move_code

MAX_DEPTH = 3
#: The drop phase is searched beyond one move once it has at most this many moves (4
#: pyramids left for 5 squares): ~200 ways early on, 20 near its end (wins in 2 and 3 found
#: there in ~0.02 s a position; at 30 ways a search takes ten times as long, and finds none).
DROP_BRANCHING = 20
#: The kinds found in the slide phase: its wins in 2 and 3 have more than one first move.
SLIDE_KINDS = ("win-in-1", "defence")


class SearchTimeout(Exception):
    """The search's deadline passed."""


def _square_maps() -> list[tuple[int, ...]]:
    """The 8 symmetries of the 4×4 board as square permutations: every line kind (rows,
    columns, long diagonals, colour triples) maps onto its own kind, so wins are kept."""
    out = []
    n = SIZE - 1
    for k in range(8):
        perm = []
        for sq in range(SIZE * SIZE):
            r, c = divmod(sq, SIZE)
            for _ in range(k % 4):
                r, c = c, n - r
            if k >= 4:
                c = n - c
            perm.append(r * SIZE + c)
        out.append(tuple(perm))
    return out


SQUARE_MAPS = _square_maps()


def position_key(state: JuxtaposeState) -> tuple[int, ...]:
    """The smallest image of the board under the symmetries, with the stash, the pyramids
    moved last and the seat to move (they do not move with the board)."""
    best: tuple[int, ...] | None = None
    for perm in SQUARE_MAPS:
        image = [0] * (SIZE * SIZE)
        for sq, p in enumerate(state.squares):
            image[perm[sq]] = p
        t = tuple(image)
        if best is None or t < best:
            best = t
    assert best is not None
    return (*best, state.stash, state.moved_last, state.turn)


@dataclass(frozen=True)
class JuxFound:
    kind: str  # "win" or "survive"
    depth: int
    answer: str
    line: tuple[str, ...]
    turns: int
    themes: tuple[str, ...]
    key: str
    keeps: tuple[str, ...] = ()


class JuxSearch:
    """Wins in n by AND/OR search with a table per search; `deadline` is time.monotonic."""

    def __init__(self, deadline: float | None = None) -> None:
        self.deadline = deadline
        self.table: dict[tuple[int, int, int, int, int], bool] = {}
        self.nodes = 0

    def _tick(self) -> None:
        self.nodes += 1
        if self.deadline is not None and not self.nodes & 0x3F and time.monotonic() > self.deadline:
            raise SearchTimeout

    def wins_within(self, state: JuxtaposeState, n: int) -> bool:
        """Can the mover make a line within `n` of their own moves, whatever the other does?"""
        if n <= 0 or state.to_move == ():
            return False
        codes = state.move_codes()
        if any(state.wins_at_once(c) for c in codes):
            return True
        if n == 1 or (state.stash and len(codes) > DROP_BRANCHING):  # searched_deep
            return False  # deeper searches early in the drop phase cost too much
        k = (state.code, state.stash, state.moved_last, state.turn, n)
        hit = self.table.get(k)
        if hit is not None:
            return hit
        self._tick()
        found = any(self.forces(state.apply(c), n - 1) for c in codes)
        self.table[k] = found
        return found

    def forces(self, after: JuxtaposeState, n: int) -> bool:
        """After the attacker's move (no line made), does every reply leave them a win within
        `n` more moves? A reply that makes a line, or ends the game drawn, escapes."""
        if after.to_move == ():
            return False
        replies = after.move_codes()
        if any(after.wins_at_once(r) for r in replies):
            return False
        return all(self.wins_within(after.apply(r), n) for r in replies)

    def keeps(self, state: JuxtaposeState, code: int, n: int) -> bool:
        """Does the attacker's move `code` win within `n` moves (this one counted)?"""
        if state.wins_at_once(code):
            return True
        return n >= 2 and self.forces(state.apply(code), n - 1)

    def distance(self, state: JuxtaposeState, limit: int) -> int:
        """The fewest moves the mover needs to force a line (limit + 1 if more)."""
        for n in range(1, limit + 1):
            if self.wins_within(state, n):
                return n
        return limit + 1

    def reply(self, after: JuxtaposeState, n: int) -> str:
        """The defender's reply: the one that puts the attacker's line furthest away (first of
        equals), so the player has to show the whole win."""
        best_code = -1
        best_d = -1
        for r in after.move_codes():
            d = self.distance(after.apply(r), n)
            if d > best_d:
                best_code, best_d = r, d
        return MOVE_NAMES[best_code]

    # ---- finding -----------------------------------------------------------------------------
    def find(self, state: JuxtaposeState) -> JuxFound | None:
        """A win in the fewest moves (up to MAX_DEPTH) with one first move up to symmetry, or
        else a defence: exactly one move (up to symmetry) leaves the other no line at once."""
        if state.to_move == () or state.game.seats != 2:
            return None
        codes = state.move_codes()
        if len(codes) < 3:
            return None
        depth = self.distance(state, MAX_DEPTH)
        if depth <= MAX_DEPTH:
            good: list[int] = []
            groups: set[tuple[int, ...]] = set()
            for c in codes:
                if self.keeps(state, c, depth):
                    good.append(c)
                    groups.add(position_key(state.apply(c)))
                    if len(groups) > 1:
                        return None  # a second way: no puzzle (most positions end here)
            line = self.win_line(state, good[0], depth)
            return JuxFound(
                "win",
                depth,
                MOVE_NAMES[good[0]],
                line,
                depth,
                (f"win-in-{depth}",),
                _hex(position_key(state)),
                tuple(MOVE_NAMES[c] for c in good),
            )
        safe = [c for c in codes if not _gives_line(state.apply(c))]
        groups = {position_key(state.apply(c)) for c in safe}
        if len(groups) != 1 or len(safe) == len(codes):
            return None
        answer = MOVE_NAMES[safe[0]]
        keeps = tuple(MOVE_NAMES[c] for c in safe)
        return JuxFound(
            "survive", 0, answer, (answer,), 1, ("defence",), _hex(position_key(state)), keeps
        )

    def win_line(self, state: JuxtaposeState, first: int, depth: int) -> tuple[str, ...]:
        moves = [MOVE_NAMES[first]]
        s = state.apply(first)
        n = depth - 1
        while s.to_move != () and n > 0:
            r = self.reply(s, n)
            moves.append(r)
            s = s.apply(move_code(r))
            nxt = next(c for c in s.move_codes() if self.keeps(s, c, n))
            moves.append(MOVE_NAMES[nxt])
            s = s.apply(nxt)
            n -= 1
        return tuple(moves)


def searched_deep(state: JuxtaposeState) -> bool:
    """Whether wins beyond one move are looked for here (the slide phase, the drop phase's
    end)."""
    return not state.stash or len(state.move_codes()) <= DROP_BRANCHING


def _gives_line(after: JuxtaposeState) -> bool:
    """Whether the position (the other to move) lets the other make a line at once."""
    if after.to_move == ():
        return after.winner is None  # a draw here is no defence puzzle's answer
    return any(after.wins_at_once(r) for r in after.move_codes())


def _hex(key: tuple[int, ...]) -> str:
    return "".join(f"{v & 0xFFFF:x}." for v in key)

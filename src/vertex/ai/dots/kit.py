"""The Dots family seen by the computer players: flat tables and a tiny position.

The engine's `DotsState` carries a history and builds a new object per line; search and
playouts need millions of lines, so they work here on plain ints and lists taken from the
board once per game: per line the cells it bounds, per cell its lines as a mask.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vertex.games.dots.engine import DotsGame, DotsState


@dataclass(frozen=True, slots=True)
class Pos:
    """A position: drawn lines, cells claimed per seat, turn index into the order, reach."""

    drawn: int
    scores: tuple[int, ...]
    turn: int
    reach: int


class DotsKit:
    """Tables for one game of the family (one per game; cheap to rebuild in a worker)."""

    def __init__(self, game: DotsGame[Any]) -> None:
        board = game.board
        self.game = game
        self.lines = len(board.lines)
        self.line_cells: tuple[tuple[int, ...], ...] = board.line_cells
        #: the two cells of each line, -1 for the outside: index a remaining-sides list that
        #: ends with a sentinel (see `remaining`) to test both sides without a loop
        self.line_pair: tuple[tuple[int, int], ...] = tuple(
            (cells[0], cells[1] if len(cells) > 1 else -1) for cells in board.line_cells
        )
        self.cell_masks: tuple[int, ...] = board.cell_masks
        self.cells = len(board.cell_masks)
        self.names = board.line_names
        self.all_lines = board.all_lines
        self.predrawn = game.predrawn
        self.seats = game.seats
        self.misere = bool(game.misere)
        self.extra_turn = bool(game.extra_turn)
        self.touch_rule = bool(game.touch_rule)
        self.line_reach = tuple(board.dot_lines[a] | board.dot_lines[b] for a, b in board.lines)
        #: the lines of each cell as lists (for finding a cell's missing side)
        self.cell_lines: tuple[tuple[int, ...], ...] = board.cells
        # cells closed by pre-drawn lines alone belong to nobody and never count
        self.dead = 0
        for c, mask in enumerate(board.cell_masks):
            if self.predrawn & mask == mask:
                self.dead |= 1 << c
        self.live_cells = self.cells - self.dead.bit_count()
        self.index = {name: i for i, name in enumerate(self.names)}

    # ---- positions -------------------------------------------------------------------------
    def pos(self, state: DotsState) -> Pos:
        return Pos(
            drawn=state.drawn,
            scores=tuple(m.bit_count() for m in state.owned),
            turn=state.turn,
            reach=state.reach,
        )

    def mover(self, pos: Pos, order: tuple[int, ...]) -> int:
        return order[pos.turn]

    def open_lines(self, pos: Pos) -> int:
        free = self.all_lines & ~pos.drawn
        return free & pos.reach if self.touch_rule else free

    def gains(self, drawn: int, line: int) -> int:
        """Cells that drawing `line` completes (0, 1 or 2)."""
        after = drawn | (1 << line)
        n = 0
        for c in self.line_cells[line]:
            m = self.cell_masks[c]
            if after & m == m:
                n += 1
        return n

    def play(self, pos: Pos, line: int) -> Pos:
        got = self.gains(pos.drawn, line)
        scores = pos.scores
        if got:
            s = list(scores)
            s[pos.turn] += got  # scores here are indexed by turn index, see order_scores()
            scores = tuple(s)
        turn = pos.turn if got and self.extra_turn else (pos.turn + 1) % self.seats
        reach = pos.reach | self.line_reach[line] if self.touch_rule else pos.reach
        return Pos(pos.drawn | (1 << line), scores, turn, reach)

    def start(self, state: DotsState) -> Pos:
        """The state's position with scores indexed by turn index (seat order[i] at i)."""
        owned = [m.bit_count() for m in state.owned]
        return Pos(
            drawn=state.drawn,
            scores=tuple(owned[s] for s in state.order),
            turn=state.turn,
            reach=state.reach,
        )

    def remaining(self, drawn: int) -> list[int]:
        """Undrawn sides per cell (0 = complete), then a sentinel 9 for the outside."""
        rem = [(m & ~drawn).bit_count() for m in self.cell_masks]
        rem.append(OUTSIDE)
        return rem

    def missing_line(self, cell: int, drawn: int) -> int:
        free = self.cell_masks[cell] & ~drawn
        return free.bit_length() - 1

    def safe(self, rem: list[int], line: int) -> bool:
        """Drawing the line leaves no cell with a single side to go (gives nothing away)."""
        a, b = self.line_pair[line]
        return rem[a] > 2 and rem[b] > 2


def quiet_lines(state: DotsState) -> list[str]:
    """The lines still to draw that give no cell a third side, by name, in the order of
    `legal_moves` (the quiet play of the benches and tests that make middle games)."""
    board = state.game.board
    rem = [(m & ~state.drawn).bit_count() for m in board.cell_masks]
    return [
        move
        for move in state.legal_moves()
        if all(rem[c] > 2 for c in board.line_cells[board.find_line(move)])
    ]


#: remaining-sides value standing for the outside of the board: never offered, never taken
OUTSIDE = 9

_BYTE_BITS = tuple(tuple(b for b in range(8) if byte >> b & 1) for byte in range(256))


def lines_of(mask: int) -> list[int]:
    """Indices of the set bits, lowest first (a byte at a time)."""
    out: list[int] = []
    base = 0
    while mask:
        byte = mask & 0xFF
        if byte:
            out.extend(base + b for b in _BYTE_BITS[byte])
        mask >>= 8
        base += 8
    return out

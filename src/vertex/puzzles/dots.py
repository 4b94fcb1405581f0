"""Puzzles of the Dots family, judged by the exact solver (two players, normal play).

The value of a position is the mover's final margin (their cells minus the other's at the
end) under perfect play. A position is a puzzle when the moves keeping that value, grouped
by the board's symmetries (two moves are one when the boards after them are images of each
other), form exactly one group, and that move is a decision rather than a free capture.
The goal is the margin: the player keeps it with every move of theirs, the computer's replies
are its own best moves, and any line that keeps the margin is a solution.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from vertex.ai.dots.endgame import components
from vertex.ai.dots.kit import DotsKit
from vertex.ai.dots.solver import AnySolver, Solver
from vertex.ai.dots.symmetry import Canonizer, line_symmetries
from vertex.games.dots.engine import DotsGame, DotsState

#: The player's turns a line asks for at most: enough to show a technique, short to play.
MAX_TURNS = 3
#: Every judge's solver table: small, since puzzle positions solve in milliseconds.
TABLE_BYTES = 32 << 20


@dataclass(frozen=True)
class Found:
    """A position found to be a puzzle: its goal margin, the answer, the line, the themes."""

    margin: int
    answer: str
    line: tuple[str, ...]
    turns: int
    themes: tuple[str, ...]
    key: int
    keeps: tuple[str, ...]


class DotsJudge:
    """The solver and the symmetry keys of one game, with a cache of solved positions
    (keyed by the drawn lines alone: the solver's value past the score is score-free)."""

    def __init__(self, game: DotsGame[Any], table_bytes: int = TABLE_BYTES) -> None:
        self.game = game
        self.kit = DotsKit(game)
        self.solver: AnySolver = Solver(game, table_bytes=table_bytes)
        perms = line_symmetries(game.board, game.predrawn)
        self.canon = Canonizer(perms, self.kit.lines) if perms else None
        self.cache: dict[int, tuple[int, tuple[str, ...]]] = {}

    @staticmethod
    def fits(game: DotsGame[Any]) -> bool:
        return game.seats == 2 and not game.misere and bool(game.extra_turn)

    def key(self, drawn: int) -> int:
        return self.canon.key(drawn) if self.canon is not None else drawn

    def _solve(self, state: DotsState, deadline: float | None) -> tuple[int, tuple[str, ...]]:
        """(the mover's net from here on, the best moves) for `state`, cached."""
        hit = self.cache.get(state.drawn)
        if hit is None:
            sol = self.solver.solve(state, deadline=deadline)
            diff = _diff(state, state.order[state.turn])
            hit = (sol.value - diff, tuple(sol.best_moves))
            if len(self.cache) > 200_000:
                self.cache.clear()
            self.cache[state.drawn] = hit
        return hit

    def value_for(self, state: DotsState, seat: int, deadline: float | None = None) -> int:
        """`seat`'s final margin from `state` under perfect play."""
        if state.is_over:
            return _diff(state, seat)
        net, _ = self._solve(state, deadline)
        mover = state.order[state.turn]
        value = _diff(state, mover) + net
        return value if mover == seat else -value

    def best(self, state: DotsState, deadline: float | None = None) -> tuple[str, ...]:
        return self._solve(state, deadline)[1]

    def groups(self, state: DotsState, moves: tuple[str, ...] | list[str]) -> dict[int, str]:
        """The moves by symmetry group: the key of the board after each, its first move."""
        index = self.game.line_by_name
        out: dict[int, str] = {}
        for move in moves:
            out.setdefault(self.key(state.drawn | 1 << index[move]), move)
        return out

    # ---- finding -------------------------------------------------------------------------
    def find(self, state: DotsState, deadline: float | None = None) -> Found | None:
        """The puzzle at `state`, or None (see the module notes). SolveTimeout if `deadline`
        (time.monotonic) passes."""
        if state.is_over or not self.fits(self.game):
            return None
        legal = state.legal_moves()
        if len(legal) < 3:
            return None
        best = self.best(state, deadline)
        groups = self.groups(state, best)
        if len(groups) != 1:
            return None
        answer = best[0]
        line_index = self.game.line_by_name[answer]
        if self.kit.gains(state.drawn, line_index):
            return None  # taking a cell: seldom a question worth a puzzle
        seat = state.order[state.turn]
        margin = self.value_for(state, seat, deadline)
        line, turns = self.line(state, seat, deadline)
        themes = self.themes(state, line_index)
        return Found(margin, answer, line, turns, themes, self.key(state.drawn), tuple(best))

    def line(
        self, state: DotsState, seat: int, deadline: float | None
    ) -> tuple[tuple[str, ...], int]:
        """One solution: the player's best moves for a turn, the computer's best reply, and
        on while the player's next decision is again the only one (up to MAX_TURNS turns)."""
        moves: list[str] = []
        turns = 0
        kept = 0  # the line ends with the player's last turn, not with a reply
        s = state
        while True:
            while not s.is_over and s.order[s.turn] == seat:
                move = self.best(s, deadline)[0]
                moves.append(move)
                s = s.play(move)
            turns += 1
            kept = len(moves)
            if s.is_over or turns >= MAX_TURNS:
                break
            while not s.is_over and s.order[s.turn] != seat:
                move = self.reply(s, deadline)
                moves.append(move)
                s = s.play(move)
            if s.is_over:
                break
            nxt = self.best(s, deadline)
            if len(self.groups(s, nxt)) != 1 or self.kit.gains(
                s.drawn, self.game.line_by_name[nxt[0]]
            ):
                break
        return tuple(moves[:kept]), turns

    def reply(self, state: DotsState, deadline: float | None = None) -> str:
        """The computer's reply: its first best move (the same every time for a position)."""
        return self.best(state, deadline)[0]

    # ---- themes ------------------------------------------------------------------------------
    def themes(self, state: DotsState, line: int) -> tuple[str, ...]:
        """Themes told from the position and the answer, each by a rule that can be checked
        (RULES §5): nothing is guessed from the value alone."""
        kit = self.kit
        drawn = state.drawn
        rem = kit.remaining(drawn)
        free = [i for i in range(kit.lines) if (kit.all_lines & ~drawn) >> i & 1]
        captures = [i for i in free if 1 in (rem[kit.line_pair[i][0]], rem[kit.line_pair[i][1]])]
        quiet = [i for i in free if kit.safe(rem, i)]
        out: list[str] = []
        if captures:
            after = kit.remaining(drawn | 1 << line)
            offered = sum(1 for r in after[:-1] if r == 1)
            # declining: the last four cells of a loop left, or the last two of a chain (the
            # double-cross to come); declined at once, before taking any, the whole of a
            # two-cell handout goes back: the double-dealing move itself
            if offered >= 4:
                out.append("loops")
            elif state.history and state.history[-1][0] != state.order[state.turn]:
                out.append("double-dealing")
            else:
                out.append("all-but-two")
        elif line in quiet:
            played = (drawn & ~kit.predrawn).bit_count()
            playable = (kit.all_lines & ~kit.predrawn).bit_count()
            out.append("opening-safe" if 2 * played < playable else "chain-control")
        elif quiet:
            out.append("sacrifice")  # gives cells away though a safe line was left
        if not quiet:
            out.append("endgame")
            comps = components(kit, drawn)
            if comps and any(c.loop for c in comps) and "loops" not in out:
                out.append("loops")
        return tuple(dict.fromkeys(out))

    def hint(self, answer: str) -> tuple[str, ...]:
        """The region of the answer: the cells next to the line (the page marks them)."""
        line = self.game.line_by_name[answer]
        return tuple(str(c) for c in self.kit.line_cells[line])


def _diff(state: DotsState, seat: int) -> int:
    return state.owned[seat].bit_count() - state.owned[1 - seat].bit_count()

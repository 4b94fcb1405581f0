"""One engine for the Dots-and-Boxes family (RULES.md §1): cells bounded by lines.

A position is a few integers: the drawn lines as a bitmask, each seat's cells as a bitmask and
whose turn it is. Drawing a line checks only the (at most two) cells on that line.
"""

from __future__ import annotations

from abc import abstractmethod
from functools import cached_property
from typing import Any, ClassVar, TypeVar

from vertex.core.errors import IllegalMove
from vertex.core.game import Game, State
from vertex.core.options import GameOptions
from vertex.core.outcome import best_seats
from vertex.lattice.board import LineBoard

O = TypeVar("O", bound=GameOptions)


class DotsGame(Game[O]):
    """A game of the family: a board, pre-drawn lines and a few rule switches."""

    touch_rule: ClassVar[bool] = False
    #: What a player claims and counts, in one word the page translates (board view `unit`:
    #: "wins by 3 boxes"): `box`, `triangle`, `figure`; `cell` where a game names none.
    unit: ClassVar[str] = "cell"
    players = "vertex.ai.dots.player:DotsPlayer"
    # the exact solver is declared in each game's GameInfo (__init__.py: SOLVER)

    @property
    def misere(self) -> bool:
        """Fewest cells wins."""
        return False

    @property
    def extra_turn(self) -> bool:
        """Completing a cell gives another move."""
        return True

    @property
    def lowest_score_wins(self) -> bool:
        return self.misere

    def move_catalogue(self) -> list[str]:
        return list(self.board.line_names)

    @cached_property
    @abstractmethod
    def board(self) -> LineBoard:
        """The dots, lines and cells."""

    @cached_property
    def line_closes(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Per line, (cell bit, cell's lines) for the cells it bounds (the fast path of `draw`)."""
        board = self.board
        return tuple(
            tuple((1 << c, board.cell_masks[c]) for c in cells) for cells in board.line_cells
        )

    @cached_property
    def line_views(self) -> tuple[tuple[str, str, str], ...]:
        """Per line, its name and its two dots' names, for the board view (made once)."""
        board, dots = self.board, self.board.dot_names
        return tuple(
            (name, dots[a], dots[b])
            for name, (a, b) in zip(board.line_names, board.lines, strict=True)
        )

    @cached_property
    def cell_views(self) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
        """Per cell, its corner dots' and its lines' names, for the board view (made once)."""
        board, dots, lines = self.board, self.board.dot_names, self.board.line_names
        return tuple(
            (tuple(dots[d] for d in corners), tuple(lines[ln] for ln in cell))
            for corners, cell in zip(board.cell_dots, board.cells, strict=True)
        )

    @cached_property
    def line_by_name(self) -> dict[str, int]:
        """Line indices by their own names (the fast path of `play`)."""
        return {name: i for i, name in enumerate(self.board.line_names)}

    @cached_property
    def compiled(self) -> _core.Rules | None:
        """This game's tables for the compiled hot path of its states (`play`, `legal_moves`,
        `is_over`, `to_move`), taken from the board; None without the compiled core."""
        if _core is None:
            return None
        board = self.board
        try:
            return _core.Rules(
                all_lines=board.all_lines,
                line_cells=board.line_cells,
                cell_lines=board.cells,
                line_reach=[board.dot_lines[a] | board.dot_lines[b] for a, b in board.lines],
                touch_rule=bool(self.touch_rule),
                extra_turn=bool(self.extra_turn),
                names=tuple(board.line_names),
                by_name=self.line_by_name,
            )
        except ValueError:  # pragma: no cover - a board beyond the hot path: Python plays it
            return None

    def __getstate__(self) -> dict[str, Any]:
        # pickled without the compiled tables: the copy makes its own when it first plays
        state = dict(self.__dict__)
        state.pop("compiled", None)
        return state

    @cached_property
    def predrawn(self) -> int:
        """Lines drawn before play (border or rim): nobody's, and not moves."""
        return 0

    def turn_order(self, seed: int) -> tuple[int, ...]:
        """Seats in the order they move; the first moves first."""
        return tuple(range(self.seats))

    def seat_symbols(self, seed: int) -> tuple[str, ...]:
        """A symbol per seat, used to mark claimed cells."""
        return tuple("XOABCD"[s] for s in range(self.seats))

    @cached_property
    def start(self) -> tuple[int, int, int]:
        """The starting position's drawn lines, reach (touch rule) and dead cells: the
        pre-drawn lines, the lines touching them, and the cells they alone close (nobody's)."""
        board = self.board
        drawn = self.predrawn
        reach = 0
        if self.touch_rule:
            for ln in _bits(drawn):
                a, b = board.lines[ln]
                reach |= board.dot_lines[a] | board.dot_lines[b]
        dead = 0
        for c, mask in enumerate(board.cell_masks):
            if drawn & mask == mask:
                dead |= 1 << c
        return drawn, reach, dead

    def initial_state(self, seed: int = 0) -> DotsState:
        drawn, reach, dead = self.start
        return DotsState(
            game=self,
            seed=seed,
            history=(),
            drawn=drawn,
            owned=(0,) * self.seats,
            dead=dead,
            order=self.turn_order(seed),
            turn=0,
            reach=reach,
        )


class DotsState(State):
    """A position of the family. Fields are plain ints and tuples; copies are cheap."""

    __slots__ = ("dead", "drawn", "order", "owned", "reach", "turn")
    game: DotsGame[Any]

    def __init__(
        self,
        *,
        game: DotsGame[Any],
        seed: int,
        history: tuple[tuple[int | None, str], ...],
        drawn: int,
        owned: tuple[int, ...],
        dead: int,
        order: tuple[int, ...],
        turn: int,
        reach: int,
    ) -> None:
        self.game = game
        self.seed = seed
        self.history = history
        self.drawn = drawn
        self.owned = owned
        self.dead = dead
        self.order = order
        self.turn = turn  # index into order
        self.reach = reach  # lines touching a drawn line (touch rule only)

    # ---- the engine, on line indices (the AI uses these directly) -------------------------
    def open_lines(self) -> int:
        """Bitmask of the lines that may be drawn now."""
        free = self.game.board.all_lines & ~self.drawn
        return free & self.reach if self.game.touch_rule else free

    def completes(self, line: int) -> list[int]:
        """Cells the line would complete."""
        board = self.game.board
        drawn = self.drawn | (1 << line)
        return [
            c for c in board.line_cells[line] if drawn & board.cell_masks[c] == board.cell_masks[c]
        ]

    def draw(self, line: int, name: str) -> DotsState:
        """Draw line `line` for the seat due; the caller has checked it is open."""
        game = self.game
        board = game.board
        turn = self.turn
        seat = self.order[turn]
        drawn = self.drawn | (1 << line)
        # a new object field by field: the hot path of every playout through the contract
        new = _new_state(DotsState)
        new.game = game
        new.seed = self.seed
        new.history = (*self.history, (seat, name))
        new.drawn = drawn
        new.dead = self.dead
        new.order = self.order
        new.reach = self.reach
        owned = self.owned
        closed = 0
        for bit, mask in game.line_closes[line]:
            if drawn & mask == mask:
                closed |= bit
        if closed:
            grown = list(owned)
            grown[seat] |= closed
            owned = tuple(grown)
        new.owned = owned
        if game.touch_rule:
            a, b = board.lines[line]
            new.reach = self.reach | board.dot_lines[a] | board.dot_lines[b]
        new.turn = turn if closed and game.extra_turn else (turn + 1) % len(self.order)
        return new

    # `open_lines`, `play`, `legal_moves`, `is_over` and `to_move` here are the reference;
    # with the compiled core installed, its versions of the same five replace them (end of
    # the module).
    def play(self, move: str, seat: int | None = None) -> DotsState:
        # The usual call, a line by its own name for the seat due, goes straight to `draw`;
        # everything else (other spellings, a seat given, every refusal) as the contract says.
        if seat is None and type(move) is str:
            game = self.game
            line = game.line_by_name.get(move)
            if line is not None:
                free = game.board.all_lines & ~self.drawn
                if game.touch_rule:
                    free &= self.reach
                if free >> line & 1:
                    return self.draw(line, move)
        played = super().play(move, seat)
        assert isinstance(played, DotsState)
        return played

    # ---- the contract ---------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return not self.open_lines()

    @property
    def to_move(self) -> tuple[int, ...]:
        return () if not self.open_lines() else (self.order[self.turn],)

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(m.bit_count() for m in self.owned)

    @property
    def winners(self) -> tuple[int, ...]:
        if not self.is_over:
            return ()
        return best_seats(self.scores, lowest=self.game.misere)

    def _ending(self) -> tuple[str, dict[str, Any]]:
        return "all-lines", {}

    def legal_moves(self) -> list[str]:
        return _names_of(self.open_lines(), self.game.board.line_names)

    def _play(self, move: str, seat: int) -> DotsState:
        board = self.game.board
        line = board.find_line(move)
        name = board.line_names[line]
        bit = 1 << line
        if self.game.predrawn & bit:
            raise IllegalMove(
                f"line {name} is part of the border, drawn before play", "border", {"line": name}
            )
        if self.drawn & bit:
            raise IllegalMove(f"line {name} is already drawn", "drawn", {"line": name})
        if self.game.touch_rule and not self.reach & bit:
            raise IllegalMove(
                f"line {name} touches no drawn line: every new line must share a dot "
                "with a line already drawn (touch rule)",
                "untouched",
                {"line": name},
            )
        return self.draw(line, name)

    def cell_owner(self, cell: int) -> int | None:
        bit = 1 << cell
        for seat, mask in enumerate(self.owned):
            if mask & bit:
                return seat
        return None

    def _board(self) -> dict[str, Any]:
        game = self.game
        board = game.board
        drawn, predrawn = self.drawn, game.predrawn
        owners: list[int | None] = [None] * len(board.cells)
        for seat, mask in enumerate(self.owned):
            for c in _bits(mask):
                owners[c] = seat
        lines = [
            {"name": name, "dots": [a, b], "drawn": bool(drawn >> i & 1)}
            for i, (name, a, b) in enumerate(game.line_views)
        ]
        for i in _bits(predrawn):  # only where true: absent means false (DESIGN.md §3)
            lines[i]["predrawn"] = True
        return {
            # the page's board module (web/js/boards/dots/) and the shape it draws
            "renderer": "dots",
            "kind": board.kind,
            "unit": game.unit,  # what a seat claims and counts, in the game's own word
            "dots": board.dots_view(),
            "lines": lines,
            "cells": [
                {"dots": list(dots), "lines": list(lines), "owner": owners[c]}
                for c, (dots, lines) in enumerate(game.cell_views)
            ],
            "symbols": list(self.game.seat_symbols(self.seed)),
            "order": list(self.order),
            "blocked": self._blocked(),
            "axes": board.axes_view(),  # where the coordinates go (the page draws them)
        }

    def _blocked(self) -> dict[str, dict[str, str]]:
        """Undrawn lines the seat due may not draw, each with the rule's code (the page knows
        no rules): `untouched`, the touch rule (Figures). {} when the game is over."""
        if not self.game.touch_rule or self.is_over:
            return {}
        names = self.game.board.line_names
        free = self.game.board.all_lines & ~self.drawn
        return {names[i]: {"reason": "untouched"} for i in _bits(free & ~self.reach)}


_new_state = object.__new__


def _names_of_py(mask: int, names: tuple[str, ...]) -> list[str]:
    """The names of the set bits' lines, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(names[low.bit_length() - 1])
        mask ^= low
    return out


try:  # the compiled core, when installed (it knows no rules: the tables come from here)
    from vertex.ai.dots import _core
    from vertex.ai.dots._core import names_of as _names_of
except ImportError:  # pragma: no cover - an install without the compiled core
    _core = None  # type: ignore[assignment]
    _names_of = _names_of_py

# The Python methods, kept as the reference (tests/games/dots/test_compiled_state.py plays
# both and compares every field) and for states the compiled path does not take.
DotsState.python_play = DotsState.play  # type: ignore[attr-defined]
DotsState.python_legal_moves = DotsState.legal_moves  # type: ignore[attr-defined]
DotsState.python_is_over = DotsState.is_over.fget  # type: ignore[attr-defined]
DotsState.python_to_move = DotsState.to_move.fget  # type: ignore[attr-defined]
DotsState.python_open_lines = DotsState.open_lines  # type: ignore[attr-defined]
if _core is not None:
    # The same five in C (`_play.c`): a line by its own name for the seat due is drawn there
    # (a new DotsState, fields as `draw` makes them); anything else goes to `State.play`,
    # which checks and refuses as the contract says.
    _hot = _core.bind_state(DotsState, State.play)
    DotsState.play = _hot["play"]  # type: ignore[method-assign]
    DotsState.legal_moves = _hot["legal_moves"]  # type: ignore[method-assign]
    DotsState.is_over = property(_hot["is_over"])  # type: ignore[method-assign,assignment]
    DotsState.to_move = property(_hot["to_move"])  # type: ignore[method-assign,assignment]
    DotsState.open_lines = _hot["open_lines"]  # type: ignore[method-assign]


def _bits(mask: int) -> list[int]:
    """Indices of the set bits, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out

"""Judging an attempt at a puzzle: the line the player sends, checked by the solver.

An attempt is the whole line from the puzzle's position, as the page has it so far: the
player's moves and, between them, the computer's replies the server handed out. The judge
replays it: every move must be legal; every move of the computer must be one the server
would play (the Dots family: any of its best moves; Juxtapose: the server's own reply);
every move of the player is judged by its value, not by the stored line, so any line that
keeps the goal counts. The attempt is

- failed at the player's first move that lets the goal go;
- solved once the player has played the puzzle's `turns` turns keeping it (or the game ends
  with it kept, or a Juxtapose line is made);
- otherwise still going: the judge then adds the computer's reply (its whole turn) for the
  page to show, and the page sends the longer line with the player's next move.

Refusals are `Refused(code, params)`: the server turns them into coded 4xx replies.
"""

from __future__ import annotations

import functools
import threading
from dataclasses import dataclass, field
from typing import Any, TypeVar

from vertex.core.errors import VertexError
from vertex.core.game import Game, State
from vertex.core.registry import create_game
from vertex.games.dots.engine import DotsGame, DotsState
from vertex.games.juxtapose.game import JuxtaposeState, move_code
from vertex.puzzles.dots import DotsJudge
from vertex.puzzles.jux import JuxSearch, _gives_line
from vertex.puzzles.model import Puzzle

#: The longest line an attempt may send (a 5×5 board has 60 lines; Juxtapose wins in ≤ 3).
MAX_LINE = 64


class Refused(Exception):
    """An attempt that cannot be judged: `code` names why (errors.json), `params` fill it."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.params = params


@dataclass
class Verdict:
    """`status` is "solved", "failed" or "playing"; `reply` the computer's moves to add
    (playing only); `failed_at` the index in the line of the move that let the goal go."""

    status: str
    reply: list[str] = field(default_factory=list)
    failed_at: int | None = None

    @property
    def done(self) -> bool:
        return self.status != "playing"


@functools.lru_cache(maxsize=32)
def _game(game_id: str, options_json: str) -> Game[Any]:
    import json

    return create_game(game_id, **json.loads(options_json))


_judges: dict[Any, DotsJudge] = {}
_locks: dict[Any, threading.Lock] = {}
_guard = threading.Lock()


def dots_judge(game: DotsGame[Any]) -> tuple[DotsJudge, threading.Lock]:
    """One judge per game kept for the process (its solver table warms up), and a lock:
    a solver searches one position at a time."""
    key = game.key()
    with _guard:
        judge = _judges.get(key)
        if judge is None:
            judge = _judges[key] = DotsJudge(game)
            _locks[key] = threading.Lock()
        return judge, _locks[key]


def position(puzzle: Puzzle) -> State:
    """The puzzle's position, replayed from the start."""
    import json

    game = _game(puzzle.game, json.dumps(puzzle.options, sort_keys=True))
    state = game.initial_state(seed=0)
    for move in puzzle.moves:
        state = state.play(move)
    return state


def check_line(moves: Any) -> list[str]:
    """The attempt's `moves`, or Refused when it is not a list of short strings."""
    if not isinstance(moves, list) or len(moves) > MAX_LINE:
        raise Refused("puzzle-line", f"moves: a list of at most {MAX_LINE} moves", limit=MAX_LINE)
    for m in moves:
        if not isinstance(m, str) or not 0 < len(m) <= 16:
            raise Refused("puzzle-line", "moves: each move a short string", limit=MAX_LINE)
    return list(moves)


def judge(puzzle: Puzzle, moves: list[str]) -> Verdict:
    """The verdict on the line `moves` from the puzzle's position (see the module notes)."""
    state = position(puzzle)
    if isinstance(state, DotsState):
        quick = _first_move_only(puzzle, state, moves)
        if quick is not None:
            return quick
        judge_, lock = dots_judge(state.game)
        with lock:
            return _judge_dots(judge_, puzzle, state, moves)
    if isinstance(state, JuxtaposeState):
        return _judge_jux(puzzle, state, moves)
    raise Refused("puzzle-unknown", "no judge for this game")


S = TypeVar("S", bound=State)


def _play(state: S, move: str, at: int) -> S:
    if state.is_over:
        raise Refused("puzzle-over", "the line goes on after the game's end", at=at)
    try:
        after = state.play(move)
        assert isinstance(after, type(state))
        return after
    except VertexError as exc:
        raise Refused("puzzle-illegal", str(exc), at=at, move=move) from exc


def line_states(puzzle: Puzzle, moves: list[str]) -> list[dict[str, Any]]:
    """The position after each move of `moves` from the puzzle's, as state views."""
    state = position(puzzle)
    out: list[dict[str, Any]] = []
    for i, move in enumerate(moves):
        state = _play(state, move, i)
        out.append(state.to_dict())
    return out


def _first_move_only(puzzle: Puzzle, state: DotsState, moves: list[str]) -> Verdict | None:
    """Most attempts are one move at a one-turn puzzle: judged by the puzzle's `keeps`
    without a solver (nor its table, built on a process's first longer line)."""
    if not puzzle.keeps or len(moves) > 1:
        return None
    if not moves:
        return Verdict("playing")
    after = _play(state, moves[0], 0)
    if after.history[-1][1] not in puzzle.keeps:
        return Verdict("failed", failed_at=0)
    if puzzle.turns == 1 and (after.is_over or after.order[after.turn] != puzzle.to_move):
        return Verdict("solved")
    return None


def _judge_dots(j: DotsJudge, puzzle: Puzzle, state: DotsState, moves: list[str]) -> Verdict:
    seat = puzzle.to_move
    margin = puzzle.goal.margin
    turns = 0
    for i, move in enumerate(moves):
        if turns >= puzzle.turns or state.is_over:
            raise Refused("puzzle-over", "the line goes on after the puzzle's end", at=i)
        mine = state.order[state.turn] == seat
        if not mine:
            best = j.best(state)
            after = _play(state, move, i)
            if after.history[-1][1] not in best:
                raise Refused("puzzle-reply", "that is not the computer's reply", at=i, move=move)
            state = after
            continue
        first = i == 0 and bool(puzzle.keeps)
        state = _play(state, move, i)
        # the first move is looked up (the puzzle knows every move that keeps its goal);
        # later ones are solved, from positions nearer the end
        kept = (
            move in puzzle.keeps or state.history[-1][1] in puzzle.keeps
            if first
            else (j.value_for(state, seat) >= margin)
        )
        if not kept:
            return Verdict("failed", failed_at=i)
        if state.is_over or state.order[state.turn] != seat:
            turns += 1
    if turns >= puzzle.turns or state.is_over:
        return Verdict("solved")
    reply: list[str] = []
    while not state.is_over and state.order[state.turn] != seat:
        move = j.reply(state)
        reply.append(move)
        state = state.play(move)
    if state.is_over:
        return Verdict("solved", reply)  # the margin was kept to the end
    return Verdict("playing", reply)


def _judge_jux(puzzle: Puzzle, state: JuxtaposeState, moves: list[str]) -> Verdict:
    seat = puzzle.to_move
    search = JuxSearch()
    left = puzzle.goal.depth  # the player's moves still allowed for the line (kind "win")
    for i, move in enumerate(moves):
        if state.to_move == ():
            raise Refused("puzzle-over", "the line goes on after the game's end", at=i)
        if state.turn != seat:
            expected = search.reply(state, left)
            after = _play(state, move, i)
            if after.history[-1][1] != expected:
                raise Refused("puzzle-reply", "that is not the computer's reply", at=i, move=move)
            state = after
            continue
        code = _code(state, move, i)
        if puzzle.goal.kind == "survive":
            after = state.apply(code)
            return Verdict("failed" if _gives_line(after) else "solved", failed_at=i)
        if not search.keeps(state, code, left):
            return Verdict("failed", failed_at=i)
        state = state.apply(code)
        left -= 1
        if state.winner == seat:
            if i != len(moves) - 1:
                raise Refused("puzzle-over", "the line goes on after the game's end", at=i + 1)
            return Verdict("solved")
    if state.turn != seat and state.to_move != ():
        return Verdict("playing", [search.reply(state, left)])
    return Verdict("playing")


def _code(state: JuxtaposeState, move: str, at: int) -> int:
    try:
        state.play(move)  # the engine's own checks and words
        return move_code(move)
    except VertexError as exc:
        raise Refused("puzzle-illegal", str(exc), at=at, move=move) from exc

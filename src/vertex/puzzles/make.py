"""Finding puzzles in the computer's own games (`vertex puzzles make`).

Games are played by computer players at mixed levels (1–3, so real mistakes happen), every
position past the opening is put to the judge (`dots.DotsJudge.find`, `jux.JuxSearch.find`)
with a time bound, and a position becomes a puzzle when exactly one first move, up to the
board's symmetries, keeps the goal. Positions already found (by their canonical key) are
skipped, so a run yields distinct puzzles, and so do runs that are given the earlier files.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from typing import Any

from vertex.ai import player as ai_player
from vertex.ai.dots.solver import SolveTimeout
from vertex.core.game import Game, State
from vertex.core.registry import create_game
from vertex.games.dots.engine import DotsGame, DotsState
from vertex.games.juxtapose.game import MOVE_NAMES, JuxtaposeState
from vertex.puzzles.dots import DotsJudge
from vertex.puzzles.jux import SLIDE_KINDS, JuxSearch, SearchTimeout, _gives_line, searched_deep
from vertex.puzzles.model import Goal, Puzzle, plain_options, pool_name, puzzle_id

#: Seconds the judge may spend on one position before it is passed over.
POSITION_BUDGET_S = 1.0
#: Seconds a computer player thinks per move in the games the puzzles come from.
MOVE_BUDGET_S = 0.02


def start_rating(pool: str, themes: tuple[str, ...], turns: int) -> float:
    """A first guess of how hard a puzzle is; players' attempts move it from there."""
    base = {
        "dots-and-boxes-3x3": 1300.0,
        "dots-and-boxes-4x4": 1500.0,
        "dots-and-boxes-5x5": 1650.0,
        "dots-and-triangles-4": 1450.0,
        "dots-and-triangles-6": 1650.0,
    }.get(pool, 1500.0)
    if "win-in-1" in themes:
        base = 1100.0
    elif "win-in-2" in themes:
        base = 1450.0
    elif "win-in-3" in themes:
        base = 1800.0
    elif "defence" in themes:
        base = 1250.0
    return base + 100.0 * (turns - 1)


def first_ply(game: Game[Any]) -> int:
    """Where to start looking: before it the solver's work grows fast (4×4 solves in under a
    tenth of a second from about ply 11; 5×5 settles in its last ~28 lines)."""
    if isinstance(game, DotsGame):
        lines = len(game.board.lines)
        return max(2, lines - 28) if lines > 40 else lines // 4
    return 6


def puzzle_at(
    game: Game[Any],
    options: dict[str, Any],
    state: State,
    judge: DotsJudge | None,
    deadline: float | None,
    source: str = "selfplay",
) -> Puzzle | None:
    """The puzzle at `state` (reached from the start with seed 0), or None."""
    options = plain_options(game.id, options)
    moves = tuple(m for _, m in state.history)
    pool = pool_name(game.id, options)
    if isinstance(state, DotsState) and judge is not None:
        found = judge.find(state, deadline)
        if found is None:
            return None
        key = f"{found.key:x}:{_diff(state)}"
        goal = Goal("margin", margin=found.margin)
        hint = judge.hint(found.answer)
        line, turns, themes, keeps = found.line, found.turns, found.themes, found.keeps
    elif isinstance(state, JuxtaposeState):
        jf = JuxSearch(deadline).find(state)
        if jf is None:
            return None
        key = jf.key
        goal = Goal(jf.kind, depth=jf.depth)
        hint = (jf.answer,)
        line, turns, themes, keeps = jf.line, jf.turns, jf.themes, jf.keeps
    else:
        return None
    return Puzzle(
        id=puzzle_id(game.id, options, key),
        game=game.id,
        options=options,
        moves=moves,
        to_move=state.to_move[0],
        goal=goal,
        solution=line,
        turns=turns,
        themes=themes,
        rating=start_rating(pool, themes, turns),
        source=source,
        key=key,
        hint=_hint_region(hint),
        keeps=keeps,
    )


def _hint_region(hint: tuple[str, ...]) -> tuple[str, ...]:
    """Where the answer lies, not the answer: the Dots family, the cells beside the line
    (indices); Juxtapose, the 2×2 quarter of the board holding the first square it names."""
    out: list[str] = []
    for h in hint:
        if h.isdigit():
            out.append(h)
            continue
        parts = h.replace("<>", " ").replace(">", " ").replace("@", " ").split()
        squares = [p for p in parts if p[0] in "abcd" and p[1:].isdigit()]
        if squares:
            col = "abcd".index(squares[0][0]) // 2 * 2
            row = (int(squares[0][1:]) - 1) // 2 * 2
            out += [f"{'abcd'[col + i]}{row + j + 1}" for j in (0, 1) for i in (0, 1)]
    return tuple(dict.fromkeys(out))


def _diff(state: DotsState) -> int:
    mover = state.order[state.turn]
    return state.owned[mover].bit_count() - state.owned[1 - mover].bit_count()


def self_play(game: Game[Any], rng: random.Random, drops_only: bool = False) -> State:
    """One game between computer players of random levels 1–3: the finished state (with
    `drops_only`, a Juxtapose game stops where its slide phase would begin)."""
    seats = [
        ai_player(game, rng.choice((1, 1, 2, 3)), seed=rng.randrange(1 << 30)) for _ in range(2)
    ]
    state = game.initial_state(seed=0)
    while not state.is_over:
        if drops_only and isinstance(state, JuxtaposeState) and not state.stash:
            break
        seat = state.to_move[0]
        if isinstance(state, JuxtaposeState) and (state.stash or rng.random() < 0.85):
            # the computer players end most games in the drop phase or the first slides,
            # while the deeper puzzles (wins in 2–3, defences) need long slide phases: play
            # quietly (no line made or given) most of the time
            quiet = _quiet_move(state, rng)
            move = (
                MOVE_NAMES[quiet]
                if quiet is not None
                else seats[seat].choose(state, seat, MOVE_BUDGET_S)
            )
        elif rng.random() < 0.15:
            move = rng.choice(state.legal_moves() or [])  # a slip now and then: more variety
        else:
            move = seats[seat].choose(state, seat, MOVE_BUDGET_S)
        state = state.play(move)
    return state


def _quiet_move(state: JuxtaposeState, rng: random.Random) -> int | None:
    """A move at random that makes no line and gives none (None if there is none): tried in
    a shuffled order, so a game costs a few checks a ply, not every move's every reply."""
    codes = state.move_codes()
    rng.shuffle(codes)
    for c in codes:
        if state.wins_at_once(c):
            continue
        after = state.apply(c)
        if not any(after.wins_at_once(r) for r in after.move_codes()):
            return c
    return None


def make(
    game_id: str,
    options: dict[str, Any],
    count: int,
    seed: int = 0,
    seen: set[str] | None = None,
    minutes: float | None = None,
    log: Callable[[str], None] | None = None,
    per_theme: int | None = None,
    per_game: int = 4,
    only: tuple[str, ...] = (),
) -> Iterator[Puzzle]:
    """Yield up to `count` new puzzles (not in `seen`, ids) for the game, from self-play:
    at most `per_game` from one game and, with `per_theme`, that many per first theme (so
    the easy kinds do not crowd out the rest); with `only`, just puzzles of those themes."""
    game = create_game(game_id, **options)
    rng = random.Random(seed)
    judge = DotsJudge(game) if isinstance(game, DotsGame) else None
    if isinstance(game, DotsGame) and (judge is None or not DotsJudge.fits(game)):
        raise ValueError("puzzles need two players, normal play and extra turns")
    seen = set() if seen is None else seen
    stop = None if minutes is None else time.monotonic() + 60 * minutes
    made = 0
    games = 0
    themes: dict[str, int] = {}
    start = first_ply(game)
    # the slide phase gives Juxtapose's wins in 1 and defences, never a win in 2 or 3 with
    # one first move in our runs (the defender can swap any pair): a run for those only
    # plays and searches the drop phase, twenty times as many games a minute
    drops_only = bool(only) and not set(only) & set(SLIDE_KINDS)
    while made < count and (stop is None or time.monotonic() < stop):
        final = self_play(game, rng, drops_only)
        games += 1
        this_game = 0
        for ply, state in _positions(game, final, drops_only):
            if ply >= start and not state.is_over and this_game < per_game:
                try:
                    found = puzzle_at(
                        game, options, state, judge, time.monotonic() + POSITION_BUDGET_S
                    )
                except (SolveTimeout, SearchTimeout):
                    found = None
                first = found.themes[0] if found is not None and found.themes else ""
                full = found is not None and (
                    (per_theme is not None and themes.get(first, 0) >= per_theme)
                    or (bool(only) and not set(only) & set(found.themes))
                )
                if found is not None and found.id not in seen and not full:
                    seen.add(found.id)
                    if found.themes:
                        themes[found.themes[0]] = themes.get(found.themes[0], 0) + 1
                    this_game += 1
                    made += 1
                    yield found
                    if made >= count:
                        break
        if log is not None:
            log(f"{games} games, {made} puzzles")


def _positions(game: Game[Any], final: State, drops_only: bool) -> Iterator[tuple[int, State]]:
    """The game's positions (ply, state) from the start; in a Juxtapose run for the drop
    phase's wins in 2 and 3, also every other quiet drop where the search first goes deep
    (a win in 3 with one first move is one position in ~2,700 there)."""
    state = game.initial_state(seed=0)
    for ply, (_, move) in enumerate(final.history):
        yield ply, state
        if drops_only and isinstance(state, JuxtaposeState) and not searched_deep(state):
            for code in state.move_codes():
                after = state.apply(code)
                if after.to_move and searched_deep(after) and not _gives_line(after):
                    yield ply + 1, after
        state = state.play(move)

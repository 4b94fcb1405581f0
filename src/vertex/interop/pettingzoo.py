"""PettingZoo AEC environments for every discrete Vertex game (a research interface).

    from vertex.interop.pettingzoo import env
    e = env("dots-and-boxes", rows=3, cols=3)
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        done = terminated or truncated
        e.step(None if done else e.action_space(agent).sample(obs["action_mask"]))

Agents are `seat_0 … seat_{n-1}`. An action is an index into the game's catalogue of every
move it could ever have (`actions` on the env): the lines of the board for the Dots family
and Vert3x, every drop, swap and slide for Juxtapose. Observations are
`{"observation": int8 array, "action_mask": int8 array}`, from the observing seat's side,
read from the public board view (`state.to_dict()["board"]`):
- boards of cells (the Dots family): per line 1 if drawn, then per cell 0 empty, 1 mine,
  2 another seat's, 3 closed before play;
- boards of squares (Juxtapose): per square the pyramid on it (1–15, 0 empty), then per
  pyramid 1 if in the stash, then per pyramid 1 if it was moved last;
- others (Vert3x): per catalogue move 0 not played, 1 played by me, 2 by another seat.
The catalogue is the game's own (`Game.move_catalogue()`). The Dots family's arrays are made
from the position's bit sets in one compiled call (the same numbers as the board view; the
tests compare them). `legal_actions()` gives the action numbers due now without an
observation (an extra for fast loops: `e.unwrapped.legal_actions()` under the wrapper).
For the Dots family `step` (the last move's rewards too), `reset` to a seed seen before, the
wrapper's `step` and `reset`, and `legal_actions` run in C (`_env.c`; `reset` reuses the
starting position of a seed): a step costs about what OpenSpiel's `apply_action` does.
Rewards come at the end: +1 for a winner, −1 for the others, 0 for everyone in a draw.
Seats that move again (an extra turn) are simply selected again.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)

from vertex.ai.dots._core import bind_env, bit_bytes, bit_indices
from vertex.core.errors import VertexError
from vertex.core.game import Game, State
from vertex.core.registry import create_game
from vertex.games.dots.engine import DotsGame, DotsState

#: Starting positions kept by seed for `reset` (each a few hundred bytes).
START_CACHE = 256


def action_catalogue(game: Game[Any]) -> list[str]:
    """Every move the game could ever list, in a fixed order (the action numbers)."""
    catalogue = game.move_catalogue()
    if catalogue is None:
        raise VertexError(f"{game.name} has no PettingZoo action catalogue")
    return catalogue


class _Observer:
    """Turns a state into the observing seat's array; `size` and `high` bound it.

    Read from the public board view (`state.to_dict()["board"]`), as the page draws it: a
    board of cells (the Dots family), a board of squares (Juxtapose), or else the history."""

    def __init__(self, game: Game[Any], actions: list[str]) -> None:
        self.game = game
        self.index = {name: i for i, name in enumerate(actions)}
        board = game.initial_state(0).to_dict()["board"]
        if "cells" in board:
            self.kind = "cells"
            self.size = len(board["lines"]) + len(board["cells"])
            self.high = 3
        elif "squares" in board:
            self.kind = "squares"
            self.pyramids = {name: i for i, name in enumerate(_pyramids(board))}
            self.size = len(board["squares"]) + 2 * len(self.pyramids)
            self.high = len(self.pyramids)
        else:
            self.kind = "history"
            self.size = len(actions)
            self.high = 2

    def __call__(self, state: State, seat: int) -> np.ndarray:
        if isinstance(state, DotsState):  # the same array from the position's bit sets
            return dots_observation(state, seat)
        return self.from_view(state, seat)

    def from_view(self, state: State, seat: int) -> np.ndarray:
        out = np.zeros(self.size, dtype=np.int8)
        if self.kind == "cells":
            board = state.to_dict()["board"]
            lines = board["lines"]
            predrawn = {ln["name"] for ln in lines if ln.get("predrawn")}  # absent: False
            for i, line in enumerate(lines):
                out[i] = 1 if line["drawn"] else 0
            for c, cell in enumerate(board["cells"]):
                owner = cell["owner"]
                if owner is None and predrawn.issuperset(cell["lines"]):
                    out[len(lines) + c] = 3  # closed before play: nobody's
                elif owner is not None:
                    out[len(lines) + c] = 1 if owner == seat else 2
        elif self.kind == "squares":
            board = state.to_dict()["board"]
            squares = board["squares"]
            for sq, content in enumerate(squares):
                out[sq] = 0 if content["pyramid"] is None else self.pyramids[content["pyramid"]] + 1
            n = len(self.pyramids)
            for name in board["stash"]:
                out[len(squares) + self.pyramids[name]] = 1
            for moved in board["moved_last"]:
                out[len(squares) + n + self.pyramids[moved["pyramid"]]] = 1
        else:
            for who, move in state.history:
                k = self.index.get(move)
                if k is not None and who is not None:
                    out[k] = 1 if who == seat else 2
        return out


def bits(mask: int, n: int) -> np.ndarray:
    """The low `n` bits of `mask` as 0/1 int8, lowest first."""
    return np.frombuffer(bit_bytes(mask, n), dtype=np.int8)


def dots_observation(state: DotsState, seat: int) -> np.ndarray:
    """The observation of a Dots-family position read from its bit sets: what the board view
    gives (tests/interop/test_pettingzoo.py compares the two), at a fraction of the cost."""
    board = state.game.board
    lines = len(board.lines)
    others = 0
    for s, mask in enumerate(state.owned):
        if s != seat:
            others |= mask
    cells = (state.owned[seat] << lines, others << lines, state.dead << lines, state.drawn)
    return np.frombuffer(bit_bytes(cells, lines + len(board.cells), (1, 2, 3, 1)), np.int8)


def _pyramids(board: dict[str, Any]) -> list[str]:
    """Every piece of a squares board, in the order of the view (at the start all are in the
    stash, in the engine's order, so the numbers are the engine's pyramid numbers + 1)."""
    on = [sq["pyramid"] for sq in board["squares"] if sq["pyramid"] is not None]
    return [*on, *board["stash"]]


class VertexEnv(AECEnv):  # type: ignore[misc]
    """One Vertex game as a PettingZoo AEC environment."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "vertex_v0",
        "is_parallelizable": False,
    }

    def __init__(self, game_id: str, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        game = create_game(game_id, **options)
        if not game.discrete:
            raise VertexError(f"{game.name} has continuous moves: no PettingZoo environment")
        self.game = game
        self.render_mode = render_mode
        self.actions = action_catalogue(game)
        self.action_index = {name: i for i, name in enumerate(self.actions)}
        self.observer = _Observer(game, self.actions)
        self.possible_agents = [f"seat_{s}" for s in range(game.seats)]
        self.seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        self.lines_are_actions = isinstance(game, DotsGame) and self.actions == list(
            game.board.line_names
        )
        n = len(self.actions)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    0, self.observer.high, (self.observer.size,), dtype=np.int8
                ),
                "action_mask": spaces.Box(0, 1, (n,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.state_: State = game.initial_state(0)
        #: the starting positions by seed (Dots: a state is a value, so one serves every
        #: reset with that seed), bounded
        self._starts: dict[int, State] = {}
        #: the zeros and falses of a fresh game, copied at reset (cheaper than building)
        self._zeros = dict.fromkeys(self.possible_agents, 0)
        self._falses = dict.fromkeys(self.possible_agents, False)
        #: a Dots game going on (no seat terminated): `step` takes its short way
        self._live = False

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self.seat_of[agent]

    def _mask(self, agent: str) -> np.ndarray:
        state = self.state_
        if self.lines_are_actions and isinstance(state, DotsState):
            if agent != self.agent_selection:
                return np.zeros(len(self.actions), dtype=np.int8)
            return bits(state.open_lines(), len(self.actions))  # action i is line i
        mask = np.zeros(len(self.actions), dtype=np.int8)
        if agent == self.agent_selection and not state.is_over:
            for move in state.legal_moves() or []:
                mask[self.action_index[move]] = 1
        return mask

    def legal_actions(self) -> list[int]:
        """The action numbers the agent due may take now, lowest first: the ones set in its
        `action_mask`, without building the observation (an extra, for fast loops)."""
        if self.lines_are_actions:  # then state_ is always a DotsState
            return bit_indices(self.state_.open_lines())  # type: ignore[attr-defined]
        state = self.state_
        if state.is_over:
            return []
        return sorted(self.action_index[m] for m in state.legal_moves() or [])

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return {
            "observation": self.observer(self.state_, self._seat(agent)),
            "action_mask": self._mask(agent),
        }

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        seed = 0 if seed is None else seed
        state = self._starts.get(seed)
        if state is None:
            state = self.game.initial_state(seed)
            if self.lines_are_actions and len(self._starts) < START_CACHE:
                self._starts[seed] = state
        self.state_ = state
        self.agents = self.possible_agents[:]
        self.rewards = self._zeros.copy()
        self._cumulative_rewards = self._zeros.copy()
        self.terminations = self._falses.copy()
        self.truncations = self._falses.copy()
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[state.to_move[0]]
        self._live = self.lines_are_actions

    def step(self, action: int | None) -> None:
        if self._live and type(action) is int and 0 <= action < len(self.actions):
            # the usual step while the game goes on: every reward is still reset's 0 (they
            # come at the end), and the seat due is the agent selected, so the move is
            # played for the seat due
            self.state_ = state = self.state_.play(self.actions[action])
            due = state.to_move
            if due:
                self.agent_selection = self.possible_agents[due[0]]
            else:
                self._finish(state)
            return
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is not int:  # numpy integers and the like
            if action is None:
                raise VertexError(f"action must be a number from 0 to {len(self.actions) - 1}")
            action = int(action)
        if not 0 <= action < len(self.actions):
            raise VertexError(f"action must be a number from 0 to {len(self.actions) - 1}")
        self._cumulative_rewards[agent] = 0
        self.state_ = state = self.state_.play(self.actions[action], self.seat_of[agent])
        due = state.to_move
        if due:
            self.agent_selection = self.possible_agents[due[0]]
        else:
            self._finish(state)

    def _finish(self, state: State) -> None:
        """The last move: rewards to everyone, every seat terminated (each is selected once
        more to step None)."""
        self._live = False
        winners = state.winners
        draw = len(winners) == self.game.seats
        self.rewards = {
            a: 0 if draw else (1 if self.seat_of[a] in winners else -1) for a in self.agents
        }
        self.terminations = dict.fromkeys(self.agents, True)
        self._cumulative_rewards[self.agent_selection] = 0
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        from vertex.terminal.registry import render

        return render(self.state_)

    def close(self) -> None:
        pass


def raw_env(game_id: str, render_mode: str | None = None, **options: Any) -> VertexEnv:
    return VertexEnv(game_id, render_mode=render_mode, **options)


class OrderEnforcing(OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order checks, with `step`, `last` and `agent_iter`'s iterator going
    straight to the environment once it has been reset (PettingZoo's own read `agents`,
    `agent_selection` and the reward dicts through two `__getattr__` layers each, seven times
    a ply in the documented loop); everything else, and every refusal, is theirs."""

    def step(self, action: Any) -> None:
        inner = self.env
        if self._has_reset and inner.agents:
            self._has_updated = True
            inner.step(action)
        else:
            super().step(action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        # after reset the wrapper's reads and `observe` are the environment's, so its own
        # `last` (AECEnv's, when not overridden) gives the same tuple
        inner = self.env
        if self._has_reset and type(inner).last is AECEnv.last:
            return inner.last(observe)  # type: ignore[no-any-return]
        return super().last(observe)  # type: ignore[no-any-return]

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            return super().agent_iter(max_iter)  # PettingZoo's refusal
        return _Iterable(self, max_iter)


class _Iterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _Iterator:
        return _Iterator(self.env, self.max_iter)


class _Iterator(AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's order-enforcing iterator (the same stops, the same assertion), reading
    the environment under the wrapper directly (the wrapper's `__getattr__` would hand over
    the same `agents` and `agent_selection`: it has been reset)."""

    def __next__(self) -> str:
        wrapper = self.env
        inner = wrapper.env
        if not inner.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        agent: str = inner.agent_selection
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return agent


# The Python `step`s, `reset`s and `legal_actions` stay the reference
# (tests/interop/test_pettingzoo.py plays both and compares them) and take every call off the
# usual path; the usual one (a Dots game going on, an int action in range; a reset to a seed
# seen before) is made in C (`_env.c`), the move by the public state's compiled `play`, the
# last move's rewards as `_finish` gives them: no Python frame a step or a reset.
VertexEnv.python_step = VertexEnv.step
VertexEnv.python_reset = VertexEnv.reset
VertexEnv.python_legal_actions = VertexEnv.legal_actions
OrderEnforcing.python_step = OrderEnforcing.step
OrderEnforcing.python_reset = OrderEnforcingWrapper.reset
_hot = bind_env(
    VertexEnv.step,
    OrderEnforcing.step,
    VertexEnv.legal_actions,
    VertexEnv._finish,
    VertexEnv.reset,
    OrderEnforcingWrapper.reset,
    VertexEnv,
    OrderEnforcing,
)
VertexEnv.step = _hot["step"]  # type: ignore[method-assign]
VertexEnv.reset = _hot["reset"]  # type: ignore[method-assign]
VertexEnv.legal_actions = _hot["legal_actions"]  # type: ignore[method-assign]
OrderEnforcing.step = _hot["ordered_step"]  # type: ignore[method-assign]
OrderEnforcing.reset = _hot["ordered_reset"]


def env(game_id: str, render_mode: str | None = None, **options: Any) -> AECEnv:
    """The environment wrapped in PettingZoo's order checks (the usual way to hand it out)."""
    return OrderEnforcing(raw_env(game_id, render_mode=render_mode, **options))

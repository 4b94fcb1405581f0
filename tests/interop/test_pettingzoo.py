"""The PettingZoo AEC environments pass PettingZoo's own api_test, for every discrete game."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

from vertex.core import game_class, game_ids
from vertex.core.errors import VertexError
from vertex.interop.pettingzoo import action_catalogue, env, raw_env

CASES: list[tuple[str, dict[str, Any]]] = [
    ("dots-and-boxes", {"rows": 2, "cols": 2}),
    ("dots-and-boxes", {"rows": 2, "cols": 3, "players": 3}),
    ("dots-and-triangles", {"size": 2}),
    ("figures", {"rows": 2, "cols": 2}),
    ("juxtapose", {}),
    ("vert3x", {"radius": 1}),
]


def test_every_discrete_game_is_covered() -> None:
    covered = {gid for gid, _ in CASES}
    assert covered == {gid for gid in game_ids() if game_class(gid).discrete}


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_api_test(game_id: str, options: dict[str, Any]) -> None:
    api_test(env(game_id, **options), num_cycles=200)


def test_dots_actions_are_the_lines_and_the_winner_is_rewarded() -> None:
    e = raw_env("dots-and-boxes", rows=1, cols=1)
    assert e.actions == ["a1-b1", "a1-a2", "b1-b2", "a2-b2"]  # the engine's line order
    e.reset(seed=1)
    for action in range(4):
        e.step(action)
    # seat 0, seat 1, seat 0, seat 1: the fourth line takes the box for seat 1
    assert e.rewards == {"seat_0": -1, "seat_1": 1}
    obs = e.observe("seat_1")
    assert list(obs["observation"]) == [1, 1, 1, 1, 1]
    assert list(e.observe("seat_0")["observation"])[-1] == 2
    assert not obs["action_mask"].any()


def test_mask_lists_the_legal_moves_of_the_seat_to_move() -> None:
    e = raw_env("juxtapose")
    e.reset(seed=3)
    obs = e.observe("seat_0")
    legal = {e.actions[i] for i in np.flatnonzero(obs["action_mask"])}
    assert len(legal) == 15 * 16
    assert not e.observe("seat_1")["action_mask"].any()


def test_continuous_games_and_bad_actions_are_refused() -> None:
    with pytest.raises(VertexError, match="continuous"):
        raw_env("verticality")
    e = raw_env("dots-and-boxes", rows=1, cols=1)
    e.reset()
    with pytest.raises(VertexError, match="action"):
        e.step(99)
    assert len(action_catalogue(e.game)) == 4


DOTS_KINDS: list[tuple[str, dict[str, Any]]] = [
    ("dots-and-boxes", {"rows": 3, "cols": 3, "players": 3, "border": True}),
    ("dots-and-boxes", {"rows": 6, "cols": 6}),  # two words of lines
    ("dots-and-triangles", {"size": 4, "misere": True}),
    ("dots-and-triangles", {"shape": "strip", "length": 5, "border": True}),
    ("figures", {"rows": 5, "cols": 5, "shape": "rhombus"}),
]


@pytest.mark.parametrize(("game_id", "options"), DOTS_KINDS)
def test_dots_arrays_from_bits_are_the_board_views(game_id: str, options: dict[str, Any]) -> None:
    e = raw_env(game_id, **options)
    rng = np.random.default_rng(5)
    for game in range(3):
        e.reset(seed=game)
        while not e.state_.is_over:
            for agent in e.possible_agents:
                seat = e.seat_of[agent]
                fast = e.observer(e.state_, seat)
                assert fast.dtype == np.int8 and fast.flags.writeable
                assert list(fast) == list(e.observer.from_view(e.state_, seat))
                mask = e.observe(agent)["action_mask"]
                due = agent == e.agent_selection
                legal = {e.actions.index(m) for m in e.state_.legal_moves()} if due else set()
                assert set(np.flatnonzero(mask)) == legal
            actions = e.legal_actions()
            assert actions == sorted(e.actions.index(m) for m in e.state_.legal_moves())
            e.step(actions[int(rng.integers(len(actions)))])
        assert e.legal_actions() == []
        assert sorted(e.rewards.values()) in ([-1, -1, 1], [-1, 1], [0, 0], [-1, 1, 1])


@pytest.mark.parametrize(("game_id", "options"), CASES)
def test_legal_actions_are_the_mask(game_id: str, options: dict[str, Any]) -> None:
    e = raw_env(game_id, **options)
    e.reset(seed=2)
    for _ in range(6):
        if e.state_.is_over:
            break
        mask = e.observe(e.agent_selection)["action_mask"]
        actions = e.legal_actions()
        assert actions == [int(i) for i in np.flatnonzero(mask)]
        e.step(np.int64(actions[len(actions) // 2]))  # numpy integers are actions too


def test_the_order_checks_are_pettingzoos() -> None:
    e = env("dots-and-boxes", rows=1, cols=1)
    with pytest.raises(AttributeError, match="before reset"):
        _ = e.agent_selection
    with pytest.raises(AssertionError, match="reset"):
        e.step(0)  # PettingZoo's own refusal before reset
    e.reset(seed=1)
    for action in range(4):
        e.step(action)
    assert e.terminations == {"seat_0": True, "seat_1": True}
    e.step(None)
    e.step(None)
    assert e.agents == []
    e.step(None)  # no agents left: PettingZoo's wrapper only logs a warning, as before
    assert e.agents == [] and e.unwrapped.state_.is_over


def _env_fields(e: Any) -> tuple[Any, ...]:
    s = e.state_
    return (
        s.history,
        s.drawn,
        s.owned,
        s.turn,
        e.agent_selection,
        list(e.agents),
        dict(e.rewards),
        dict(e._cumulative_rewards),
        dict(e.terminations),
        dict(e.truncations),
        dict(e.infos),
        e._live,
    )


# the differential test's boards: the kinds above, and 2x2 boxes (draws: every reward 0)
STEP_KINDS = [*DOTS_KINDS, ("dots-and-boxes", {"rows": 2, "cols": 2})]


@pytest.mark.parametrize(("game_id", "options"), STEP_KINDS)
def test_the_compiled_step_is_the_python_step(game_id: str, options: dict[str, Any]) -> None:
    """`VertexEnv.step`, `reset`, `legal_actions` and the wrapper's `step` and `reset` are C
    (`_env.c`) on the usual path, the last move's rewards too; the Python ones are the
    reference: the same fields after every reset and step, to the end of each game and its
    None steps, wrapped and not, a seed new or seen before (a kept starting position)."""
    from vertex.interop.pettingzoo import OrderEnforcing, VertexEnv

    rng = np.random.default_rng(11)
    outcomes = set()
    for wrapped in (False, True):
        fast, ref = (env if wrapped else raw_env)(game_id, **options), raw_env(game_id, **options)
        inner = fast.unwrapped
        for i, seed in enumerate((0, 1, 0, None, 1, 0, 2, 2)):
            before = (inner.rewards, inner.terminations, inner.infos) if i else None
            fast.reset(seed=seed)
            VertexEnv.python_reset(ref, seed=seed)
            assert _env_fields(inner) == _env_fields(ref)
            if before:  # new dicts every game, as the Python reset makes them
                fresh = (inner.rewards, inner.terminations, inner.infos)
                assert all(a is not b for a, b in zip(before, fresh, strict=True))
            while ref.agents:
                actions = VertexEnv.python_legal_actions(ref)
                assert inner.legal_actions() == actions
                # None for a terminated seat's last step
                action = actions[int(rng.integers(len(actions)))] if actions else None
                fast.step(action)
                VertexEnv.python_step(ref, action)
                assert _env_fields(inner) == _env_fields(ref)
                if action is not None and not ref._live:
                    outcomes.add(tuple(sorted(ref.rewards.values())))
        if wrapped:
            assert OrderEnforcing.step is not OrderEnforcing.python_step
            assert OrderEnforcing.reset is not OrderEnforcing.python_reset
            assert fast._has_reset and fast._has_updated
    if options == {"rows": 2, "cols": 2}:
        assert {(0, 0), (-1, 1)} <= outcomes  # a draw and a win were played


def test_reset_takes_pettingzoos_arguments() -> None:
    """The compiled `reset` takes what the Python one does (positional or named, options
    ignored) and refuses what it refuses, as the Python method does."""
    from vertex.interop.pettingzoo import VertexEnv

    for make in (raw_env, env):
        e, ref = make("dots-and-boxes", rows=2, cols=2), raw_env("dots-and-boxes", rows=2, cols=2)
        for args, kwargs in (((3,), {}), ((3, {"x": 1}), {}), ((), {"seed": 3, "options": None})):
            e.reset(*args, **kwargs)
            VertexEnv.python_reset(ref, *args, **kwargs)
            assert _env_fields(e.unwrapped) == _env_fields(ref)
        with pytest.raises(TypeError):
            e.reset(3, seed=3)
        with pytest.raises(TypeError):
            e.reset(colour=1)
        e.reset(np.int64(3))  # numpy seeds go the Python way
        assert _env_fields(e.unwrapped) == _env_fields(ref)


def test_a_subclass_finish_is_called() -> None:
    """The compiled step hands the last move to a subclass's own `_finish`."""
    from vertex.interop.pettingzoo import VertexEnv

    class Counting(VertexEnv):
        finished = 0

        def _finish(self, state: Any) -> None:
            Counting.finished += 1
            super()._finish(state)

    e = Counting("dots-and-boxes", rows=1, cols=1)
    e.reset(seed=1)
    for action in range(4):
        e.step(action)
    assert Counting.finished == 1 and all(e.terminations.values())


def test_a_drawn_line_is_refused_and_changes_nothing() -> None:
    for e in (raw_env("figures", rows=3, cols=3), env("figures", rows=3, cols=3)):
        e.reset(seed=4)
        inner = e.unwrapped
        first = inner.legal_actions()[0]
        e.step(first)
        before = _env_fields(inner)
        with pytest.raises(VertexError, match="drawn"):
            e.step(first)
        assert _env_fields(inner) == before
        far = [a for a in range(len(inner.actions)) if a not in inner.legal_actions()]
        untouched = [a for a in far if not inner.state_.drawn >> a & 1]
        if untouched:  # the touch rule: a line touching no drawn line
            with pytest.raises(VertexError, match="touch"):
                e.step(untouched[0])
            assert _env_fields(inner) == before


def _loop(e: Any, rng: np.random.Generator, seed: int) -> list[Any]:
    """The documented AEC loop; every `last()` and agent, observations as lists."""
    e.reset(seed=seed)
    seen: list[Any] = []
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        seen.append((agent, {k: v.tolist() for k, v in obs.items()}, reward, term, trunc, info))
        if term or trunc:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        e.step(int(legal[int(rng.integers(len(legal)))]))
    seen.append((list(e.agents), e.last(observe=False)[1:] if e.agents else None))
    return seen


@pytest.mark.parametrize(("game_id", "options"), [*STEP_KINDS, CASES[4]])
def test_the_wrappers_loop_is_pettingzoos(game_id: str, options: dict[str, Any]) -> None:
    """`env()`'s `last` and `agent_iter` go straight to the environment; PettingZoo's own
    `OrderEnforcingWrapper` over the same environment is the reference: the same agents and
    `last()` tuples through whole games, and the same refusals."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    ours, ref = env(game_id, **options), OrderEnforcingWrapper(raw_env(game_id, **options))
    for e in (ours, ref):
        with pytest.raises(AttributeError, match="before reset"):
            e.last()
        with pytest.raises(AssertionError, match="reset"):
            e.agent_iter()
    for seed in (0, 1, 0):
        assert _loop(ours, np.random.default_rng(seed), seed) == _loop(
            ref, np.random.default_rng(seed), seed
        )
    for e in (ours, ref):
        e.reset(seed=3)
        it = iter(e.agent_iter(max_iter=5))
        next(it)
        with pytest.raises(AssertionError, match="need to call step"):
            next(it)  # no step in between: PettingZoo's assertion
        assert [a for a in e.agent_iter(max_iter=0)] == []


def test_the_compiled_methods_are_called_every_way() -> None:
    """The compiled `step`, `reset` and `legal_actions` are methods of their classes: bound,
    unbound, by keyword, the same as the Python ones (and refuse what they refuse)."""
    from vertex.interop.pettingzoo import OrderEnforcing, VertexEnv

    for make in (raw_env, env):
        e, ref = make("dots-and-boxes", rows=2, cols=2), raw_env("dots-and-boxes", rows=2, cols=2)
        cls = OrderEnforcing if make is env else VertexEnv
        cls.reset(e, seed=4)
        cls.reset(e, seed=4)  # kept: the compiled way
        VertexEnv.python_reset(ref, seed=4)
        step = e.step
        step(action=3)
        cls.step(e, 5)
        step(0)
        for action in (3, 5, 0):
            VertexEnv.python_step(ref, action)
        assert _env_fields(e.unwrapped) == _env_fields(ref)
        assert VertexEnv.legal_actions(e.unwrapped) == VertexEnv.python_legal_actions(ref)
        with pytest.raises(TypeError):
            e.step()
        with pytest.raises(TypeError):
            e.step(1, 2)
        with pytest.raises(TypeError):
            cls.step(object(), 1)
        assert _env_fields(e.unwrapped) == _env_fields(ref)

"""The registry: the games are listed from light metadata, a game's rules load when it is
created, and nothing a Dots game does loads MuJoCo."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any, ClassVar

import pytest

import vertex
from vertex.core import (
    Game,
    GameInfo,
    OptionsError,
    game_class,
    game_ids,
    game_info,
    register,
    registry,
)
from vertex.core.options import GameOptions


def run_python(code: str) -> Any:
    """Run `code` in a fresh interpreter; it prints one JSON value, returned here."""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_listing_the_games_loads_no_rules() -> None:
    loaded = run_python(
        "import json, sys, vertex\n"
        "ids = [g['id'] for g in vertex.list_games()]\n"
        "rules = sorted(m for m in sys.modules if m.startswith('vertex.games.') "
        "and m.rsplit('.', 1)[-1] not in ('options',) and m.count('.') > 2)\n"
        "print(json.dumps([ids, rules, 'mujoco' in sys.modules, 'vertex.lattice' in sys.modules]))"
    )
    ids, rules, mujoco, lattice = loaded
    assert ids == sorted(ids) and len(ids) >= 6
    assert rules == [], f"listing the games imported rule modules: {rules}"
    assert not mujoco and not lattice


def test_a_dots_game_never_loads_mujoco() -> None:
    loaded = run_python(
        "import json, sys, vertex\n"
        "g = vertex.create_game('dots-and-boxes', rows=2, cols=2)\n"
        "s = g.initial_state(seed=3).play('a1-b1')\n"
        "s = s.play(s.legal_moves()[0])\n"
        "vertex.replay(s.record().to_json())\n"
        "from vertex.ai import player\n"
        "player(g, 2).choose(s, s.to_move[0], 0.05)\n"
        "from vertex.terminal.registry import render\n"
        "render(s)\n"
        "print(json.dumps(['mujoco' in sys.modules, 'numpy' in sys.modules]))"
    )
    assert loaded == [False, False]


def test_list_games_gives_schemas_and_defaults() -> None:
    games = {g["id"]: g for g in vertex.list_games()}
    boxes = games["dots-and-boxes"]
    assert boxes["name"] == "Dots and Boxes"
    assert boxes["defaults"] == {
        "rows": 3, "cols": 3, "players": 2, "misere": False, "border": False, "extra_turn": True,
    }  # fmt: skip
    props = boxes["options"]["properties"]
    assert props["rows"]["minimum"] == 1 and props["rows"]["maximum"] == 12
    assert boxes["options"]["additionalProperties"] is False
    assert games["figures"]["defaults"]["rows"] == 8
    assert games["dots-and-triangles"]["options"]["properties"]["shape"]["enum"] == [
        "triangle", "strip",
    ]  # fmt: skip
    assert games["juxtapose"]["capabilities"]["sudden_win"] is True
    assert games["verticality"]["discrete"] is False
    assert games["vert3x"]["capabilities"]["can_end_by_agreement"] is True
    for g in games.values():
        assert g["summary"] and g["name"]


def test_each_game_class_takes_its_metadata_from_its_info() -> None:
    for gid in game_ids():
        cls, info = game_class(gid), game_info(gid)
        assert cls.info is info and cls.describe() == info.describe()
        assert (cls.id, cls.name, cls.Options, cls.discrete) == (
            info.id,
            info.name,
            info.options,
            info.discrete,
        )
        assert (cls.sudden_win, cls.simultaneous, cls.slow_play) == (
            info.sudden_win,
            info.simultaneous,
            info.slow_play,
        )


def test_bad_options_are_refused_before_the_rules_load() -> None:
    loaded = run_python(
        "import json, sys, vertex\n"
        "try:\n"
        "    vertex.create_game('verticality', players=99)\n"
        "except vertex.OptionsError as exc:\n"
        "    print(json.dumps([str(exc), 'vertex.games.verticality.game' in sys.modules]))"
    )
    assert "players" in loaded[0] and loaded[1] is False


def test_unknown_games_are_named() -> None:
    with pytest.raises(OptionsError, match=r"unknown game 'chess'.*dots-and-boxes"):
        vertex.create_game("chess")


class _TinyOptions(GameOptions):
    pass


class _Tiny(Game[_TinyOptions]):
    info: ClassVar[GameInfo] = GameInfo(
        id="test-tiny", name="Tiny", summary="a test game", options=_TinyOptions, game="-"
    )

    @property
    def seats(self) -> int:
        return 2

    def initial_state(self, seed: int = 0) -> Any:
        raise NotImplementedError


def test_a_game_from_elsewhere_registers_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # on copies of the registry, so no other test sees the tiny game
    monkeypatch.setattr(registry, "_catalogue", dict(registry.catalogue()))
    monkeypatch.setattr(registry, "_classes", dict(registry._classes))
    register(_Tiny)
    assert vertex.create_game("test-tiny").name == "Tiny"
    register(_Tiny)  # the same class again is harmless

    class Other(_Tiny):
        info = GameInfo(id="test-tiny", name="Other", summary="x", options=_TinyOptions, game="-")

    with pytest.raises(RuntimeError, match="two games"):
        register(Other)


def test_games_equal_by_options() -> None:
    a = vertex.create_game("dots-and-boxes", rows=2)
    assert a == vertex.create_game("dots-and-boxes", rows=2, cols=3)
    assert a != vertex.create_game("dots-and-boxes", rows=3)

"""Form metadata in the options' JSON Schema (`x-applies`, `x-cases`): the lobby hides options
that do not apply and shows the default in force, without knowing any rule. The metadata must
agree with what the options models accept and fill in."""

from __future__ import annotations

from typing import Any

import pytest

import vertex
from vertex import OptionsError

GAMES = {g["id"]: g for g in vertex.list_games()}


def props(game: str) -> dict[str, Any]:
    out: dict[str, Any] = GAMES[game]["options"]["properties"]
    return out


def conditions(meta: dict[str, Any] | list[dict[str, Any]]) -> list[dict[str, Any]]:
    return meta if isinstance(meta, list) else [meta]


def test_metadata_names_real_options_and_values() -> None:
    seen = 0
    for gid, game in GAMES.items():
        fields = game["options"]["properties"]
        for name, schema in fields.items():
            for cond in conditions(schema.get("x-applies", [])):
                seen += 1
                for key, values in cond.items():
                    assert key in fields and key != name, (gid, name, key)
                    enum = fields[key].get("enum")
                    for value in values:
                        assert enum is None or value in enum, (gid, name, key, value)
            for case in schema.get("x-cases", []):
                # a field that applies only in some cases has its cases among them
                if "x-applies" in schema:
                    assert case["when"] in conditions(schema["x-applies"]), (gid, name)
                for key in case["when"]:
                    assert key in fields and key != name, (gid, name, key)
    assert seen >= 12


def test_triangles_sizes_by_shape() -> None:
    p = props("dots-and-triangles")
    assert p["size"]["x-applies"] == {"shape": ["triangle"]}
    assert p["length"]["x-applies"] == {"shape": ["strip"]}
    assert p["size"]["x-cases"] == [{"when": {"shape": ["triangle"]}, "default": 4}]
    assert p["length"]["x-cases"] == [{"when": {"shape": ["strip"]}, "default": 4}]
    # Validation and defaults are unchanged.
    assert GAMES["dots-and-triangles"]["defaults"]["size"] is None
    with pytest.raises(OptionsError, match="'size' is for shape=triangle"):
        vertex.create_game("dots-and-triangles", shape="strip", size=3)
    strip = vertex.create_game("dots-and-triangles", shape="strip")
    assert len(strip.initial_state().legal_moves()) == 4 * 4 - 1  # length 4 when left empty
    tri = vertex.create_game("dots-and-triangles")
    assert len(tri.initial_state().legal_moves()) == 30  # size 4 when left empty


def test_vert3x_board_options_by_rules_and_shape() -> None:
    p = props("vert3x")
    assert p["shape"]["x-applies"] == {"rules": ["classic"]}
    assert p["multiplier"]["x-applies"] == {"scoring": ["outline"]}
    assert p["claims"]["x-applies"] == {"scoring": ["units"]}
    assert p["start"]["x-applies"] == {"connected": [True]}
    assert p["cells"]["x-applies"] == {"rules": ["classic"], "shape": ["custom"]}
    assert p["size"]["x-applies"] == [
        {"rules": ["classic"], "shape": ["triangle"]},
        {"rules": ["gyo"]},
    ]
    assert p["width"]["x-applies"] == [
        {"rules": ["classic"], "shape": ["parallelogram"]},
        {"rules": ["trianguliche"]},
    ]
    gyo = [c for c in p["size"]["x-cases"] if c["when"] == {"rules": ["gyo"]}]
    assert gyo == [{"when": {"rules": ["gyo"]}, "minimum": 3, "maximum": 30, "default": 7}]


@pytest.mark.parametrize("name", ["radius", "size", "width", "height"])
def test_vert3x_cases_match_validation(name: str) -> None:
    """Each case's range is exactly what the options accept, its default what they fill in,
    and the option is refused where it does not apply."""
    p = props("vert3x")
    cases = p[name]["x-cases"]
    assert cases
    for case in cases:
        base = {key: values[0] for key, values in case["when"].items()}
        assert vertex.create_game("vert3x", **base).options_dict()[name] == case["default"]
        for ok in (case["minimum"], case["maximum"]):
            assert vertex.create_game("vert3x", **base, **{name: ok}).options_dict()[name] == ok
        for bad in (case["minimum"] - 1, case["maximum"] + 1):
            with pytest.raises(OptionsError) as err:
                vertex.create_game("vert3x", **base, **{name: bad})
            assert err.value.option == name
    applies = conditions(p[name]["x-applies"])
    for rules, shape in (("classic", "hexagon"), ("classic", "triangle"), ("gyo", None)):
        where = {"rules": rules, **({"shape": shape} if shape else {})}
        matches = any(all(where.get(k) in v for k, v in c.items()) for c in applies)
        if not matches:
            with pytest.raises(OptionsError, match=f"'{name}' does not apply"):
                vertex.create_game("vert3x", **where, **{name: 2})


def test_vert3x_gyo_size_out_of_range_names_the_option() -> None:
    with pytest.raises(OptionsError, match="3–30") as err:
        vertex.create_game("vert3x", rules="gyo", size=2)
    assert err.value.option == "size"


def test_verticality_build_on_needs_company() -> None:
    assert props("verticality")["build_on"]["x-applies"] == {"players": [2, 3, 4, 5, 6]}
    assert vertex.create_game("verticality", players=2, build_on=True).options_dict()["build_on"]


def test_vert3x_start_dot_errors_name_the_option() -> None:
    """So the form shows them beside the start-dots field."""
    for start in (["a1", "zz99"], ["a1", "1a"]):
        with pytest.raises(OptionsError) as err:
            vertex.create_game("vert3x", start=start)
        assert err.value.option == "start"


def test_verticality_step_clock_default_by_players() -> None:
    """Solo style waits for nobody: its step clock is off unless set (issue 33, item 19)."""
    cases = props("verticality")["step_seconds"]["x-cases"]
    for players in range(1, 7):
        made = vertex.create_game("verticality", players=players).options_dict()
        case = next(c for c in cases if players in c["when"]["players"])
        assert made["step_seconds"] == case["default"] == (0 if players == 1 else 60)
    assert vertex.create_game("verticality", players=1, step_seconds=30).step_seconds == 30.0
    assert vertex.create_game("verticality", players=1).step_seconds is None  # untimed

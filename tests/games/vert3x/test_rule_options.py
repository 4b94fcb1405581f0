"""Vert3x rules as options (RULES.md §2): each rule set is data (`RuleSet`) that presets the
rule options, and a rule of one set may be used on another's board: triangle scoring
(`scoring`: outline, powers, units), `multiplier`, `claims`, `line_points`, `seal_scored`."""

from __future__ import annotations

from typing import Any

import pytest

import vertex
from tests.games.vert3x.test_classic import SIDE_TWO, SMALLEST, SPARE
from tests.games.vert3x.test_gyo import D_SPARE, D_UNIT, T_BIG
from tests.games.vert3x.util import alternate, new
from vertex import IllegalMove, OptionsError
from vertex.games.vert3x.options import RULE_SETS


def opts(**options: Any) -> dict[str, Any]:
    return vertex.create_game("vert3x", **options).options_dict()


def test_each_rule_set_presets_its_rules() -> None:
    assert {k: opts(rules="classic")[k] for k in ("scoring", "line_points", "claims")} == {
        "scoring": "outline",
        "line_points": True,
        "claims": False,
    }
    tri = opts(rules="trianguliche")
    assert (tri["scoring"], tri["line_points"], tri["claims"], tri["seal_scored"]) == (
        "powers",
        False,
        False,
        False,
    )
    gyo = opts(rules="gyo")
    assert (gyo["scoring"], gyo["line_points"], gyo["claims"], gyo["seal_scored"]) == (
        "units",
        False,
        True,
        True,
    )
    for name, rule_set in RULE_SETS.items():
        got = opts(rules=name)
        assert all(got[k] == v for k, v in rule_set.presets().items()), name


def scored(lines: list[str], **options: Any) -> tuple[int | float, ...]:
    state = alternate(new(**options), lines, SPARE[: len(lines) - 1])
    return state.scores


def test_classic_board_with_units_scoring() -> None:
    # the smallest triangle holds one unit: 1 point, plus its three lines
    assert scored(SMALLEST, scoring="units") == (3 + 1, 2)
    # side 2 covers four small triangles: 4 points, plus six lines
    assert scored(SIDE_TWO, scoring="units") == (6 + 4, 5)
    state = alternate(new(scoring="units"), SMALLEST, SPARE[:2])
    claims = state.to_dict()["board"]["claims"]
    assert [(c["owner"], sorted(c["cell"])) for c in claims] == [(0, ["a1", "b1", "b2"])]
    assert len(claims[0]["corners"]) == 3


def test_classic_board_with_powers_and_no_line_points() -> None:
    # side 2: four small triangles score ⌊log2 4⌋ + 1 = 3; lines score nothing
    assert scored(SIDE_TWO, scoring="powers", line_points=False) == (3, 0)


def test_classic_board_sealed_after_scoring() -> None:
    state = alternate(new(seal_scored=True), SIDE_TWO, SPARE[:6])
    assert state.to_move == (0,)
    # the inner lines of the side-2 triangle are closed to everyone now
    for line in ("b1-b2", "b2-c2", "b1-c2"):
        assert line not in (state.legal_moves() or [])
    with pytest.raises(IllegalMove, match="inside a scored triangle"):
        state.play("b1-b2")
    assert "b1-b2" in (alternate(new(), SIDE_TWO, SPARE[:6]).legal_moves() or [])


def test_gyo_board_with_outline_scoring_and_the_multiplier() -> None:
    state = alternate(new(rules="gyo", size=5, scoring="outline"), D_UNIT + D_SPARE, T_BIG)
    # D's unit: outline 3 lines; T's legs-2 triangle: 2 + 2 + 2 lines
    assert state.scores == (3, 6)
    big = alternate(
        new(rules="gyo", size=5, scoring="outline", multiplier=True), D_UNIT + D_SPARE, T_BIG
    )
    assert big.scores == (3, 12)


def test_gyo_without_claims_counts_every_unit() -> None:
    state = alternate(new(rules="gyo", size=5, claims=False), D_UNIT + D_SPARE, T_BIG)
    assert state.scores == (1, 4)  # D's unit counts for T too
    assert state.to_dict()["board"]["claims"] == []


def test_gyo_unsealed_lets_lines_inside() -> None:
    state = alternate(new(rules="gyo", size=5, seal_scored=False), D_UNIT + D_SPARE, T_BIG)
    assert "a1-b2" in (state.legal_moves() or [])


def test_trianguliche_with_units_claims_quarters() -> None:
    state = new(rules="trianguliche", scoring="units")
    state = alternate(state, ["a1-b1", "b1-b2", "a1-b2"], ["d4-e4", "e4-e5"])
    assert state.scores == (1, 0)
    assert len(state.to_dict()["board"]["claims"]) == 2  # a unit is two quarters


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"scoring": "powers", "multiplier": True}, "'multiplier' is a classic scoring"),
        ({"scoring": "outline", "claims": True}, "'claims' are units scored"),
        ({"rules": "gyo", "scoring": "outline", "claims": True}, "scoring=units"),
        ({"scoring": "points"}, "scoring"),
    ],
)
def test_rule_options_that_do_not_fit_are_explained(options: dict[str, Any], says: str) -> None:
    with pytest.raises(OptionsError, match=says):
        vertex.create_game("vert3x", **options)


def test_old_records_replay_with_the_presets() -> None:
    """A record made before these options existed names none of them: the presets fill them
    in, so it replays to the same game."""
    for rules in RULE_SETS:
        game = vertex.create_game("vert3x", rules=rules)
        old = {
            k: v
            for k, v in game.options_dict().items()
            if k not in ("scoring", "claims", "line_points", "seal_scored")
        }
        assert vertex.create_game("vert3x", **old) == game

"""Every option of every game has words in the form's three languages.

The form words an option from `i18n/<lang>/options.json` (`option.<game>.<name>.label`,
`.help`, and `.<value>` for each value of a choice); the server's English title is only a
fallback the page should never need. Walks `/api/games`' own list, so a new option or value
without words fails here.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from vertex.core.registry import list_games

WEB = Path(__file__).resolve().parents[3] / "src" / "vertex" / "web"
LANGS = ("en", "it", "ru")
#: Developer wording that must not reach a player: option names, code spans, snake_case.
DEVELOPER = re.compile(r"`|\b[a-z]+_[a-z_]+\b|\bTrue\b|\bFalse\b|\bNone\b")


def _choices(prop: dict[str, Any]) -> list[str]:
    values: list[str] = []
    for branch in prop.get("anyOf", [prop]):
        values += [v for v in branch.get("enum", []) if isinstance(v, str)]
    return values


def keys_needed() -> dict[str, str]:
    """Catalog key → what it words (for the failure message)."""
    keys: dict[str, str] = {}
    for game in list_games():
        for name, prop in game["options"]["properties"].items():
            base = f"option.{game['id']}.{name}"
            keys[f"{base}.label"] = f"{game['id']}'s option {name}: its title"
            keys[f"{base}.help"] = f"{game['id']}'s option {name}: its help"
            for value in _choices(prop):
                keys[f"{base}.{value}"] = f"{game['id']}'s option {name}: the value {value}"
    return keys


def test_the_walk_finds_every_game_and_the_vert3x_scoring_words() -> None:
    keys = keys_needed()
    assert {k.split(".")[1] for k in keys} == {g["id"] for g in list_games()}
    for key in ("option.vert3x.scoring.units", "option.vert3x.line_points.help"):
        assert key in keys


@pytest.mark.parametrize("lang", LANGS)
def test_every_option_has_a_title_help_and_value_words(lang: str) -> None:
    catalog = json.loads((WEB / "i18n" / lang / "options.json").read_text())
    missing = [f"{k} ({why})" for k, why in keys_needed().items() if not catalog.get(k, "").strip()]
    assert not missing, f"{lang}/options.json lacks:\n" + "\n".join(missing)


@pytest.mark.parametrize("lang", LANGS)
def test_option_words_are_players_words(lang: str) -> None:
    catalog = json.loads((WEB / "i18n" / lang / "options.json").read_text())
    raw = {k: v for k, v in catalog.items() if DEVELOPER.search(v)}
    assert not raw, f"{lang}/options.json has developer wording: {raw}"

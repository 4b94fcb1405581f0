"""Every refusal the server can send has words in the page's three languages.

Walks the source: every code an `ApiError` is raised with (and the codes the app's error
handlers write), every sub-code it names in its params (`why`, `problem`), every options
problem a game or the options layer names, and every rule a game names when it refuses a move
(`IllegalMove(message, rule, params)`, `NotationError` alike: Dots' border/drawn/untouched,
Verticality's aims, Vert3x's and Juxtapose's rules and notation); each
needs `error.<code>` (and `error.<code>.<sub>`, `error.illegal-move.<rule>` with the same
placeholders as the rule's params) in i18n/{en,it,ru}/errors.json.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from vertex.core.options import _PROBLEMS

SRC = Path(__file__).resolve().parents[2] / "src" / "vertex"
LANGS = ("en", "it", "ru")
#: Codes the page itself uses for failures that never reach the server.
CLIENT_CODES = {"offline", "connection-lost"}
#: The errors a game raises for a refused move (a NotationError is one that does not parse).
REFUSALS = ("IllegalMove", "NotationError")


def _literal(node: ast.AST | None) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def keys_needed() -> set[str]:
    return set(_walk())


def _walk() -> dict[str, set[str] | None]:
    """Catalog key → the placeholders its words must have (None: as the English has)."""
    keys: dict[str, set[str] | None] = {}
    for key in _codes():
        keys[key] = None
    for rule, params in _move_rules().items():
        keys[f"error.illegal-move.{rule}"] = params
    return keys


def _move_rules() -> dict[str, set[str]]:
    """The rules games name when they refuse a move, with the names of their params."""
    rules: dict[str, set[str]] = {}
    for path in [*(SRC / "games").rglob("*.py"), *(SRC / "lattice").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            called = getattr(node, "func", None)
            if not isinstance(node, ast.Call) or getattr(called, "id", None) not in REFUSALS:
                continue
            if len(node.args) < 2:
                continue  # no rule named: the page says only that the move is not allowed
            rule = _literal(node.args[1])
            assert rule, f"{path}:{node.lineno}: a refused move's rule must be a literal"
            params = node.args[2] if len(node.args) > 2 else None
            names = {_literal(k) for k in params.keys} if isinstance(params, ast.Dict) else set()
            rules[rule] = {n for n in names if n}
    return rules


def _codes() -> set[str]:
    keys = {f"error.{c}" for c in CLIENT_CODES}
    keys |= {f"error.bad-options.{problem}" for problem, _ in _PROBLEMS.values()}
    keys.add("error.bad-options.unknown")
    for path in SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Dict):  # {"code": "...", ...} written by hand
                for k, v in zip(node.keys, node.values, strict=True):
                    if _literal(k) == "code" and _literal(v):
                        keys.add(f"error.{_literal(v)}")
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name == "ApiError":
                code = _literal(node.args[0]) if node.args else None
                assert code, f"{path}:{node.lineno}: an ApiError's code must be a literal"
                keys.add(f"error.{code}")
                for kw in node.keywords:
                    if kw.arg == "params" and isinstance(kw.value, ast.Dict):
                        for k, v in zip(kw.value.keys, kw.value.values, strict=True):
                            if _literal(k) in ("why", "problem") and _literal(v):
                                keys.add(f"error.{code}.{_literal(v)}")
            if name in ("OptionRule", "OptionsError") and len(node.args) >= 3:
                problem = _literal(node.args[2])
                if path == SRC / "core" / "options.py":
                    continue  # passes on pydantic's problems, all in _PROBLEMS
                assert problem, f"{path}:{node.lineno}: the problem must be a literal"
                keys.add(f"error.bad-options.{problem}")
    return keys


def test_the_walk_finds_the_codes_it_should() -> None:
    keys = keys_needed()
    for known in ("error.stale", "error.not-allowed.player-here", "error.bad-options.range"):
        assert known in keys
    rules = _move_rules()
    assert rules["touching"] == {"gap_mm", "within_mm"} and rules["untouched"] == {"line"}
    assert {"pyramid-now", "card-now", "lower-level", "overlap", "border", "drawn"} <= set(rules)
    assert "error.bad-message.extra" in keys and "error.bad-request" in keys
    assert len(keys) > 60


@pytest.mark.parametrize("lang", LANGS)
def test_every_error_code_has_words_in_every_language(lang: str) -> None:
    catalog = json.loads((SRC / "web" / "i18n" / lang / "errors.json").read_text())
    missing = sorted(keys_needed() - set(catalog))
    assert not missing, f"{lang}/errors.json lacks {missing}"
    english = json.loads((SRC / "web" / "i18n" / "en" / "errors.json").read_text())
    for key, params in _walk().items():
        if params is not None:  # a move's rule: its words use the numbers the game sends
            assert set(_holes(catalog[key])) <= params, f"{lang}: {key} names no such number"
    for key, text in catalog.items():
        assert text.strip(), key
        # the same placeholders as the English, so no language drops a number
        assert sorted(_holes(text)) == sorted(_holes(english[key])), key


def _holes(text: str) -> list[str]:
    import re

    return re.findall(r"\{(\w+)\}", text)

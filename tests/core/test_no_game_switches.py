"""No layer outside `vertex.games` switches on a game: no game id in its code, no getattr or
hasattr probe of a game or a state. What is game-specific is declared by the game (its
`GameInfo`, `Game` class metadata and capabilities, `vertex.core.capabilities`) and asked for.

Docstrings and comments may name games; string literals in code may not. The exceptions are
listed here with their reason.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from vertex.core import game_ids

SRC = Path(__file__).resolve().parents[2] / "src" / "vertex"
LAYERS = ("ai", "interop", "terminal", "server", "core")

#: (file relative to src/vertex, the literal) -> why it may stay.
ALLOWED_IDS: dict[tuple[str, str], str] = {
    ("server/app.py", "/api/verticality/bests"): (
        "the public URL of the personal-best lists: an API path, not a rule switch"
    ),
    ("server/bests.py", "/api/verticality/board"): (
        "the public URL of the bests board (the personal-best lists' page view): an API path"
    ),
    ("terminal/play.py", "game id, e.g. dots-and-boxes"): "an example in a --help text",
    ("terminal/juxtapose.py", "juxtapose"): (
        "a board kind (the view's `board.kind`, by which the page picks its board modules too), "
        "spelled like the game"
    ),
    ("terminal/solve.py", "a game with an exact solver, e.g. dots-and-boxes"): (
        "an example in a --help text"
    ),
}

#: A getattr/hasattr whose object is a game, a state, a board or a position.
PROBE = re.compile(r"\b(getattr|hasattr)\(\s*[\w.]*(game|state|board|geometry|pos)\b", re.I)


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings."""
    out = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                out.add(id(value))
    return out


def _files() -> list[Path]:
    return sorted(p for layer in LAYERS for p in (SRC / layer).rglob("*.py"))


def test_no_game_id_in_code_outside_the_games() -> None:
    ids = game_ids()
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])")
    hits = []
    for path in _files():
        rel = path.relative_to(SRC).as_posix()
        tree = ast.parse(path.read_text(), rel)
        skip = _docstrings(tree)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
                continue
            if id(node) in skip or not pattern.search(node.value):
                continue
            if (rel, node.value) not in ALLOWED_IDS:
                hits.append(f"{rel}:{node.lineno}: {node.value!r}")
    assert not hits, "game ids outside vertex.games (ask a capability instead):\n" + "\n".join(hits)


def test_no_attribute_probe_of_games_or_states() -> None:
    hits = []
    for path in _files():
        rel = path.relative_to(SRC).as_posix()
        for n, line in enumerate(path.read_text().splitlines(), 1):
            if PROBE.search(line):
                hits.append(f"{rel}:{n}: {line.strip()}")
    assert not hits, "getattr/hasattr on a game or state (declare a capability):\n" + "\n".join(
        hits
    )


def test_the_checks_would_catch_a_switch() -> None:
    """The patterns find what they are for (a test that could not fail would prove nothing)."""
    assert PROBE.search('misere = getattr(state.game, "misere", False)')
    assert PROBE.search("hasattr(game, 'geometry')")
    assert not PROBE.search('getattr(pool, "_processes", {})')
    ids = game_ids()
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, ids)) + r")(?![\w-])")
    assert pattern.search("juxtapose") and pattern.search("x/dots-and-boxes/y")
    assert not pattern.search("dots-and-boxes-like")

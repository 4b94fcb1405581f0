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
    ("server/pages/bests.py", "/api/verticality/bests"): (
        "the public URL of the personal-best lists: an API path, not a rule switch"
    ),
    ("server/pages/bests.py", "/api/verticality/board"): (
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

#: (file relative to src/vertex, a probe's line) -> why it is no game switch.
ALLOWED_PROBES: dict[tuple[str, str], str] = {
    ("server/live/conn.py", 'or getattr(proto.conn.state, "name", "") != "OPEN"'): (
        "a WebSocket connection's state (websockets' protocol), not a game's"
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
            if PROBE.search(line) and (rel, line.strip()) not in ALLOWED_PROBES:
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


# ---- the page (web/js) -------------------------------------------------------------------
WEB_JS = SRC / "web" / "js"
BOARDS = WEB_JS / "boards"
#: A JS string literal: "…", '…' or `…` (one line; the page's template literals are short).
JS_STRING = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\\n]|\\.)*`")


def _renderers() -> dict[str, str]:
    """game id -> the renderer its board view names (`board.renderer`)."""
    from vertex.server.pages.web import preview

    return {gid: preview(gid)["board"]["renderer"] for gid in game_ids()}


def _js_strings(text: str) -> list[tuple[int, str]]:
    """(line, literal) of the string literals in JS code, comments left out."""
    out = []
    in_block = False
    for n, line in enumerate(text.splitlines(), 1):
        code = line
        if in_block:
            if "*/" not in code:
                continue
            code = code.split("*/", 1)[1]
            in_block = False
        pos = 0
        while pos < len(code):
            m = JS_STRING.search(code, pos)
            comment = min(
                (i for i in (code.find("//", pos), code.find("/*", pos)) if i >= 0), default=-1
            )
            if comment >= 0 and (m is None or comment < m.start()):
                if code.startswith("/*", comment) and "*/" not in code[comment + 2 :]:
                    in_block = True
                elif code.startswith("/*", comment):
                    pos = code.index("*/", comment + 2) + 2
                    continue
                break
            if m is None:
                break
            out.append((n, m.group()[1:-1]))
            pos = m.end()
    return out


def _page_files() -> list[Path]:
    """The page's modules outside the board folders (`boards/<renderer>/` is a game's own)."""
    return sorted(p for p in WEB_JS.rglob("*.js") if p.parent.parent != BOARDS)


def test_no_game_or_renderer_named_in_the_page_outside_its_board_folder() -> None:
    names = set(game_ids()) | set(_renderers().values())
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(names))) + r")(?![\w-])")
    hits = []
    for path in _page_files():
        rel = path.relative_to(WEB_JS).as_posix()
        for n, literal in _js_strings(path.read_text()):
            if pattern.search(literal):
                hits.append(f"web/js/{rel}:{n}: {literal!r}")
    assert not hits, (
        "the page names a game or a board outside js/boards/<renderer>/ (ask the server: "
        "/api/games, the board view's renderer):\n" + "\n".join(hits)
    )


def test_every_board_view_names_a_renderer_folder_with_a_board_and_a_picture() -> None:
    for gid, renderer in _renderers().items():
        folder = BOARDS / renderer
        assert (folder / f"{renderer}.js").is_file(), (gid, renderer)
        assert (folder / f"{renderer}-preview.js").is_file(), (gid, renderer)
        assert (folder / f"rules-{gid}.js").is_file(), (gid, renderer)  # its rules page


def test_the_page_scan_reads_strings_and_skips_comments() -> None:
    code = (
        'const a = "vert3x"; // "juxtapose" in a comment\n'
        "/* 'figures'\n"
        "   still a comment */ const b = `towers/${x}`;\n"
        "const url = 'http://x/y'; /* c */ const c = 'd';\n"
    )
    assert [s for _, s in _js_strings(code)] == ["vert3x", "towers/${x}", "http://x/y", "d"]

"""server/ has no import cycles: each module's imports of other server modules (including
the ones only type checkers read, and imports inside functions) form a graph without a
circle. A circle means two modules that can only be understood together.

Subpackages count as modules of their own (`lobby.place`, `api.tables`); importing a package
(`from vertex.server.lobby import Lobby`) is importing its `__init__` (`lobby`)."""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "src" / "vertex" / "server"
PACKAGE = "vertex.server"


def _name(path: Path) -> str:
    """`lobby/place.py` -> `lobby.place`; `lobby/__init__.py` -> `lobby`; `hub.py` -> `hub`."""
    parts = path.relative_to(SERVER).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts) or "__init__"


def _module(dotted: str) -> str | None:
    """The graph node of `vertex.server.x.y…`: the longest prefix that is a module here."""
    parts = dotted.split(".")[2:]
    while parts:
        rel = SERVER.joinpath(*parts)
        if rel.with_suffix(".py").is_file() or (rel / "__init__.py").is_file():
            return ".".join(parts)
        parts = parts[:-1]
    return None


def imports() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in sorted(SERVER.rglob("*.py")):
        name = _name(path)
        # the package a relative import starts from
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        deps = graph.setdefault(name, set())
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            targets: list[str] = []
            if isinstance(node, ast.ImportFrom):
                mod = node.module or ""
                if node.level:  # from .x import y, from .. import y
                    up = [p for p in package.split(".") if p and p != "__init__"]
                    up = up[: len(up) - (node.level - 1)]
                    mod = ".".join([PACKAGE, *up, *([mod] if mod else [])])
                if mod == PACKAGE or mod.startswith(PACKAGE + "."):
                    # `from package import module` imports that module
                    targets += [mod, *(f"{mod}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                targets += [a.name for a in node.names if a.name.startswith(PACKAGE + ".")]
            for target in targets:
                found = _module(target)
                if found is not None:
                    deps.add(found)
        deps.discard(name)
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A circle of imports, or None."""
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(n: str) -> list[str] | None:
        state[n] = 1
        path.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return [*path[path.index(m) :], m]
            if m not in state and (found := visit(m)) is not None:
                return found
        path.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state and (found := visit(n)) is not None:
            return found
    return None


def test_the_finder_finds_a_circle() -> None:
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_server_has_no_import_cycles() -> None:
    graph = imports()
    assert {"hub", "table", "events", "store", "commands", "lobby", "lobby.place"} <= set(graph)
    assert "store" in graph["repository"]  # the walk sees imports
    assert "lobby.place" in graph["lobby"]  # and those of subpackages
    assert "lobby" in graph["hub"]  # a package import is its __init__
    assert "hub" in graph["lobby.routes"]  # type-checking imports count too
    found = cycle(graph)
    assert found is None, "import cycle: " + " -> ".join(found or [])

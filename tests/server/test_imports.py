"""server/ has no import cycles: each module's imports of other server modules (including
the ones only type checkers read, and imports inside functions) form a graph without a
circle. A circle means two modules that can only be understood together."""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "src" / "vertex" / "server"
PACKAGE = "vertex.server"


def imports() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in sorted(SERVER.glob("*.py")):
        name = path.stem
        deps = graph.setdefault(name, set())
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module:
                mod = node.module
                if node.level == 1:  # from .x import y
                    mod = f"{PACKAGE}.{mod}"
                if mod == PACKAGE:  # from vertex.server import x
                    deps.update(a.name for a in node.names if (SERVER / f"{a.name}.py").exists())
                elif mod.startswith(PACKAGE + "."):
                    deps.add(mod.split(".")[2])
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith(PACKAGE + "."):
                        deps.add(alias.name.split(".")[2])
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
    assert {"hub", "table", "events", "store", "commands"} <= set(graph)
    assert "store" in graph["repository"]  # the walk sees imports
    found = cycle(graph)
    assert found is None, "import cycle: " + " -> ".join(found or [])

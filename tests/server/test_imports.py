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
    assert {"hub", "table.table", "table.events", "storage.store", "play.commands"} <= set(graph)
    assert {"lobby", "lobby.place"} <= set(graph)
    assert "storage.store" in graph["storage.repository"]  # the walk sees imports
    assert "lobby.place" in graph["lobby"]  # and those of subpackages
    assert "lobby" in graph["hub"]  # a package import is its __init__
    assert "hub" in graph["api.lobby"]  # type-checking imports count too
    found = cycle(graph)
    assert found is None, "import cycle: " + " -> ".join(found or [])


#: Modules at the top of server/ and the group each belongs to (server/__init__.py).
FOUNDATION = {"errors", "text", "tasks", "settings", "metrics", "logs"}
TOP = {"hub": "hub", "parts": "hub", "upkeep": "hub", "app": "app", "cli": "app"}
TOP |= {"__main__": "app", "__init__": "app"}


def allowed() -> dict[str, set[str]]:
    """The direction written in server/__init__.py: `package:  what it may import`."""
    doc = ast.get_docstring(ast.parse((SERVER / "__init__.py").read_text())) or ""
    rules: dict[str, set[str]] = {}
    for line in doc.splitlines():
        head, colon, rest = line.strip().partition(":")
        if colon and head.isidentifier() and line.startswith("    "):
            rules[head] = set(rest.split()) - {"-"}
    return rules


def group(module: str) -> str:
    """`storage.store` -> `storage`; `upkeep` -> `hub`; `errors` -> `foundation`."""
    if module in FOUNDATION:
        return "foundation"
    return TOP.get(module) or module.split(".")[0]


def test_the_direction_is_written_down_for_every_package() -> None:
    rules = allowed()
    packages = {p.name for p in SERVER.iterdir() if (p / "__init__.py").is_file()}
    assert packages <= set(rules), "a package without its line in server/__init__.py"
    assert set(TOP.values()) <= set(rules)
    tops = {p.stem for p in SERVER.glob("*.py")}
    assert tops == FOUNDATION | set(TOP), "a new module at the top: a package's, or wiring?"
    for name in rules:  # every package says what it owns and what it may import
        init = SERVER / name / "__init__.py"
        if init.is_file():
            assert "import" in (ast.get_docstring(ast.parse(init.read_text())) or "").lower()
    # one way: the rules themselves have no circle
    assert cycle(rules) is None


def test_packages_import_only_in_the_written_direction() -> None:
    rules, graph = allowed(), imports()
    assert rules["storage"] == {"table", "site"} and not rules["table"]
    wrong = []
    for module, deps in sorted(graph.items()):
        here = group(module)
        for dep in sorted(deps):
            there = group(dep)
            if there == here or there == "foundation":
                continue
            if here == "foundation" or there not in rules[here]:
                wrong.append(f"{module} -> {dep}")
    assert not wrong, "against server/__init__.py's direction: " + ", ".join(wrong)


def test_the_direction_check_sees_a_wrong_arrow() -> None:
    assert group("storage.repository") == "storage" and group("upkeep") == "hub"
    assert "table" not in allowed()["site"]  # site.x -> table.y would be reported

"""server/ stays in parts of a size one can read (issue 20): no module over 300 lines and no
class over 20 methods, except the few named here, each of which says why in its docstring.
A module that grows past the limit fails here: split it by concern, or give it a reason and
name it below."""

from __future__ import annotations

import ast
from pathlib import Path

SERVER = Path(__file__).resolve().parents[2] / "src" / "vertex" / "server"
MODULE_LINES = 300
CLASS_METHODS = 20

#: Modules over MODULE_LINES, each one concern that is simply long (see its docstring).
LONG_MODULES = {"autoplay.py", "events.py", "leases.py", "repository.py"}
#: Classes over CLASS_METHODS (see their docstrings).
BUSY_CLASSES = {"store.py:Store"}


def _sizes() -> tuple[dict[str, int], dict[str, int]]:
    lines: dict[str, int] = {}
    methods: dict[str, int] = {}
    for path in sorted(SERVER.rglob("*.py")):
        name = path.relative_to(SERVER).as_posix()
        text = path.read_text()
        lines[name] = len(text.splitlines())
        for node in ast.walk(ast.parse(text, name)):
            if isinstance(node, ast.ClassDef):
                kinds = (ast.FunctionDef, ast.AsyncFunctionDef)
                methods[f"{name}:{node.name}"] = sum(isinstance(b, kinds) for b in node.body)
    return lines, methods


def test_the_sizes_are_counted() -> None:
    lines, methods = _sizes()
    assert lines["hub.py"] > 100 and methods["hub.py:Hub"] > 10
    assert methods["store.py:Store"] > CLASS_METHODS


def test_no_module_or_class_is_over_the_limit_without_a_reason() -> None:
    lines, methods = _sizes()
    long = {n for n, count in lines.items() if count > MODULE_LINES}
    busy = {n for n, count in methods.items() if count > CLASS_METHODS}
    assert long == LONG_MODULES, "over 300 lines: split by concern, or say why and list it"
    assert busy == BUSY_CLASSES, "over 20 methods: split by concern, or say why and list it"
    for name in LONG_MODULES:
        doc = ast.get_docstring(ast.parse((SERVER / name).read_text())) or ""
        assert "300 lines" in doc, f"{name} does not say why it is long"

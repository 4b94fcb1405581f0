"""The shipped set: `data/*.jsonl`, made by `vertex puzzles make` (README, "Puzzles")."""

from __future__ import annotations

import functools
import json
from importlib import resources

from vertex.puzzles.model import Puzzle


@functools.cache
def shipped() -> tuple[Puzzle, ...]:
    """Every shipped puzzle, file by file, in file order (read once a process)."""
    out: list[Puzzle] = []
    seen: set[str] = set()
    folder = resources.files("vertex.puzzles") / "data"
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".jsonl"):
            continue
        for line in entry.read_text(encoding="utf-8").splitlines():
            if line.strip():
                p = Puzzle.from_json(json.loads(line))
                if p.id not in seen:
                    seen.add(p.id)
                    out.append(p)
    return tuple(out)

"""A solver's table on disk, so that a solve too long for one sitting goes on where it stopped.

The file is a header of `HEADER_BYTES` (a magic line, then one JSON object: the game and its
options, the table's size, the core's table format, the positions and seconds spent so far
and the root's bounds when saved) followed by the table's entries as the core keeps them:
all of them, or (`min_work`) only those whose search took 2**(min_work - 1) positions or
more, each with its place in the table. That file is megabytes where the whole table is
gigabytes, so a solve of days can be carried from machine to machine; read back, it
settles the subtrees it holds at once, and the search goes over again only the small ones
it left out.
A table holds only finished entries (exact bounds of positions), so whatever a stopped
search left is still true, and a later search on the same board starts from it. Saving
writes a sibling file first and renames it over the old one: a crash while saving leaves
the last good table.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vertex.ai.dots._core import TABLE_FORMAT
from vertex.ai.dots.core import CoreSolver
from vertex.core.errors import VertexError

MAGIC = b"VERTEX-SOLVER-TABLE\n"
HEADER_BYTES = 4096


@dataclass(frozen=True)
class TableHeader:
    """What a table file says of itself."""

    game: str
    options: dict[str, Any]
    capacity: int
    table_bytes: int
    positions: int
    seconds: float
    saved: str
    bounds: tuple[int, int] | None  # the root's (lo, hi) when saved, for the mover
    min_work: int = 0  # 0: the whole table; else only its entries of this work or more

    def size_words(self) -> str:
        """The table's size as `--memory` takes it: 4G, 256M."""
        size = self.table_bytes
        if size >= 1 << 30 and size % (1 << 30) == 0:
            return f"{size >> 30}G"
        return f"{size / (1 << 20):g}M"


def _header(
    solver: CoreSolver, positions: int, seconds: float, bounds: Any, min_work: int
) -> bytes:
    stats = solver.stats()
    body = {
        "min_work": min_work,
        "format": TABLE_FORMAT,
        "game": solver.game.id,
        "options": solver.game.options_dict(),
        "capacity": stats["capacity"],
        "table_bytes": stats["table_bytes"],
        "positions": positions,
        "seconds": round(seconds, 3),
        "saved": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "bounds": list(bounds) if bounds is not None else None,
    }
    data = MAGIC + json.dumps(body, sort_keys=True).encode() + b"\n"
    if len(data) > HEADER_BYTES:  # pragma: no cover - the options of a board are short
        raise VertexError("the table's header is too long")
    return data.ljust(HEADER_BYTES, b" ")


def save(
    solver: CoreSolver,
    path: str | os.PathLike[str],
    *,
    positions: int,
    seconds: float,
    bounds: tuple[int, int] | None = None,
    min_work: int = 0,
) -> None:
    """Write the solver's table to `path` (to a sibling file, then renamed into place):
    whole, or with `min_work` only the entries whose search took 2**(min_work - 1)
    positions or more. Safe while the solver searches: its entries check themselves, so
    one torn in the copy reads as empty."""
    target = Path(path)
    part = target.with_name(target.name + ".part")
    with open(part, "wb", buffering=0) as f:
        f.write(_header(solver, positions, seconds, bounds, min_work))
        if min_work:
            solver.core.save_entries(f.fileno(), min_work)
        else:
            solver.core.save_table(f.fileno())
        os.fsync(f.fileno())
    os.replace(part, target)


def read_header(path: str | os.PathLike[str]) -> TableHeader:
    """The header of a table file; VertexError when it is not one this core can read."""
    try:
        with open(path, "rb") as f:
            raw = f.read(HEADER_BYTES)
    except OSError as exc:
        raise VertexError(f"cannot read the table {os.fspath(path)!r}: {exc.strerror}") from exc
    if not raw.startswith(MAGIC) or len(raw) < HEADER_BYTES:
        raise VertexError(f"{os.fspath(path)!r} is not a solver's table")
    try:
        body = json.loads(raw[len(MAGIC) :].split(b"\n", 1)[0])
        form = body["format"]
    except (ValueError, KeyError, TypeError) as exc:
        raise VertexError(f"{os.fspath(path)!r} has a damaged header") from exc
    if form != TABLE_FORMAT:
        raise VertexError(
            f"{os.fspath(path)!r} was saved by another version of the solver "
            f"(table format {form}, this one reads {TABLE_FORMAT})"
        )
    try:
        bounds = body["bounds"]
        min_work = int(body.get("min_work", 0))
        if not 0 <= min_work <= 255:
            raise ValueError(min_work)
        return TableHeader(
            game=str(body["game"]),
            options=dict(body["options"]),
            capacity=int(body["capacity"]),
            table_bytes=int(body["table_bytes"]),
            positions=int(body["positions"]),
            seconds=float(body["seconds"]),
            saved=str(body["saved"]),
            bounds=(int(bounds[0]), int(bounds[1])) if bounds else None,
            min_work=min_work,
        )
    except (ValueError, KeyError, TypeError, IndexError) as exc:
        raise VertexError(f"{os.fspath(path)!r} has a damaged header") from exc


def load(solver: CoreSolver, path: str | os.PathLike[str]) -> TableHeader:
    """Fill the solver's table from `path`: the same game, options and table size. Returns
    the header; VertexError (the table left empty) when the file does not fit."""
    header = read_header(path)
    game = solver.game
    if header.game != game.id or header.options != game.options_dict():
        raise VertexError(
            f"{os.fspath(path)!r} is the table of {header.game} {_words(header.options)}, "
            f"not of {game.id} {_words(game.options_dict())}"
        )
    if header.capacity != solver.stats()["capacity"]:
        raise VertexError(
            f"{os.fspath(path)!r} holds a table of {header.size_words()}: go on with it "
            f"with --memory {header.size_words()}, or without --memory"
        )
    with open(path, "rb", buffering=0) as f:
        f.seek(HEADER_BYTES)
        try:
            if header.min_work:
                solver.core.load_entries(f.fileno())
            else:
                solver.core.load_table(f.fileno())
        except ValueError as exc:
            raise VertexError(f"{os.fspath(path)!r} is damaged: {exc}") from exc
    return header


def _words(options: dict[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in sorted(options.items())) or "(no options)"

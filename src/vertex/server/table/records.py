"""What the store keeps, as the rest of the server sees it: a table's status and row, a solo
result, and the refusal of a write from an owner whose lease was taken over. No database
here: table.py and views.py read these without the store.
"""

from __future__ import annotations

from dataclasses import dataclass

from vertex.server.table.spec import TableSpec

OPEN, OVER, EXPIRED = "open", "over", "expired"


class Fenced(Exception):
    """An owner's write whose lease epoch is older than one the store has seen."""


@dataclass(frozen=True)
class TableRow:
    id: str
    game: str
    spec: TableSpec
    status: str
    creator: str
    created_at: float
    updated_at: float


@dataclass(frozen=True)
class BestRow:
    """One solo result: who, how high (levels completed, then millimetres), where, when."""

    name: str
    levels: int
    height_mm: float
    table_id: str
    at: float

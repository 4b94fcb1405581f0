"""Vert3x options (RULES.md §2): three rule sets as presets; every option can be overridden.

The preset of the chosen `rules` fills every option the table did not set, before validation,
so the options a table shows (and a record keeps) are the ones in force. Board options belong
to one rule set (and shape); giving one that does not apply is an error, not silently ignored.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from vertex.core.options import GameOptions

Rules = Literal["classic", "trianguliche", "gyo"]
Shape = Literal["hexagon", "triangle", "parallelogram", "custom"]

#: What each rule set presets (RULES.md §2.1–2.3).
PRESETS: dict[str, dict[str, Any]] = {
    "classic": {"connected": True, "no_cross": True, "vertex_block": False},
    "trianguliche": {"connected": False, "no_cross": True, "vertex_block": True},
    "gyo": {"connected": False, "no_cross": True, "vertex_block": False},
}

#: Board options by rule set (and shape, for classic): default and allowed range.
BOARD_FIELDS: dict[tuple[str, str | None], dict[str, tuple[int, int, int]]] = {
    ("classic", "hexagon"): {"radius": (3, 1, 8)},
    ("classic", "triangle"): {"size": (4, 1, 12)},
    ("classic", "parallelogram"): {"width": (4, 1, 12), "height": (4, 1, 12)},
    ("classic", "custom"): {},
    ("trianguliche", None): {"width": (2, 1, 8), "height": (2, 1, 8)},
    ("gyo", None): {"size": (15, 3, 30)},
}
SIZE_FIELDS = ("radius", "size", "width", "height")


def _board_key(rules: str, shape: str | None) -> tuple[str, str | None]:
    return (rules, shape if rules == "classic" else None)


def _when(rules: str, shape: str | None) -> dict[str, list[str]]:
    return {"rules": [rules], **({"shape": [shape]} if shape else {})}


def _board_meta(key: str) -> dict[str, Any]:
    """Form metadata for a board option, read from BOARD_FIELDS so it cannot drift: where it
    applies (`x-applies`, any of these option matches) and, per case, its range and the default
    used when it is left empty (`x-cases`). Validation stays in `_check_board`."""
    cases = [
        {"when": _when(rules, shape), "minimum": low, "maximum": high, "default": default}
        for (rules, shape), fields in BOARD_FIELDS.items()
        for name, (default, low, high) in fields.items()
        if name == key
    ]
    return {"x-applies": [c["when"] for c in cases], "x-cases": cases}


class Vert3xOptions(GameOptions):
    rules: Rules = Field(default="classic", description="rule set: a preset of the options")
    shape: Shape | None = Field(
        default=None,
        description="board shape (classic only; default hexagon)",
        json_schema_extra={"x-applies": {"rules": ["classic"]}},
    )
    radius: int | None = Field(
        default=None,
        description="hexagon side, 1–8 (classic)",
        json_schema_extra=_board_meta("radius"),
    )
    size: int | None = Field(
        default=None,
        description="classic triangle: small triangles a side, 1–12; gyo: dots a side, 3–30",
        json_schema_extra=_board_meta("size"),
    )
    width: int | None = Field(
        default=None,
        description="parallelogram width 1–12 (classic); windows across 1–8",
        json_schema_extra=_board_meta("width"),
    )
    height: int | None = Field(
        default=None,
        description="parallelogram height 1–12 (classic); windows down 1–8",
        json_schema_extra=_board_meta("height"),
    )
    cells: list[str] | None = Field(
        default=None,
        description="custom board (classic): its small triangles, each as 'a1-b2-a2'",
        json_schema_extra={"x-applies": {"rules": ["classic"], "shape": ["custom"]}},
    )
    players: int = Field(default=2, ge=2, le=6)
    connected: bool = Field(
        default=True,
        description="each line must touch the player's earlier lines or start dot "
        "(preset: on for classic, off for trianguliche and gyo)",
    )
    start: Literal["auto"] | list[str] = Field(
        default="auto",
        description="start dots when connected: 'auto' or one dot name per seat",
        json_schema_extra={"x-applies": {"connected": [True]}},
    )
    no_cross: bool = Field(default=True, description="lines may not cross another's lines")
    vertex_block: bool = Field(
        default=False,
        description="a dot touched by one player is closed to the others "
        "(preset: on for trianguliche only)",
    )
    extra_turn: bool = Field(default=False, description="completing a triangle gives a move")
    lines_per_turn: int = Field(default=1, ge=1, le=10, description="lines drawn in a turn")
    multiplier: bool = Field(
        default=False,
        description="classic: a side-k triangle scores 3k·k instead of 3k",
        json_schema_extra={"x-applies": {"rules": ["classic"]}},
    )

    @model_validator(mode="before")
    @classmethod
    def _fill_presets(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        rules = data.get("rules", "classic")
        if rules not in PRESETS:
            return data  # the field check names the allowed rule sets
        out = dict(data)
        for key, value in PRESETS[rules].items():
            if out.get(key) is None:
                out[key] = value
        if rules == "classic" and out.get("shape") is None:
            out["shape"] = "hexagon"
        fields = BOARD_FIELDS.get(_board_key(rules, out.get("shape")), {})
        for key, (default, _, _) in fields.items():
            if out.get(key) is None:
                out[key] = default
        return out

    @model_validator(mode="after")
    def _check_board(self) -> Vert3xOptions:
        if self.rules != "classic" and self.shape is not None:
            raise ValueError(f"'shape' is for rules=classic; rules={self.rules} has one board")
        where = f"rules={self.rules}" + (f" shape={self.shape}" if self.shape else "")
        fields = BOARD_FIELDS[_board_key(self.rules, self.shape)]
        for key in SIZE_FIELDS:
            value = getattr(self, key)
            if key not in fields:
                if value is not None:
                    takes = ", ".join(f"'{f}'" for f in fields) or "'cells'"
                    raise ValueError(f"'{key}' does not apply to {where} (it takes {takes})")
                continue
            _, low, high = fields[key]
            if not low <= value <= high:
                raise ValueError(f"'{key}' for {where} must be {low}–{high} (got {value})")
        if self.shape == "custom":
            if not self.cells:
                raise ValueError("shape=custom needs 'cells': a list of small triangles")
            from vertex.lattice.tri_shapes import custom_board

            custom_board(tuple(self.cells))  # a bad cell is reported now, naming the cell
        elif self.cells is not None:
            raise ValueError(f"'cells' is for shape=custom, not {where}")
        if self.start != "auto":
            if not self.connected:
                raise ValueError("'start' places start dots, which only matter when connected")
            if len(self.start) != self.players:
                raise ValueError(
                    f"'start' needs one dot per seat: {self.players} names, got {len(self.start)}"
                )
            if len(set(self.start)) != len(self.start):
                raise ValueError("'start' gives two seats the same dot")
        if self.multiplier and self.rules != "classic":
            raise ValueError("'multiplier' is a classic scoring variation")
        return self

"""Vert3x options (RULES.md §2): three rule sets as presets; every option can be overridden.

A rule set is data (`RuleSet`): its board, and the value it presets for each rule option.
The preset of the chosen `rules` fills every option the table did not set, before validation,
so the options a table shows (and a record keeps) are the ones in force, and the engine reads
only those: no rule asks which rule set it is in. Board options belong to one rule set (and
shape); giving one that does not apply is an error, not silently ignored.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from pydantic import Field, model_validator

from vertex.core.errors import OptionRule
from vertex.core.options import GameOptions

Rules = Literal["classic", "trianguliche", "gyo"]
Shape = Literal["hexagon", "triangle", "parallelogram", "custom"]
#: How a completed triangle scores: its outline (3k for side k, in lines), powers of two of
#: the small triangles it covers (⌊log2 n⌋ + 1), or its units (triangular units, each a point).
ScoringRule = Literal["outline", "powers", "units"]
Board = Literal["triangular", "windows", "diagonal-grid"]


@dataclass(frozen=True)
class RuleSet:
    """A rule set (RULES.md §2.1–2.3): the board it is played on and its presets."""

    board: Board
    connected: bool
    no_cross: bool
    vertex_block: bool
    scoring: ScoringRule
    line_points: bool
    seal_scored: bool

    def presets(self) -> dict[str, Any]:
        """The option values this rule set fills in (everything but the board)."""
        out = asdict(self)
        del out["board"]
        return out


RULE_SETS: dict[str, RuleSet] = {
    "classic": RuleSet(
        board="triangular",
        connected=True,
        no_cross=True,
        vertex_block=False,
        scoring="outline",
        line_points=True,
        seal_scored=False,
    ),
    "trianguliche": RuleSet(
        board="windows",
        connected=False,
        no_cross=True,
        vertex_block=True,
        scoring="powers",
        line_points=False,
        seal_scored=False,
    ),
    "gyo": RuleSet(
        board="diagonal-grid",
        connected=False,
        no_cross=True,
        vertex_block=False,
        scoring="units",
        line_points=False,
        seal_scored=True,
    ),
}

#: What each rule set presets (RULES.md §2.1–2.3).
PRESETS: dict[str, dict[str, Any]] = {name: rs.presets() for name, rs in RULE_SETS.items()}

#: Board options by rule set (and shape, for classic): default and allowed range.
BOARD_FIELDS: dict[tuple[str, str | None], dict[str, tuple[int, int, int]]] = {
    ("classic", "hexagon"): {"radius": (3, 1, 8)},
    ("classic", "triangle"): {"size": (4, 1, 12)},
    ("classic", "parallelogram"): {"width": (4, 1, 12), "height": (4, 1, 12)},
    ("classic", "custom"): {},
    ("trianguliche", None): {"width": (2, 1, 8), "height": (2, 1, 8)},
    # GYØ: 7 dots a side by default (about 140 moves; 15 × 15 takes 700, too long a first game)
    ("gyo", None): {"size": (7, 3, 30)},
}
SIZE_FIELDS = ("radius", "size", "width", "height")
#: A custom board: at least this many small triangles, and at most as many as the largest
#: preset (the hexagon of side 8: 6·8² = 384), so a pasted list cannot make a huge board.
MIN_CELLS = 2
MAX_CELLS = 384


def check_custom_cells(cells: list[str]) -> None:
    """A custom board's cells: how many, each a small triangle, all in one piece."""
    if len(cells) > MAX_CELLS:
        raise OptionRule(
            f"'cells': a custom board has at most {MAX_CELLS} small triangles (the largest "
            f"hexagon), not {len(cells)}",
            "cells",
            "cells-too-many",
            limit=MAX_CELLS,
            got=len(cells),
        )
    from vertex.lattice.tri_shapes import custom_board, parse_cell

    try:
        custom_board(tuple(cells))  # a bad cell is reported now, naming the cell
    except ValueError as exc:
        raise OptionRule(str(exc), "cells", "bad-cells", detail=str(exc)) from None
    if len(cells) < MIN_CELLS:
        raise OptionRule(
            f"'cells': a custom board needs at least {MIN_CELLS} small triangles",
            "cells",
            "cells-too-few",
            limit=MIN_CELLS,
            got=len(cells),
        )
    # in one piece: every small triangle reaches every other through shared dots (so the
    # board's lines form one network: a line game needs no more)
    parsed = [parse_cell(c) for c in cells]
    by_dot: dict[tuple[int, int], list[int]] = {}
    for i, cell in enumerate(parsed):
        for d in cell:
            by_dot.setdefault(d, []).append(i)
    seen = {0}
    todo = [0]
    while todo:
        for d in parsed[todo.pop()]:
            for j in by_dot[d]:
                if j not in seen:
                    seen.add(j)
                    todo.append(j)
    if len(seen) < len(parsed):
        stray = [cells[i] for i in range(len(parsed)) if i not in seen]
        apart = stray[0]
        raise OptionRule(
            f"'cells': the board is in pieces — {apart} does not touch the part that holds "
            f"{cells[0]} (every small triangle must join the others at a dot or a side)",
            "cells",
            "cells-apart",
            cell=apart,
            first=cells[0],
            # every small triangle off the first's piece, for a designer to mark
            stray=stray,
        )


def _board_key(rules: str, shape: str | None) -> tuple[str, str | None]:
    # only the triangular lattice comes in shapes
    return (rules, shape if RULE_SETS[rules].board == "triangular" else None)


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
    scoring: ScoringRule = Field(
        default="outline",
        title="Triangle scoring",
        description="how a completed triangle scores: 'outline' its sides in lines (3k for "
        "side k), 'powers' ⌊log2 n⌋ + 1 for n small triangles, 'units' a point per triangular "
        "unit inside (preset: outline for classic, powers for trianguliche, units for gyo)",
    )
    multiplier: bool = Field(
        default=False,
        description="outline scoring: a triangle scores its outline times its shortest side "
        "(3k·k for side k)",
        json_schema_extra={"x-applies": {"scoring": ["outline"]}},
    )
    claims: bool = Field(
        default=False,
        title="Claimed units",
        description="units scoring: the units of a scored triangle become the scorer's, and "
        "later triangles score only the units no other player holds (preset: on with units)",
        json_schema_extra={"x-applies": {"scoring": ["units"]}},
    )
    line_points: bool = Field(
        default=True,
        title="Points for lines",
        description="1 point per line drawn (preset: on for classic only)",
    )
    seal_scored: bool = Field(
        default=False,
        title="Sealed triangles",
        description="once a triangle is scored no line may be drawn inside it "
        "(preset: on for gyo only)",
    )

    # the seed's other variations (RULES.md §2.0): off by default on every rule set
    shape_bonus: bool = Field(
        default=False,
        title="Shape bonus",
        description="closing the outline of a rhombus (two small triangles) or a regular "
        "hexagon (six around a dot) in your lines scores its outline, 4 or 6, once; on square "
        "grids a unit square (4) and a 2×2 square (8)",
    )
    box_in: bool = Field(
        default=False,
        title="Boxing in",
        description="a triangle you complete scores 1 more for every line of another player "
        "lying inside it",
    )
    overrules: int = Field(
        default=0,
        ge=0,
        le=3,
        title="Overrules",
        description="times a game each player may spend a turn taking over another player's "
        "line that is not a side of a scored triangle (written !a1-b1)",
    )
    steal: bool = Field(
        default=False,
        title="Stealing",
        description="a triangle you complete takes the points of the other players' triangles "
        "inside it (and their units, with claims)",
    )
    cover_bonus: bool = Field(
        default=False,
        title="Cover bonus",
        description="a triangle you complete also scores the points of your own triangles "
        "inside it",
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
        if out.get("claims") is None:  # units are claimed unless the table says otherwise
            out["claims"] = out.get("scoring") == "units"
        if RULE_SETS[rules].board == "triangular" and out.get("shape") is None:
            out["shape"] = "hexagon"
        fields = BOARD_FIELDS.get(_board_key(rules, out.get("shape")), {})
        for key, (default, _, _) in fields.items():
            if out.get(key) is None:
                out[key] = default
        return out

    @model_validator(mode="after")
    def _check_board(self) -> Vert3xOptions:
        if self.rule_set.board != "triangular" and self.shape is not None:
            raise OptionRule(
                f"'shape' is for rules=classic; rules={self.rules} has one board",
                "shape",
                "shape-classic-only",
                rules=self.rules,
            )
        where = f"rules={self.rules}" + (f" shape={self.shape}" if self.shape else "")
        fields = BOARD_FIELDS[_board_key(self.rules, self.shape)]
        for key in SIZE_FIELDS:
            value = getattr(self, key)
            if key not in fields:
                if value is not None:
                    takes = ", ".join(f"'{f}'" for f in fields) or "'cells'"
                    raise OptionRule(
                        f"'{key}' does not apply to {where} (it takes {takes})",
                        key,
                        "not-for-board",
                        board=where,
                        takes=list(fields) or ["cells"],
                    )
                continue
            _, low, high = fields[key]
            if not low <= value <= high:
                raise OptionRule(
                    f"'{key}' for {where} must be {low}–{high} (got {value})",
                    key,
                    "range",
                    board=where,
                    low=low,
                    high=high,
                    got=value,
                )
        if self.shape == "custom":
            if not self.cells:
                raise OptionRule(
                    "shape=custom needs 'cells': a list of small triangles", "cells", "cells-needed"
                )
            check_custom_cells(self.cells)
        elif self.cells is not None:
            raise OptionRule(
                f"'cells' is for shape=custom, not {where}",
                "cells",
                "cells-custom-only",
                board=where,
            )
        if self.start != "auto":
            if not self.connected:
                raise OptionRule(
                    "'start' places start dots, which only matter when connected",
                    "start",
                    "start-unconnected",
                )
            if len(self.start) != self.players:
                raise OptionRule(
                    f"'start' needs one dot per seat: {self.players} names, got {len(self.start)}",
                    "start",
                    "start-count",
                    players=self.players,
                    got=len(self.start),
                )
            if len(set(self.start)) != len(self.start):
                raise OptionRule("'start' gives two seats the same dot", "start", "start-same-dot")
        if self.multiplier and self.scoring != "outline":
            raise OptionRule(
                f"'multiplier' is a classic scoring variation: it multiplies outline scoring "
                f"(scoring=outline), not scoring={self.scoring}",
                "multiplier",
                "multiplier-outline-only",
                scoring=self.scoring,
            )
        if self.claims and self.scoring != "units":
            raise OptionRule(
                f"'claims' are units scored, with scoring=units, not {self.scoring}",
                "claims",
                "claims-units-only",
                scoring=self.scoring,
            )
        return self

    @property
    def rule_set(self) -> RuleSet:
        """The rule set chosen (its board; its presets are already in the options)."""
        return RULE_SETS[self.rules]

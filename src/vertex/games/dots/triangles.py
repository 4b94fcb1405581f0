"""`dots-and-triangles` (RULES.md §1.2): the big triangle, or the 1×n strip."""

from __future__ import annotations

from functools import cached_property
from typing import Any, Literal

from pydantic import Field, model_validator

from vertex.core.registry import register
from vertex.games.dots.boxes import FamilyGame, FamilyOptions
from vertex.lattice.board import LineBoard
from vertex.lattice.triangular import strip_board, strip_closed_border, triangle_board

#: Which shape each size option belongs to, for forms (`x-applies`: show the field only when
#: the options match; `x-cases`: the default in force when it is left empty). Only metadata:
#: the validator below is what refuses a size given to the other shape.
_TRIANGLE: dict[str, Any] = {"shape": ["triangle"]}
_STRIP: dict[str, Any] = {"shape": ["strip"]}


class TrianglesOptions(FamilyOptions):
    shape: Literal["triangle", "strip"] = Field(default="triangle")
    size: int | None = Field(
        default=None,
        ge=2,
        le=8,
        description="shape=triangle: small triangles a side (4)",
        json_schema_extra={"x-applies": _TRIANGLE, "x-cases": [{"when": _TRIANGLE, "default": 4}]},
    )
    length: int | None = Field(
        default=None,
        ge=1,
        le=12,
        description="shape=strip: length (4)",
        json_schema_extra={"x-applies": _STRIP, "x-cases": [{"when": _STRIP, "default": 4}]},
    )
    players: int = Field(default=2, ge=2, le=4)

    @model_validator(mode="after")
    def _shape_fields(self) -> TrianglesOptions:
        if self.shape == "triangle" and self.length is not None:
            raise ValueError("'length' is for shape=strip; a triangle takes 'size'")
        if self.shape == "strip" and self.size is not None:
            raise ValueError("'size' is for shape=triangle; a strip takes 'length'")
        return self

    @property
    def side(self) -> int:
        """The size of the triangle or the length of the strip, defaults applied."""
        value = self.length if self.shape == "strip" else self.size
        return 4 if value is None else value


@register
class DotsAndTriangles(FamilyGame[TrianglesOptions]):
    id = "dots-and-triangles"
    example = ({"size": 3}, 10)
    name = "Dots and Triangles"
    summary = (
        "Dots and Boxes on a triangular lattice: draw lines between neighbouring dots; draw the "
        "third side of a small triangle to claim it and move again. Most triangles wins."
    )
    Options = TrianglesOptions

    @cached_property
    def board(self) -> LineBoard:
        if self.options.shape == "strip":
            return strip_board(self.options.side)
        return triangle_board(self.options.side)

    @cached_property
    def predrawn(self) -> int:
        if not self.options.border:
            return 0
        if self.options.shape == "strip":
            return strip_closed_border(self.board, self.options.side)
        return self.board.rim

"""The options of the Dots-and-Boxes family (RULES.md §1), light to import: the lobby lists
them (`vertex.list_games()`) without loading the engine."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from vertex.core.errors import OptionRule
from vertex.core.options import GameOptions


class FamilyOptions(GameOptions):
    misere: bool = Field(default=False, description="fewest cells wins")
    border: bool = Field(default=False, description="the outline is drawn before play")
    extra_turn: bool = Field(default=True, description="completing a cell gives another move")
    players: int = Field(default=2, ge=2, le=6)


class BoxesOptions(FamilyOptions):
    rows: int = Field(default=3, ge=1, le=12, description="rows of boxes")
    cols: int = Field(default=3, ge=1, le=12, description="columns of boxes")


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
            raise OptionRule(
                "'length' is for shape=strip; a triangle takes 'size'", "length", "strip-only"
            )
        if self.shape == "strip" and self.size is not None:
            raise OptionRule(
                "'size' is for shape=triangle; a strip takes 'length'", "size", "triangle-only"
            )
        return self

    @property
    def side(self) -> int:
        """The size of the triangle or the length of the strip, defaults applied."""
        value = self.length if self.shape == "strip" else self.size
        return 4 if value is None else value


class FiguresOptions(GameOptions):
    rows: int = Field(default=8, ge=2, le=20, description="rows of cells")
    cols: int = Field(default=8, ge=2, le=20, description="columns of cells")
    players: int = Field(default=2, ge=2, le=6)
    shape: Literal["rectangle", "rhombus"] = Field(default="rectangle")

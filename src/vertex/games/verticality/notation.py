"""Aims as move strings: `pyramid x=12.5 y=-3 rot=30 [haste=0.4]`, `card x=0 y=0 rot=90`.

Coordinates are millimetres from the centre of the player's base on the table; the height is
found by the server. Values are kept to 0.01 (mm, degrees, haste), the precision the canonical
spelling records, so a record replays the very aims that were played.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

from vertex.core.errors import NotationError

Piece = Literal["pyramid", "card"]
PIECES: tuple[Piece, ...] = ("pyramid", "card")
#: The player's base: aims farther than this from its centre (mm) miss the table area.
BASE_HALF_MM = 150.0

#: The move that ends building on alone after the others fell (option build_on).
STOP = "stop"

FORM = "pyramid x=<mm> y=<mm> rot=<degrees> [haste=<0..1>]  or  card x=<mm> y=<mm> rot=<degrees>"


@dataclass(frozen=True, slots=True)
class Aim:
    piece: Piece
    x: float  # mm
    y: float  # mm
    rot: float  # degrees, 0 ≤ rot < 360
    haste: float = 0.0  # 0 = a calm release, 1 = rushed

    def __str__(self) -> str:
        text = f"{self.piece} x={_fmt(self.x)} y={_fmt(self.y)} rot={_fmt(self.rot)}"
        return text + (f" haste={_fmt(self.haste)}" if self.haste else "")


def make_aim(piece: Piece, x: float, y: float, rot: float = 0.0, haste: float = 0.0) -> Aim:
    """An aim with the values kept to the recorded precision (rotation folded into [0, 360))."""
    r = round(rot % 360.0, 2)
    return Aim(piece, _q(x), _q(y), 0.0 if r >= 360.0 else r + 0.0, _q(haste))


def parse_aim(text: str) -> Aim:
    words = text.split()
    if not words or words[0].lower() not in PIECES:
        raise NotationError(f"a move names the piece first; expected {FORM}")
    piece: Piece = "pyramid" if words[0].lower() == "pyramid" else "card"
    values: dict[str, float] = {}
    for word in words[1:]:
        key, sep, raw = word.partition("=")
        key = key.lower()
        if not sep or key not in ("x", "y", "rot", "haste"):
            raise NotationError(f"cannot read {word!r}; expected {FORM}")
        if key in values:
            raise NotationError(f"{key} is given twice in {text!r}")
        try:
            value = float(raw)
        except ValueError:
            raise NotationError(f"{key}={raw!r} is not a number; expected {FORM}") from None
        if not math.isfinite(value):
            raise NotationError(f"{key} must be a finite number, not {raw!r}")
        values[key] = value
    for key in ("x", "y"):
        if key not in values:
            raise NotationError(f"the aim lacks {key}=<mm>; expected {FORM}")
    haste = values.get("haste", 0.0)
    if not 0.0 <= haste <= 1.0:
        raise NotationError(f"haste is between 0 (calm) and 1 (rushed), not {haste:g}")
    for key in ("x", "y"):
        if abs(values[key]) > BASE_HALF_MM:
            raise NotationError(
                f"{key}={values[key]:g} mm is off your base: aim within ±{BASE_HALF_MM:g} mm "
                "of its centre"
            )
    return make_aim(piece, values["x"], values["y"], values.get("rot", 0.0), haste)


def aim_schema(*, stop: bool = False) -> dict[str, Any]:
    """The move schema; with `stop`, also the word that ends building on alone."""
    number = r"-?\d+(\.\d+)?"
    aim = rf"(pyramid|card) x={number} y={number}( rot={number})?( haste={number})?"
    description = (
        "an aimed placement: " + FORM + ". x and y are millimetres from the centre of your "
        "base (±150), rot turns the piece about the vertical axis, haste (default 0) widens "
        "the hand tremor; the height is found for you. Values are kept to 0.01."
    )
    examples = ["pyramid x=12.5 y=-3 rot=30", "card x=0 y=4.2 rot=90 haste=0.5"]
    if stop:
        description += (
            f" Once every other tower has fallen, the winner builds on alone; {STOP!r} ends "
            "the game there."
        )
        examples.append(STOP)
    return {
        "type": "string",
        "pattern": rf"^({aim}|{STOP})$" if stop else rf"^{aim}$",
        "description": description,
        "examples": examples,
        "properties": {
            "piece": {"enum": list(PIECES)},
            "x": {"type": "number", "minimum": -BASE_HALF_MM, "maximum": BASE_HALF_MM},
            "y": {"type": "number", "minimum": -BASE_HALF_MM, "maximum": BASE_HALF_MM},
            "rot": {"type": "number", "minimum": 0, "maximum": 360, "default": 0},
            "haste": {"type": "number", "minimum": 0, "maximum": 1, "default": 0},
        },
    }


def _q(v: float) -> float:
    return round(v, 2) + 0.0  # + 0.0 turns -0.0 into 0.0


def _fmt(v: float) -> str:
    text = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text

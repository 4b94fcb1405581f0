"""A puzzle as data: the position (moves from the start), the goal, the line, the themes.

One JSON object a line in the shipped files (`data/*.jsonl`) and one row in the store. The
id is made from the game, its options and the position's canonical key, so the same
position (up to the board's symmetries) found twice, by the command or by mining, is one
puzzle: deduplication is a primary key.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

#: Where a puzzle was found: the computer's own games, a reviewed game on the site, a lesson.
SOURCES = ("selfplay", "review", "lesson")


@dataclass(frozen=True)
class Goal:
    """What the side to move must keep.

    `kind` "margin" (Dots family): finish with at least `margin` cells more than the other
    player (0: at least a draw; negative: lose by at most that many); the solver knows it.
    `kind` "win" (Juxtapose): make a line within `depth` of your own moves, whatever the
    other does. `kind` "survive" (Juxtapose): after your move the other has no win at once.
    """

    kind: str
    margin: int = 0
    depth: int = 0

    def to_json(self) -> dict[str, Any]:
        if self.kind == "margin":
            return {"kind": "margin", "margin": self.margin}
        if self.kind == "win":
            return {"kind": "win", "depth": self.depth}
        return {"kind": self.kind}

    @staticmethod
    def from_json(data: dict[str, Any]) -> Goal:
        return Goal(str(data["kind"]), int(data.get("margin", 0)), int(data.get("depth", 0)))


@dataclass(frozen=True)
class Puzzle:
    """`moves` lead from the start (seed 0) to the position; `solution` is one line that
    keeps the goal (the player's moves and the computer's replies, as the judge plays
    them); `turns` is how many of the player's turns the line asks for."""

    id: str
    game: str
    options: dict[str, Any]
    moves: tuple[str, ...]
    to_move: int
    goal: Goal
    solution: tuple[str, ...]
    turns: int
    themes: tuple[str, ...]
    rating: float = 1500.0
    source: str = "selfplay"
    key: str = ""  # the canonical position key (hex), for deduplication
    hint: tuple[str, ...] = field(default=(), compare=False)  # where the answer lies
    #: Every first move that keeps the goal (the answer and its symmetric images, and any
    #: other the solver found): the judge looks the first move up instead of solving.
    keeps: tuple[str, ...] = field(default=(), compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "game": self.game,
            "options": self.options,
            "moves": list(self.moves),
            "to_move": self.to_move,
            "goal": self.goal.to_json(),
            "solution": list(self.solution),
            "turns": self.turns,
            "themes": list(self.themes),
            "rating": round(self.rating, 1),
            "source": self.source,
            "key": self.key,
            "hint": list(self.hint),
            "keeps": list(self.keeps),
        }

    def line(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"), sort_keys=True)

    @staticmethod
    def from_json(data: dict[str, Any]) -> Puzzle:
        return Puzzle(
            id=str(data["id"]),
            game=str(data["game"]),
            options=dict(data["options"]),
            moves=tuple(str(m) for m in data["moves"]),
            to_move=int(data["to_move"]),
            goal=Goal.from_json(data["goal"]),
            solution=tuple(str(m) for m in data["solution"]),
            turns=int(data["turns"]),
            themes=tuple(str(t) for t in data["themes"]),
            rating=float(data.get("rating", 1500.0)),
            source=str(data.get("source", "selfplay")),
            key=str(data.get("key", "")),
            hint=tuple(str(h) for h in data.get("hint", ())),
            keeps=tuple(str(m) for m in data.get("keeps", ())),
        )


def puzzle_id(game: str, options: dict[str, Any], key: str) -> str:
    """12 hex digits from the game, its options and the canonical position: short enough for
    a link, stable across runs and machines, the same for symmetric positions."""
    text = json.dumps([game, options, key], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def plain_options(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """The options as a puzzle keeps them: only those that differ from the game's defaults,
    so `{rows: 4, cols: 4}` and a record's full list name one board (and one puzzle id)."""
    from vertex.core.registry import create_game

    mine = create_game(game, **options).options_dict()
    default = create_game(game).options_dict()
    return {k: v for k, v in mine.items() if default.get(k) != v}


def pool_name(game: str, options: dict[str, Any]) -> str:
    """A short name for a game and its options, as the shipped files and the page group them
    (`dots-and-boxes-4x4`, `dots-and-triangles-4`, `juxtapose`)."""
    if game in ("dots-and-boxes", "figures"):
        return f"{game}-{options.get('rows', 3)}x{options.get('cols', 3)}"
    if game == "dots-and-triangles":
        return f"{game}-{options.get('size', 4)}"
    return game

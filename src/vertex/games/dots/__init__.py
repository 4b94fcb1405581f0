"""The Dots-and-Boxes family: one engine, three games (RULES.md §1)."""

from vertex.games.dots import boxes, figures, triangles
from vertex.games.dots.engine import DotsGame, DotsState

__all__ = ["DotsGame", "DotsState", "boxes", "figures", "triangles"]

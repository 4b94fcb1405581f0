"""Vert3x (RULES.md §2): one engine, three rule sets — classic, Trianguliche and GYØ."""

from vertex.games.vert3x.engine import Vert3xState
from vertex.games.vert3x.game import Vert3x
from vertex.games.vert3x.options import Vert3xOptions

__all__ = ["Vert3x", "Vert3xOptions", "Vert3xState"]

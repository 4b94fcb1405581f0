"""`dots-and-triangles` (RULES.md §1.2): the big triangle, or the 1×n strip."""

from __future__ import annotations

from functools import cached_property

from vertex.core.capabilities import Diagram
from vertex.games.dots import TRIANGLES
from vertex.games.dots.boxes import FamilyGame
from vertex.games.dots.options import TrianglesOptions
from vertex.lattice.board import LineBoard
from vertex.lattice.triangular import strip_board, strip_closed_border, triangle_board


class DotsAndTriangles(FamilyGame[TrianglesOptions]):
    info = TRIANGLES
    unit = "triangle"
    example = ({"size": 3}, 10)
    random_play_cases = (
        {},
        {"size": 2, "misere": True, "players": 3},
        {"shape": "strip", "length": 5, "border": True},
    )
    diagrams = (
        # The first player closes the top triangle with its third side.
        Diagram("triangle", {"size": 2}, ("a1-a2", "a1-b2", "a2-b2")),
        # a2-b2 is the third side of two triangles at once: both go to the first player.
        Diagram("double", {"size": 2}, ("a1-a2", "a1-b2", "a2-b3", "b2-b3", "a2-b2")),
        # The closed strip of the literature (border on): 3n-2 lines left to play.
        Diagram("strip", {"shape": "strip", "length": 4, "border": True}),
    )

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

"""Verticality: towers of pyramids and cards on a simulated table (RULES.md §4)."""

from vertex.games.verticality.game import Verticality, VerticalityOptions, VerticalityState

__all__ = ["Verticality", "VerticalityOptions", "VerticalityState"]

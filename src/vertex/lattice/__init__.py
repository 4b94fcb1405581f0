"""Dots, lines and cells: square grids, the triangular lattice, and their names."""

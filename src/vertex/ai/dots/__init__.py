"""Dots-family knowledge for the computer players: fast positions, chains, the solver."""

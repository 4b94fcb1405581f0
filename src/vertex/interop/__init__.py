"""Adapters for other ecosystems (PettingZoo)."""

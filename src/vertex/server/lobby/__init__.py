"""The lobby as a place: listed tables, live on every process (see place.py)."""

from vertex.server.lobby.place import Lobby

__all__ = ["Lobby"]

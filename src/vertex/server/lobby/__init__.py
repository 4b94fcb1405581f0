"""The lobby as a place: listed tables, live on every process (see place.py); Play now's
seating. Its routes and socket are `api/lobby.py`.

Imports `table`, `site`, `storage`, `live`, `compute` and `play` (Play now opens tables).
"""

from vertex.server.lobby.place import Lobby

__all__ = ["Lobby"]

"""The Vertex server (DESIGN.md §5): HTTP API and table sockets over tables kept in a store."""

from vertex.server.app import create_app
from vertex.server.settings import Limits, Settings

__all__ = ["Limits", "Settings", "create_app"]

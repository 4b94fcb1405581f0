"""The HTTP API and the sockets, one module per concern: the tables' routes and bodies, the
table socket, the lobby's routes and socket, health, the guards every request passes
(errors, body limits) and the HTTP protocol's head deadline (`timeouts.py`);
`vertex.server.app` wires them.

Imports the hub, `pages` (a game's preview picture) and everything below.
"""

"""Live sockets and fan-out: one connection's queue and allowance (`conn.py`), a table's
sockets and the frames they get (`sockets.py`), the socket protocol's replies
(`protocol.py`), spectators and their chat, and the spectator count (`watching.py`).

Imports `table`, `site` and `storage` (spectator chat lines are kept in the store).
"""

"""How many sockets one client address may hold open on this process (table and lobby
sockets together).

Each socket costs memory (its queue, its place in every fan-out) and a share of every
broadcast: 200 never-reading sockets at one large table took a process from 93 to 920 MB,
and 3,000 idle spectator sockets from one address slowed every move at the table ~90 times
(issue 37). A page holds one or two; a household or a classroom behind one address, a few
dozen. Past `most`, a new socket is refused with `too-many-sockets` and closed (4429).
"""

from __future__ import annotations


class Slots:
    def __init__(self, most: int) -> None:
        self.most = most
        self.open: dict[str, int] = {}  # address -> sockets open; no entry at 0 (bounded)

    def take(self, address: str) -> bool:
        """A socket for `address`, or False when it holds `most` already."""
        n = self.open.get(address, 0)
        if n >= self.most:
            return False
        self.open[address] = n + 1
        return True

    def give_back(self, address: str) -> None:
        n = self.open.get(address, 0) - 1
        if n > 0:
            self.open[address] = n
        else:
            self.open.pop(address, None)

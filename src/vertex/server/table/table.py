"""A table: a game plus seats, clocks, requests and chat, rebuilt from its event log.

`Table` holds the state and decides; how turns and clocks are counted is in turns.py and
clocks.py, take-backs, agreement and rematch in their own modules, every change in events.py.
Pure logic, no IO. Commands check a request against the current table and return the one
event that carries it out (or raise ApiError); `apply` folds an event into the table. The
same `apply` rebuilds a table from its log after a restart, and keeps copies on other workers
in step, so whatever the log says is the table.
"""

from __future__ import annotations

import hashlib
from collections import deque
from typing import Any

from vertex.core import Game, State, VertexError, create_game
from vertex.server.errors import ApiError, illegal_move
from vertex.server.table import clocks, turns
from vertex.server.table.events import Seat, StoredEvent, check_start, fold
from vertex.server.table.records import EXPIRED, OPEN, OVER
from vertex.server.table.spec import TableSpec

#: Chat lines a table view carries.
CHAT_KEPT = 50


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Table:
    """One table's current state, as its log says."""

    def __init__(
        self,
        table_id: str,
        spec: TableSpec | dict[str, Any],
        created_at: float,
        game: Game[Any] | None = None,
    ) -> None:
        """`game`: the spec's game when the caller built it already (a new table's options
        are validated and its game built once, between the form and the table)."""
        spec = TableSpec.load(spec)
        self.id = table_id
        self.spec = spec
        self.game = game if game is not None else create_game(spec.game, **spec.options)
        self.seed: int = spec.seed
        self.seats = [
            Seat(s.kind, s.level, s.name, s.token, s.player, s.rating, s.address)
            for s in spec.seats
        ]
        self.rated: bool = spec.rated
        self.undo_allowed: bool = spec.undo
        self.analysis_allowed: bool = spec.analysis
        self.clock: dict[str, float] | None = None if spec.clock is None else spec.clock.as_dict()
        self.on_timeout: str = spec.on_timeout
        #: Days a move (spec.py): never handed to the computer for an absence, and out of
        #: memory while nobody is there (upkeep.py), its next deadline kept in the store.
        self.slow: bool = spec.slow
        step = self.game.step_seconds
        if self.clock is None and step is not None:
            # A game with its own step clock (Verticality): when it runs out the piece drops
            # where the game says (Aiming.default_aim), which the "computer" timeout plays.
            self.clock, self.on_timeout = {"per_move": step}, "computer"
        self.created_at = created_at
        #: The address that opened the table (its computer seats think in its share, fair.py).
        self.creator = ""
        self.state: State = self.game.initial_state(self.seed)
        self.times: list[float] = []
        self.v = 0
        self.last_at = created_at
        self.started_at: float | None = None
        self.result: dict[str, Any] | None = None  # set when the table's game is over
        self.undo_request: tuple[int, int] | None = None  # (seat, ply to go back to)
        self.undo_accepts: set[int] = set()
        self.end_accepts: set[int] = set()
        self.rematch: str | None = None
        #: The latest chat lines, for a page that joins or reloads (the log keeps them all).
        self.chat_lines: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
        self.epoch = 0  # bumps when moves are taken back: a computer's pending move is void
        self.cids: dict[tuple[int, str], int] = {}
        self.due_since: dict[int, float] = {}
        #: Where each due seat last aimed (games with aiming): (tag, move). Never logged or
        #: sent to anyone: it would give the aim away. The tag ties it to one step.
        self.aims: dict[int, tuple[tuple[int, int], str]] = {}
        self.bank: list[float] = [float((self.clock or {}).get("total", 0))] * len(self.seats)
        self.pending: tuple[StoredEvent, State] | None = None
        #: Seats handed to the computer during play, and seats the computer moved for when
        #: their clock ran out: the result names them (the banner says who decided the game).
        self.handed: set[int] = set()
        self.auto_moved: set[int] = set()
        #: The plies the computer played for a seat whose clock ran out (the move lists say so).
        self.clock_plies: set[int] = set()
        #: When this process first saw each seated player gone (absence.py; not logged).
        self.away_since: dict[int, float] = {}
        check_start(self, created_at)

    # ---- views ------------------------------------------------------------------------------
    @property
    def status(self) -> str:
        if self.result is None:
            return OPEN
        return EXPIRED if self.result.get("reason") == "expired" else OVER

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def started(self) -> bool:
        return self.started_at is not None

    def seat_of(self, token: str) -> int | None:
        h = token_hash(token)
        for n, seat in enumerate(self.seats):
            if seat.token is not None and seat.token == h:
                return n
        return None

    def humans(self) -> list[int]:
        return [n for n, s in enumerate(self.seats) if s.kind == "human"]

    # ---- commands: check, then return the event that does it ------------------------------
    def event(self, kind: str, now: float, **data: Any) -> StoredEvent:
        return StoredEvent(self.v + 1, kind, data, now)

    def check_open(self) -> None:
        turns.check_open(self)

    def take_seat(
        self,
        n: int,
        name: str,
        token: str,
        now: float,
        player: dict[str, Any] | None = None,
    ) -> StoredEvent:
        """`player`: who sits with a key, `{id, rating?, address}` (the event keeps the id
        and the address's hash privately; a rated table shows the rating)."""
        self.check_open()
        if not 0 <= n < len(self.seats):
            raise ApiError(
                "no-such-seat",
                f"this table has seats 0 to {len(self.seats) - 1}",
                params={"seat": n, "seats": len(self.seats)},
            )
        seat = self.seats[n]
        if seat.kind != "human":
            raise ApiError(
                "seat-taken", f"seat {n} is a computer player's", 409, params={"seat": n}
            )
        if seat.taken:
            raise ApiError(
                "seat-taken", f"seat {n} is taken by {seat.name}", 409, params={"seat": n}
            )
        data: dict[str, Any] = {"seat": n, "name": name, "_token": token_hash(token)}
        if player is not None:
            if any(s.player == player["id"] for s in self.seats):
                raise ApiError("already-seated", "you hold a seat at this table already", 409)
            data["_player"] = player["id"]
            data["_address"] = player["address"]
            if self.rated and player.get("rating") is not None:
                data["rating"] = player["rating"]
        elif self.rated:
            raise ApiError("key-needed", "a rated table's seats are taken with a player key", 403)
        return self.event("seat", now, **data)

    def move(
        self,
        seat: int,
        move: str,
        now: float,
        v: int | None = None,
        cid: str | int | None = None,
        auto: bool = False,
        aimed: bool = False,
    ) -> StoredEvent:
        turns.check_due(self, seat, v)
        if self.seats[seat].kind == "human":
            move = turns.hastened(self, seat, move, now)
        try:
            new = self.state.play(move, seat=seat)
        except VertexError as exc:
            raise illegal_move(exc) from None
        grown = new.history[len(self.state.history) :]
        canonical = grown[-1][1] if len(grown) == 1 and grown[0][0] == seat else move.strip()
        data: dict[str, Any] = {"seat": seat, "move": canonical}
        if auto:
            data["auto"] = True
        if aimed:
            data["aimed"] = True
        if cid is not None:
            data["cid"] = cid
        if new.is_over:  # lets a start find a table whose end outran its status (store.py)
            data["_over"] = True
        ev = self.event("move", now, **data)
        # Keep the new position for apply(), but only for this very event: if another
        # worker wins the version, its event is applied from scratch.
        self.pending = (ev, new)
        return ev

    def cancel(self, seat: int, now: float) -> StoredEvent:
        """Call the table off: only before the first move (then it is resigning)."""
        self.check_open()
        if self.state.history:
            raise ApiError(
                "too-late-to-cancel",
                "a table can be cancelled only before the first move; resign instead",
                409,
            )
        return self.event("cancel", now, seat=seat)

    def resign(self, seat: int, now: float) -> StoredEvent:
        self.check_open()
        return self.event("resign", now, seat=seat)

    def timeout(self, seat: int, now: float) -> StoredEvent:
        """A seat's clock ran out and the table says it loses."""
        self.check_open()
        deadline = clocks.deadline(self, seat)
        if deadline is None or now < deadline:
            raise ApiError("no-timeout", f"seat {seat}'s clock has not run out", 409)
        return self.event("timeout", now, seat=seat)

    def hand_over(self, seat: int, level: int, now: float) -> StoredEvent:
        self.check_open()
        if self.seats[seat].kind != "human":
            raise ApiError(
                "not-allowed",
                f"seat {seat} is a computer player already",
                409,
                params={"why": "computer", "seat": seat},
            )
        if self.rated:  # a rated seat is nobody's to hand on: its clock decides (it loses)
            raise ApiError(
                "not-allowed",
                "a rated table's seats are not handed to the computer",
                409,
                params={"why": "rated", "seat": seat},
            )
        return self.event("hand-over", now, seat=seat, level=level)

    def expire(self, now: float) -> StoredEvent:
        self.check_open()
        return self.event("expired", now)

    # ---- folding events into the table (events.py: one fold per kind, the only place a
    # table changes) -----------------------------------------------------------------------
    def apply(self, ev: StoredEvent) -> None:
        fold(self, ev)


def rebuild(
    table_id: str, spec: TableSpec | dict[str, Any], created_at: float, events: list[StoredEvent]
) -> Table:
    """A table from its log."""
    table = Table(table_id, spec, created_at)
    for ev in events:
        table.apply(ev)
    return table

"""Table events: the event type, the kinds a table's log holds, and one fold per kind.

A command (table.py) checks a request and returns the event that carries it out; `fold`
applies an event to a table. The same fold rebuilds a table from its log, keeps the copies
on other processes in step, and is the only place a table changes: every helper that
changes a table's state (a move played, a step back, the clocks, the end) is here.

The folds see a table through `Folded`, the state the log folds into, so this module needs
nothing of table.py (which imports it): no import cycle. The module is as long as the list
of kinds (about 300 lines): every fold lives here by design.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from vertex.core import AGREED_END, Game, State
from vertex.server.table.spec import SeatKind


@dataclass(frozen=True)
class StoredEvent:
    """One entry of a table's log. `seq` is the table version after the event."""

    seq: int
    kind: str
    data: dict[str, Any]
    at: float


class Kind(StrEnum):
    SEAT = "seat"
    MOVE = "move"
    RESIGN = "resign"
    TIMEOUT = "timeout"
    UNDO_REQUEST = "undo-request"
    UNDO_ACCEPT = "undo-accept"
    UNDO_DECLINE = "undo-decline"
    CANCEL = "cancel"
    UNDO = "undo"
    END_REQUEST = "end-request"
    END = "end"
    HAND_OVER = "hand-over"
    REMATCH = "rematch"
    EXPIRED = "expired"
    CHAT = "chat"


#: Events that change the game or the result: their messages carry the new state.
STATE_KINDS = frozenset(
    {
        Kind.MOVE,
        Kind.UNDO,
        Kind.END,
        Kind.RESIGN,
        Kind.TIMEOUT,
        Kind.EXPIRED,
        Kind.HAND_OVER,
        Kind.CANCEL,
    }
)
#: Events that change the seats: their messages carry the seats.
SEAT_KINDS = frozenset({Kind.SEAT, Kind.HAND_OVER})


@dataclass
class Seat:
    kind: SeatKind
    level: int | None = None
    name: str | None = None
    token: str | None = None  # sha256 of the seat token; never leaves the server
    #: The player sitting here with a key (its id: never shown), their rating when they sat
    #: (rated tables), and a hash of the address they sat from (anti-farming: finished.py).
    player: str | None = None
    rating: dict[str, Any] | None = None
    address: str | None = None
    #: The player was forgotten since (their name is no longer shown).
    former: bool = False

    @property
    def taken(self) -> bool:
        return self.kind == "ai" or self.name is not None

    def public(self) -> dict[str, Any]:
        name = self.name if self.name is not None else None
        if self.kind == "ai" and name is None:
            name = f"Computer (level {self.level})"
        out: dict[str, Any] = {"name": name, "kind": self.kind, "level": self.level}
        if self.player is not None:
            out["player"] = True
            if self.former:
                out["name"], out["former"] = None, True
        if self.rating is not None:
            out["rating"] = self.rating
        return out


class Folded(Protocol):
    """What the folds change: a table's state as its log says (table.Table is one)."""

    id: str
    game: Game[Any]
    seed: int
    rated: bool
    seats: list[Seat]
    clock: dict[str, float] | None
    state: State
    times: list[float]
    v: int
    last_at: float
    started_at: float | None
    result: dict[str, Any] | None
    undo_request: tuple[int, int] | None
    undo_accepts: set[int]
    end_accepts: set[int]
    rematch: str | None
    chat_lines: deque[dict[str, Any]]
    epoch: int
    cids: dict[tuple[int, str], int]
    due_since: dict[int, float]
    aims: dict[int, tuple[tuple[int, int], str]]
    bank: list[float]
    #: The position a command worked out for the very event it returned (or None).
    pending: tuple[StoredEvent, State] | None
    #: Seats handed to the computer during play; seats the computer moved for (time ran out).
    handed: set[int]
    auto_moved: set[int]
    #: The plies (1-based) the computer played for a seat whose time ran out.
    clock_plies: set[int]


def apply_move(t: Folded, ev: StoredEvent) -> None:
    d = ev.data
    seat = d["seat"]
    if t.pending is not None and t.pending[0] is ev:
        new = t.pending[1]
    else:
        new = t.state.play(d["move"], seat=seat)
    t.pending = None
    before = len(t.state.history)
    t.times.extend([ev.at] * (len(new.history) - before))
    t.state = new
    t.aims.pop(seat, None)
    if "cid" in d:
        t.cids[(seat, str(d["cid"]))] = ev.seq
    if d.get("auto"):
        t.auto_moved.add(seat)
        # the seat's own entry among those the move added (a step that resolves adds the
        # other seats' too)
        added = range(before, len(new.history))
        t.clock_plies.update(k + 1 for k in added if new.history[k][0] == seat)
    t.undo_request, t.undo_accepts = None, set()
    t.end_accepts = set()
    clock_step(t, ev.at, seat)
    if new.is_over:
        finish(t, "game", ev.at)


def go_back(t: Folded, ply: int, at: float) -> None:
    state = t.game.initial_state(t.seed)
    for seat, move in t.state.history[:ply]:
        state = state.end_by_agreement() if seat is None else state.play(move, seat=seat)
        assert seat is not None or move == AGREED_END
    t.state = state
    t.times = t.times[:ply]
    t.clock_plies = {k for k in t.clock_plies if k <= ply}
    t.undo_request, t.undo_accepts = None, set()
    t.epoch += 1
    t.aims = {}
    t.due_since = {s: at for s in t.state.to_move}


def check_start(t: Folded, at: float) -> None:
    if t.started_at is None and all(s.taken for s in t.seats):
        t.started_at = at
        t.due_since = {s: at for s in t.state.to_move}


def clock_step(t: Folded, at: float, mover: int | None) -> None:
    """Charge the seats whose turn ended and start the clocks of the seats now due."""
    due = set(t.state.to_move)
    total = t.clock is not None and "total" in t.clock
    for s, since in list(t.due_since.items()):
        if s == mover or s not in due:
            if total and t.clock is not None:
                t.bank[s] -= at - since
                if s == mover:
                    t.bank[s] += float(t.clock.get("increment", 0))
            del t.due_since[s]
    for s in due:
        t.due_since.setdefault(s, at)


def finish(t: Folded, reason: str, at: float, loser: int | None = None) -> None:
    if loser is None:
        winners = list(t.state.winners)
    else:
        others = [s for s in range(len(t.seats)) if s != loser]
        # Among those left, the game's own rule picks: fewest points in misère; where the
        # score does not decide (the last tower standing) every one left wins.
        scores, game = t.state.scores, t.game
        pick = min if game.lowest_score_wins else max
        best = pick(scores[s] for s in others) if game.score_decides else None
        winners = [s for s in others if best is None or scores[s] == best]
    t.result = {"reason": reason, "winners": winners}
    if loser is not None:
        t.result["seat"] = loser
    if t.handed:
        t.result["handed"] = sorted(t.handed)
    if t.auto_moved - t.handed:
        t.result["auto"] = sorted(t.auto_moved - t.handed)
    if t.rated and not moved_all(t):
        t.result["aborted"] = True  # unrated: it ended before every seat had moved
    t.due_since = {}
    t.undo_request, t.undo_accepts, t.end_accepts = None, set(), set()


def moved_all(t: Folded) -> bool:
    """Has every seat made a move of its own (the computer's for a seat out of time does
    not count)?"""
    movers = {seat for seat, _ in t.state.history if seat is not None}
    by_clock = {t.state.history[k - 1][0] for k in t.clock_plies if k <= len(t.state.history)}
    own = movers - by_clock if by_clock else movers
    return all(n in own for n in range(len(t.seats)))


def _seat(t: Folded, ev: StoredEvent) -> None:
    d = ev.data
    seat = t.seats[d["seat"]]
    seat.name, seat.token = d["name"], d["_token"]
    seat.player, seat.rating, seat.address = d.get("_player"), d.get("rating"), d.get("_address")
    check_start(t, ev.at)


def _move(t: Folded, ev: StoredEvent) -> None:
    apply_move(t, ev)


def _lost(t: Folded, ev: StoredEvent) -> None:  # resign, timeout
    finish(t, ev.kind, ev.at, loser=ev.data["seat"])


def _undo_request(t: Folded, ev: StoredEvent) -> None:
    t.undo_request = (ev.data["seat"], ev.data["ply"])
    t.undo_accepts = set()


def _undo_accept(t: Folded, ev: StoredEvent) -> None:
    t.undo_accepts.add(ev.data["seat"])


def _undo_decline(t: Folded, ev: StoredEvent) -> None:
    t.undo_request, t.undo_accepts = None, set()


def _cancel(t: Folded, ev: StoredEvent) -> None:
    # called off before the first move: no game, nobody wins or loses
    t.result = {"reason": "cancelled", "winners": [], "seat": ev.data["seat"]}
    t.due_since = {}
    t.undo_request, t.undo_accepts, t.end_accepts = None, set(), set()


def _undo(t: Folded, ev: StoredEvent) -> None:
    go_back(t, ev.data["ply"], ev.at)


def _end_request(t: Folded, ev: StoredEvent) -> None:
    t.end_accepts.add(ev.data["seat"])


def _end(t: Folded, ev: StoredEvent) -> None:
    t.end_accepts = set()
    t.state = t.state.end_by_agreement()
    t.times.append(ev.at)
    clock_step(t, ev.at, None)
    finish(t, "agreed", ev.at)


def _hand_over(t: Folded, ev: StoredEvent) -> None:
    n = ev.data["seat"]
    seat = t.seats[n]
    seat.kind, seat.level, seat.token = "ai", ev.data["level"], None
    if t.started_at is not None:
        t.handed.add(n)
    t.aims.pop(n, None)
    check_start(t, ev.at)


def _rematch(t: Folded, ev: StoredEvent) -> None:
    t.rematch = ev.data["table"]


def _expired(t: Folded, ev: StoredEvent) -> None:
    t.result = {"reason": "expired", "winners": []}
    t.due_since = {}


def _chat(t: Folded, ev: StoredEvent) -> None:
    d = ev.data
    t.chat_lines.append({"seat": d["seat"], "name": d["name"], "text": d["text"], "at": ev.at})


FOLDS: dict[Kind, Callable[[Folded, StoredEvent], None]] = {
    Kind.SEAT: _seat,
    Kind.MOVE: _move,
    Kind.RESIGN: _lost,
    Kind.TIMEOUT: _lost,
    Kind.UNDO_REQUEST: _undo_request,
    Kind.UNDO_ACCEPT: _undo_accept,
    Kind.UNDO: _undo,
    Kind.UNDO_DECLINE: _undo_decline,
    Kind.CANCEL: _cancel,
    Kind.END_REQUEST: _end_request,
    Kind.END: _end,
    Kind.HAND_OVER: _hand_over,
    Kind.REMATCH: _rematch,
    Kind.EXPIRED: _expired,
    Kind.CHAT: _chat,
}
assert set(FOLDS) == set(Kind), "every event kind has its fold"


def fold(table: Folded, ev: StoredEvent) -> None:
    """Apply one event (the next version) to the table."""
    if ev.seq != table.v + 1:
        raise ValueError(f"table {table.id}: event {ev.seq} after version {table.v}")
    try:
        kind = Kind(ev.kind)
    except ValueError:
        raise ValueError(f"table {table.id}: unknown event kind {ev.kind!r}") from None
    table.v = ev.seq
    table.last_at = ev.at
    FOLDS[kind](table, ev)

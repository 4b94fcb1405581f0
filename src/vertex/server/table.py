"""A table: a game plus seats, clocks, requests and chat, rebuilt from its event log.

Pure logic, no IO. Commands check a request against the current table and return the one
event that carries it out (or raise ApiError); `apply` folds an event into the table. The
same `apply` rebuilds a table from its log after a restart, and keeps copies on other workers
in step, so whatever the log says is the table.
"""

from __future__ import annotations

import hashlib
from collections import deque
from dataclasses import dataclass
from typing import Any

from vertex.core import AGREED_END, Game, State, VertexError, create_game
from vertex.core.record import Record
from vertex.server.analysable import refusal
from vertex.server.errors import ApiError, illegal_move
from vertex.server.events import SEAT_KINDS, STATE_KINDS, StoredEvent, fold
from vertex.server.spec import SeatKind, SeatSpec, TableSpec
from vertex.server.store import EXPIRED, OPEN, OVER, BestRow

#: Chat lines a table view carries.
CHAT_KEPT = 50


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Seat:
    kind: SeatKind
    level: int | None = None
    name: str | None = None
    token: str | None = None  # sha256 of the seat token; never leaves the server

    @property
    def taken(self) -> bool:
        return self.kind == "ai" or self.name is not None

    def public(self) -> dict[str, Any]:
        name = self.name if self.name is not None else None
        if self.kind == "ai" and name is None:
            name = f"Computer (level {self.level})"
        return {"name": name, "kind": self.kind, "level": self.level}


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
        self.seats = [Seat(s.kind, s.level, s.name, s.token) for s in spec.seats]
        self.undo_allowed: bool = spec.undo
        self.clock: dict[str, float] | None = None if spec.clock is None else spec.clock.as_dict()
        self.on_timeout: str = spec.on_timeout
        step = self.game.step_seconds
        if self.clock is None and step is not None:
            # A game with its own step clock (Verticality): when it runs out the piece drops
            # where the game says (Aiming.default_aim), which the "computer" timeout plays.
            self.clock, self.on_timeout = {"per_move": step}, "computer"
        self.created_at = created_at
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
        self._pending: tuple[StoredEvent, State] | None = None
        self.check_start(created_at)

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

    def due(self) -> tuple[int, ...]:
        """Seats that owe a move now (none before the start or after the end)."""
        if not self.started or self.is_over:
            return ()
        return self.state.to_move

    def deadline(self, seat: int) -> float | None:
        if self.clock is None or seat not in self.due_since:
            return None
        allowed = self.clock.get("per_move") or self.bank[seat]
        return self.due_since[seat] + allowed

    def clocks(self, now: float) -> list[float | None] | None:
        """Seconds left per seat (None: not counting down), for the view."""
        if self.clock is None:
            return None
        out: list[float | None] = []
        for s in range(len(self.seats)):
            d = self.deadline(s)
            if d is not None:
                out.append(round(max(0.0, d - now), 3))
            elif "total" in self.clock:
                out.append(round(self.bank[s], 3))
            else:
                out.append(None)
        return out

    def public_seats(self, connected: list[bool] | None = None) -> list[dict[str, Any]]:
        out = []
        for n, seat in enumerate(self.seats):
            view = seat.public()
            view["connected"] = seat.kind == "ai" or bool(connected and connected[n])
            out.append(view)
        return out

    def settings(self) -> dict[str, Any]:
        return {"undo": self.undo_allowed, "clock": self.clock, "on_timeout": self.on_timeout}

    def view(
        self, now: float, connected: list[bool] | None = None, viewer: int | None = None
    ) -> dict[str, Any]:
        """What `viewer` (a seat, None: anyone) may see: no token, no hash of one, and no
        sealed move of another seat (`for_viewer`)."""
        view = {
            "id": self.id,
            "game": self.game.id,
            "name": self.game.name,
            "can_end_by_agreement": self.game.can_end_by_agreement,
            # does the analysis (perfect play) cover this game? The page offers it only then
            "analysable": refusal(self.game) is None,
            "options": self.game.options_dict(),
            "seats": self.public_seats(connected),
            "version": self.v,
            "settings": self.settings(),
            "started": self.started,
            "result": self.result,
            "clocks": self.clocks(now),
            "requests": self.requests(),
            "rematch": self.rematch,
            "chat": list(self.chat_lines),
            "state": self.state.to_dict(),
        }
        return self.for_viewer(view, viewer)

    def sealed(self) -> frozenset[int]:
        """Seats whose move in the step under way others may not see yet (a game's
        `State.sealed`: Verticality's aims until the step resolves); none once it is over."""
        return frozenset() if self.is_over else frozenset(self.state.sealed())

    def for_viewer(
        self, msg: dict[str, Any], viewer: int | None, sealed: frozenset[int] | None = None
    ) -> dict[str, Any]:
        """A message (or a view) as `viewer` may see it: other seats' sealed moves without
        their text (`move: null`). The very same dict when nothing is hidden from `viewer`.
        `sealed`: the seats sealed when the message was made (default: now)."""
        hidden = (self.sealed() if sealed is None else sealed) - {viewer}
        if not hidden:
            return msg
        out = dict(msg)
        if out.get("kind") == "move" and out.get("seat") in hidden:
            out["move"] = None
            out.pop("cid", None)
        state = out.get("state")
        if isinstance(state, dict):
            last = state.get("last_move")
            if last is not None and last["seat"] in hidden:  # a sealed entry ends the history
                out["state"] = {**state, "last_move": {**last, "move": None}}
        return out

    def requests(self) -> dict[str, Any]:
        """Open requests: who asked to take a move back (and who agreed), who agreed to end."""
        return {
            "undo": None if self.undo_request is None else self.undo_request[0],
            "undo_accepts": sorted(self.undo_accepts),
            "end": sorted(self.end_accepts),
        }

    def message(self, ev: StoredEvent) -> dict[str, Any]:
        """The socket message for an event that was just applied. Every message carries the
        open requests and the rematch, so a client copies them rather than working them out."""
        msg: dict[str, Any] = {"t": "event", "v": ev.seq, "kind": ev.kind, "at": ev.at}
        msg.update({k: v for k, v in ev.data.items() if not k.startswith("_")})
        msg["requests"] = self.requests()
        msg["rematch"] = self.rematch
        if ev.kind in STATE_KINDS or (ev.kind == "seat" and self.started_at == ev.at):
            msg["state"] = self.state.to_dict()
            msg["result"] = self.result
            msg["clocks"] = self.clocks(ev.at)
        if ev.kind in SEAT_KINDS:
            msg["seats"] = [s.public() for s in self.seats]
            msg["started"] = self.started
        return msg

    def record(self) -> Record:
        seats = [{"name": s.public()["name"], "kind": s.kind} for s in self.seats]
        rec = self.state.record(seats=seats, times=self.times)
        sealed = len(self.sealed())
        if sealed:  # the step under way: its aims are nobody else's business yet
            rec.moves = rec.moves[:-sealed]
        if self.result is not None:
            rec.result = {
                "is_over": True,
                "scores": list(self.state.scores),
                "winners": self.result["winners"],
                "reason": self.result["reason"],
            }
        return rec

    def solo_best(self) -> BestRow | None:
        """A finished game's result for its player's personal-best list (`State.personal_best`:
        Verticality's solo games).

        Only a person's game counts (a seat handed to a computer does not), and only one that
        ended in play (the tower fell, the player stopped or ran out of time), not an expiry.
        """
        if self.result is None:
            return None
        best = self.state.personal_best()
        if best is None:
            return None
        n = best.seat
        seat = self.seats[n]
        if self.result["reason"] == "expired" or seat.kind != "human" or seat.name is None:
            return None
        return BestRow(seat.name, best.levels, best.height_mm, self.id, self.last_at)

    # ---- commands: check, then return the event that does it ------------------------------
    def _event(self, kind: str, now: float, **data: Any) -> StoredEvent:
        return StoredEvent(self.v + 1, kind, data, now)

    def _open(self) -> None:
        if self.result is not None:
            if self.result["reason"] == "expired":
                raise ApiError("expired", "this table expired after a long pause", 409)
            raise ApiError("game-over", "the game at this table is over", 409)

    def take_seat(self, n: int, name: str, token: str, now: float) -> StoredEvent:
        self._open()
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
        return self._event("seat", now, seat=n, name=name, _token=token_hash(token))

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
        self._check_due(seat, v)
        if self.seats[seat].kind == "human":
            move = self._hastened(seat, move, now)
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
        ev = self._event("move", now, **data)
        # Keep the new position for apply(), but only for this very event: if another
        # worker wins the version, its event is applied from scratch.
        self._pending = (ev, new)
        return ev

    def _check_due(self, seat: int, v: int | None = None) -> None:
        self._open()
        if not self.started:
            raise ApiError("not-started", "the game starts when every seat is taken", 409)
        if v is not None and v != self.v:
            raise ApiError(
                "stale",
                f"the table is at version {self.v}, not {v}",
                409,
                params={"version": self.v, "sent": v},
            )
        if seat not in self.state.to_move:
            due = ", ".join(f"seat {s}" for s in self.state.to_move)
            raise ApiError(
                "not-your-turn",
                f"it is not seat {seat}'s turn ({due} to move)",
                409,
                params={"seat": seat, "due": list(self.state.to_move)},
            )

    def _hastened(self, seat: int, move: str, now: float) -> str:
        """A person's move with the haste the server measured (games that have haste).

        Haste counts from when the seat's step began (the server time of the event that made
        it due); the game takes the larger of that and what the client claimed. Computer
        seats are exempt: they run here, and their level sets their haste.
        """
        aiming = self.state.aiming()
        since = self.due_since.get(seat)
        if aiming is None or since is None:
            return move
        try:
            return aiming.hasten(move, now - since)
        except VertexError:
            return move  # play() says what is wrong with it

    def aim_check(self, seat: int, move: str) -> str:
        """A seat's aim, checked as its move would be but not played: the canonical aim.

        Not an event: the hub keeps it with `hold_aim`, privately, for the step clock.
        """
        self._check_due(seat)
        aiming = self.state.aiming()
        if aiming is None:
            raise ApiError("no-aims", f"{self.game.name} has no aiming: send your move", 409)
        try:
            return aiming.check_aim(move, seat)
        except VertexError as exc:
            raise illegal_move(exc) from None

    def aim_tag(self, seat: int) -> tuple[int, int]:
        """Which step of the seat an aim belongs to: (epoch, pieces the seat placed so far)."""
        return self.epoch, sum(1 for s, _ in self.state.history if s == seat)

    def hold_aim(self, seat: int, tag: tuple[int, int], move: str) -> None:
        if tag == self.aim_tag(seat):  # (one from another worker may come after the move)
            self.aims[seat] = (tag, move)

    def held_aim(self, seat: int) -> str | None:
        held = self.aims.get(seat)
        return held[1] if held is not None and held[0] == self.aim_tag(seat) else None

    def resign(self, seat: int, now: float) -> StoredEvent:
        self._open()
        return self._event("resign", now, seat=seat)

    def timeout(self, seat: int, now: float) -> StoredEvent:
        """A seat's clock ran out and the table says it loses."""
        self._open()
        deadline = self.deadline(seat)
        if deadline is None or now < deadline:
            raise ApiError("no-timeout", f"seat {seat}'s clock has not run out", 409)
        return self._event("timeout", now, seat=seat)

    def undo_request_cmd(self, seat: int, now: float) -> StoredEvent:
        self._open()
        if not self.undo_allowed:
            raise ApiError("no-undo", "this table was set up without take-backs (undo)", 409)
        ply = self._last_move_ply(seat)
        if ply is None:
            raise ApiError(
                "nothing-to-undo",
                f"seat {seat} has no move to take back",
                409,
                params={"seat": seat},
            )
        others = [h for h in self.humans() if h != seat]
        if not others:
            return self._event("undo", now, seat=seat, ply=ply)
        return self._event("undo-request", now, seat=seat, ply=ply)

    def undo_accept(self, seat: int, now: float) -> StoredEvent:
        self._open()
        if self.undo_request is None:
            raise ApiError("nothing-to-accept", "nobody asked to take a move back", 409)
        asker, ply = self.undo_request
        if seat == asker:
            raise ApiError(
                "not-allowed",
                "the other players accept your take-back, not you",
                409,
                params={"why": "own-undo"},
            )
        needed = {h for h in self.humans() if h != asker}
        if needed <= self.undo_accepts | {seat}:
            return self._event("undo", now, seat=asker, ply=ply)
        return self._event("undo-accept", now, seat=seat)

    def end_request(self, seat: int, now: float) -> StoredEvent:
        self._open()
        if not self.game.can_end_by_agreement:
            raise ApiError(
                "not-allowed",
                f"{self.game.name} cannot be ended by agreement",
                409,
                params={"why": "no-agreement"},
            )
        if not self.started:
            raise ApiError("not-started", "the game has not started", 409)
        if seat in self.end_accepts:
            raise ApiError("already-asked", "you agreed to end already", 409)
        if set(self.humans()) <= self.end_accepts | {seat}:
            return self._event("end", now, seat=seat)
        return self._event("end-request", now, seat=seat)

    def end_accept(self, seat: int, now: float) -> StoredEvent:
        if not self.end_accepts:
            raise ApiError("nothing-to-accept", "nobody asked to end the game", 409)
        return self.end_request(seat, now)

    def chat(self, seat: int, text: str, now: float) -> StoredEvent:
        return self._event("chat", now, seat=seat, name=self.seats[seat].name, text=text)

    def hand_over(self, seat: int, level: int, now: float) -> StoredEvent:
        self._open()
        if self.seats[seat].kind != "human":
            raise ApiError(
                "not-allowed",
                f"seat {seat} is a computer player already",
                409,
                params={"why": "computer", "seat": seat},
            )
        return self._event("hand-over", now, seat=seat, level=level)

    def rematch_cmd(self, new_id: str, now: float) -> StoredEvent:
        if self.result is None:
            raise ApiError("not-over", "a rematch starts once the game is over", 409)
        if self.rematch is not None:
            raise ApiError(
                "rematched",
                f"the rematch is at table {self.rematch}",
                409,
                params={"table": self.rematch},
            )
        return self._event("rematch", now, table=new_id)

    def expire(self, now: float) -> StoredEvent:
        self._open()
        return self._event("expired", now)

    def rematch_spec(self, seed: int) -> TableSpec:
        """Same game and options, seats rotated so another player moves first.

        Players keep their seat tokens: each follows the table link with the token they have.
        """
        n = len(self.seats)
        order = [self.seats[(i + 1) % n] for i in range(n)]
        seats = [SeatSpec(kind=s.kind, level=s.level, name=s.name, token=s.token) for s in order]
        return self.spec.model_copy(update={"seed": seed, "rematch_of": self.id, "seats": seats})

    def _last_move_ply(self, seat: int) -> int | None:
        for i in range(len(self.state.history) - 1, -1, -1):
            if self.state.history[i][0] == seat:
                return i
        return None

    # ---- folding events into the table (events.py: one fold per kind) -------------------
    def apply(self, ev: StoredEvent) -> None:
        fold(self, ev)

    def apply_move(self, ev: StoredEvent) -> None:
        d = ev.data
        seat = d["seat"]
        if self._pending is not None and self._pending[0] is ev:
            new = self._pending[1]
        else:
            new = self.state.play(d["move"], seat=seat)
        self._pending = None
        self.times.extend([ev.at] * (len(new.history) - len(self.state.history)))
        self.state = new
        self.aims.pop(seat, None)
        if "cid" in d:
            self.cids[(seat, str(d["cid"]))] = ev.seq
        self.undo_request, self.undo_accepts = None, set()
        self.end_accepts = set()
        self.clock_step(ev.at, seat)
        if new.is_over:
            self.finish("game", ev.at)

    def go_back(self, ply: int, at: float) -> None:
        state = self.game.initial_state(self.seed)
        for seat, move in self.state.history[:ply]:
            state = state.end_by_agreement() if seat is None else state.play(move, seat=seat)
            assert seat is not None or move == AGREED_END
        self.state = state
        self.times = self.times[:ply]
        self.undo_request, self.undo_accepts = None, set()
        self.epoch += 1
        self.aims = {}
        self.due_since = {s: at for s in self.state.to_move}

    def check_start(self, at: float) -> None:
        if self.started_at is None and all(s.taken for s in self.seats):
            self.started_at = at
            self.due_since = {s: at for s in self.state.to_move}

    def clock_step(self, at: float, mover: int | None) -> None:
        """Charge the seats whose turn ended and start the clocks of the seats now due."""
        due = set(self.state.to_move)
        total = self.clock is not None and "total" in self.clock
        for s, since in list(self.due_since.items()):
            if s == mover or s not in due:
                if total and self.clock is not None:
                    self.bank[s] -= at - since
                    if s == mover:
                        self.bank[s] += float(self.clock.get("increment", 0))
                del self.due_since[s]
        for s in due:
            self.due_since.setdefault(s, at)

    def finish(self, reason: str, at: float, loser: int | None = None) -> None:
        if loser is None:
            winners = list(self.state.winners)
        else:
            others = [s for s in range(len(self.seats)) if s != loser]
            scores = self.state.scores
            best = max(scores[s] for s in others) if len(others) > 1 else None
            winners = [s for s in others if best is None or scores[s] == best]
        self.result = {"reason": reason, "winners": winners}
        if loser is not None:
            self.result["seat"] = loser
        self.due_since = {}
        self.undo_request, self.undo_accepts, self.end_accepts = None, set(), set()


def rebuild(
    table_id: str, spec: TableSpec | dict[str, Any], created_at: float, events: list[StoredEvent]
) -> Table:
    """A table from its log."""
    table = Table(table_id, spec, created_at)
    for ev in events:
        table.apply(ev)
    return table

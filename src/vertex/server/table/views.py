"""What each viewer sees of a table: the view (a snapshot), an event's message, the record.

Who may see what is decided when a message is made: `Sent.sealed` (repository.py) stamps
the seats whose move was sealed then, and `for_viewer` hides those moves from everyone but
their own seat; sockets.py sends one text per kind of viewer. No token, nor a hash of one,
is in anything here.
"""

from __future__ import annotations

import json
from typing import Any

from vertex.core.record import Record
from vertex.server.table import clocks, takebacks, turns
from vertex.server.table.analysable import gate, refusal, review_refusal
from vertex.server.table.events import SEAT_KINDS, STATE_KINDS, StoredEvent
from vertex.server.table.records import BestRow
from vertex.server.table.table import Table


def public_seats(
    t: Table, connected: list[bool] | None = None, away: list[float | None] | None = None
) -> list[dict[str, Any]]:
    """`away`: per seat, the seconds before its absent player may be handed over
    (absence.py), shown as `hand_over_in` on the seats it applies to."""
    out = []
    for n, seat in enumerate(t.seats):
        view = seat.public()
        view["connected"] = seat.kind == "ai" or bool(connected and connected[n])
        if away is not None and n < len(away) and away[n] is not None:
            view["hand_over_in"] = away[n]
        out.append(view)
    return out


def settings(t: Table) -> dict[str, Any]:
    return {
        "undo": t.undo_allowed,
        "clock": t.clock,
        "on_timeout": t.on_timeout,
        "analysis": t.analysis_allowed,
    }


def analysis_gate(t: Table) -> str | None:
    """Why the table offers no analysis now (a code), or None: it does (analysable.gate)."""
    return gate(t.game, t.is_over, t.analysis_allowed, played=bool(t.state.history))


def view(
    t: Table,
    now: float,
    connected: list[bool] | None = None,
    viewer: int | None = None,
    away: list[float | None] | None = None,
    state: bool = True,
) -> dict[str, Any]:
    """What `viewer` (a seat, None: anyone) may see: no token, no hash of one, and no
    sealed move of another seat (`for_viewer`). `state=False`: without the state (the
    caller puts it in: `snapshot_text`)."""
    view = {
        "id": t.id,
        "game": t.game.id,
        "name": t.game.name,
        "can_end_by_agreement": t.game.can_end_by_agreement,
        "scored": t.game.scored,  # False: won, lost or drawn only; the page shows no scores
        "version_words": t.game.info.version_words,  # the page words the version itself
        # does the analysis (perfect play) cover this game? The page offers it only then
        "analysable": refusal(t.game) is None,
        "reviewable": review_refusal(t.game) is None,
        # and is it offered now (None), or why not: the page shows that reason
        "analysis": analysis_gate(t),
        "options": t.game.options_dict(),
        "seats": public_seats(t, connected, away),
        "version": t.v,
        "settings": settings(t),
        "started": t.started,
        "result": t.result,
        "clocks": clocks.left(t, now),
        # the plies the computer played for a seat whose time ran out (1-based)
        "clock_plies": sorted(t.clock_plies),
        "requests": requests(t),
        "rematch": t.rematch,
        "chat": list(t.chat_lines),
    }
    if t.rated:
        view["rated"] = True
    if t.slow:  # (a flag sent only when true)
        view["slow"] = True
    if state:
        view["state"] = t.state.to_dict()
    return for_viewer(view, viewer, turns.sealed(t))


#: Stands for the state in a snapshot's JSON until the state's own JSON is put in its place
#: (the last place it appears: a chat line could hold the same text, earlier).
_STATE_MARK = "\x00state\x00"
_STATE_MARK_JSON = json.dumps(_STATE_MARK)


class StateTexts:
    """The JSON of each table's current state, made once per state (states are immutable:
    a new one comes with each event). A thousand spectators connecting to a big board then
    cost one `to_dict` and one JSON of its state, not a thousand."""

    def __init__(self) -> None:
        self._texts: dict[str, tuple[object, str]] = {}

    def text(self, t: Table) -> str:
        held = self._texts.get(t.id)
        if held is not None and held[0] is t.state:
            return held[1]
        text = json.dumps(t.state.to_dict(), separators=(",", ":"))
        self._texts[t.id] = (t.state, text)
        return text

    def forget(self, tid: str) -> None:
        self._texts.pop(tid, None)


def snapshot_text(
    t: Table,
    now: float,
    connected: list[bool],
    viewer: int | None,
    away: list[float | None],
    texts: StateTexts,
) -> str:
    """The `snapshot` message for a new socket, as JSON: byte for byte what `dumps` of
    `{"t": "snapshot", "v", "seat", "table": view(...)}` gives, with the state's JSON
    taken from `texts` when `viewer` may see all of it (no other seat's move is sealed)."""
    snap: dict[str, Any] = {"t": "snapshot", "v": t.v, "seat": viewer}
    if turns.sealed(t) - {viewer}:
        snap["table"] = view(t, now, connected, viewer, away)
        return json.dumps(snap, separators=(",", ":"))
    table = view(t, now, connected, viewer, away, state=False)
    table["state"] = _STATE_MARK
    snap["table"] = table
    text = json.dumps(snap, separators=(",", ":"))
    # the state is the view's last field and the view the snapshot's: the mark's last
    # place is the state's, whatever a chat line holds
    head, mark, tail = text.rpartition(_STATE_MARK_JSON)
    assert mark and tail == "}}"
    return head + texts.text(t) + tail


def for_viewer(msg: dict[str, Any], viewer: int | None, sealed: frozenset[int]) -> dict[str, Any]:
    """A message (or a view) as `viewer` may see it: other seats' sealed moves without
    their text (`move: null`). The very same dict when nothing is hidden from `viewer`.
    `sealed`: the seats sealed when the message was made (stamped on it: repository.Sent)."""
    hidden = sealed - {viewer}
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


def requests(t: Table) -> dict[str, Any]:
    """Open requests: who asked to take a move back (and who agreed), who agreed to end."""
    return {
        "undo": None if t.undo_request is None else t.undo_request[0],
        "undo_accepts": sorted(t.undo_accepts),
        "end": sorted(t.end_accepts),
        # seats with a move to take back (the page offers "take back" only to them)
        "undoable": takebacks.undoable(t),
    }


def message(t: Table, ev: StoredEvent) -> dict[str, Any]:
    """The socket message for an event that was just applied. Every message carries the
    open requests and the rematch, so a client copies them rather than working them out."""
    msg: dict[str, Any] = {"t": "event", "v": ev.seq, "kind": ev.kind, "at": ev.at}
    msg.update({k: v for k, v in ev.data.items() if not k.startswith("_")})
    msg["requests"] = requests(t)
    msg["rematch"] = t.rematch
    if ev.kind in STATE_KINDS or (ev.kind == "seat" and t.started_at == ev.at):
        msg["state"] = t.state.to_dict()
        msg["result"] = t.result
        msg["clocks"] = clocks.left(t, ev.at)
        msg["clock_plies"] = sorted(t.clock_plies)
        msg["analysis"] = analysis_gate(t)
    if ev.kind in SEAT_KINDS:
        msg["seats"] = [s.public() for s in t.seats]
        msg["started"] = t.started
    return msg


def record(t: Table) -> Record:
    seats = [{"name": s.public()["name"], "kind": s.kind} for s in t.seats]
    rec = t.state.record(seats=seats, times=t.times)
    for k in t.clock_plies:  # the computer's, for a seat out of time
        if k <= len(rec.moves):
            rec.moves[k - 1].by = "clock"
    sealed = len(turns.sealed(t))
    if sealed:  # the step under way: its aims are nobody else's business yet
        rec.moves = rec.moves[:-sealed]
    if t.result is not None:
        rec.result = {
            "is_over": True,
            "scores": list(t.state.scores),
            "winners": t.result["winners"],
            "reason": t.result["reason"],
        }
    return rec


def solo_best(t: Table) -> BestRow | None:
    """A finished game's result for its player's personal-best list (`State.personal_best`:
    Verticality's solo games).

    Only a person's game counts (a seat handed to a computer does not), and only one that
    ended in play (the tower fell, the player stopped or ran out of time), not an expiry.
    """
    if t.result is None:
        return None
    best = t.state.personal_best()
    if best is None:
        return None
    n = best.seat
    seat = t.seats[n]
    if t.result["reason"] == "expired" or seat.kind != "human" or seat.name is None:
        return None
    return BestRow(seat.name, best.levels, best.height_mm, t.id, t.last_at)

"""The tables' HTTP routes (DESIGN.md §5): open, view, take a seat, move, aim, act, record.

Each request becomes the same hub command the socket sends, checked by the same models.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Annotated, Any, Literal

from fastapi import FastAPI, Path, Request
from fastapi.responses import PlainTextResponse

from vertex.core import list_games
from vertex.core.errors import VertexError
from vertex.server.api.bodies import (
    ActionIn,
    AimIn,
    CheckOptions,
    CreateTable,
    MoveIn,
    SuggestIn,
    TakeSeat,
)
from vertex.server.errors import ApiError, illegal_move
from vertex.server.hub import Hub, checked_game
from vertex.server.pages.web import preview
from vertex.server.play.new_tables import rated_setup
from vertex.server.site.addresses import address_of
from vertex.server.table import turns, views
from vertex.server.table.messages import command
from vertex.server.table.pools import pools_of
from vertex.server.table.table import Table, token_hash

#: Suggested aims kept (the newest), one per table, version and seat.
SUGGESTIONS_KEPT = 256

TableId = Annotated[str, Path(max_length=64, description="the table id from its link")]


def add_table_routes(app: FastAPI, hub: Hub) -> None:
    @app.get("/api/games")
    async def games() -> list[dict[str, Any]]:
        """Every game: id, name, rule summary, options (JSON Schema) and their defaults,
        `preview`: the state (as in a table view) of a small example game, for pictures, and
        `pools`: its rating pools (`{id, options}`: a rated table's exact options)."""
        return [
            {**g, "preview": preview(g["id"]), "pools": pools_of(g["id"])} for g in list_games()
        ]

    @app.post("/api/options/check")
    async def check_options(body: CheckOptions) -> dict[str, Any]:
        """Check a game's options before opening a table: the options as the table would
        have them and its number of seats, or the error (its `option` names the field)."""
        game = checked_game(body.game, body.options)
        return {"game": game.id, "options": game.options_dict(), "seats": game.seats}

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, request: Request) -> dict[str, Any]:
        """Open a table. Share `url`; each player then takes a seat."""
        creator = address_of(request.scope, hub.settings.trusted_proxies)
        game = checked_game(body.game, body.options)  # the one time options are checked
        seats = None if body.seats is None else [s.spec() for s in body.seats]
        settings_ = {
            "undo": body.undo,
            "clock": None if body.clock is None else body.clock.settings(),
            "on_timeout": body.on_timeout,
            "analysis": body.analysis,
        }
        if body.rated:
            seats, settings_ = rated_setup(game, seats, settings_)
        table = await hub.new_tables.create(game, seats, settings_, creator, body.listed)
        return {"id": table.id, "url": f"/tables/{table.id}", "seats": views.public_seats(table)}

    @app.get("/api/tables/{table_id}")
    async def view(table_id: TableId) -> dict[str, Any]:
        """The public view: what a spectator sees."""
        return await hub.view(table_id)

    @app.post("/api/tables/{table_id}/seats/{n}")
    async def take_seat(
        table_id: TableId, n: int, body: TakeSeat, request: Request
    ) -> dict[str, Any]:
        """Take free seat `n`. The token is the only proof of the seat: keep it private.
        With `Authorization: Bearer KEY` the player sits under their name (a rated table's
        seats are taken only so)."""
        address = address_of(request.scope, hub.settings.trusted_proxies)
        me = await hub.identity.me(request.headers.get("authorization"), address)
        token, v = await hub.take_seat(table_id, n, body.name or "", me, address)
        return {"seat": n, "token": token, "version": v, "seat_link": _seat_link(table_id, token)}

    @app.post("/api/tables/{table_id}/moves")
    async def move(table_id: TableId, body: MoveIn) -> dict[str, Any]:
        """Play a move for the seat the token holds (the same checks as the socket)."""
        table = await hub.get(table_id)
        seat = await _seat(hub, table, body.token)
        msg = command({"t": "move", "move": body.move, "v": body.version, "id": body.id})
        reply = await hub.command(table_id, seat, token_hash(body.token), msg)
        return {"version": reply["v"], "duplicate": reply.get("duplicate", False)}

    @app.post("/api/tables/{table_id}/aims")
    async def aim(table_id: TableId, body: AimIn) -> dict[str, Any]:
        """Say where you aim your piece now (games with aiming: Verticality). Checked like a
        move but not played; kept privately, never shown to others. When your step clock
        runs out the piece drops at your last aim (else at the game's default spot)."""
        table = await hub.get(table_id)
        seat = await _seat(hub, table, body.token)
        msg = command({"t": "aim", "move": body.move, "id": body.id})
        reply = await hub.command(table_id, seat, token_hash(body.token), msg)
        return {"version": reply["v"], "aim": reply["aim"]}

    suggested: OrderedDict[tuple[str, int, int], asyncio.Future[str]] = OrderedDict()

    @app.post("/api/tables/{table_id}/suggestion")
    async def suggestion(table_id: TableId, body: SuggestIn) -> dict[str, Any]:
        """The game's suggested aim for your piece now (games with aiming: Verticality): the
        spot its planner picks, where the step clock drops a piece nobody aimed. The page
        starts the aim there; a newcomer who places it builds a steady tower."""
        table = await hub.get(table_id)
        seat = await _seat(hub, table, body.token)
        key = (table.id, table.v, seat)
        known = suggested.get(key)
        if known is None:
            turns.check_due(table, seat)
            aiming = table.state.aiming()
            if aiming is None:
                raise ApiError("no-aims", f"{table.game.name} has no aiming", 409)
            # The planner's search takes a moment: off the event loop, once a position.
            known = asyncio.ensure_future(asyncio.to_thread(aiming.default_aim, seat))
            suggested[key] = known
            while len(suggested) > SUGGESTIONS_KEPT:
                suggested.popitem(last=False)
        try:
            aim = await asyncio.shield(known)
        except VertexError as exc:
            raise illegal_move(exc) from None
        return {"version": key[1], "aim": aim}

    @app.post("/api/tables/{table_id}/actions")
    async def action(table_id: TableId, body: ActionIn) -> dict[str, Any]:
        """Table actions for scripts: resign, rematch, undo and end requests, chat, hand-over."""
        table = await hub.get(table_id)
        seat = await _seat(hub, table, body.token)
        reply = await hub.command(table_id, seat, token_hash(body.token), body.command())
        out = {"version": reply["v"]}
        if "table" in reply:
            out["table"] = reply["table"]
        return out

    @app.get("/api/tables/{table_id}/record", response_model=None)
    async def record(
        table_id: TableId, format: Literal["json", "text"] = "json"
    ) -> dict[str, Any] | PlainTextResponse:
        """The game record (replays with `vertex replay`); `?format=text`: one move a line."""
        rec = views.record(await hub.get(table_id))
        if format == "text":
            return PlainTextResponse(rec.to_text())
        return rec.model_dump(mode="json")


async def _seat(hub: Hub, table: Table, token: str) -> int:
    seat = table.seat_of(token)
    if seat is None:
        raise ApiError("bad-token", "that seat token does not hold a seat at this table", 403)
    if not await hub.allowances.command(token_hash(token)):
        per_s = hub.limits.messages_per_second
        raise ApiError(
            "rate-limited",
            f"too many commands: at most {per_s:g} a second",
            429,
            params={"per_second": per_s},
        )
    return seat


def _seat_link(table_id: str, token: str) -> str:
    # The token rides in the fragment, which browsers never send to a server or a log.
    return f"/tables/{table_id}#token={token}"

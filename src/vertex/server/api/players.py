"""The players' routes (DESIGN.md §5a): claim a name, the player's own page (`me`), replace
or forget the key, profiles, games and leaderboards.

The key travels only in `Authorization: Bearer KEY` (never a URL: a proxy's access log or a
referrer would keep it); the one answer that holds a key is the claim's or a replacement's,
to the player alone.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import FastAPI, Path, Query, Request, Response

from vertex.server.api.bodies import ClaimName
from vertex.server.hub import Hub
from vertex.server.live import departed
from vertex.server.players import profiles
from vertex.server.players.identity import Me
from vertex.server.site.addresses import address_of

PlayerName = Annotated[str, Path(max_length=200, description="a player's name (any case)")]
PoolId = Annotated[str, Path(max_length=64, description="a rating pool's id")]


def add_player_routes(app: FastAPI, hub: Hub) -> None:
    async def me(request: Request) -> Me:
        address = address_of(request.scope, hub.settings.trusted_proxies)
        return await hub.identity.required(request.headers.get("authorization"), address)

    @app.post("/api/players", status_code=201)
    async def claim(body: ClaimName, request: Request) -> dict[str, Any]:
        """Claim a name: `{name, key}`. Keep the key: it is shown this once."""
        address = address_of(request.scope, hub.settings.trusted_proxies)
        name, key = await hub.identity.claim(body.name, address)
        return {"name": name, "key": key}

    @app.get("/api/players/me")
    async def my_page(request: Request) -> dict[str, Any]:
        """The player's profile, with the tables they sit at and where it is their turn."""
        who = await me(request)
        row = await profiles.find(hub.store, who.name)
        return {
            **await profiles.profile(hub.store, row),
            **await profiles.own_tables(hub.store, who.id),
        }

    @app.post("/api/players/me/key")
    async def replace_key(request: Request) -> dict[str, Any]:
        """A new key; the old one stops at once (on every process: live/departed.py)."""
        who = await me(request)
        key = await hub.identity.replace_key(who)
        await departed.gone(hub.tables, hub.sockets, hub.bus, who.id, forgotten=False)
        return {"key": key}

    @app.delete("/api/players/me", status_code=204)
    async def forget(request: Request) -> Response:
        """Forget the player: the name is free again; finished games keep a former player;
        every process lets the key go at once (live/departed.py)."""
        who = await me(request)
        await hub.identity.forget(who)
        await departed.gone(hub.tables, hub.sockets, hub.bus, who.id, forgotten=True)
        return Response(status_code=204)

    @app.get("/api/players/{name}")
    async def profile(name: PlayerName) -> dict[str, Any]:
        return await profiles.profile(hub.store, await profiles.find(hub.store, name))

    @app.get("/api/players/{name}/games")
    async def games(
        name: PlayerName,
        game: Annotated[str | None, Query(max_length=64)] = None,
        cursor: Annotated[str | None, Query(max_length=200)] = None,
    ) -> dict[str, Any]:
        """Finished games, newest first, 50 a page; `next` is the cursor of the next page."""
        row = await profiles.find(hub.store, name)
        return await profiles.games(hub.store, row, game, cursor)

    @app.get("/api/leaderboard/{pool}")
    async def leaderboard(pool: PoolId) -> dict[str, Any]:
        """The pool's best players: at least 10 games, played in the last 60 days."""
        return await profiles.leaderboard(hub.store, pool)

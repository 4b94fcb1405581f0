"""The ASGI app: the HTTP API and the sockets of DESIGN.md §5, and the page of §6.

Only wiring: the routes live by concern in `api/` (tables, the table socket, the lobby's
routes and socket, health, errors and limits) and `pages/` (`web.py`: pages and static
files; `bests.py`, `replay.py`, `rules.py` and `analysis.py`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, WebSocket

from vertex.server.api.guards import BodyLimit, PathCheck, SlashRedirect, add_error_handlers
from vertex.server.api.health import add_health_routes
from vertex.server.api.lobby import add_lobby_routes
from vertex.server.api.players import add_player_routes
from vertex.server.api.puzzles import add_puzzle_routes
from vertex.server.api.request_ids import RequestIds
from vertex.server.api.socket import serve_table_socket
from vertex.server.api.tables import add_table_routes
from vertex.server.errors import ApiError
from vertex.server.hub import Hub
from vertex.server.pages.analysis import add_analysis_routes
from vertex.server.pages.bests import router as bests_router
from vertex.server.pages.built import WEB_BUILD
from vertex.server.pages.puzzles import add_puzzle_pages
from vertex.server.pages.replay import add_replay_routes
from vertex.server.pages.review import add_review_routes
from vertex.server.pages.rules import add_rules_routes
from vertex.server.pages.web import SecurityHeaders, Site, add_page_routes
from vertex.server.parts import parts_for
from vertex.server.settings import Settings


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    hub = Hub(settings, parts_for(settings))

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await hub.start()
        try:
            yield
        finally:
            await hub.stop()

    app = FastAPI(
        title="Vertex",
        version="0.1.0",
        summary="Play pen-and-paper and pyramid games online: tables, seats, live play.",
        lifespan=lifespan,
        # /docs is our own page (web.py: Swagger UI from our files, under the site's CSP);
        # FastAPI's would load its viewer from a CDN. No ReDoc: one viewer is enough.
        docs_url=None,
        redoc_url=None,
    )
    app.state.hub = hub
    app.router.redirect_slashes = False  # SlashRedirect answers, never with the client's Host
    add_error_handlers(app)
    app.add_middleware(
        BodyLimit, limit=settings.limits.body_bytes, timeout_s=settings.body_timeout_s
    )
    app.add_middleware(SlashRedirect, router=app.router)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(PathCheck)  # a bad path reaches nothing else
    # outermost: every reply, refusals too, carries its request id (logged with it)
    app.add_middleware(RequestIds)

    async def table_exists(tid: str) -> bool:
        try:
            await hub.get(tid)
        except ApiError:
            return False
        return True

    local = settings.redis_url is None
    site = Site(build=WEB_BUILD)
    add_page_routes(app, site, table_exists, settings.public_url, local)
    add_puzzle_pages(app, site)
    add_rules_routes(app)
    add_health_routes(app, hub)
    add_table_routes(app, hub)
    add_player_routes(app, hub)
    add_puzzle_routes(app, hub)

    @app.websocket("/ws/tables/{table_id}")
    async def socket(ws: WebSocket, table_id: str) -> None:
        await serve_table_socket(hub, ws, table_id)

    app.include_router(bests_router)
    add_replay_routes(app, hub)
    add_lobby_routes(app, hub)
    add_analysis_routes(app, hub)
    add_review_routes(app, hub)
    return app

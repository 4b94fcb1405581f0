"""`/healthz` (is the process up, and is it whole) and `/readyz` (may it take new clients)."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse

from vertex.server.hub import Hub


def add_health_routes(app: FastAPI, hub: Hub) -> None:
    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        """The process is up; `status` is `degraded` while Redis or the database is away."""
        return await hub.health()

    @app.get("/readyz", responses={503: {"description": "Redis or the database is away"}})
    async def readyz() -> JSONResponse:
        """200 when this process can serve everything; 503 while Redis or the database is
        unreachable (a load balancer sends new clients elsewhere meanwhile)."""
        health = await hub.health()
        keys = ("status", "database_up", "redis_up", "worker")
        return JSONResponse({k: health[k] for k in keys}, status_code=200 if health["ok"] else 503)

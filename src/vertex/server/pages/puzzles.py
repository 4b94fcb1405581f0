"""The puzzles page, `/puzzles` and `/puzzles/{id}` (issue 35): one HTML shell; the page asks
the API for the puzzle (and says so when it is unknown)."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.responses import HTMLResponse

from vertex.server.pages.web import Site, html

PAGE = "puzzles.html"


def add_puzzle_pages(app: FastAPI, site: Site) -> None:
    def page() -> HTMLResponse:
        body = (site.root / PAGE).read_text(encoding="utf-8")
        return html(site, body.replace("{{static}}", site.static))

    @app.get("/puzzles", include_in_schema=False)
    async def puzzles_page() -> HTMLResponse:
        return page()

    @app.get("/puzzles/{puzzle_id}", include_in_schema=False)
    async def puzzle_page(puzzle_id: str) -> HTMLResponse:
        return page()

"""The API documentation page (/docs) works under the site's CSP, from its own files."""

from __future__ import annotations

from typing import Any

from .conftest import LiveServer, shot


def test_the_api_docs_show_the_routes_under_the_csp(
    server: LiveServer, context_factory: Any
) -> None:
    page = context_factory().new_page()
    refused: list[str] = []
    page.on(
        "console", lambda m: refused.append(m.text) if "Content Security Policy" in m.text else None
    )
    outside: list[str] = []
    page.on("request", lambda r: None if r.url.startswith(server.url) else outside.append(r.url))
    page.goto(server.url + "/docs")
    page.wait_for_selector(".opblock-summary-path")
    paths = page.locator(".opblock-summary-path").all_inner_texts()
    assert any("/api/tables" in p for p in paths)
    shot(page, "api-docs")
    assert refused == [] and outside == []

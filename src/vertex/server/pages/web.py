"""The page (DESIGN.md §6): HTML routes, versioned static files and the security headers.

Static files live under `/static/<release>/…`, where the release is a hash of every file in
`vertex/web`: such URLs never change content, so browsers may keep them for a year, and a new
release is a new URL. Modules import each other by relative paths, so they stay inside one
release. HTML pages are never cached and name the release they need. With a build
(`built.py`: `make setup` minifies the JS, CSS and JSON into `build/web`), an up-to-date built
copy is served instead of its source, precompressed when the client accepts br or gzip.
"""

from __future__ import annotations

import base64
import hashlib
import io
import mimetypes
import os
import re
from functools import cached_property
from pathlib import Path
from typing import Any

import segno
from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, Response

import vertex
from vertex.core import Rng, create_game, game_class, game_ids
from vertex.server.errors import ApiError
from vertex.server.pages.built import Build, log

WEB_ROOT = Path(vertex.__file__).parent / "web"
#: Browser libraries from the npm registry (`npm ci` in the project, run by `make serve` and
#: `make test`), served as `/static/<release>/vendor/<package>/…`.
NODE_MODULES = Path(
    os.environ.get("VERTEX_NODE_MODULES") or Path(vertex.__file__).parents[2] / "node_modules"
)
#: The packages the page may load, and the folders of each it may load from.
VENDOR = {"three": ("build", "examples/jsm"), "swagger-ui-dist": ("",)}
_IMPORT_MAP = re.compile(r"<script type=\"importmap\">(.*?)</script>", re.S)

#: Only the site itself: no other host, no inline script or style, no plugins, no framing.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    # Seat links carry the token in the fragment, which is never sent; no referrer at all
    # keeps even table ids from leaking to wherever a link leads.
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
IMMUTABLE = "public, max-age=31536000, immutable"
PAGES = {
    "lobby": "index.html",
    "table": "table.html",
    "rules": "rules.html",
    "api": "api.html",
    "player": "player.html",
    "leaderboard": "leaderboard.html",
}
#: A share link longer than this is not ours.
MAX_QR_CHARS = 400
#: What a key link looks like (`ORIGIN/#key=KEY`, js/shared/player.js): the key QR route
#: draws nothing else, so it is no QR service for any text.
KEY_LINK = re.compile(r"https?://[^\s/#?]+/#key=[A-Za-z0-9_.~%-]{16,200}")
#: Longest name a profile page is asked for (the server's names are 20 graphemes; a
#: grapheme may be several code points).
MAX_NAME_CHARS = 200

for ext, kind in ((".js", "text/javascript"), (".svg", "image/svg+xml")):
    mimetypes.add_type(kind, ext)


class Site:
    """The files of the page and the release they make."""

    def __init__(
        self, root: Path = WEB_ROOT, vendor: Path = NODE_MODULES, build: Path | None = None
    ) -> None:
        self.root = root
        self.vendor = vendor
        #: The minified copy of `root`, if the site serves one (the app's does: WEB_BUILD).
        self.build = Build(build, root) if build is not None else None

    @cached_property
    def release(self) -> str:
        digest = hashlib.sha256()
        for path in sorted(p for p in self.root.rglob("*") if p.is_file()):
            digest.update(str(path.relative_to(self.root)).encode())
            digest.update(path.read_bytes())
        # A new library version is a new release too, and so is a new minifier (other built
        # files under the same names).
        for package in [*sorted(VENDOR), "esbuild"]:
            meta = self.vendor / package / "package.json"
            digest.update(meta.read_bytes() if meta.is_file() else b"-")
        return digest.hexdigest()[:12]

    @property
    def static(self) -> str:
        return f"/static/{self.release}"

    def page(self, name: str) -> str:
        html = (self.root / PAGES[name]).read_text(encoding="utf-8")
        return html.replace("{{static}}", self.static)

    def csp(self, html: str) -> str:
        """The page's policy: the site's, plus the hash of each inline import map (a module
        graph's import map must be inline; nothing else is)."""
        hashes = [
            "'sha256-" + base64.b64encode(hashlib.sha256(m.encode()).digest()).decode() + "'"
            for m in _IMPORT_MAP.findall(html)
        ]
        if not hashes:
            return CSP
        return CSP.replace("script-src 'self'", "script-src 'self' " + " ".join(hashes))

    def file(self, rel: str) -> Path | None:
        """The file at `rel` inside the web folder (or, under `vendor/<package>/`, inside a
        listed folder of that package), or None — also for any way out of them."""
        if not rel or "\\" in rel or "\x00" in rel or rel.startswith("/"):
            return None
        parts = rel.split("/")
        if parts[0] == "vendor":
            if len(parts) < 3 or parts[1] not in VENDOR:
                return None
            package = self.vendor / parts[1]
            allowed = [package / folder for folder in VENDOR[parts[1]]]
            return _inside("/".join(parts[2:]), package, allowed)
        return _inside(rel, self.root, [self.root])


def _inside(rel: str, base: Path, allowed: list[Path]) -> Path | None:
    path = (base / rel).resolve()
    if not path.is_file():
        return None
    if not any(folder.resolve() in path.parents for folder in allowed):
        return None
    return path


_previews: dict[str, dict[str, Any]] = {}


def preview(game_id: str) -> dict[str, Any]:
    """The state of a game's small example (its `example`): the same view a table shows, for
    the lobby's pictures. Seeded, so the picture is the same every time."""
    if game_id not in _previews:
        cls = game_class(game_id)
        options, moves = cls.example
        state = create_game(game_id, **options).initial_state(seed=1)
        rng = Rng.from_seed(1, "preview")
        for _ in range(moves):
            if state.is_over:
                break
            move, rng = state.sample_move(state.to_move[0], rng)
            state = state.play(move, seat=state.to_move[0])
        _previews[game_id] = state.to_dict()
    return _previews[game_id]


def html(site: Site, body: str, status: int = 200) -> HTMLResponse:
    headers = {"Cache-Control": "no-cache", "Content-Security-Policy": site.csp(body)}
    return HTMLResponse(body, status_code=status, headers=headers)


def qr_svg(text: str) -> str:
    """A QR code of `text` as a compact SVG (dark modules on a light quiet zone)."""
    qr = segno.make(text, error="m")
    out = io.BytesIO()
    qr.save(out, kind="svg", scale=4, border=2, dark="#111", light="#fff", xmldecl=False)
    return out.getvalue().decode()


def add_page_routes(
    app: FastAPI, site: Site, table_exists: Any, public_url: str | None, local: bool
) -> None:
    """`/`, `/tables/{id}`, the table's QR code, `/players/{name}`, `/leaderboard/{pool}`, the
    key link's QR code and the static files.

    `table_exists(id)` is an async callable: the table page of a missing table still loads
    (it explains), but with a 404 status. QR codes link to `public_url`; without one, only a
    `local` site (one process, the default) uses the address the request came to — a site
    of several processes is behind a proxy, where `Host` is whatever a client wrote.
    """

    @app.get("/", include_in_schema=False)
    async def lobby() -> HTMLResponse:
        return html(site, site.page("lobby"))

    @app.get("/docs", include_in_schema=False)
    async def api_docs() -> HTMLResponse:
        """The API's documentation, from this site's own files under its CSP."""
        return html(site, site.page("api"))

    @app.get("/tables/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> HTMLResponse:
        found = len(table_id) <= 64 and await table_exists(table_id)
        return html(site, site.page("table"), 200 if found else 404)

    @app.get("/rules/{game_id}", include_in_schema=False)
    async def rules_page(game_id: str) -> HTMLResponse:
        return html(site, site.page("rules"), 200 if game_id in game_ids() else 404)

    @app.get("/players/{name}", include_in_schema=False)
    async def player_page(name: str) -> HTMLResponse:
        """A player's profile: a shell; its script asks /api/players/{name} (and says so when
        there is no such player)."""
        return html(site, site.page("player"), 200 if len(name) <= MAX_NAME_CHARS else 404)

    @app.get("/leaderboard/{pool}", include_in_schema=False)
    async def leaderboard_page(pool: str) -> HTMLResponse:
        """A rating pool's leaderboard: a shell over /api/leaderboard/{pool}."""
        return html(site, site.page("leaderboard"), 200 if len(pool) <= 64 else 404)

    @app.post("/key-qr.svg", include_in_schema=False)
    async def key_qr(request: Request) -> Response:
        """The QR code of a player's key link (shown once, after a claim or a new key). The
        link comes in the body of a POST, never in a URL: a GET would put the key in the
        address, in logs and in caches. Nothing of it is kept or logged."""
        try:
            body = await request.json()
        except ValueError:
            body = None
        text = body.get("text") if isinstance(body, dict) else None
        if not isinstance(text, str) or len(text) > MAX_QR_CHARS or not KEY_LINK.fullmatch(text):
            raise ApiError("bad-request", "the body must be {text: a key link}", 422)
        headers = {"Cache-Control": "no-store"}
        return Response(qr_svg(text), media_type="image/svg+xml", headers=headers)

    @app.get("/tables/{table_id}/qr.svg", include_in_schema=False)
    async def table_qr(table_id: str, request: Request) -> Response:
        if len(table_id) > 64 or not await table_exists(table_id):
            raise ApiError("no-such-table", f"there is no table {table_id!r}", 404)
        if public_url is not None:
            base = public_url
        elif local:
            base = str(request.base_url).rstrip("/")
        else:
            raise ApiError(
                "no-public-url", "this site has no public address set (VERTEX_PUBLIC_URL)", 404
            )
        link = base + f"/tables/{table_id}"
        if len(link) > MAX_QR_CHARS:
            raise ApiError("bad-request", "the site's address is too long for a QR code")
        headers = {"Cache-Control": "private, max-age=3600"}
        return Response(qr_svg(link), media_type="image/svg+xml", headers=headers)

    if site.build is not None:
        log.info("%s", site.build.describe())

    @app.get("/static/{release}/{rel:path}", include_in_schema=False)
    async def static(release: str, rel: str, request: Request) -> Response:
        # An old page asking for an old release gets today's file, but must not keep it.
        cache = IMMUTABLE if release == site.release else "no-cache"
        headers = {"Cache-Control": cache}
        path = site.file(rel)
        if path is None:
            source_map = site.build.source_map(rel) if site.build else None
            if source_map is None:
                raise ApiError("not-found", f"there is no file {rel!r}", 404)
            return FileResponse(source_map, media_type="application/json", headers=headers)
        # (three.js under vendor/ too: the build minifies the modules the page loads of it)
        built = site.build.find(rel, path) if site.build else None
        if built is None:
            return FileResponse(path, headers=headers)
        copy, encoding = built.pick(request.headers.get("accept-encoding", ""))
        headers["Vary"] = "Accept-Encoding"
        if encoding:
            headers["Content-Encoding"] = encoding
        media_type = mimetypes.guess_type(rel)[0] or "application/octet-stream"
        return FileResponse(copy, media_type=media_type, headers=headers)


class SecurityHeaders:
    """Adds the security headers to every HTTP response, the API documentation's included."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.headers = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        extra = self.headers

        async def send_with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                have = {name.lower() for name, _ in headers}
                headers += [h for h in extra if h[0] not in have]  # a page's own CSP wins
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)

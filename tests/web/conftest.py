"""Browser tests: a real server (uvicorn in a thread, fresh SQLite) and Debian's Chromium
driven by Playwright. Drive the page by the hooks of DESIGN §6 and wait on `data-version`,
never on sleeps. Skipped, with the reason, where Chromium is not installed."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.eventually import eventually
from tests.web.chromium_guard import Browser, watchdog
from vertex.server import Settings, create_app

#: Debian's old headless shell (package chromium-headless-shell: the same Chromium, without
#: the full browser's services) where it is installed: a context with its page costs a
#: fraction of the CPU of the full browser's, and CPU is what the suite waits on
#: (bench/RESULTS.md); else the full browser. VERTEX_TEST_CHROMIUM names another.
CHROMIUM = (
    os.environ.get("VERTEX_TEST_CHROMIUM")
    or shutil.which("chromium-headless-shell")
    or shutil.which("chromium")
    or shutil.which("chromium-browser")
)
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # WebGL (three.js) in a headless browser without a GPU
    "--enable-unsafe-swiftshader",
    "--use-angle=swiftshader",
]
#: Screenshots land here (ignored by git): look at them.
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "web"
PHONE: dict[str, Any] = {
    "viewport": {"width": 360, "height": 740},
    "has_touch": True,
    "is_mobile": True,
    "device_scale_factor": 2,
}
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 860}}
#: How long a page's calls and assertions wait (ms): a loaded box needs more than
#: Playwright's defaults (30 s for calls is too long a hang, 5 s for `expect()` too short).
WAIT_MS = 15_000
#: Seconds closing a test's contexts may take (a few hundred ms when healthy).
CLOSE_SECONDS = 60.0

pytestmark = pytest.mark.browser


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/web/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


class LiveServer:
    """The app served by uvicorn on a free loopback port, in a thread of its own."""

    def __init__(self, tmp: Path, **overrides: Any) -> None:
        import uvicorn

        values: dict[str, Any] = {
            "database_url": f"sqlite:///{tmp / 'vertex.db'}",
            "ai_executor": "thread",
            "ai_budget_s": 0.05,
            "sweep_interval_s": 3600.0,
            # absent players may be handed over at once, except where a test says otherwise
            "hand_over_grace_s": 0.0,
        }
        values.update(overrides)
        self.settings = Settings(**values)
        self.app = create_app(self.settings)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(
            self.app, host="127.0.0.1", port=self.port, log_level="warning", ws_max_size=1 << 20
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._run, daemon=True)
        # One client for the test's API calls: a new one per call builds a TLS context
        # (~40 ms of CPU each, even for http://), which made set-ups slow on a loaded box.
        self.http: Any = None

    def _run(self) -> None:
        asyncio.run(self.server.serve())

    def __enter__(self) -> LiveServer:
        import httpx

        self.thread.start()
        eventually(lambda: self.server.started, timeout=60, what="the test server starting")
        self.http = httpx.Client(base_url=self.url, timeout=10)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.http is not None:
            self.http.close()
        self.server.should_exit = True
        self.thread.join(timeout=10)

    def post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        r = self.http.post(path, json=body)
        assert r.status_code < 300, r.text
        out: dict[str, Any] = r.json()
        return out

    def get(self, path: str) -> Any:
        r = self.http.get(path)
        assert r.status_code < 300, r.text
        return r.json()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("web")) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """The module's Chromium (`.get()`), launched again if a watchdog had to kill it.

    A module's, not the session's: Playwright's sync API keeps an event loop running in this
    thread while it is open, and the suite's other tests (`asyncio.run`) must not meet it when
    `make test` runs the files on two workers in any order (pytest-xdist)."""
    if CHROMIUM is None:
        pytest.skip("Chromium is not installed (apt-get install chromium): browser tests skipped")
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=WAIT_MS)
    with sync_playwright() as pw:
        held = Browser(
            lambda: pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        )
        yield held
        held.close()


@pytest.fixture(autouse=True)
def _no_hanging_browser(request: pytest.FixtureRequest) -> Iterator[None]:
    """Kill Chromium shortly before the test's own timeout, which cannot interrupt a call
    blocked inside Playwright (chromium_guard.py): the test then fails instead of hanging."""
    marker = request.node.get_closest_marker("timeout")
    limit = float(marker.args[0]) if marker and marker.args else 300.0
    with watchdog(limit - min(60.0, limit / 5), f"the test {request.node.name}") as fired:
        yield
    if fired:
        pytest.fail(fired.reason)


@pytest.fixture
def context_factory(browser: Browser) -> Iterator[Any]:
    """new_context(**options) -> a fresh browser context (a separate person); all closed
    at the end of the test. Pass PHONE or DESKTOP (the default) and e.g. locale="it-IT"."""
    made: list[Any] = []

    def new_context(**options: Any) -> Any:
        opts = {**DESKTOP, **options}
        ctx = browser.get().new_context(**opts)
        ctx.set_default_timeout(WAIT_MS)
        made.append(ctx)
        return ctx

    yield new_context
    with watchdog(CLOSE_SECONDS, "closing the test's browser contexts") as fired:
        for ctx in made:
            if ctx.browser is None or not ctx.browser.is_connected():
                continue  # a watchdog killed its browser: the context went with it
            try:
                ctx.close()
            except Exception:
                if not fired:
                    raise
                break
    if fired:
        pytest.fail(fired.reason)


def shot(page: Any, name: str) -> Path:
    """Save a full-page screenshot as artifacts/web/NAME.png (look at it)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def version(page: Any) -> int:
    raw = page.get_attribute("[data-table]", "data-version") or "0"
    return int(raw or 0)


def wait_version(page: Any, at_least: int) -> int:
    """Wait until the table page has drawn version `at_least` (or later)."""
    page.wait_for_function(
        "n => Number(document.querySelector('[data-table]')?.dataset.version || -1) >= n",
        arg=at_least,
    )
    return version(page)


def wait_turn(page: Any, seats: str) -> None:
    """Wait until `data-turn` is exactly `seats` ("" when the game is over)."""
    page.wait_for_function(
        "s => document.querySelector('[data-table]')?.dataset.turn === s", arg=seats
    )


def no_sideways_scroll(page: Any) -> bool:
    return bool(
        page.evaluate(
            "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        )
    )


__all__ = [
    "ARTIFACTS",
    "CHROMIUM",
    "DESKTOP",
    "PHONE",
    "LiveServer",
    "no_sideways_scroll",
    "shot",
    "version",
    "wait_turn",
    "wait_version",
]


def switch_lang(page: Any, code: str) -> None:
    """Click the language switch and wait until the page is in that language (its words
    are fetched on the switch)."""
    page.click(f'[data-lang="{code}"]')
    page.wait_for_selector(f'html[lang="{code}"]', state="attached")


def sit(server: LiveServer, table: str, seat: int, name: str) -> str:
    """Take `seat` at `table` over the API; the seat token."""
    return str(server.post(f"/api/tables/{table}/seats/{seat}", {"name": name})["token"])


def open_seat(
    context_factory: Any, server: LiveServer, table: str, token: str, seat: int, **kw: Any
) -> Any:
    """A fresh person (context) holding `seat` through its seat link, once the table page has
    drawn its first version (the board included). `page.errors` collects script errors."""
    page = context_factory(**kw).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(f"{server.url}/tables/{table}#token={token}")
    page.wait_for_function(
        "s => { const t = document.querySelector('[data-table]');"
        " return t && t.dataset.mySeat === s && t.dataset.version !== ''; }",
        arg=str(seat),
    )
    return page

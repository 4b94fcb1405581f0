"""Benchmark of the page (issue "The page"): what it costs to load, and how live it is.

With the live test server (tests/web/conftest.py's LiveServer: uvicorn in a thread, a fresh
SQLite file) and Debian's Chromium driven by Playwright:

(a) the bytes of our JS and CSS that the lobby and a table page load (every response from
    /static, uncompressed, including what the page fetches on demand for what it shows),
    grouped by part, with a check that nothing comes from another host; the target is under
    150 KB a page. Table pages: a seated player waiting for an opponent, a seated player and
    a spectator of a finished game (the result and the replay button show), and what
    pressing Replay then adds (loaded on first use). Measured in English and in Russian (a
    context with locale ru-RU: the page then fetches the Russian catalogs, 2 bytes a
    Cyrillic letter);
(b) the board's update cost: a 12×12 Dots and Boxes board (three seats) drawn through all
    its 313 positions, as a live game would (animate on), ms per update — update() alone,
    and update() with the layout it causes;
(c) over whole 4x4 Dots and Boxes games between two browser contexts on loopback, the time
    from a player's click on a line to that line drawn on the opponent's page (`Date.now()`
    in both pages: one machine, one clock; a MutationObserver on the opponent's
    `[data-line]` `data-drawn`), and to the mover's own line no longer pending.

    nice .venv/bin/python bench/bench_page.py [--games 3] [--files]

`--games 0` runs (a) and (b) only; `--files` lists every file a page loaded.
Not a test: the figures go to bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.web.conftest import ARGS, CHROMIUM, LiveServer

TARGET_KB = 150
# Which part of the page a static file belongs to (first match wins). Catalogs
# (i18n/<lang>/<name>.json) are matched as i18n/<name>.json, whatever the language.
SHARED = (
    "js/shared/i18n.js",
    "js/shared/dom.js",
    "js/shared/api.js",
    "js/shared/store.js",
    "js/shared/seats.js",
    "js/shared/header.js",
    "i18n/common.json",
    "js/boards/index.js",
    "css/base.css",
    "img/",
)
PARTS = [
    (
        "replay + analysis (on first use)",
        ("js/table/replay.js", "js/table/analysis.js", "i18n/replay.json", "css/replay.css"),
    ),
    # the table's own modules, catalogs and sheets, loaded at once or on demand (js/table/)
    ("table page", ("js/table/", "i18n/table", "css/table")),
    (
        "board pictures (*-preview.js)",
        (
            "js/boards/dots/dots-preview",
            "js/boards/vert3x/vert3x-preview",
            "js/boards/juxtapose/juxtapose-preview",
        ),
    ),
    ("dots board", ("js/boards/dots/dots", "i18n/dots.json", "css/board.css", "css/dots-menu.css")),
    ("lobby", ("js/lobby/", "i18n/lobby.json", "css/lobby.css")),
    (
        "game names, summaries, options (i18n)",
        ("i18n/games.json", "i18n/game-summaries.json", "i18n/options.json"),
    ),
    ("shared (i18n, dom, api, header, base.css…)", SHARED),
    ("other boards (helpers, sheets)", ("",)),
]
LOCALES = ("en-US", "ru-RU")

# Records when a [data-line] gets data-drawn (or arrives with it), and when this page's
# pointer went down on the board: both with Date.now(), comparable across pages.
OBSERVE = """() => {
  window.__drawnAt = {};
  window.__downAt = 0;
  const note = (el) => {
    if (el.nodeType === 1 && el.dataset && el.dataset.line && el.hasAttribute('data-drawn')
        && !(el.dataset.line in window.__drawnAt)) window.__drawnAt[el.dataset.line] = Date.now();
  };
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes') note(r.target);
      else for (const n of r.addedNodes) {
        note(n);
        if (n.querySelectorAll) n.querySelectorAll('[data-line][data-drawn]').forEach(note);
      }
    }
  }).observe(document, {subtree: true, childList: true, attributes: true,
                        attributeFilter: ['data-drawn']});
  addEventListener('pointerdown', () => { window.__downAt = Date.now(); }, true);
}"""


def part_of(rel: str) -> str:
    bits = rel.split("/")
    if len(bits) == 3 and bits[0] == "i18n":  # i18n/<lang>/<name>.json
        rel = f"i18n/{bits[2]}"
    for name, prefixes in PARTS:
        if any(rel.startswith(p) for p in prefixes):
            return name
    return PARTS[-1][0]


class Loads:
    """Every /static file a page loads (its size, uncompressed), and any request that went
    to another host, from the moment it is attached."""

    def __init__(self, page: Any, host: str) -> None:
        self.files: dict[str, int] = {}
        #: the same files' bodies as sent (compressed when the server sent br or gzip)
        self.wire: dict[str, int] = {}
        self.foreign: list[str] = []
        self.pending = 0
        self.page = page
        page.on("request", self._request)
        page.on("requestfinished", self._finished)
        page.on("requestfailed", self._done)
        page.on("response", self._response)
        self.host = host

    def _request(self, request: Any) -> None:
        self.pending += 1
        where = urlsplit(request.url)
        if where.scheme in ("http", "https", "ws", "wss") and where.netloc != self.host:
            self.foreign.append(request.url)

    def _done(self, request: Any) -> None:
        self.pending -= 1

    def _finished(self, request: Any) -> None:
        path = urlsplit(request.url).path
        if path.startswith("/static/"):
            self.wire[path.split("/", 3)[3]] = request.sizes()["responseBodySize"]
        self._done(request)

    def settle(self, quiet_s: float = 0.5, limit_s: float = 20.0) -> None:
        """Wait until no request has been open for `quiet_s` (modules the page fetches on
        demand, after its first draw, count too). Playwright's "networkidle" is reached once
        per page, so it would not wait for what a later click fetches."""
        started = time.monotonic()
        quiet_since = None
        while time.monotonic() - started < limit_s:
            self.page.wait_for_timeout(50)  # a bench, not a test: polling is fine here
            if self.pending > 0:
                quiet_since = None
            elif quiet_since is None:
                quiet_since = time.monotonic()
            elif time.monotonic() - quiet_since >= quiet_s:
                return
        raise RuntimeError(f"the page kept loading for {limit_s} s")

    def _response(self, response: Any) -> None:
        path = urlsplit(response.url).path
        if path.startswith("/static/") and response.ok:
            rel = path.split("/", 3)[3]
            self.files[rel] = len(response.body())


def measure(browser: Any, url: str, ready: str, locale: str, then: str | None = None) -> Loads:
    """The page at `url` in `locale`, loaded until `ready` shows and the network is quiet
    (modules loaded on demand: the board). With `then` (a click, then a selector to wait
    for: "click >> wait"), only what that click loads is counted."""
    context = browser.new_context(locale=locale)
    page = context.new_page()
    loads = Loads(page, urlsplit(url).netloc)
    page.goto(url)
    page.wait_for_selector(ready)
    loads.settle()
    if then:
        click, wait = then.split(" >> ")
        loads.files.clear()
        loads.wire.clear()
        page.click(click)
        page.wait_for_selector(wait)
        loads.settle()
    context.close()
    return loads


def print_page(label: str, loads: Loads, show_files: bool) -> int:
    assert not loads.foreign, f"{label} asked another host: {loads.foreign}"
    by_part: dict[str, list[int]] = {}
    for rel, size in loads.files.items():
        by_part.setdefault(part_of(rel), []).append(size)
    for part, sizes in sorted(by_part.items(), key=lambda kv: -sum(kv[1])):
        print(f"{label:30} {part:44} {len(sizes):5} {sum(sizes) / 1000:8.1f}")
    if show_files:
        for rel, size in sorted(loads.files.items(), key=lambda kv: -kv[1]):
            print(f"{'':30}   {rel:42} {'':5} {size / 1000:8.1f}")
    return sum(loads.files.values())


def print_bytes(server: LiveServer, browser: Any, show_files: bool) -> dict[str, int]:
    table = server.post(
        "/api/tables", {"game": "dots-and-boxes", "options": {"rows": 4, "cols": 4}}
    )["id"]
    token = server.post(f"/api/tables/{table}/seats/0", {"name": "Ann"})["token"]
    # A finished 2×2 game, watched: the replay and analysis buttons show; pressing replay
    # loads the rest.
    done = server.post(
        "/api/tables", {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}}
    )["id"]
    tokens = [
        server.post(f"/api/tables/{done}/seats/{n}", {"name": nm})["token"]
        for n, nm in enumerate(("Ann", "Bob"))
    ]
    while not (state := server.get(f"/api/tables/{done}")["state"])["is_over"]:
        seat = state["to_move"][0]
        body = {"token": tokens[seat], "move": state["legal_moves"][0]}
        server.post(f"/api/tables/{done}/moves", body)
    pages = {
        "lobby /": (server.url + "/", "[data-game] svg", None),
        "table (seated, waiting)": (
            f"{server.url}/tables/{table}#token={token}",
            "[data-line]",
            None,
        ),
        "table (seated, finished)": (
            f"{server.url}/tables/{done}#token={tokens[0]}",
            "[data-result]",
            None,
        ),
        "table (finished, watching)": (
            f"{server.url}/tables/{done}",
            '[data-action="replay"]',
            None,
        ),
        "+ replay pressed": (
            f"{server.url}/tables/{done}",
            '[data-action="replay"]',
            '[data-action="replay"] >> [data-replay][data-ply]',
        ),
    }
    totals: dict[str, int] = {}
    print("(a) our JS + CSS loaded, uncompressed (KB = 1000 bytes); and as sent")
    for locale in LOCALES:
        print(f"--- locale {locale}")
        print(f"{'page':30} {'part':44} {'files':>5} {'KB':>8}")
        for label, (url, ready, then) in pages.items():
            loads = measure(browser, url, ready, locale, then)
            total = print_page(label, loads, show_files)
            totals[f"{label} {locale}"] = total
            if then:
                verdict = "  (loaded by the click)"
            else:
                verdict = "  under" if total < TARGET_KB * 1000 else "  OVER"
                verdict += f" the {TARGET_KB} KB target"
            print(
                f"{label:30} {'total (no other host: checked)':44} {len(loads.files):5} "
                f"{total / 1000:8.1f}{verdict}"
            )
            wire = sum(loads.wire.get(rel, 0) for rel in loads.files)
            totals[f"{label} {locale} sent"] = wire
            print(f"{label:30} {'as sent (br/gzip when served so)':44} {'':5} {wire / 1000:8.1f}")
            print()
    return totals


# Every position of a 12×12 game that draws the lines in order (made in the page, cheap: as
# in tests/web/test_dots.py), then each drawn by the board as a live update.
UPDATES = r"""async (first) => {
  const states = [first];
  for (let k = 0; k < first.board.lines.length; k++) {
    const s = structuredClone(states[states.length - 1]);
    const line = s.board.lines[k];
    line.drawn = true;
    const drawn = new Set(s.board.lines.filter(l => l.drawn).map(l => l.name));
    for (const c of s.board.cells) {
      if (c.owner === null && c.lines.every(n => drawn.has(n))) c.owner = k % 3;
    }
    s.last_move = {seat: k % 3, move: line.name};
    s.legal_moves = s.board.lines.filter(l => !l.drawn).map(l => l.name);
    s.ply = k + 1;
    states.push(s);
  }
  const base = document.querySelector('link[rel=stylesheet][href*="/static/"]')
    .getAttribute('href').replace(/\/css\/.*$/, '');
  const mod = await import(base + '/js/boards/dots/dots.js');
  const out = {};
  for (const layout of [false, true]) {
    const host = document.createElement('div');
    document.body.append(host);
    const board = mod.createBoard(host, {onMove() {}, announce() {}});
    board.update(states[0], {mySeat: 0, canMove: true, animate: false});
    const each = [];
    for (const s of states.slice(1)) {
      const t0 = performance.now();
      board.update(s, {mySeat: 0, canMove: true, animate: true});
      if (layout) host.getBoundingClientRect();  // the style and layout it causes
      each.push(performance.now() - t0);
    }
    const owned = host.querySelectorAll('[data-cell][data-owner]').length;
    if (owned !== first.board.cells.length) throw new Error(`${owned} cells claimed`);
    board.destroy();
    host.remove();
    out[layout ? 'layout' : 'update'] = each;
  }
  return out;
}"""


def print_updates(server: LiveServer, browser: Any) -> None:
    import vertex

    start = vertex.create_game("dots-and-boxes", rows=12, cols=12, players=3).initial_state(1)
    table = server.post(
        "/api/tables", {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}}
    )["id"]
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{server.url}/tables/{table}")
    page.wait_for_selector("[data-line]")
    got = page.evaluate(UPDATES, start.to_dict())
    context.close()
    n = len(got["update"])
    print(f"(b) board update, 12×12 Dots and Boxes (3 seats, 312 lines), {n} updates, animate on")
    print(f"{'measure':40} {'p50 ms':>8} {'p99 ms':>8} {'mean ms':>8} {'max ms':>8}")
    for label, key in (("update() alone", "update"), ("update() + its layout", "layout")):
        xs = got[key]
        print(
            f"{label:40} {pct(xs, 0.5):8.2f} {pct(xs, 0.99):8.2f} "
            f"{statistics.fmean(xs):8.2f} {max(xs):8.2f}"
        )
    print()


def open_seat(browser: Any, server: LiveServer, table: str, token: str, seat: int) -> Any:
    page = browser.new_context().new_page()
    page.goto(f"{server.url}/tables/{table}#token={token}")
    page.wait_for_function(
        "s => document.querySelector('[data-table]')?.dataset.mySeat === s", arg=str(seat)
    )
    page.wait_for_selector('[data-connection="online"]')
    page.evaluate(OBSERVE)
    return page


def play_game(server: LiveServer, browser: Any) -> tuple[list[float], list[float]]:
    """One 4x4 game between two pages; per move the click-to-drawn times (ms) on the
    opponent's page and on the mover's own page."""
    table = server.post(
        "/api/tables", {"game": "dots-and-boxes", "options": {"rows": 4, "cols": 4}}
    )["id"]
    tokens = [
        server.post(f"/api/tables/{table}/seats/{n}", {"name": nm})["token"]
        for n, nm in enumerate(("Ann", "Bob"))
    ]
    pages = [open_seat(browser, server, table, tok, n) for n, tok in enumerate(tokens)]
    other_ms: list[float] = []
    own_ms: list[float] = []
    while True:
        turn = pages[0].get_attribute("[data-table]", "data-turn")
        if not turn:
            break
        mover, watcher = pages[int(turn)], pages[1 - int(turn)]
        mover.wait_for_function(
            "s => document.querySelector('[data-table]').dataset.turn === s", arg=turn
        )
        line = mover.get_attribute("[data-line]:not([data-drawn])", "data-line")
        version = int(mover.get_attribute("[data-table]", "data-version") or 0)
        mover.locator(f'[data-line="{line}"]').click()
        for page in (watcher, mover):
            page.wait_for_function("l => l in window.__drawnAt", arg=line)
            page.wait_for_function(
                "v => Number(document.querySelector('[data-table]').dataset.version) >= v",
                arg=version + 1,
            )
        down = mover.evaluate("() => window.__downAt")
        other_ms.append(watcher.evaluate("l => window.__drawnAt[l]", line) - down)
        own_ms.append(mover.evaluate("l => window.__drawnAt[l]", line) - down)
    assert server.get(f"/api/tables/{table}")["state"]["is_over"]
    assert len(other_ms) == 40, len(other_ms)  # a 4x4 board has 40 lines
    for page in pages:
        page.context.close()
    return other_ms, own_ms


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--games", type=int, default=3, help="4x4 games to time (40 moves each); 0: bytes only"
    )
    parser.add_argument("--files", action="store_true", help="list every file a page loads")
    args = parser.parse_args()
    if CHROMIUM is None:
        sys.exit("Chromium is not installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with (
        tempfile.TemporaryDirectory() as tmp,
        LiveServer(Path(tmp)) as server,
        sync_playwright() as pw,
    ):
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        print_bytes(server, browser, args.files)
        print_updates(server, browser)
        other: list[float] = []
        own: list[float] = []
        started = time.perf_counter()
        for _ in range(args.games):
            o, m = play_game(server, browser)
            other += o
            own += m
        took = time.perf_counter() - started
        browser.close()
    if not args.games:
        return
    print(
        f"(c) click to line drawn, 4x4 Dots and Boxes, {args.games} games, "
        f"{len(other)} moves, two contexts on loopback ({took:.0f} s)"
    )
    print(f"{'measure':40} {'p50 ms':>8} {'p99 ms':>8} {'mean ms':>8} {'max ms':>8}")
    for label, xs in (("on the opponent's page", other), ("on the mover's page (acked)", own)):
        print(
            f"{label:40} {pct(xs, 0.5):8.0f} {pct(xs, 0.99):8.0f} "
            f"{statistics.fmean(xs):8.0f} {max(xs):8.0f}"
        )


if __name__ == "__main__":
    main()

"""A board you can read (issue 21): coordinates round the Dots and Vert3x boards that match the
notation of the move list (a switch, saved per browser), the analysis' best moves drawn on the
board, the live move list with a peek at an earlier position while the game goes on, zoom
(GYØ 15×15 fits a 360 px phone without sideways scrolling), and Juxtapose's stash in view
with its board on a phone. Screenshots of every board touched, desktop and phone."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import PHONE, LiveServer, open_seat, shot, sit, wait_version
from tests.web.test_replay import BEST_2X2, play

NO_SIDEWAYS = "document.scrollingElement.scrollWidth <= innerWidth"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(
        tmp_path_factory.mktemp("read"), analysis_time_s=0.5, analysis_burst=100
    ) as live:
        yield live


def new_table(server: LiveServer, game: str, options: dict[str, Any]) -> str:
    return str(server.post("/api/tables", {"game": game, "options": options})["id"])


def move(server: LiveServer, table: str, token: str, line: str) -> int:
    reply = server.post(f"/api/tables/{table}/moves", {"token": token, "move": line})
    return int(reply.get("version") or server.get(f"/api/tables/{table}")["version"])


def drawn(page: Any) -> set[str]:
    return set(
        page.eval_on_selector_all(
            "[data-board] [data-line][data-drawn]", "els => els.map(e => e.dataset.line)"
        )
    )


def nearest_labels(page: Any, line: str) -> list[str]:
    """The column labels nearest (on screen) to the ends of `line`, and the row label nearest
    to its first end: what a player reads off the board for that line."""
    out: list[str] = page.evaluate(
        """line => {
            const box = document.querySelector(`[data-line="${line}"]`).getBoundingClientRect();
            const centre = (el) => { const r = el.getBoundingClientRect();
                return { x: r.x + r.width / 2, y: r.y + r.height / 2 }; };
            const near = (axis, along, at) =>
                [...document.querySelectorAll(`[data-coord="${axis}"]`)]
                .map((el) => [Math.abs(centre(el)[along] - at), el.textContent])
                .sort((p, q) => p[0] - q[0])[0][1];
            const inset = Math.min(box.width, box.height) / 2; // the hit area's half width
            return [near("column", "x", box.left + inset), near("column", "x", box.right - inset),
                near("row", "y", box.top + box.height / 2)];
        }""",
        line,
    )
    return out


def test_coordinates_name_the_lines_as_the_move_list_does(
    context_factory: Any, server: LiveServer
) -> None:
    table = new_table(server, "dots-and-boxes", {"rows": 3, "cols": 3})
    ann = sit(server, table, 0, "Ann")
    sit(server, table, 1, "Bob")
    move(server, table, ann, "b2-c2")
    page = open_seat(context_factory, server, table, ann, 0)
    page.wait_for_selector('[data-move-list] [data-move-ply="1"]')
    written = page.get_attribute('[data-move-ply="1"]', "data-move")
    assert written == "b2-c2"
    assert page.get_attribute('[data-action="coords"]', "aria-pressed") == "true"  # desktop
    assert page.locator("[data-coords]").is_visible()
    assert nearest_labels(page, written) == ["b", "c", "2"]
    columns = page.eval_on_selector_all(
        '[data-coord="column"]', "els => els.map(e => e.textContent)"
    )
    assert columns == ["a", "b", "c", "d"]
    # off, and still off after a reload (saved in this browser)
    page.click('[data-action="coords"]')
    page.wait_for_selector("[data-coords]", state="hidden")
    assert page.get_attribute('[data-action="coords"]', "aria-pressed") == "false"
    page.reload()
    page.wait_for_selector('[data-action="coords"][aria-pressed="false"]', state="attached")
    assert page.locator("[data-coords]").is_hidden()
    page.click('[data-action="coords"]')
    page.wait_for_selector("[data-coords]", state="visible")
    # Vert3x too: its coordinates name the line in its move list
    v3x = new_table(server, "vert3x", {"rules": "classic"})
    v_ann = sit(server, v3x, 0, "Ann")
    sit(server, v3x, 1, "Bob")
    line = server.get(f"/api/tables/{v3x}")["state"]["legal_moves"][0]
    move(server, v3x, v_ann, line)
    page.goto(f"{server.url}/tables/{v3x}")
    page.wait_for_selector('[data-move-list] [data-move-ply="1"]')
    assert page.get_attribute('[data-move-ply="1"]', "data-move") == line
    texts = page.eval_on_selector_all("[data-coord]", "els => els.map(e => e.textContent)")
    first, second = line.split("-")
    for dot in (first, second):
        assert (
            dot.rstrip("0123456789") in texts and dot.lstrip("abcdefghijklmnopqrstuvwxyz") in texts
        )
    assert page.errors == []


def test_the_analysis_draws_its_best_moves_on_the_board(
    context_factory: Any, server: LiveServer
) -> None:
    table = new_table(server, "dots-and-boxes", {"rows": 2, "cols": 2})
    ann, bob = sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")
    play(server, table, [ann, bob], seed=3)
    # a laptop's short window: the side column (result, replay, answer) is taller than it
    page = context_factory(viewport={"width": 1280, "height": 640}).new_page()
    page.goto(f"{server.url}/tables/{table}")
    page.wait_for_selector("[data-result]")
    page.click('[data-action="replay"]')
    page.wait_for_selector("[data-replay][data-ply]")  # open (fetched on the first press)
    page.keyboard.press("Home")
    page.wait_for_selector('[data-replay][data-ply="0"]')
    page.click('[data-action="analysis"]')
    out = page.wait_for_selector("[data-analysis][data-best]")
    assert out.get_attribute("data-best").split(" ") == BEST_2X2
    # the marks are drawn by a module fetched on first use: wait for them, not for the answer
    page.wait_for_function(
        "n => document.querySelectorAll('[data-bests] [data-best-move]').length === n",
        arg=len(BEST_2X2),
    )
    marks = page.eval_on_selector_all(
        "[data-bests] [data-best-move]", "els => els.map(e => e.dataset.bestMove)"
    )
    assert marks == BEST_2X2
    # pointing at an entry singles its move out; the others are dimmed
    page.hover('[data-best-entry="a1-b1"]')
    page.wait_for_selector('[data-best-move="a1-b1"].is-focus')
    assert page.locator("[data-best-move].is-dim").count() == len(BEST_2X2) - 1
    page.focus('[data-best-entry="c2-c3"]')  # and the keyboard reaches them too
    page.wait_for_selector('[data-best-move="c2-c3"].is-focus')
    # the side column scrolled to the answer's end: the board beside it stays in view
    page.evaluate("document.querySelector('[data-analysis]').scrollIntoView({block: 'end'})")
    page.wait_for_function(
        """() => { const r = document.querySelector('[data-best-move="c2-c3"]')
            .getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"""
    )
    shot(page, "read-analysis-desktop")
    # another position: the marks go with the answer
    page.keyboard.press("End")
    page.wait_for_selector("[data-bests] [data-best-move]", state="detached")


def test_the_live_move_list_peeks_and_comes_back(context_factory: Any, server: LiveServer) -> None:
    table = new_table(server, "dots-and-boxes", {"rows": 3, "cols": 3})
    ann, bob = sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")
    page = open_seat(context_factory, server, table, ann, 0)
    assert page.locator("[data-move-list]").count() == 0  # no move yet: no list
    played = ["a1-b1", "a4-b4", "c1-d1"]
    for k, line in enumerate(played):
        wait_version(page, move(server, table, [ann, bob][k % 2], line))
        page.wait_for_selector(f'[data-move-ply="{k + 1}"][data-move="{line}"].is-last')
    assert page.locator("[data-move-ply]").count() == 3
    assert page.get_attribute('[data-move-ply="3"]', "aria-current") == "true"
    # peek at the position after move 1: only its line is on the board
    page.click('[data-move-ply="1"]')
    page.wait_for_selector('[data-move-list][data-peek="1"]')
    page.wait_for_function(
        "() => document.querySelectorAll('[data-board] [data-line][data-drawn]').length === 1"
    )
    assert drawn(page) == {"a1-b1"}
    assert page.locator('[data-action="live"]').is_visible()
    # Ann... waits; Bob's move arrives meanwhile: listed, the peek stays
    wait_version(page, move(server, table, bob, "a2-b2"))
    page.wait_for_selector('[data-move-ply="4"][data-move="a2-b2"]')
    assert drawn(page) == {"a1-b1"}
    assert page.get_attribute("[data-move-list]", "data-peek") == "1"
    # keyboard: the entries are buttons
    page.focus('[data-move-ply="2"]')
    page.keyboard.press("Enter")
    page.wait_for_selector('[data-move-list][data-peek="2"]')
    page.click('[data-action="live"]')
    page.wait_for_selector("[data-move-list]:not([data-peek])")
    page.wait_for_function(
        "() => document.querySelectorAll('[data-board] [data-line][data-drawn]').length === 4"
    )
    assert drawn(page) == {*played, "a2-b2"}
    shot(page, "read-moves-desktop")
    assert page.errors == []


def test_zoom_and_gyo_15_on_a_phone(context_factory: Any, server: LiveServer) -> None:
    table = new_table(server, "vert3x", {"rules": "gyo", "size": 15})
    ann = sit(server, table, 0, "Ann")
    sit(server, table, 1, "Bob")
    page = open_seat(context_factory, server, table, ann, 0, **PHONE)
    assert page.locator("[data-vert3x] [data-line]").count() > 500  # 15 × 15 dots
    assert page.evaluate(NO_SIDEWAYS)
    width = page.evaluate(
        "document.querySelector('[data-vert3x] svg').getBoundingClientRect().width"
    )
    assert width <= 360
    # a board this big keeps its coordinates off on a phone (until asked)
    assert page.get_attribute('[data-action="coords"]', "aria-pressed") == "false"
    shot(page, "read-gyo-phone")
    page.click('[data-zoom="in"]')
    page.wait_for_selector('[data-scale="1.5"]')
    page.click('[data-zoom="in"]')
    page.wait_for_selector('[data-scale="2"]')
    zoomed = page.evaluate(
        "document.querySelector('[data-vert3x] svg').getBoundingClientRect().width"
    )
    assert zoomed == pytest.approx(width * 2, rel=0.05)
    assert page.evaluate(NO_SIDEWAYS)  # the board scrolls inside its stage, not the page
    shot(page, "read-gyo-phone-zoomed")
    page.click('[data-zoom="fit"]')
    page.wait_for_selector('[data-scale="1"]')
    page.wait_for_function(
        "w => Math.abs(document.querySelector('[data-vert3x] svg')"
        ".getBoundingClientRect().width - w) < 2",
        arg=width,
    )
    # a Dots board zooms by its buttons too (their names in Russian)
    dots = new_table(server, "dots-and-boxes", {"rows": 5, "cols": 5})
    page.goto(f"{server.url}/tables/{dots}")
    page.wait_for_selector("[data-board] [data-line]")
    page.click('[data-lang="ru"]')
    page.wait_for_selector('[data-zoom="in"][aria-label="Увеличить"]', state="attached")
    page.click('[data-zoom="in"]')
    page.wait_for_selector('[data-scale="1.5"]')
    assert page.evaluate(NO_SIDEWAYS)
    assert page.errors == []


@pytest.mark.parametrize(
    ("game", "options", "board"),
    [
        ("dots-and-boxes", {}, "[data-board] svg"),
        ("figures", {}, "[data-board] svg"),
        ("vert3x", {"rules": "classic"}, "[data-vert3x] svg"),
    ],
)
def test_the_whole_board_in_view_on_a_laptop(
    context_factory: Any, server: LiveServer, game: str, options: dict[str, Any], board: str
) -> None:
    """On a 1366×768 laptop screen the board, its last row of dots included, is in view as the
    table opens: nobody should scroll to reach the bottom lines of a 3×3 board."""
    table = new_table(server, game, options)
    ann = sit(server, table, 0, "Ann")
    sit(server, table, 1, "Bob")
    page = open_seat(
        context_factory, server, table, ann, 0, viewport={"width": 1366, "height": 768}
    )
    page.wait_for_selector(f"{board} [data-line]", state="attached")
    bottom = page.evaluate(
        """sel => Math.max(...[...document.querySelectorAll(`${sel} [data-line]`)]
            .map((el) => el.getBoundingClientRect().bottom))""",
        board,
    )
    assert bottom <= 768, (game, bottom)
    assert page.errors == []


def test_juxtapose_stash_and_board_in_view_together_on_a_phone(
    context_factory: Any, server: LiveServer
) -> None:
    table = new_table(server, "juxtapose", {})
    ann = sit(server, table, 0, "Ann")
    sit(server, table, 1, "Bob")
    page = open_seat(context_factory, server, table, ann, 0, **PHONE)
    page.wait_for_selector("[data-pyramid]")
    page.evaluate("document.querySelector('.jx-board').scrollIntoView({block: 'start'})")
    board, stash = page.evaluate(
        """() => [document.querySelector('.jx-board'), document.querySelector('[data-stash]')]
            .map((el) => { const r = el.getBoundingClientRect(); return [r.top, r.bottom]; })"""
    )
    assert board[0] >= 0 and board[1] <= stash[0]  # the stash under the board
    assert stash[1] <= 740, (board, stash)
    assert page.evaluate(NO_SIDEWAYS)
    shot(page, "read-juxtapose-phone")
    assert page.errors == []


#: Board sheets a board module loads itself, and a property each sets on its board.
BOARD_SHEETS = {
    "juxtapose": ("juxtapose.css", ".jx-board", "touchAction", "none"),
    "vert3x": ("vert3x.css", ".v3x-board", "touchAction", "manipulation"),
}


@pytest.fixture(scope="module")
def late_sheets(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose boards' own sheets come late (a slow link): 1 s each."""
    import asyncio

    live = LiveServer(tmp_path_factory.mktemp("late-sheets"))
    app = live.app
    late = tuple("/css/" + sheet for sheet, *_ in BOARD_SHEETS.values())

    async def slow_sheets(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].endswith(late):
            await asyncio.sleep(1.0)
        await app(scope, receive, send)

    live.server.config.app = slow_sheets
    with live:
        yield live


@pytest.mark.parametrize("game", sorted(BOARD_SHEETS))
def test_a_board_is_drawn_only_once_its_sheet_applies(
    context_factory: Any, late_sheets: LiveServer, game: str
) -> None:
    """`data-version` says the board is drawn: styled, so it does not jump afterwards (the
    Juxtapose board drawn before its sheet came moved up under a phone's top edge)."""
    server = late_sheets
    _sheet, board, prop, value = BOARD_SHEETS[game]
    table = new_table(server, game, {})
    ann = sit(server, table, 0, "Ann")
    sit(server, table, 1, "Bob")
    page = open_seat(context_factory, server, table, ann, 0, **PHONE)
    assert page.evaluate(f"getComputedStyle(document.querySelector('{board}')).{prop}") == value
    assert page.errors == []


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("dots-and-boxes", {"rows": 5, "cols": 5}),
        ("dots-and-triangles", {}),
        ("figures", {}),
        ("vert3x", {"rules": "classic"}),
        ("vert3x", {"rules": "gyo"}),
        ("juxtapose", {}),
    ],
)
def test_screenshots(
    context_factory: Any, server: LiveServer, game: str, options: dict[str, Any]
) -> None:
    table = new_table(server, game, options)
    tokens = [sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")]
    state = server.get(f"/api/tables/{table}")["state"]
    move(server, table, tokens[state["to_move"][0]], state["legal_moves"][0])  # Figures: by lot
    ann = tokens[0]
    name = f"read-{game}-{options.get('rules', '')}".rstrip("-")
    for kind, opts in (("desktop", {}), ("phone", PHONE)):
        page = open_seat(context_factory, server, table, ann, 0, **opts)
        page.wait_for_selector('[data-move-ply="1"]')
        assert page.evaluate(NO_SIDEWAYS), kind
        shot(page, f"{name}-{kind}")
        assert page.errors == []

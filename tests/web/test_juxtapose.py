"""The Juxtapose board on the real table page: drops by mouse, drag and keyboard, swaps and
slides by mouse and keyboard, the pyramid moved last refused with the server's reason, a won
game's line, a draw's reason, Italian words, phone taps and screenshots."""

from __future__ import annotations

import re
from typing import Any

import vertex
from tests.web.conftest import (
    PHONE,
    LiveServer,
    no_sideways_scroll,
    shot,
    switch_lang,
    version,
    wait_turn,
    wait_version,
)
from vertex.games.juxtapose import JuxtaposeState

SQUARES = [f"{c}{r}" for r in "1234" for c in "abcd"]

# A drop phase with no line and d4 empty; Y2, dropped last on c4, may not slide (RULES §3).
BASE = """
Y1 B3 B2 P1
P2 G2 R2 B1
Y3 G3 G1 R3
R1 P3 Y2 ..
"""
# d1 empty: sliding B1 up from d2 completes the top row of small pyramids.
SLIDE_WIN = """
R1 Y1 G1 ..
B2 R3 B3 B1
P2 Y3 G2 G3
R2 P1 P3 Y2
"""


class Table:
    """A two-seat Juxtapose table, its seat tokens, and a copy of the game to check moves."""

    def __init__(self, server: LiveServer, **options: Any) -> None:
        self.server = server
        made = server.post(
            "/api/tables",
            {"game": "juxtapose", "options": options, "seats": [{"kind": "human"}] * 2},
        )
        self.id = made["id"]
        self.tokens = [
            server.post(f"/api/tables/{self.id}/seats/{n}", {"name": name})["token"]
            for n, name in enumerate(["Ann", "Bob"])
        ]
        state = vertex.create_game("juxtapose", **options).initial_state()
        assert isinstance(state, JuxtaposeState)
        self.state = state

    def play(self, move: str) -> None:
        """Seat to move plays `move` over HTTP (never a winning one unless asked)."""
        seat = self.state.to_move[0]
        self.server.post(f"/api/tables/{self.id}/moves", {"token": self.tokens[seat], "move": move})
        self.follow(move)

    def follow(self, move: str) -> None:
        nxt = self.state.play(move)
        assert isinstance(nxt, JuxtaposeState)
        self.state = nxt

    def drops(self, layout: str) -> None:
        for sq, p in zip(SQUARES, layout.split(), strict=True):
            if p != "..":
                self.play(f"{p}@{sq}")
        assert not self.state.is_over

    def safe(self, move: str) -> str:
        assert move in self.state.legal_moves(), move
        assert not self.state.wins_at_once(move), f"{move} would end the game"
        return move

    def url(self, seat: int) -> str:
        return f"{self.server.url}/tables/{self.id}#token={self.tokens[seat]}"


def open_seat(context_factory: Any, table: Table, seat: int, **options: Any) -> Any:
    page = context_factory(**options).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(table.url(seat))
    page.wait_for_selector("[data-square]")
    wait_version(page, len(table.state.history))
    page.wait_for_function(
        "s => document.querySelector('[data-table]').dataset.mySeat === s", arg=str(seat)
    )
    return page


def content(page: Any, square: str) -> str | None:
    value: str | None = page.get_attribute(f'[data-square="{square}"]', "data-content")
    return value


def squares_with(page: Any, attr: str) -> list[str]:
    found: list[str] = page.eval_on_selector_all(
        f"[data-square][{attr}]", "els => els.map(e => e.dataset.square)"
    )
    return sorted(found)


def focused_square(page: Any) -> str | None:
    value: str | None = page.evaluate("document.activeElement?.dataset?.square ?? null")
    return value


def key_to(page: Any, target: str) -> None:
    """Walk the board's cursor to `target` with the arrow keys."""
    here = focused_square(page)
    assert here is not None, "the board has no focus"
    dc = "abcd".index(target[0]) - "abcd".index(here[0])
    dr = int(target[1]) - int(here[1])
    for _ in range(abs(dc)):
        page.keyboard.press("ArrowRight" if dc > 0 else "ArrowLeft")
    for _ in range(abs(dr)):
        page.keyboard.press("ArrowDown" if dr > 0 else "ArrowUp")
    assert focused_square(page) == target


def centre_of(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def drag(page: Any, source: str, target: str) -> None:
    """Press on `source`, move in steps (pointer events) and let go over `target`."""
    x0, y0 = centre_of(page, source)
    x1, y1 = centre_of(page, target)
    page.mouse.move(x0, y0)
    page.mouse.down()
    for i in range(1, 9):
        page.mouse.move(x0 + (x1 - x0) * i / 8, y0 + (y1 - y0) * i / 8)
    page.mouse.up()


def test_drops_by_click_drag_and_keyboard(server: LiveServer, context_factory: Any) -> None:
    table = Table(server)
    page = open_seat(context_factory, table, 0)
    wait_turn(page, "0")
    assert page.locator("[data-pyramid]").count() == 15
    assert "15 pyramids left" in page.inner_text(".jx-phase")
    assert page.get_attribute('[data-pyramid="R1"]', "aria-label") == (
        "small red pyramid, 1 left in the stash"
    )

    # click: pick a pyramid, its 16 squares light up, then place it
    page.click('[data-pyramid="R1"]')
    assert page.get_attribute('[data-pyramid="R1"]', "aria-pressed") == "true"
    assert len(squares_with(page, "data-target")) == 16
    v = version(page)
    page.click('[data-square="b3"]')
    wait_version(page, v + 1)
    table.follow("R1@b3")
    assert content(page, "b3") == "R1"
    assert page.locator('[data-pyramid="R1"]').count() == 0
    assert squares_with(page, "data-last") == ["b3"]
    assert page.get_attribute('[data-square="b3"]', "aria-label") == (
        "b3, small red pyramid, last move"
    )
    red = page.locator('[data-stash] [data-colour="R"]')
    assert red.get_attribute("data-left") == "2"
    assert red.get_attribute("aria-label") == "Red: 2 left"

    table.play("Y1@a1")
    wait_version(page, v + 2)
    assert content(page, "a1") == "Y1"
    wait_turn(page, "0")

    # drag a pyramid from the stash onto a square
    drag(page, '[data-pyramid="G3"]', '[data-square="c2"]')
    wait_version(page, v + 3)
    table.follow("G3@c2")
    assert content(page, "c2") == "G3"
    table.play("B2@d4")
    wait_version(page, v + 4)

    # keyboard: the stash is one tab stop, the board another
    stash_stop = page.locator('[data-stash] [tabindex="0"]')
    assert stash_stop.count() == 1
    assert stash_stop.get_attribute("data-pyramid") == "R2"  # the first pyramid left
    stash_stop.focus()
    page.keyboard.press("ArrowRight")  # the next colour, same size
    assert page.evaluate("document.activeElement.dataset.pyramid") == "Y2"
    page.keyboard.press("ArrowDown")  # the next size of that colour
    assert page.evaluate("document.activeElement.dataset.pyramid") == "Y3"
    page.keyboard.press("ArrowDown")  # no larger yellow: stays
    assert page.evaluate("document.activeElement.dataset.pyramid") == "Y3"
    page.keyboard.press("Enter")
    # picked: focus is on the board, on the first square the pyramid may go to (a1 is taken)
    assert page.get_attribute('[data-pyramid="Y3"]', "aria-pressed") == "true"
    assert focused_square(page) == "b1"
    assert page.locator('[data-square][tabindex="0"]').count() == 1
    # Escape puts it back and returns to the stash
    page.keyboard.press("Escape")
    assert squares_with(page, "data-target") == []
    assert page.evaluate("document.activeElement.dataset.pyramid") == "Y3"
    page.keyboard.press("Enter")
    key_to(page, "d3")
    assert "you may drop it here" in (page.get_attribute('[data-square="d3"]', "aria-label") or "")
    page.keyboard.press("Enter")
    wait_version(page, v + 5)
    table.follow("Y3@d3")
    assert content(page, "d3") == "Y3"
    # Tab leaves the board for the stash
    page.locator('[data-square][tabindex="0"]').focus()
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('[data-stash]') !== null")
    # the keys are explained next to the board
    help_text = page.inner_text("[data-keys-help]")
    assert "Escape" in help_text or "Esc" in help_text
    assert page.errors == []


def test_swaps_and_slides_by_mouse_and_keyboard(server: LiveServer, context_factory: Any) -> None:
    table = Table(server)
    table.drops(BASE)  # 15 drops: seat 1 to move, d4 empty, Y2 on c4 moved last
    page = open_seat(context_factory, table, 1)
    wait_turn(page, "1")
    assert page.inner_text(".jx-phase") == "Slide phase: move 1 of 200"  # the one to make
    assert page.locator("[data-pyramid]").count() == 0
    assert "stash is empty" in page.inner_text("[data-stash]")

    # the pyramid dropped last is marked: an icon on its square and the words
    assert squares_with(page, "data-moved-last") == ["c4"]
    assert page.locator('[data-badge="c4"]').count() == 1
    assert "may not slide: c4" in page.inner_text(".jx-mark")
    assert page.get_attribute('[data-square="c4"]', "aria-label") == (
        "c4, medium yellow pyramid, moved last turn: may not slide, last move"
    )

    # trying to slide it into the empty square shows the server's reason and sends nothing:
    # by dragging, then by clicking
    v = version(page)
    drag(page, '[data-square="c4"]', '[data-square="d4"]')
    message = page.locator("[data-board-message]")
    assert message.get_attribute("data-reason") == "moved-last"
    assert page.get_attribute("[data-table]", "data-pending") == ""
    page.keyboard.press("Escape")
    page.click('[data-square="c4"]')
    assert squares_with(page, "data-selected") == ["c4"]
    assert squares_with(page, "data-target") == ["b3", "b4", "c3", "d3"]  # swaps only
    page.click('[data-square="d4"]')
    assert message.get_attribute("data-reason") == "moved-last"
    assert "moved last turn" in message.inner_text()
    assert page.get_attribute("[data-table]", "data-pending") == ""
    assert content(page, "c4") == "Y2" and content(page, "d4") is None

    # swap by mouse: c4 is still chosen, its diagonal neighbour b3 takes its place
    table.safe("b3<>c4")
    page.click('[data-square="b3"]')
    wait_version(page, v + 1)
    table.follow("b3<>c4")
    assert (content(page, "b3"), content(page, "c4")) == ("Y2", "G3")
    assert squares_with(page, "data-last") == ["b3", "c4"]
    assert page.locator(".jx-overlay .jx-arrow").count() == 1  # the last move, drawn as an arrow
    assert page.inner_text(".jx-phase") == "Slide phase: move 2 of 200"

    table.play(table.safe("a1<>b1"))
    wait_version(page, v + 2)
    wait_turn(page, "1")

    # slide by keyboard: d3 down into the empty d4
    table.safe("d3>d4")
    page.locator('[data-square][tabindex="0"]').focus()
    key_to(page, "d3")
    page.keyboard.press("Enter")
    assert squares_with(page, "data-selected") == ["d3"]
    page.keyboard.press("ArrowDown")
    assert "you may slide into it" in (page.get_attribute('[data-square="d4"]', "aria-label") or "")
    page.keyboard.press("Enter")
    wait_version(page, v + 3)
    table.follow("d3>d4")
    assert (content(page, "d3"), content(page, "d4")) == (None, "R3")
    assert squares_with(page, "data-moved-last") == ["d4"]

    table.play(table.safe("c1<>d1"))
    wait_version(page, v + 4)
    wait_turn(page, "1")

    # swap by keyboard: a2 with b2; Escape first cancels a choice
    table.safe("a2<>b2")
    page.locator('[data-square][tabindex="0"]').focus()
    key_to(page, "a2")
    page.keyboard.press("Enter")
    assert squares_with(page, "data-selected") == ["a2"]
    page.keyboard.press("Escape")
    assert squares_with(page, "data-selected") == []
    page.keyboard.press("Enter")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Enter")
    wait_version(page, v + 5)
    table.follow("a2<>b2")
    assert (content(page, "a2"), content(page, "b2")) == ("G2", "P2")

    table.play(table.safe("c1<>d1"))
    wait_version(page, v + 6)
    wait_turn(page, "1")

    # slide by dragging: c3 right into the empty d3
    table.safe("c3>d3")
    drag(page, '[data-square="c3"]', '[data-square="d3"]')
    wait_version(page, v + 7)
    table.follow("c3>d3")
    assert (content(page, "c3"), content(page, "d3")) == (None, "G1")
    assert page.inner_text(".jx-phase") == "Slide phase: move 8 of 200"
    shot(page, "juxtapose-desktop")
    assert page.errors == []


def test_a_won_game_shows_its_line(server: LiveServer, context_factory: Any) -> None:
    table = Table(server)
    table.drops(SLIDE_WIN)
    assert table.state.wins_at_once("d2>d1")
    page = open_seat(context_factory, table, 1)
    wait_turn(page, "1")
    v = version(page)
    page.click('[data-square="d2"]')
    page.click('[data-square="d1"]')
    wait_version(page, v + 1)
    wait_turn(page, "")
    assert squares_with(page, "data-win") == ["a1", "b1", "c1", "d1"]
    assert page.locator(".jx-underlay .jx-winline").count() == 1
    assert page.inner_text("[data-board-result]") == "Winning line: a1 – b1 – c1 – d1"
    assert "in the winning line" in (page.get_attribute('[data-square="b1"]', "aria-label") or "")
    shot(page, "juxtapose-win")
    # the game is over: choosing does nothing but say so
    page.click('[data-square="a1"]')
    assert squares_with(page, "data-selected") == []
    assert page.inner_text("[data-board-message]") == "The game is over."
    assert page.errors == []


def test_a_draw_at_the_move_limit_says_why_in_italian(
    server: LiveServer, context_factory: Any
) -> None:
    table = Table(server, move_limit=2)
    table.drops(BASE)
    table.play(table.safe("a1<>b1"))
    table.play(table.safe("a1<>b1"))
    assert table.state.is_over and table.state.to_dict()["board"]["draw"] == "move limit"
    page = open_seat(context_factory, table, 0, locale="it-IT")
    wait_turn(page, "")
    assert page.evaluate("document.documentElement.lang") == "it"
    assert page.inner_text("[data-board-result]") == (
        "Patta: raggiunto il limite di 2 mosse di scivolamento."
    )
    assert page.inner_text(".jx-phase") == "Fase di scivolamento: mossa 2 di 2"
    assert page.get_attribute('[data-square="b2"]', "aria-label") == "b2, piramide verde media"
    # and in Russian, switched on the page
    switch_lang(page, "ru")
    assert page.inner_text(".jx-phase") == "Передвижение: ход 2 из 2"
    assert page.get_attribute('[data-square="d4"]', "aria-label") == "d4, пусто"
    assert page.errors == []


def test_the_stash_headings_fit_their_columns_in_every_language(
    server: LiveServer, context_factory: Any
) -> None:
    """Each colour's column is 52 px: its name and count must fit (in Italian "2 rimaste"
    ran into the next column; the page shows "2 su 3" there, the full words stay in the
    column's accessible name)."""
    table = Table(server)
    for move in ["R1@a1", "G2@b2"]:
        table.play(move)
    overflow = """() => [...document.querySelectorAll('.jx-stash-label > *')]
        .filter(e => e.scrollWidth > e.closest('.jx-stash-colour').clientWidth + 1)
        .map(e => e.textContent)"""
    for options in ({}, PHONE):
        page = open_seat(context_factory, table, 0, locale="it-IT", **options)
        wait_turn(page, "0")
        for lang in ("it", "ru", "en"):
            if lang != "it":
                switch_lang(page, lang)
            assert page.evaluate(overflow) == [], lang
        switch_lang(page, "it")
        red = '.jx-stash-colour[data-colour="R"]'
        assert page.inner_text(red + " .jx-stash-count") == "2 su 3"
        label = page.get_attribute(red, "aria-label") or ""
        assert "2 rimaste" in label, label
        assert page.errors == []


def test_phone_taps_and_fits(server: LiveServer, context_factory: Any) -> None:
    table = Table(server)
    for move in ["R1@a1", "G2@b2", "B3@c3", "P1@d4"]:
        table.play(move)
    page = open_seat(context_factory, table, 0, **PHONE)
    wait_turn(page, "0")
    assert no_sideways_scroll(page)
    # stash pyramids and squares are big enough for a finger
    piece = page.locator('[data-pyramid="Y2"]').bounding_box()
    square = page.locator('[data-square="a2"]').bounding_box()
    assert piece is not None and square is not None
    assert min(piece["width"], piece["height"]) >= 44
    assert min(square["width"], square["height"]) >= 44
    v = version(page)
    page.tap('[data-pyramid="Y2"]')
    assert len(squares_with(page, "data-target")) == 12
    page.tap('[data-square="a2"]')
    wait_version(page, v + 1)
    assert content(page, "a2") == "Y2"
    table.follow("Y2@a2")
    table.play("R3@b4")
    wait_version(page, v + 2)
    # "confirm moves" is for boards that draw lines: a pyramid's tap plays at once here
    assert page.is_hidden('input[name="confirm-touch"]')
    page.tap('[data-pyramid="G1"]')
    page.tap('[data-square="b1"]')
    wait_version(page, v + 3)
    assert content(page, "b1") == "G1"
    table.follow("G1@b1")
    table.play("B1@c4")
    wait_version(page, v + 4)
    page.tap('[data-pyramid="P2"]')
    shot(page, "juxtapose-phone")
    assert no_sideways_scroll(page)
    assert page.errors == []


def test_a_move_waiting_for_the_server_is_drawn_as_pending(
    server: LiveServer, context_factory: Any
) -> None:
    table = Table(server)
    context = context_factory()
    held: list[str] = []
    links: dict[str, Any] = {}

    def hold_moves(ws: Any) -> None:
        # the page's socket, with its "move" messages kept back until the test lets them go
        upstream = ws.connect_to_server()
        links["server"] = upstream

        def from_page(message: str | bytes) -> None:
            if isinstance(message, str) and '"t":"move"' in message.replace(" ", ""):
                held.append(message)
            else:
                upstream.send(message)

        ws.on_message(from_page)
        upstream.on_message(lambda message: ws.send(message))

    page = context.new_page()
    page.route_web_socket(re.compile(r"/ws/"), hold_moves)
    page.goto(table.url(0))
    page.wait_for_selector("[data-square]")
    wait_turn(page, "0")
    v = version(page)
    page.click('[data-pyramid="P3"]')
    page.click('[data-square="c2"]')
    page.wait_for_function("() => document.querySelector('[data-table]').dataset.pending !== ''")
    assert held and "P3@c2" in held[0]
    # not played yet: the square is still empty, drawn with a dashed frame and a ghost pyramid
    assert content(page, "c2") is None
    assert squares_with(page, "data-pending") == ["c2"]
    assert page.locator(".jx-overlay .jx-pending[data-piece='P3']").count() == 1
    assert page.locator('[data-pyramid="P3"][data-pending]').count() == 1
    assert "move being sent" in (page.get_attribute('[data-square="c2"]', "aria-label") or "")
    links["server"].send(held.pop())
    wait_version(page, v + 1)
    page.wait_for_function("() => document.querySelector('[data-table]').dataset.pending === ''")
    assert content(page, "c2") == "P3"
    assert squares_with(page, "data-pending") == []
    assert page.locator(".jx-overlay .jx-pending").count() == 0

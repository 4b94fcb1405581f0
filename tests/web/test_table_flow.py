"""Small things at the table a player should never have to wonder about: the fold-out help
shows its ▸ marker; "confirm moves" only on a touch screen and only on a board where lines
are drawn; no keyboard help on a phone; Juxtapose (won, lost or drawn: no points) shows no
scores and counts slide moves from 1; a visitor joining by link on a phone finds the name box
and "take seat" above the board; the new-table form promises Figures no figures (dealt by
lot)."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import PHONE, LiveServer, shot, sit
from tests.web.test_juxtapose import BASE
from tests.web.test_juxtapose import Table as JuxtaposeTable
from tests.web.test_juxtapose import open_seat as open_juxtapose

CONFIRM = "#confirm-touch"


def dots_page(server: LiveServer, context_factory: Any, game: str = "dots", **kw: Any) -> Any:
    game = "dots-and-boxes" if game == "dots" else game
    table = server.post("/api/tables", {"game": game, "options": {}})["id"]
    token = sit(server, table, 0, "Ann")
    sit(server, table, 1, "Bob")
    page = context_factory(**kw).new_page()
    page.goto(f"{server.url}/tables/{table}#token={token}")
    page.wait_for_function("() => document.querySelector('[data-table]')?.dataset.mySeat === '0'")
    page.wait_for_selector(".dots-svg, .v3x-board")
    return page


def test_desktop_dots_has_keyboard_help_with_its_marker_and_no_confirm_moves(
    server: LiveServer, context_factory: Any
) -> None:
    page = dots_page(server, context_factory)
    assert page.is_visible(".dots-help summary")
    marker = page.eval_on_selector(
        ".dots-help summary", "s => getComputedStyle(s, '::before').content"
    )
    assert marker == '"▸"'
    page.click(".dots-help summary")
    marker = page.eval_on_selector(
        ".dots-help summary", "s => getComputedStyle(s, '::before').content"
    )
    assert marker == '"▾"'
    assert page.is_hidden(CONFIRM)  # a mouse draws at once: nothing to confirm


def test_a_phone_offers_confirm_moves_on_line_boards_only_and_no_keyboard_help(
    server: LiveServer, context_factory: Any
) -> None:
    for game in ("dots-and-boxes", "vert3x"):
        page = dots_page(server, context_factory, game, **PHONE)
        assert page.is_visible(CONFIRM), game
        assert page.locator(".keys-help").count() > 0
        helps = page.locator(".keys-help")
        assert not any(helps.nth(i).is_visible() for i in range(helps.count()))
    table = JuxtaposeTable(server)
    page = open_juxtapose(context_factory, table, 0, **PHONE)
    page.wait_for_selector(".jx")
    assert page.is_hidden(CONFIRM)  # pyramids are moved, not lines drawn
    assert page.is_hidden("[data-keys-help]")


def test_juxtapose_shows_no_scores_and_counts_slide_moves_from_1(
    server: LiveServer, context_factory: Any
) -> None:
    table = JuxtaposeTable(server)
    table.drops(BASE)  # 15 drops: the slide phase, no move of it made yet
    page = open_juxtapose(context_factory, table, 1)
    page.wait_for_selector(".jx-phase:has-text('Slide phase')")
    assert page.inner_text(".jx-phase") == "Slide phase: move 1 of 200"
    assert page.locator("[data-score], .seat-score").count() == 0
    assert page.locator(".seat").count() == 2


def test_joining_by_link_on_a_phone_puts_the_name_box_and_take_seat_above_the_board(
    server: LiveServer, context_factory: Any
) -> None:
    table = server.post("/api/tables", {"game": "dots-and-boxes", "options": {}})["id"]
    sit(server, table, 0, "Ann")
    page = context_factory(**PHONE).new_page()
    page.goto(f"{server.url}/tables/{table}")
    page.wait_for_selector("[data-take-seat]")
    page.wait_for_selector(".dots-svg")
    name = page.locator("#display-name").bounding_box()
    take = page.locator("[data-take-seat]").first.bounding_box()
    board = page.locator(".dots-svg").bounding_box()
    assert name and take and board
    assert name["y"] < board["y"] and take["y"] < board["y"]
    assert take["y"] + take["height"] < 740  # in view without scrolling
    shot(page, "join-phone")
    page.fill("#display-name", "Bob")
    page.locator("[data-take-seat]").first.click()
    page.wait_for_function("() => document.querySelector('[data-table]')?.dataset.mySeat === '1'")
    board = page.locator(".dots-svg").bounding_box()
    heading = page.locator("#seats-heading").bounding_box()
    assert board and heading and board["y"] < heading["y"]  # seated: the board first again


def test_the_form_says_figures_are_dealt_by_lot_and_shows_no_figure_per_seat(
    server: LiveServer, context_factory: Any
) -> None:
    page = context_factory().new_page()
    page.goto(server.url + "/")
    page.click('[data-game="figures"]')
    page.wait_for_selector('form[data-new-table][data-for-game="figures"]')
    page.wait_for_selector(".seat-row .swatch")
    assert "dealt by lot" in page.inner_text("form[data-new-table]")
    assert all(not t.strip() for t in page.locator(".seat-row .swatch").all_inner_texts())
    page.click('[data-game="dots-and-boxes"]')
    page.wait_for_selector('form[data-new-table][data-for-game="dots-and-boxes"]')
    assert "dealt by lot" not in page.inner_text("form[data-new-table]")
    assert page.locator(".seat-row .swatch").first.inner_text() == "✕"


def test_the_russian_rules_page_words_vert3x_scoring_in_russian(
    server: LiveServer, context_factory: Any
) -> None:
    page = context_factory(locale="ru-RU").new_page()
    page.goto(server.url + "/rules/vert3x")
    page.wait_for_selector('[data-option="scoring"]')
    text = page.inner_text('[data-option="scoring"]')
    assert "Подсчёт треугольников" in text and "Контур" in text
    for raw in ("outline", "powers", "units"):
        assert raw not in text.replace("scoring", ""), raw
    assert "Очки за линии" in page.inner_text('[data-option="line_points"]')

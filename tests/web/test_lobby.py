"""The lobby `/`: the game cards, the new-table form built from each game's options, the
server's check of impossible combinations, languages, and the phone layout."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.conftest import PHONE, LiveServer, no_sideways_scroll, shot, switch_lang
from vertex.server.settings import Limits

FORM = "form[data-new-table]"


def open_lobby(context_factory: Any, server: Any, path: str = "/", **options: Any) -> Any:
    page = context_factory(**options).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url + path)
    page.wait_for_selector("[data-game]")
    page.errors = errors
    return page


def choose(page: Any, game: str) -> None:
    page.click(f'[data-game="{game}"]')
    page.wait_for_selector(f'{FORM}[data-for-game="{game}"][data-state="ok"]')


def settled(page: Any) -> str:
    """Wait for the server's answer to the last change: the form is `ok` or `invalid`."""
    page.wait_for_selector(f'{FORM}:is([data-state="ok"], [data-state="invalid"])')
    return str(page.get_attribute(FORM, "data-state"))


def test_every_game_has_a_card_with_a_picture(server: Any, context_factory: Any) -> None:
    page = open_lobby(context_factory, server)
    ids = [g["id"] for g in server.get("/api/games")]
    assert len(ids) == 6
    for gid in ids:
        card = page.locator(f'[data-game="{gid}"]')
        card.locator("svg").first.wait_for()
        assert card.evaluate("el => el.tagName") == "LI"  # its button, rules and Play now
        assert card.locator('[data-action="play-now"]').count() == 1
        assert card.locator(".game-summary").inner_text().strip()
    assert page.locator("[data-game]").count() == len(ids)
    assert page.title().startswith("Vertex")
    assert "No account" in page.locator("main").inner_text()
    # Keyboard: Tab reaches a card, Enter opens its form and focus moves to its heading.
    page.focus('[data-game="figures"] .game-choose')
    page.keyboard.press("Enter")
    page.wait_for_selector(f'{FORM}[data-for-game="figures"][data-state="ok"]')
    assert page.evaluate("document.activeElement.id") == "new-table-heading"
    assert page.get_attribute('[data-game="figures"] .game-choose', "aria-pressed") == "true"
    shot(page, "lobby-desktop")
    assert page.errors == []


def test_create_a_small_dots_and_boxes_table(server: Any, context_factory: Any) -> None:
    page = open_lobby(context_factory, server)
    choose(page, "dots-and-boxes")
    form = page.locator(FORM)
    assert form.locator('[name="rows"]').get_attribute("min") == "1"
    assert form.locator('[name="rows"]').get_attribute("max") == "12"
    assert form.locator('[name="rows"]').input_value() == "3"
    form.locator('[name="rows"]').fill("2")
    form.locator('[name="cols"]').fill("2")
    assert form.locator('[name="seat-0"]').input_value() == "human"
    assert form.locator('[name="seat-1"]').input_value() == "human"
    form.locator('[name="display-name"]').fill("Ann")
    assert settled(page) == "ok"
    form.locator('button[type="submit"]').click()
    page.wait_for_url(re.compile(r"/tables/[A-Za-z0-9_-]+$"))
    tid = page.url.rsplit("/", 1)[1]
    view = server.get(f"/api/tables/{tid}")
    assert view["game"] == "dots-and-boxes"
    assert (view["options"]["rows"], view["options"]["cols"]) == (2, 2)
    assert view["seats"][0]["name"] == "Ann"
    assert view["seats"][1]["name"] in (None, "")
    assert [s["kind"] for s in view["seats"]] == ["human", "human"]
    # The seat token is kept, and the name remembered for next time.
    token = page.evaluate(f"localStorage.getItem('vertex.seat.{tid}')")
    assert token and len(token) >= 20
    page.goto(server.url + "/?game=dots-and-boxes")
    page.wait_for_selector(f'{FORM}[data-state="ok"]')
    assert page.locator('[name="display-name"]').input_value() == "Ann"


def test_invalid_combinations_are_explained_before_submitting(
    server: Any, context_factory: Any
) -> None:
    page = open_lobby(context_factory, server)
    choose(page, "dots-and-triangles")
    size, length = page.locator('[name="size"]'), page.locator('[name="length"]')
    assert size.is_visible() and not length.is_visible()
    assert size.get_attribute("placeholder") == "4"
    page.select_option('[name="shape"]', "strip")
    length.wait_for(state="visible")
    assert not size.is_visible()
    assert (length.get_attribute("min"), length.get_attribute("max")) == ("1", "12")
    assert settled(page) == "ok"

    choose(page, "vert3x")
    submit = page.locator(f'{FORM} button[type="submit"]')
    assert page.locator('[name="radius"]').is_visible()
    page.select_option('[name="rules"]', "gyo")
    size = page.locator('[name="size"]')
    size.wait_for(state="visible")
    assert not page.locator('[name="radius"]').is_visible()
    assert not page.locator('[name="shape"]').is_visible()
    assert settled(page) == "ok"
    assert size.get_attribute("placeholder") == "7"  # the default in force for GYØ
    assert (size.get_attribute("min"), size.get_attribute("max")) == ("3", "30")
    # The preset of the rule set shows in the switches the person has not touched.
    assert page.locator('[name="connected"]').is_checked() is False
    size.fill("2")
    assert settled(page) == "invalid"
    assert size.get_attribute("aria-invalid") == "true"
    error_id = page.evaluate(
        "document.querySelector('[name=size]').getAttribute('aria-describedby')"
    )
    message = page.evaluate(
        "ids => ids.split(' ').map(id => document.getElementById(id).textContent).join(' ')",
        error_id,
    )
    assert "3–30" in message and "size" in message
    assert submit.is_disabled()
    size.fill("5")
    assert settled(page) == "ok"
    assert size.get_attribute("aria-invalid") is None
    assert not submit.is_disabled()
    assert page.locator("[data-options-error]").inner_text() == ""

    # A computer seat and a clock, sent as the API expects.
    page.fill('[name="players"]', "3")
    page.wait_for_selector('[name="seat-2"]')
    assert settled(page) == "ok"
    page.select_option('[name="seat-1"]', "ai-3")
    page.check('input[name="clock"][value="total"]')
    page.fill('[name="clock-total"]', "3")
    page.fill('[name="clock-increment"]', "2")
    page.select_option('[name="on-timeout"]', "lose")
    page.check('[name="undo"]')
    page.fill('[name="display-name"]', "Bea")
    submit.click()
    page.wait_for_url(re.compile(r"/tables/[A-Za-z0-9_-]+$"))
    view = server.get(f"/api/tables/{page.url.rsplit('/', 1)[1]}")
    assert view["options"]["rules"] == "gyo" and view["options"]["size"] == 5
    assert view["options"]["connected"] is False  # the preset, as nobody changed it
    assert view["options"]["players"] == 3
    kinds = [(s["kind"], s.get("level")) for s in view["seats"]]
    assert kinds[0][0] == "human" and kinds[1] == ("ai", 3) and kinds[2][0] == "human"
    assert view["seats"][0]["name"] == "Bea"
    assert view["settings"]["clock"] == {"total": 180, "increment": 2}
    assert view["settings"]["on_timeout"] == "lose"
    assert view["settings"]["undo"] is True


def test_languages(server: Any, context_factory: Any) -> None:
    page = open_lobby(context_factory, server)
    choose(page, "dots-and-boxes")
    boxes = page.locator('[data-game="dots-and-boxes"] .game-name')
    submit = page.locator(f'{FORM} button[type="submit"]')
    assert boxes.inner_text() == "Dots and Boxes"
    assert submit.inner_text() == "Open the table"
    page.fill('[name="rows"]', "5")
    switch_lang(page, "it")
    assert page.get_attribute("html", "lang") == "it"
    assert boxes.inner_text() == "Punti e Scatole"
    assert submit.inner_text() == "Apri il tavolo"
    assert page.locator('label[for="opt-rows"]').inner_text().startswith("Righe")
    assert page.locator('[name="rows"]').input_value() == "5"  # kept across the switch
    switch_lang(page, "ru")
    assert page.get_attribute("html", "lang") == "ru"
    assert boxes.inner_text() == "Точки и квадраты"
    assert submit.inner_text() == "Открыть стол"
    assert "Без регистрации" in page.locator(".intro").inner_text()
    page.reload()
    page.wait_for_selector("[data-game]")
    assert page.get_attribute("html", "lang") == "ru"
    assert (
        page.locator('[data-game="dots-and-boxes"] .game-name').inner_text() == "Точки и квадраты"
    )

    ru = open_lobby(context_factory, server, locale="ru-RU")
    assert ru.get_attribute("html", "lang") == "ru"
    assert ru.locator('[data-game="figures"] .game-name').inner_text() == "Фигуры"
    assert ru.title().startswith("Vertex")
    # the page's own markup too, on a first visit in that language (not only after a switch)
    assert ru.locator("a.skip").text_content() == "К содержимому"
    it = open_lobby(context_factory, server, locale="it-IT")
    choose(it, "vert3x")
    assert it.locator('label[for="opt-rules"]').inner_text().startswith("Regolamento")
    assert it.locator('[name="rules"] option[value="classic"]').inner_text() == "Classico"


def test_phone(server: Any, context_factory: Any) -> None:
    page = open_lobby(context_factory, server, **PHONE)
    assert no_sideways_scroll(page)
    # The header is one row (it took a third of the screen in two), the languages by their
    # short codes, each still named in full for a screen reader and a 44 px target.
    header = page.locator("header.site").bounding_box()
    assert header is not None and header["height"] <= 72
    langs = page.locator("header.site .lang")
    assert [langs.nth(i).inner_text() for i in range(3)] == ["EN", "IT", "RU"]
    assert page.get_by_role("button", name="Русский").count() == 1
    assert min(langs.nth(i).bounding_box()["width"] for i in range(3)) >= 44
    for gid in ("juxtapose", "vert3x", "verticality"):
        page.locator(f'[data-game="{gid}"]').tap()
        page.wait_for_selector(f'{FORM}[data-for-game="{gid}"][data-state="ok"]')
        assert no_sideways_scroll(page)
    page.locator('[data-game="dots-and-boxes"]').tap()
    page.wait_for_selector(f'{FORM}[data-for-game="dots-and-boxes"][data-state="ok"]')
    # The form came into view, its heading focused.
    assert page.evaluate("document.activeElement.id") == "new-table-heading"
    page.wait_for_function(
        "() => Math.abs(document.getElementById('new-table').getBoundingClientRect().top) < 40"
    )
    shot(page, "lobby-phone")
    # An address that names a game (the rules page's "play" link) opens its form in view too,
    # not below all the cards.
    arrived = open_lobby(context_factory, server, path="/?game=vert3x", **PHONE)
    arrived.wait_for_selector(f'{FORM}[data-for-game="vert3x"][data-state="ok"]')
    arrived.wait_for_function(
        "() => Math.abs(document.getElementById('new-table').getBoundingClientRect().top) < 40"
    )
    page.locator('[name="cols"]').tap()
    page.locator('[name="cols"]').fill("4")
    page.locator('[name="seat-1"]').select_option("ai-1")
    page.locator('input[name="clock"][value="per-move"]').tap()
    page.locator('[name="clock-per-move"]').fill("20")
    page.locator('[name="undo"]').tap()
    assert page.locator('[name="undo"]').is_checked()
    page.locator('[name="display-name"]').fill("Cy")
    assert no_sideways_scroll(page)
    # Every control is at least 44 px tall (touch targets).
    small = page.evaluate(
        """() => [...document.querySelectorAll('form[data-new-table] :is(input, select, button)')]
            .filter(el => el.offsetParent && el.type !== 'radio' && el.type !== 'checkbox')
            .filter(el => el.getBoundingClientRect().height < 44).map(el => el.name)"""
    )
    assert small == []
    assert settled(page) == "ok"
    page.locator(f'{FORM} button[type="submit"]').tap()
    page.wait_for_url(re.compile(r"/tables/[A-Za-z0-9_-]+$"))
    view = server.get(f"/api/tables/{page.url.rsplit('/', 1)[1]}")
    assert view["options"]["cols"] == 4 and view["options"]["rows"] == 3
    assert [(s["kind"], s.get("level")) for s in view["seats"]][1] == ("ai", 1)
    assert (
        view["settings"]["clock"] == {"per_move": 20, "increment": 0}
        and view["settings"]["undo"] is True
    )
    assert view["seats"][0]["name"] == "Cy"


def test_refusals_are_shown_and_announced(
    tmp_path_factory: pytest.TempPathFactory, context_factory: Any
) -> None:
    """Too many tables from one address: the form says so (role=alert) and stays usable."""
    with LiveServer(tmp_path_factory.mktemp("few"), limits=Limits(tables_per_hour=0)) as few:
        page = open_lobby(context_factory, few)
        choose(page, "juxtapose")
        page.locator(f'{FORM} button[type="submit"]').click()
        alert = page.locator("[data-form-error]")
        alert.wait_for(state="visible")
        assert alert.get_attribute("role") == "alert"
        assert "many tables" in alert.inner_text()
        assert page.url == few.url + "/?game=juxtapose"
        assert not page.locator(f'{FORM} button[type="submit"]').is_disabled()
        switch_lang(page, "it")
        assert "molti tavoli" in alert.inner_text()

"""The new-table form shows only what applies, as the server says (issue 33, item 19):
"Analysis allowed" only where the analysis covers the table, one clock for Verticality (its
step clock, off by default in Solo style), the Vert3x designer's words in the language
switched to, no error for a custom board before anything is painted, the triangles that do
not join the board marked, and why the table cannot open said beside the disabled button."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import PHONE, shot, switch_lang

FORM = "form[data-new-table]"
ANALYSIS = f'{FORM} [name="analysis"]'


def open_form(context_factory: Any, server: Any, game: str, **kw: Any) -> Any:
    page = context_factory(**kw).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(f"{server.url}/?game={game}")
    page.wait_for_selector(f"{FORM}[data-for-game='{game}']")
    settled(page)
    return page


def settled(page: Any) -> str:
    """Wait until the form's options are checked by the server; its state then."""
    page.wait_for_function(
        "() => ['ok', 'invalid'].includes(document.querySelector('form[data-new-table]')"
        "?.dataset.state)"
    )
    return str(page.get_attribute(FORM, "data-state"))


def change(page: Any, selector: str, value: str) -> str:
    """Set an option as a person would and wait for the server's check of it."""
    page.evaluate("() => { document.querySelector('form[data-new-table]').dataset.state = ''; }")
    if page.locator(selector).evaluate("e => e.tagName") == "SELECT":
        page.select_option(selector, value)
    else:
        page.fill(selector, value)
    return settled(page)


@pytest.mark.timeout(120)
def test_analysis_is_offered_only_where_it_covers_the_table(
    server: Any, context_factory: Any
) -> None:
    page = open_form(context_factory, server, "dots-and-boxes")
    assert page.locator(ANALYSIS).is_visible()
    change(page, "#opt-players", "3")  # perfect play is worked out for two
    page.wait_for_selector(ANALYSIS, state="hidden")
    change(page, "#opt-players", "2")
    page.wait_for_selector(ANALYSIS, state="visible")
    for game in ("vert3x", "juxtapose", "verticality"):
        other = open_form(context_factory, server, game)
        assert other.locator(ANALYSIS).is_hidden(), game
        assert other.locator(f'{FORM} [for="set-analysis"]').is_hidden(), game
        assert other.errors == []
    assert page.errors == []


@pytest.mark.timeout(120)
def test_verticality_has_one_clock_off_in_solo(server: Any, context_factory: Any) -> None:
    page = open_form(context_factory, server, "verticality")
    clock = page.locator(f"{FORM} fieldset.clock")
    # the step clock is the table's clock: no second one beside it
    assert page.locator(f'{FORM} [name="clock"]').count() == 0
    assert clock.locator("#opt-step_seconds").is_visible()
    assert page.locator(f"{FORM} .option-grid #opt-step_seconds").count() == 0
    assert page.input_value("#opt-step_seconds") == "60"  # two players
    change(page, "#opt-players", "1")
    page.wait_for_function("() => document.querySelector('#opt-step_seconds').value === '0'")
    shot(page, "form-verticality-solo-en")
    change(page, "#opt-players", "3")
    page.wait_for_function("() => document.querySelector('#opt-step_seconds').value === '60'")
    # a solo table opened with the defaults is untimed
    change(page, "#opt-players", "1")
    with page.expect_navigation(url="**/tables/**"):
        page.click(f"{FORM} button[type=submit]")
    table = page.url.rsplit("/", 1)[1].split("#")[0]
    view = server.get(f"/api/tables/{table}")
    assert view["options"]["step_seconds"] == 0
    assert view["settings"]["clock"] is None  # no step clock: the table has no clock
    assert page.errors == []


@pytest.mark.timeout(120)
def test_the_designer_follows_a_language_switch(server: Any, context_factory: Any) -> None:
    page = open_form(context_factory, server, "vert3x")
    page.wait_for_selector("[data-start-panel]:not([hidden])")
    assert page.inner_text("[data-start-auto]") == "Automatic start dots"
    switch_lang(page, "it")
    page.wait_for_function(
        "() => document.querySelector('[data-start-auto]')?.textContent !== 'Automatic start dots'"
    )
    assert page.inner_text("[data-start-auto]") == "Punti di partenza automatici"
    assert "Punti di partenza" in page.inner_text("[data-start-panel] .hint")
    change(page, "#opt-shape", "custom")
    page.wait_for_selector("[data-designer-panel]:not([hidden])")
    assert page.inner_text("[data-designer-from]") == "Usa questa forma"
    switch_lang(page, "ru")
    page.wait_for_function(
        "() => document.querySelector('[data-designer-from]')?.textContent !== 'Usa questa forma'"
    )
    assert page.inner_text("[data-designer-from]") == "Взять эту фигуру"
    assert page.errors == []


def paint(page: Any, keys: list[str]) -> None:
    for key in keys:
        cell = page.locator(f'[data-cell="{key}"]')
        cell.scroll_into_view_if_needed()
        box = cell.bounding_box()
        y = box["y"] + box["height"] * (2 / 3 if key.startswith("u") else 1 / 3)
        page.mouse.click(box["x"] + box["width"] / 2, y)


def gap_to_submit(page: Any, selector: str) -> float:
    """Vertical distance in px between `selector` and the submit button (0: side by side)."""
    return float(
        page.evaluate(
            """sel => {
                const a = document.querySelector(sel).getBoundingClientRect();
                const b = document.querySelector('form[data-new-table] button[type=submit]')
                    .getBoundingClientRect();
                return Math.max(0, a.top - b.bottom, b.top - a.bottom);
            }""",
            selector,
        )
    )


@pytest.mark.timeout(180)
@pytest.mark.parametrize("lang", ["en", "it", "ru"])
def test_a_custom_board_in_the_making(server: Any, context_factory: Any, lang: str) -> None:
    for device, kw in (("desktop", {}), ("phone", PHONE)):
        page = open_form(context_factory, server, "vert3x", **kw)
        if lang != "en":
            switch_lang(page, lang)
        assert change(page, "#opt-shape", "custom") == "invalid"  # nothing painted yet
        page.wait_for_selector("[data-designer-panel]:not([hidden])")
        # ... which is no mistake: nothing is marked wrong, the status asks for the board
        assert page.inner_text("#opt-cells-error") == ""
        assert page.inner_text("[data-options-error]") == ""
        assert page.locator(f"{FORM} [aria-invalid=true]").count() == 0
        assert page.locator(f"{FORM} button[type=submit]").is_disabled()
        assert page.inner_text("[data-form-status]") != ""
        shot(page, f"form-custom-empty-{device}-{lang}")
        # two triangles together and one apart: the stray one is marked
        paint(page, ["u1,1", "d1,1", "u5,1"])
        settled(page)
        page.wait_for_selector('[data-cell="u5,1"][data-stray]')
        assert page.locator("[data-cell][data-stray]").count() == 1
        assert page.locator("[data-designer-stray]").is_visible()
        assert page.locator("#opt-cells").get_attribute("aria-invalid") == "true"
        # why the table cannot open is said beside the disabled button, with a way there
        submit = page.locator(f"{FORM} button[type=submit]")
        assert submit.is_disabled()
        submit.scroll_into_view_if_needed()
        status = page.inner_text("[data-form-status]")
        assert page.inner_text("#opt-cells-error").rstrip(".") in status
        assert gap_to_submit(page, "[data-form-status]") < 80
        assert page.locator("[data-goto-problem]").is_visible()
        shot(page, f"form-custom-pieces-{device}-{lang}")
        page.click("[data-goto-problem]")
        page.wait_for_function("() => document.activeElement?.id === 'opt-cells'")
        page.locator("[data-designer]").scroll_into_view_if_needed()
        shot(page, f"form-custom-stray-{device}-{lang}")
        # joined up: nothing marked, the table may open
        paint(page, ["u5,1"])
        assert settled(page) == "ok"
        assert page.locator("[data-cell][data-stray]").count() == 0
        assert page.locator("[data-designer-stray]").is_hidden()
        assert page.locator("[data-goto-problem]").is_hidden()
        assert page.errors == []

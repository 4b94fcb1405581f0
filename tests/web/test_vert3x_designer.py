"""The Vert3x board designer and start-dot picker in the new-table form, the share link and
the table page's version in words (js/boards/vert3x/vert3x-designer.js, js/lobby/share.js,
js/shared/version-words.js)."""

from __future__ import annotations

import base64
import json
from typing import Any
from urllib.parse import parse_qs, urlparse

from tests.web.conftest import PHONE, no_sideways_scroll, shot, wait_version


def open_form(context_factory: Any, server: Any, query: str = "game=vert3x", **kw: Any) -> Any:
    page = context_factory(**kw).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(f"{server.url}/?{query}")
    page.wait_for_selector("form[data-new-table][data-for-game='vert3x']")
    return page


def settled(page: Any) -> str:
    """Wait until the form's options are checked by the server; its state then."""
    page.wait_for_function(
        "() => ['ok', 'invalid'].includes(document.querySelector('form[data-new-table]')"
        "?.dataset.state)"
    )
    return str(page.get_attribute("form[data-new-table]", "data-state"))


def cell_point(page: Any, key: str) -> tuple[float, float]:
    box = page.locator(f'[data-cell="{key}"]').bounding_box()
    # the centroid of a small triangle: a third of the way down from the apex row (up) or up
    # from the base (down) lies well inside it
    x = box["x"] + box["width"] / 2
    y = box["y"] + box["height"] * (2 / 3 if key.startswith("u") else 1 / 3)
    return x, y


def paint(page: Any, keys: list[str]) -> None:
    for key in keys:
        page.locator(f'[data-cell="{key}"]').scroll_into_view_if_needed()
        page.mouse.click(*cell_point(page, key))


# The 12 triangles painted: a 3 × 2 parallelogram of the painting area at (1, 1).
PAINTED = [f"{k}{q},{r}" for r in (1, 2) for q in (1, 2, 3) for k in "ud"]


def test_paint_a_board_pick_start_dots_and_play_it(server: Any, context_factory: Any) -> None:
    page = open_form(context_factory, server)
    page.select_option("#opt-shape", "custom")
    page.wait_for_selector("[data-designer-panel]:not([hidden])")
    paint(page, PAINTED[:1])
    # one triangle is too few: the server's reason at the field, as it is painted
    assert settled(page) == "invalid"
    assert "at least 2 small triangles" in page.locator("#opt-cells-error").inner_text()
    paint(page, PAINTED[1:])
    assert settled(page) == "ok"
    assert page.locator("[data-designer-counts]").inner_text() == (
        "12 small triangles, 12 dots, 23 lines"
    )
    cells = page.input_value("#opt-cells").split()
    assert len(cells) == 12
    # keyboard: the cursor and Space take a triangle out and put it back
    page.focus("[data-designer]")
    page.keyboard.press("Space")  # the cursor is on the last triangle painted
    assert page.locator("[data-designer-counts]").inner_text().startswith("11 small triangles")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    assert page.locator("[data-designer-counts]").inner_text().startswith("12 small triangles")
    assert sorted(page.input_value("#opt-cells").split()) == sorted(cells)
    settled(page)
    # start dots by clicking: seat 1 at a1, seat 2 at d3
    page.click('[data-start-seat="0"]')
    page.click('[data-start-picker] [data-dot="a1"]')
    page.click('[data-start-seat="1"]')
    page.click('[data-start-picker] [data-dot="d3"]')
    assert settled(page) == "ok"
    assert page.input_value("#opt-start") == "a1 d3"
    shot(page, "vert3x-designer-desktop")
    # the share link opens the same form in a fresh context
    page.click("[data-share-make]")
    link = page.input_value("[data-share-link]")
    query = parse_qs(urlparse(link).query)
    options = json.loads(base64.urlsafe_b64decode(query["options"][0] + "=="))
    assert options["shape"] == "custom" and options["start"] == ["a1", "d3"]
    assert len(options["cells"]) == 12
    other = open_form(context_factory, server, urlparse(link).query)
    assert settled(other) == "ok"
    assert sorted(other.input_value("#opt-cells").split()) == sorted(options["cells"])
    assert other.input_value("#opt-start") == "a1 d3"
    assert "custom board of" in other.locator("[data-shared-note]").inner_text()
    # open the table: the board drawn is the painted one; first lines touch the start dots
    with page.expect_navigation(url="**/tables/**"):
        page.click("form[data-new-table] button[type=submit]")
    wait_version(page, 0)
    page.wait_for_selector("[data-vert3x] [data-line]")
    drawn_cells = page.evaluate(
        "() => [...document.querySelectorAll('[data-vert3x] [data-line]')].map(e => e.dataset.line)"
    )
    table = page.url.rsplit("/", 1)[1].split("#")[0]
    view = server.get(f"/api/tables/{table}")
    board = view["state"]["board"]
    lines = {ln["name"] for ln in board["lines"]}
    assert set(drawn_cells) == lines
    corners = {frozenset(c.split("-")) for c in options["cells"]}
    sides = {frozenset(pair) for c in corners for pair in _pairs(c)}
    assert {frozenset(n.split("-")) for n in lines} == sides
    assert board["start"] == ["a1", "d3"]
    assert all("a1" in m.split("-") for m in view["state"]["legal_moves"])
    words = page.locator("[data-version-words]").inner_text()
    assert words.startswith("Classic, custom board of")
    assert "start dots a1 d3" in words
    assert page.errors == [] and other.errors == []


def _pairs(corners: frozenset[str]) -> list[tuple[str, str]]:
    a, b, c = sorted(corners)
    return [(a, b), (b, c), (a, c)]


def link_query(options: dict[str, Any], seats: str = "h,h") -> str:
    raw = base64.urlsafe_b64encode(json.dumps(options).encode()).decode().rstrip("=")
    if len(raw) > 6000:  # as the form makes them: long options after the #
        return f"game=vert3x#options={raw}&seats={seats}"
    return f"game=vert3x&options={raw}&seats={seats}"


def refused(page: Any) -> None:
    """The form says no and makes nothing: its submit is off, and pressing it stays here."""
    assert settled(page) == "invalid"
    assert page.locator("form[data-new-table] button[type=submit]").is_disabled()
    assert "/tables/" not in page.url


def test_shared_links_that_no_longer_fit(server: Any, context_factory: Any) -> None:
    pieces = {"shape": "custom", "cells": ["a1-b2-a2", "a1-b1-b2", "d1-e2-d2"]}
    page = open_form(context_factory, server, link_query(pieces))
    refused(page)
    said = page.locator("#opt-cells-error").inner_text()
    assert "board is in pieces: d1-e2-d2 does not touch" in said
    assert "no longer fits" in page.locator("[data-shared-note]").inner_text()

    page = open_form(context_factory, server, link_query({"radius": 2, "colour": "red"}))
    refused(page)
    assert "This game has no option colour" in page.locator("[data-options-error]").inner_text()
    assert "colour" in page.locator("[data-shared-note]").inner_text()
    page.click("[data-drop-unknown]")
    assert settled(page) == "ok"
    assert page.input_value("#opt-radius") == "2"

    many = [f"a{r}-b{r + 1}-a{r + 1}" for r in range(1, 10_001)]
    page = open_form(context_factory, server, link_query({"shape": "custom", "cells": many}))
    refused(page)
    assert "too large for the server" in page.locator("#opt-cells-error").inner_text()

    off = {"start": ["a1", "z9"]}
    page = open_form(context_factory, server, link_query(off))
    refused(page)
    assert "no dot z9" in page.locator("#opt-start-error").inner_text()

    page = open_form(context_factory, server, "game=vert3x&options=%%%not-base64")
    refused(page)
    assert "damaged" in page.locator("[data-shared-note]").inner_text()
    for p in (page,):
        assert p.errors == []


def test_saved_versions_and_the_phone(server: Any, context_factory: Any) -> None:
    page = open_form(context_factory, server, **PHONE)
    page.fill("#opt-overrules", "2")
    page.check("#opt-shape_bonus")
    assert settled(page) == "ok"
    page.fill("[data-version-name]", "Friday")
    page.click("[data-version-save]")
    page.reload()
    page.wait_for_selector("form[data-new-table]")
    assert settled(page) == "ok"
    assert page.input_value("#opt-overrules") == "0"
    page.select_option("[data-version-pick]", "Friday")
    assert settled(page) == "ok"
    assert page.input_value("#opt-overrules") == "2"
    assert page.is_checked("#opt-shape_bonus")
    note = page.locator("[data-shared-note]").inner_text()
    assert "Friday" in note and "shared link" not in note  # a saved version, not a link
    page.select_option("#opt-shape", "custom")
    page.wait_for_selector("[data-designer-panel]:not([hidden])")
    page.click("[data-designer-from]")  # the hexagon of side 2: 24 triangles
    assert settled(page) == "ok"
    assert page.locator("[data-designer-counts]").inner_text().startswith("24 small triangles")
    assert no_sideways_scroll(page)
    # (no full-page shot: the whole form on a phone is over 12,000 px tall)
    assert page.errors == []

"""Choosing a board on /puzzles (issue 35): the game, its board (Dots and Boxes 3×3, 4×4,
5×5) and a theme, each a labelled select; the next puzzle is of that board and theme; the
choice in Russian and at a phone's width. Screenshots: artifacts/web/puzzles-boards-*.png."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.web.conftest import PHONE, LiveServer, no_sideways_scroll, shot, switch_lang
from vertex.puzzles.model import pool_name
from vertex.puzzles.shipped import shipped

ROOT = "main[data-puzzle]"


def _pick(page: Any, name: str, value: str) -> str:
    """Choose `value` in the select `name` and wait for the next puzzle; its id."""
    before = page.get_attribute(ROOT, "data-puzzle")
    page.select_option(f'select[name="{name}"]', value)
    page.wait_for_function(
        "id => { const m = document.querySelector('main[data-puzzle]');"
        " return m && m.dataset.puzzle !== id && m.dataset.status === 'playing'; }",
        arg=before,
    )
    return str(page.get_attribute(ROOT, "data-puzzle"))


def test_choose_a_board_and_a_theme(server: LiveServer, context_factory: Any) -> None:
    by_id = {p.id: p for p in shipped()}
    page = context_factory().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/puzzles")
    expect(page.locator(ROOT)).to_have_attribute("data-status", "playing")
    if page.input_value('select[name="game"]') != "dots-and-boxes":
        _pick(page, "game", "dots-and-boxes")
    boards = page.locator('select[name="pool"] option')
    expect(boards).to_have_count(3)
    assert [boards.nth(i).inner_text() for i in range(3)] == ["3×3", "4×4", "5×5"]
    expect(page.locator('label[for="puzzle-pool"]')).to_have_text("Board")
    for pool, cells in (("dots-and-boxes-5x5", 25), ("dots-and-boxes-4x4", 16)):
        pid = _pick(page, "pool", pool)
        assert pool_name(by_id[pid].game, by_id[pid].options) == pool
        expect(page.locator("[data-cell]")).to_have_count(cells)
    theme = next(
        t
        for p in shipped()
        if pool_name(p.game, p.options) == "dots-and-boxes-4x4"
        for t in p.themes
    )
    pid = _pick(page, "theme", theme)
    assert theme in by_id[pid].themes
    page.click('[data-action="next-puzzle"]')
    expect(page.locator(ROOT)).not_to_have_attribute("data-puzzle", pid)
    nxt = str(page.get_attribute(ROOT, "data-puzzle"))
    assert pool_name(by_id[nxt].game, by_id[nxt].options) == "dots-and-boxes-4x4"
    assert theme in by_id[nxt].themes
    # the keyboard reaches the three choices in order
    page.focus('select[name="game"]')
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.name") == "pool"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.name") == "theme"
    shot(page, "puzzles-boards-desktop")
    # Juxtapose has one board: said, not offered
    _pick(page, "game", "juxtapose")
    expect(page.locator('select[name="pool"]')).to_be_disabled()
    expect(page.locator('select[name="pool"] option')).to_have_text(["Standard board"])
    pid = _pick(page, "theme", "win-in-2")
    assert by_id[pid].goal.depth == 2
    expect(page.locator("[data-puzzle-goal]")).to_contain_text("within 2 moves")
    assert errors == []


def test_the_choice_on_a_phone_in_russian(server: LiveServer, context_factory: Any) -> None:
    page = context_factory(**PHONE).new_page()
    page.goto(f"{server.url}/puzzles")
    expect(page.locator(ROOT)).to_have_attribute("data-status", "playing")
    if page.input_value('select[name="game"]') != "dots-and-boxes":
        _pick(page, "game", "dots-and-boxes")
    _pick(page, "pool", "dots-and-boxes-3x3")
    # the day's puzzle is the chosen board's
    day = server.get("/api/puzzles/daily?game=dots-and-boxes&pool=dots-and-boxes-3x3")["id"]
    page.click('[data-action="daily"]')
    expect(page.locator(ROOT)).to_have_attribute("data-puzzle", day)
    switch_lang(page, "ru")
    expect(page.locator('label[for="puzzle-pool"]')).to_have_text("Поле")
    expect(page.locator('select[name="pool"]')).to_have_value("dots-and-boxes-3x3")
    expect(page.locator(".puzzle-meta")).to_contain_text("3×3")
    assert no_sideways_scroll(page)
    shot(page, "puzzles-boards-phone-ru")


def test_a_juxtapose_win_in_2_played_with_the_computers_reply(
    server: LiveServer, context_factory: Any
) -> None:
    """A shipped win in 2 (drops at the end of the drop phase): the answer, the computer's
    reply drawn on the board, the winning drop; solved."""
    p = next(
        p
        for p in shipped()
        if p.game == "juxtapose" and p.goal.depth == 2 and all("@" in m for m in p.solution)
    )
    page = context_factory().new_page()
    page.goto(f"{server.url}/puzzles/{p.id}")
    expect(page.locator(ROOT)).to_have_attribute("data-status", "playing")
    expect(page.locator("[data-puzzle-goal]")).to_contain_text("within 2 moves")
    mine, reply, win = p.solution
    for i, move in enumerate((mine, win)):
        pyramid, square = move.split("@")
        page.click(f'.jx-side [data-pyramid="{pyramid}"]')
        page.click(f'[data-square="{square}"]')
        expect(page.locator(f'[data-square="{square}"]')).to_have_attribute("data-content", pyramid)
        if i == 0:  # the computer's reply, drawn
            rp, rs = reply.split("@")
            expect(page.locator(f'[data-square="{rs}"]')).to_have_attribute("data-content", rp)
    expect(page.locator(ROOT)).to_have_attribute("data-status", "solved")
    shot(page, "puzzles-juxtapose-win-in-2")

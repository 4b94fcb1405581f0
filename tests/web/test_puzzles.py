"""Puzzles in the browser (DESIGN §6 "Puzzles"): a Dots and Boxes puzzle solved with the
keyboard alone (the cell's menu of sides), a wrong move fails one, the next puzzle, the hint,
a phone's width in Russian, and axe on the page.

Screenshots land in artifacts/web/puzzles-*.png."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from tests.web.conftest import PHONE, LiveServer, no_sideways_scroll, shot, switch_lang
from tests.web.test_accessibility import AXE, audit, verdict
from vertex.puzzles.dots import DotsJudge
from vertex.puzzles.judge import position
from vertex.puzzles.model import Puzzle, pool_name
from vertex.puzzles.shipped import shipped

ROOT = "main[data-puzzle]"


def one_turn(pool: tuple[int, int], skip: int = 0) -> Puzzle:
    rows, cols = pool
    found = [
        p
        for p in shipped()
        if p.game == "dots-and-boxes"
        and pool_name(p.game, p.options) == f"dots-and-boxes-{rows}x{cols}"
        and p.turns == 1
        and len(p.solution) == 1
    ]
    return found[skip]


def status(page: Any, value: str) -> None:
    expect(page.locator(ROOT)).to_have_attribute("data-status", value)


def open_puzzle(context_factory: Any, server: LiveServer, p: Puzzle, **kw: Any) -> Any:
    page = context_factory(**kw).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(f"{server.url}/puzzles/{p.id}")
    expect(page.locator(f'{ROOT}[data-puzzle="{p.id}"]')).to_have_attribute("data-game", p.game)
    status(page, "playing")
    page.wait_for_selector("[data-line]")
    return page


def test_solve_with_the_keyboard(server: LiveServer, context_factory: Any) -> None:
    p = one_turn((3, 3))
    page = open_puzzle(context_factory, server, p)
    answer = p.solution[0]
    # the keyboard way: a cell beside the line, its menu of sides, the side
    cell = page.locator(f'[data-cell="{p.hint[0]}"]')
    cell.focus()
    page.keyboard.press("Enter")
    item = page.locator(f'[role="menuitem"][data-line="{answer}"]')
    expect(item).to_be_visible()
    item.focus()
    page.keyboard.press("Enter")
    status(page, "solved")
    expect(page.locator("[data-streak]")).to_have_attribute("data-streak", "1")
    shot(page, "puzzles-solved-desktop")
    assert page.errors == []


def test_a_wrong_move_fails_then_the_next_puzzle(server: LiveServer, context_factory: Any) -> None:
    p = one_turn((3, 3), 1)
    page = open_puzzle(context_factory, server, p)
    state = position(p)
    judge = DotsJudge(state.game)  # its own solver: the server's runs in this process
    wrong = next(m for m in state.legal_moves() if m not in judge.best(state))
    page.click(f'[data-line="{wrong}"]')
    status(page, "failed")
    expect(page.locator("[data-streak]")).to_have_attribute("data-streak", "0")
    shot(page, "puzzles-failed-desktop")
    page.click('[data-action="solution"]')
    expect(page.locator("[data-puzzle-solution] li")).to_have_count(len(p.solution))
    page.click('[data-action="next-puzzle"]')
    expect(page.locator(ROOT)).not_to_have_attribute("data-puzzle", p.id)
    status(page, "playing")
    assert page.url.rsplit("/", 1)[-1] == page.get_attribute(ROOT, "data-puzzle")
    assert page.errors == []


def test_phone_in_russian_with_a_hint(server: LiveServer, context_factory: Any) -> None:
    p = one_turn((4, 4))
    page = open_puzzle(context_factory, server, p, **PHONE)
    switch_lang(page, "ru")
    expect(page.locator("[data-puzzle-goal]")).to_contain_text("Ваш ход")
    page.click('[data-action="hint"]')
    expect(page.locator("[data-hint]").first).to_be_attached()
    assert no_sideways_scroll(page)
    shot(page, "puzzles-phone-ru")
    page.click(f'[data-line="{p.solution[0]}"]')
    page.click(f'[data-line="{p.solution[0]}"]')  # a touch screen may ask to confirm
    status(page, "solved")
    assert page.errors == []


def test_juxtapose_in_italian(server: LiveServer, context_factory: Any) -> None:
    p = next(p for p in shipped() if p.game == "juxtapose")
    page = context_factory(locale="it-IT").new_page()
    page.goto(f"{server.url}/puzzles/{p.id}")
    expect(page.locator(ROOT)).to_have_attribute("data-game", "juxtapose")
    switch_lang(page, "it")
    expect(page.locator("[data-puzzle-goal]")).to_contain_text("Tocca a te")
    page.wait_for_selector("[data-square]")
    shot(page, "puzzles-juxtapose-it")


def test_lobby_links_to_puzzles(server: LiveServer, context_factory: Any) -> None:
    page = context_factory().new_page()
    page.goto(server.url + "/")
    page.click('main [data-nav="puzzles"]')
    expect(page.locator(ROOT)).to_have_attribute("data-status", "playing")
    assert "/puzzles/" in page.url


def test_axe_on_the_puzzle_page(server: LiveServer, context_factory: Any) -> None:
    if not AXE.exists():
        import pytest

        pytest.skip("axe-core is not installed (`npm ci`)")
    p = one_turn((3, 3), 2)
    for opts in ({}, PHONE):
        page = open_puzzle(context_factory, server, p, **opts)
        found = audit(page, "playing")
        page.click('[data-action="hint"]')
        page.click('[data-action="solution"]')
        expect(page.locator("[data-puzzle-solution] li")).to_have_count(len(p.solution))
        found += audit(page, "solution")
        assert not found, verdict(found)


def test_the_rules_page_lesson(server: LiveServer, context_factory: Any) -> None:
    """Dots and Boxes' lesson: the first step's answer is judged right (with its why), a wrong
    move on the next step is judged wrong, in Italian."""
    from vertex.puzzles.lessons import lesson

    steps = lesson("dots-and-boxes")
    page = context_factory(locale="it-IT").new_page()
    page.goto(f"{server.url}/rules/dots-and-boxes#lesson")
    root = page.locator('[data-lesson="dots-and-boxes"]')
    expect(root).to_have_attribute("data-status", "playing")
    switch_lang(page, "it")
    page.click(f'[data-lesson] [data-line="{steps[0][1].solution[0]}"]')
    expect(root).to_have_attribute("data-status", "solved")
    expect(page.locator(".lesson-status")).to_contain_text("Giusto")
    shot(page, "puzzles-lesson-it")
    page.click('[data-action="lesson-next"]')
    expect(root).to_have_attribute("data-step", "1")
    second = steps[1][1]
    state = position(second)
    judge = DotsJudge(state.game)  # its own solver: the server's runs in this process
    wrong = next(m for m in state.legal_moves() if m not in judge.best(state))
    page.click(f'[data-lesson] [data-line="{wrong}"]')
    expect(root).to_have_attribute("data-status", "failed")


def test_a_player_with_a_key_gets_a_rating(server: LiveServer, context_factory: Any) -> None:
    r = server.http.post("/api/players", json={"name": "Puzzler"})
    if r.status_code in (404, 405):
        import pytest

        pytest.skip("no players API on this branch")
    key = r.json()["key"]
    p = one_turn((3, 3), 3)
    page = context_factory().new_page()
    page.add_init_script(f"localStorage.setItem('vertex.player.key', {key!r})")
    page.goto(f"{server.url}/puzzles/{p.id}")
    expect(page.locator("[data-puzzle-rating]")).to_have_attribute("data-puzzle-rating", "1500")
    page.wait_for_selector("[data-line]")
    page.click(f'[data-line="{p.solution[0]}"]')
    status(page, "solved")
    rating = page.locator("[data-puzzle-rating]")
    expect(rating).not_to_have_attribute("data-puzzle-rating", "1500")
    assert int(rating.get_attribute("data-puzzle-rating") or 0) > 1500


def test_a_longer_line_with_the_computers_replies(server: LiveServer, context_factory: Any) -> None:
    """A two-turn puzzle: the player's turn, the computer's reply drawn on the board, the
    player's next turn, solved; each of the player's moves is the solver's own best."""
    p = next(
        p
        for p in shipped()
        if pool_name(p.game, p.options) == "dots-and-boxes-3x3" and p.turns >= 2
    )
    page = open_puzzle(context_factory, server, p)
    state = position(p)
    judge = DotsJudge(state.game)  # its own solver: the server's runs in this process
    replied = False
    for _ in range(30):
        if page.get_attribute(ROOT, "data-status") != "playing":
            break
        move = judge.best(state)[0]
        with page.expect_response(lambda r: r.url.endswith("/attempt")):
            page.click(f'[data-line="{move}"]')
        state = state.play(move)
        expect(page.locator(f'[data-line="{move}"][data-drawn]')).to_be_attached()
        page.wait_for_timeout(150)  # the answer drawn
        if page.get_attribute(ROOT, "data-status") != "playing":
            break
        # the computer's moves the page drew since: follow them on our copy of the game
        while not state.is_over and state.to_move != (p.to_move,):
            reply = judge.reply(state)
            expect(page.locator(f'[data-line="{reply}"][data-drawn]')).to_be_attached()
            state = state.play(reply)
            replied = True
    status(page, "solved")
    assert replied
    shot(page, "puzzles-two-turns")
    assert page.errors == []

"""The review of a whole game on the table page (js/table/review.js): the planted blunder of
a 3×3 game marked on the graph and in the move list, a point shows its position on the
board with the best moves drawn, keyboard stepping, "next mistake", the seats' accuracy,
a phone, Italian and Russian, axe clean; screenshots to look at (artifacts/web/review-*)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import vertex
from tests.server.pages.test_review import BLUNDER_GAME
from tests.web.conftest import PHONE, LiveServer, no_sideways_scroll, shot, sit, switch_lang
from tests.web.test_accessibility import AXE, audit, verdict


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("review"), analysis_burst=100) as live:
        yield live


def finished_game(server: LiveServer) -> str:
    tid = str(
        server.post("/api/tables", {"game": "dots-and-boxes", "options": {"rows": 3, "cols": 3}})[
            "id"
        ]
    )
    tokens = [sit(server, tid, 0, "Ann"), sit(server, tid, 1, "Bob")]
    state = vertex.create_game("dots-and-boxes", rows=3, cols=3).initial_state()
    for move in BLUNDER_GAME:
        seat = state.to_move[0]
        server.post(f"/api/tables/{tid}/moves", {"token": tokens[seat], "move": move})
        state = state.play(move, seat)
    return tid


def open_review(context_factory: Any, server: LiveServer, tid: str, **kw: Any) -> Any:
    page = context_factory(**kw).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(f"{server.url}/tables/{tid}")
    page.click('[data-action="review"]')
    page.wait_for_selector('[data-review][data-status="done"]', timeout=30_000)
    return page


def shown_ply(page: Any) -> str | None:
    out: str | None = page.get_attribute("[data-replay]", "data-ply")
    return out


def test_the_review_of_a_finished_game(server: LiveServer, context_factory: Any) -> None:
    tid = finished_game(server)
    page = open_review(context_factory, server, tid)
    assert page.locator("[data-review-ply]").count() == 24
    assert page.locator("[data-review-point]").count() == 24
    blunder = page.locator('[data-review-ply="8"]')
    assert blunder.get_attribute("data-mark") == "blunder" and "??" in blunder.inner_text()
    assert page.locator('[data-review-point="8"]').get_attribute("data-mark") == "blunder"
    assert page.locator('[data-review-ply][data-mark="best"]').count() == 23
    assert "90.9" in page.locator('[data-review-accuracy="1"]').inner_text()
    assert "100" in page.locator('[data-review-accuracy="0"]').inner_text()
    # a point of the graph shows that position on the board, with the best moves drawn
    page.click('[data-review-point="8"]')
    page.wait_for_function("() => document.querySelector('[data-replay]')?.dataset.ply === '8'")
    page.wait_for_selector("[data-best-move]")
    best = server.get(f"/api/tables/{tid}/review")["moves"][8]["best"]
    drawn = page.eval_on_selector_all("[data-best-move]", "els => els.map(e => e.dataset.bestMove)")
    assert sorted(drawn) == sorted(best)
    words = page.inner_text("[data-review-words]")
    assert "4 boxes" in words and best[0] in words
    shot(page, "review-desktop")
    # the keyboard: → and ← from the focused point step through the plies
    page.focus('[data-review-point="8"]')
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('[data-replay]')?.dataset.ply === '9'")
    assert page.evaluate("document.activeElement.dataset.reviewPoint") == "9"
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("() => document.querySelector('[data-replay]')?.dataset.ply === '7'")
    # next mistake: from the start, the blunder
    page.click('[data-review-ply="0"]')
    page.wait_for_function("() => document.querySelector('[data-replay]')?.dataset.ply === '0'")
    page.click("[data-review-next]")
    page.wait_for_function("() => document.querySelector('[data-replay]')?.dataset.ply === '8'")
    assert page.get_attribute('[data-review-ply="8"]', "aria-current") == "true"
    if AXE.is_file():
        lines = audit(page, "review desktop")
        assert not lines, verdict(lines)
    assert not page.errors


@pytest.mark.parametrize("lang", ["it", "ru"])
def test_on_a_phone_in_italian_and_russian(
    server: LiveServer, context_factory: Any, lang: str
) -> None:
    tid = finished_game(server)
    page = open_review(context_factory, server, tid, **PHONE)
    switch_lang(page, lang)
    page.wait_for_function(
        "w => document.querySelector('[data-review] h2')?.textContent === w",
        arg={"it": "Revisione della partita", "ru": "Разбор партии"}[lang],
    )
    page.click('[data-review-ply="8"]')
    page.wait_for_function("() => document.querySelector('[data-replay]')?.dataset.ply === '8'")
    words = page.inner_text("[data-review-words]")
    assert {"it": "quadrati", "ru": "квадрат"}[lang] in words
    assert no_sideways_scroll(page)
    page.locator("[data-review-graph]").scroll_into_view_if_needed()
    shot(page, f"review-phone-{lang}")
    if AXE.is_file():
        lines = audit(page, f"review phone {lang}")
        assert not lines, verdict(lines)
    assert not page.errors

"""A newcomer's first Verticality tower (issue 33, items 14-16): each piece starts on the spot
the game suggests and "Place it here" puts it there, so following the page builds three
levels; a card aimed off its pyramids is refused in words with the way back; the move list and
the die read as words; a solo game ends with the height reached and the personal best, never
"wins" or a winner badge.

The table uses `tremor_mm: 0` (as tests/web/test_verticality.py does) so the towers are the
same at every run; the suggestion at the normal tremor is checked on the engine
(tests/games/verticality/test_first_tower.py)."""

from __future__ import annotations

import math
import re
from typing import Any

from tests.web.conftest import PHONE, LiveServer, shot, switch_lang, version, wait_version
from tests.web.test_verticality import CANVAS, Towers, open_seat, wait_still

SUGGESTED = "document.querySelector('.towers')?.dataset.suggested"


def wait_suggested(page: Any) -> str:
    """Wait until the aim stands on the game's suggestion and the server said it can go."""
    page.wait_for_function(
        f"() => {{ const s = {SUGGESTED}; const c = document.querySelector('{CANVAS}');"
        " return s && c.dataset.aim === s && c.dataset.aimState === 'ok'; }"
    )
    text: str = page.evaluate(f"() => {SUGGESTED}")
    return text


def place_suggested(page: Any) -> str:
    aim = wait_suggested(page)
    v = version(page)
    page.click("[data-aim-place]")
    wait_version(page, v + 1)
    return aim


def test_a_newcomer_follows_the_suggested_aims_to_three_levels_and_reads_the_result(
    server: LiveServer, context_factory: Any
) -> None:
    table = Towers(server, ["Ada"])
    page = open_seat(context_factory, table, 0)
    assert "First time?" in (page.text_content("[data-towers-help]") or "")
    for _ in range(3):
        assert place_suggested(page).startswith("pyramid ")
    # The die in words: a two-size face reads "small + medium", never "S+M".
    die = page.text_content("[data-towers-die]") or ""
    assert not re.search(r"\b[SML]\+[SML]\b", die)

    # The card off its pyramids (the y −10.4 with the tips far away): refused in words,
    # and the way back to the suggested spot.
    suggested = wait_suggested(page)
    assert suggested.startswith("card ")
    page.focus(CANVAS)
    for _ in range(5):
        page.keyboard.press("Shift+ArrowDown")  # 50 mm towards me
    page.wait_for_function(
        f"() => document.querySelector('{CANVAS}').dataset.aimState === 'refused'"
    )
    reason = page.text_content("[data-aim-reason]") or ""
    assert "Not resting on the pyramids" in reason and "slide off" in reason
    assert page.is_visible("[data-aim-suggest]")
    shot(page, "verticality-first-card-refused-desktop")
    page.click("[data-aim-suggest]")
    assert wait_suggested(page) == suggested
    v = version(page)
    page.click("[data-aim-place]")
    wait_version(page, v + 1)

    for _ in range(8):  # levels 2 and 3, as suggested
        place_suggested(page)
    board = table.board()
    assert board["towers"][0]["levels"] == 3 and board["towers"][0]["standing"]
    wait_still(page)
    shot(page, "verticality-first-three-levels-desktop")

    # The move list reads as words; the notation stays in the tooltip.
    page.wait_for_selector("[data-move-list] .moves-words")
    words = page.eval_on_selector_all(
        "[data-move-list] .moves-words", "els => els.map(e => e.textContent)"
    )
    assert len(words) == 12 and all("x=" not in w for w in words)
    assert words[0].startswith("pyramid at (") and words[3].startswith("card at (")
    # (a release within 2 s of the step's start is hasty, which the words say too)
    assert re.search(r"\) mm, turned [\d.,]+°(, haste \d+%)?$", words[3])
    switch_lang(page, "ru")
    page.wait_for_selector("[data-move-list] .moves-words:has-text('карта в точке')")
    shot(page, "verticality-first-moves-ru-desktop")
    switch_lang(page, "it")
    page.wait_for_selector("[data-move-list] .moves-words:has-text('carta a (')")
    switch_lang(page, "en")

    # Level 4's pyramids as suggested, then its card dropped off its pyramids anyway, over the
    # API (the page would refuse it): it slides, slides again, and the tower is out.
    def post(what: str, move: str | None = None) -> Any:
        body = {"token": table.tokens[0], **({"move": move} if move else {})}
        return server.post(f"/api/tables/{table.id}/{what}", body)

    while not table.view()["state"]["is_over"]:
        aim = post("suggestion")["aim"]
        if aim.startswith("card "):
            card = dict(w.split("=") for w in aim.split()[1:])
            turn = math.radians(float(card["rot"]))  # 40 mm across the card, in its own frame
            x, y = float(card["x"]) + 40 * math.cos(turn), float(card["y"]) + 40 * math.sin(turn)
            aim = f"card x={x:.2f} y={y:.2f} rot={card['rot']}"
        post("moves", aim)
    page.wait_for_selector("[data-result]")
    assert table.view()["result"]["winners"] == []
    banner = page.locator("[data-result]")
    headline = banner.locator("h2").text_content() or ""
    assert headline.startswith("You reached 3 levels, ") and "wins" not in headline
    assert banner.locator(".badge").count() == 0
    assert "wins" not in (banner.text_content() or "")
    page.wait_for_selector(
        "[data-result] [data-result-best]:has-text('A new personal best: 3 levels')"
    )
    wait_still(page)
    shot(page, "verticality-first-result-desktop")
    for lang, best in (
        ("it", "Nuovo record personale: 3 livelli"),
        ("ru", "Новый личный рекорд: 3 уровня"),
    ):
        switch_lang(page, lang)
        page.wait_for_selector(f"[data-result] [data-result-best]:has-text('{best}')")
        shot(page, f"verticality-first-result-{lang}-desktop")
    assert not page.errors

    phone = open_seat(context_factory, table, 0, **PHONE)
    phone.wait_for_selector("[data-result] [data-result-best]:has-text('A new personal best')")
    shot(phone, "verticality-first-result-phone")
    for lang in ("it", "ru"):
        switch_lang(phone, lang)
        phone.wait_for_selector(f"html[lang='{lang}'] [data-result] [data-result-best]")
        shot(phone, f"verticality-first-result-{lang}-phone")
    assert not phone.errors


def test_on_a_phone_the_suggested_spot_is_placed_with_one_tap(
    server: LiveServer, context_factory: Any
) -> None:
    table = Towers(server, ["Bea"])
    page = open_seat(context_factory, table, 0, **PHONE)
    for _ in range(4):
        page.locator("[data-aim-place]").scroll_into_view_if_needed()
        aim = wait_suggested(page)
        v = version(page)
        page.tap("[data-aim-place]")
        wait_version(page, v + 1)
    assert aim.startswith("card ")
    assert table.board()["towers"][0]["levels"] == 1
    wait_still(page)
    shot(page, "verticality-first-level-phone")
    for lang in ("it", "ru"):
        switch_lang(page, lang)
        wait_suggested(page)
        shot(page, f"verticality-first-level-{lang}-phone")
    assert not page.errors

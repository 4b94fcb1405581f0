"""A newcomer's first minutes in the lobby (issue 33): Play now asks for a name in a row of
its own across the card (no sideways scroll, nothing covered, the card's words on one line),
on desktop and phone, in three languages; a phone with nothing listed shows the games first,
the empty sections folded into one line, and the header keeps the site's name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import DESKTOP, PHONE, LiveServer, shot, switch_lang

PLACE = "[data-lobby-place]"

#: The page is wider than the screen (a phone's layout viewport grows with the content, so
#: innerWidth is no measure there: the screen's width is).
SIDEWAYS = "w => document.documentElement.scrollWidth > w"

#: Whether the element is drawn on top where it stands (not covered by the next card).
ON_TOP = """el => { const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return hit !== null && (hit === el || el.contains(hit)); }"""

#: How many lines the element's shown words take (words for screen readers only left out).
LINES = """el => { const tops = new Set();
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    if (!node.textContent.trim() || node.parentElement.closest(".sr-only")) continue;
    const range = document.createRange(); range.selectNodeContents(node);
    for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round(r.top));
  }
  return tops.size; }"""


def lobby(context: Any, url: str) -> Any:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url + "/")
    page.wait_for_selector(f"{PLACE}:not([data-version=''])")
    page.errors = errors
    return page


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_play_now_asks_for_a_name_across_the_card_without_sideways_scroll(
    server: LiveServer, context_factory: Any, device: str
) -> None:
    desktop = {**DESKTOP, "viewport": {"width": 1280, "height": 800}}
    options = PHONE if device == "phone" else desktop
    width = options["viewport"]["width"]
    page = lobby(context_factory(**options), server.url)
    games = page.eval_on_selector_all("[data-game]", "els => els.map(e => e.dataset.game)")
    assert len(games) >= 6
    for code in ("en", "it", "ru"):
        switch_lang(page, code)
        for game in games:
            card = page.locator(f'li[data-game="{game}"]')
            play = card.locator('[data-action="play-now"]')
            # the card's own words on one line each, before and while the name is asked
            assert play.evaluate(LINES) == 1, f"{game} ({code}): Play now wraps"
            assert card.locator(".game-rules").evaluate(LINES) == 1, f"{game} ({code})"
            play.click()
            ask = card.locator("[data-name-ask]")
            ask.wait_for()
            assert page.evaluate("document.activeElement.name") == "display-name"
            assert not page.evaluate(SIDEWAYS, width), f"{game} ({code}) scrolls sideways"
            assert card.locator(".game-rules").evaluate(LINES) == 1, f"{game} ({code})"
            # the form spans the card, below its rules link and Play now
            box, foot = ask.bounding_box(), card.locator(".game-foot").bounding_box()
            inside = card.bounding_box()
            assert box and foot and inside
            assert box["y"] >= foot["y"] + foot["height"] - 1
            assert inside["x"] <= box["x"]
            assert box["x"] + box["width"] <= inside["x"] + inside["width"]
            for button in ask.locator("button").all():
                button.scroll_into_view_if_needed()
                assert button.evaluate(ON_TOP), f"{game} ({code}): a button of the form is covered"
                assert button.evaluate(LINES) == 1
            if game == games[-1]:
                shot(page, f"lobby-play-now-name-{device}-{code}")
            page.keyboard.press("Escape")  # cancelled: gone, and the focus back on Play now
            ask.wait_for(state="detached")
            assert page.evaluate("document.activeElement.dataset.action") == "play-now"
    assert page.errors == []


def test_a_phone_with_nothing_listed_shows_the_games_first_under_the_sites_name(
    tmp_path: Path, context_factory: Any
) -> None:
    with LiveServer(tmp_path) as live:  # a lobby of its own: nothing listed
        page = lobby(context_factory(**PHONE), live.url)
        for code in ("en", "it", "ru"):
            switch_lang(page, code)
            # the header: one row, the site's name shown beside the mark
            brand = page.locator("header.site .brand span")
            assert brand.inner_text() == "Vertex"
            box = brand.bounding_box()
            assert box and box["width"] > 30 and box["x"] + box["width"] <= 360
            assert brand.evaluate(ON_TOP)
            assert page.evaluate("() => document.querySelector('header.site').scrollWidth <= 360")
            assert page.locator("header.site").bounding_box()["height"] < 80  # type: ignore[index]
            # the first game card, its Play now included, in the first screen
            play = page.locator('[data-game] [data-action="play-now"]').first
            assert play.bounding_box()["y"] + 44 <= 740, code  # type: ignore[index]
            # the three empty sections: one line, after the games
            quiet = page.locator("[data-lobby-quiet]")
            assert quiet.is_visible() and quiet.evaluate(LINES) == 1
            for hook in ("open", "live", "finished"):
                assert page.locator(f"[data-lobby-{hook}]").is_hidden()
            assert not page.evaluate(SIDEWAYS, 360)
            shot(page, f"lobby-phone-quiet-{code}")
        # With a table listed, the tables come first, the empty sections a line each.
        tid = live.post("/api/tables", {"game": "figures", "options": {}, "listed": True})["id"]
        page.reload()
        page.wait_for_selector(f'[data-lobby-open] [data-lobby-table="{tid}"]')
        place = page.locator(PLACE).bounding_box()
        first = page.locator("[data-game]").first.bounding_box()
        assert place and first and place["y"] < first["y"]
        assert page.locator("[data-lobby-quiet]").count() == 0
        for hook in ("live", "finished"):
            section = page.locator(f"[data-lobby-{hook}]")
            assert section.is_visible()
            assert section.evaluate(LINES) == 1, f"the empty {hook} section is one line"
        assert not page.evaluate(SIDEWAYS, 360)
        shot(page, "lobby-phone-listed")
        assert page.errors == []

"""Italian words that must fit and agree (issue 33, item 20): "Copia il link" on one line and
whole at a table, on desktop and phone; the Verticality bests board says "Rivedi" (as the
table does), not "Replay"."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import DESKTOP, PHONE, LiveServer, shot, sit

#: How many lines the element's words take, and whether they are cut (wider than its box).
FIT = """el => { const range = document.createRange(); range.selectNodeContents(el);
  const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0)
    .map((r) => Math.round(r.top))).size;
  return { text: el.textContent, lines, cut: el.scrollWidth > el.clientWidth }; }"""


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_copy_link_fits_on_one_line_in_italian(
    server: LiveServer, context_factory: Any, device: str
) -> None:
    tid = server.post("/api/tables", {"game": "dots-and-boxes", "options": {"rows": 3}})["id"]
    token = sit(server, tid, 0, "Ada")
    sit(server, tid, 1, "Bice")  # the game on: the links in the side column
    page = context_factory(**(PHONE if device == "phone" else DESKTOP), locale="it-IT").new_page()
    page.goto(f"{server.url}/tables/{tid}#token={token}")
    page.wait_for_selector("[data-table]:not([data-my-seat=''])")
    page.click(".seat-link summary")  # the private seat link, folded away: open it
    words_of = {"data-share-link": "Copia il link", "data-seat-link": "Copia il link del posto"}
    for field, words in words_of.items():
        copy = page.locator(f"[{field}] + button.copy")
        copy.scroll_into_view_if_needed()
        fit = copy.evaluate(FIT)
        assert fit == {"text": words, "lines": 1, "cut": False}, (device, fit)
        box, row = copy.bounding_box(), page.locator(f"[{field}]").locator("..").bounding_box()
        assert box and row and box["x"] + box["width"] <= row["x"] + row["width"] + 0.5
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    shot(page, f"table-links-it-{device}")


def test_the_bests_board_says_rivedi_in_italian(tmp_path: Any, context_factory: Any) -> None:
    with LiveServer(tmp_path) as live:
        # a solo tower of no level at all: over at once, on the board
        opts = {"players": 1, "tremor_mm": 0.0, "step_seconds": 0}
        tid = live.post("/api/tables", {"game": "verticality", "options": opts})["id"]
        token = sit(live, tid, 0, "Bea")
        live.post(f"/api/tables/{tid}/actions", {"token": token, "action": "resign"})
        page = context_factory(locale="it-IT").new_page()
        page.goto(f"{live.url}/rules/verticality#bests")
        page.wait_for_selector("[data-bests-board][data-bests='1']")
        heads = page.locator("table.bests-site thead th").all_inner_texts()
        assert heads[-1] == "Rivedi", heads
        assert page.inner_text("table.bests-site a[data-replay-link]") == "Rivedi"
        assert "Replay" not in page.inner_text("[data-bests-board]")
        shot(page, "verticality-bests-it")

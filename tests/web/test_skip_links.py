"""Every page starts with a skip link (DESIGN §6: `a[href^="#"]`, the first Tab stop) that
takes the keyboard to the main content: the lobby's, a rules page's, the API documentation's,
and at a table its board; a page without its target (a missing table) lands on `main`. Every
HTML page of the site is checked, so a page added later is too."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import LiveServer, sit

WEB = Path(__file__).resolve().parents[2] / "src" / "vertex" / "web"
FOCUSABLE = {"a", "button", "input", "select", "textarea", "summary", "iframe"}


class FirstStop(HTMLParser):
    """The first element of the body a Tab can reach, as (tag, attributes)."""

    def __init__(self) -> None:
        super().__init__()
        self.in_body = False
        self.first: tuple[str, dict[str, str | None]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "body":
            self.in_body = True
        elif self.in_body and self.first is None:
            found = dict(attrs)
            if tag in FOCUSABLE or ("tabindex" in found and found["tabindex"] != "-1"):
                self.first = (tag, found)


@pytest.mark.parametrize("page", sorted(p.name for p in WEB.glob("*.html")))
def test_every_html_page_starts_with_a_skip_link_to_its_content(page: str) -> None:
    html = (WEB / page).read_text(encoding="utf-8")
    parser = FirstStop()
    parser.feed(html)
    assert parser.first is not None, f"{page}: nothing to Tab to"
    tag, attrs = parser.first
    assert tag == "a" and (attrs.get("href") or "").startswith("#"), f"{page}: {parser.first}"
    assert "skip" in (attrs.get("class") or "").split()
    assert 'tabindex="-1"' in html.split("<main", 1)[1].split(">", 1)[0] or page == "table.html"


#: A table page has drawn its first version.
READY = "() => document.querySelector('[data-table]')?.dataset.version !== ''"
#: What the first Tab focuses; then what Enter on it focuses (and whether that is in `main`).
PRESS = """() => { const e = document.activeElement;
  return { tag: e.tagName, skip: e.matches('a.skip[href^="#"]'), text: e.textContent.trim() }; }"""
LANDED = """() => { const e = document.activeElement;
  return { id: e.id, main: Boolean(e.closest('main')), board: Boolean(e.closest('#board')),
    cell: e.getAttribute('data-cell'), hash: location.hash }; }"""


def tab_and_enter(page: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    page.keyboard.press("Tab")
    first = page.evaluate(PRESS)
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.activeElement.matches('a.skip')")
    return first, page.evaluate(LANDED)


def test_the_first_tab_of_every_page_is_its_skip_link(tmp_path: Path, context_factory: Any) -> None:
    with LiveServer(tmp_path) as live:
        tid = live.post("/api/tables", {"game": "dots-and-boxes", "options": {"rows": 3}})["id"]
        token = sit(live, tid, 0, "Ann")
        sit(live, tid, 1, "Bo")
        # (address, what shows it is drawn, where the skip link lands: an id, or at a table
        # the board's own keyboard cursor: a cell of the Dots board, `[data-cell]`)
        pages = [
            ("/", "[data-lobby-place]:not([data-version=''])", "main"),
            ("/rules/figures", "[data-rules][data-pictures]", "main"),
            ("/rules/chess", "h1[data-missing]", "main"),
            (f"/tables/{tid}", READY, "board"),
            (f"/tables/{tid}#token={token}", READY, "board"),
            ("/tables/no-such-table", "[data-missing]", "main"),
            ("/docs", ".opblock-summary-path", "api"),
        ]
        for url, drawn, target in pages:
            page = context_factory(locale="en-US").new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e, errors=errors: errors.append(str(e)))
            page.goto(live.url + url)
            if drawn.startswith("()"):
                page.wait_for_function(drawn)
            else:
                page.wait_for_selector(drawn)
            first, landed = tab_and_enter(page)
            assert first["skip"], f"{url}: the first Tab focuses {first}"
            assert first["text"] == "Skip to content"
            assert landed["main"], f"{url}: the skip link lands on {landed}"
            if target == "board":
                assert landed["board"] and landed["cell"] is not None, f"{url}: {landed}"
            else:
                assert landed["id"] == target, f"{url}: the skip link lands on {landed}"
            # the address keeps its own fragment (no "#board" replacing a table's); Swagger UI
            # writes its own (its deep links)
            assert landed["hash"] in ("", f"#token={token}") or url == "/docs"
            assert errors == [], url


def test_the_skip_link_speaks_the_pages_language_at_a_table(
    server: LiveServer, context_factory: Any
) -> None:
    tid = server.post("/api/tables", {"game": "vert3x"})["id"]
    for locale, words in (("it-IT", "Vai al contenuto"), ("ru-RU", "К содержимому")):
        page = context_factory(locale=locale).new_page()
        page.goto(f"{server.url}/tables/{tid}")
        page.wait_for_function(READY)
        first, landed = tab_and_enter(page)
        assert first["skip"] and first["text"] == words
        assert landed["board"] and landed["id"] != "board"  # the board's own cursor

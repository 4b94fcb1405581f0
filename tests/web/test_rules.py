"""The rules pages `/rules/{game}`: every game in three languages, the pictures drawn by the
board modules from the server's positions, the options as the server states them, the page
for an unknown game, and a phone-width layout with no sideways scroll."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import PHONE, no_sideways_scroll, shot, switch_lang

WEB = Path(__file__).resolve().parents[2] / "src" / "vertex" / "web"

#: The heading of each game's page in en, it, ru (`rules.name.*` in i18n/<lang>/rules.json).
NAMES = {
    "dots-and-boxes": ("Dots and Boxes", "Punti e Scatole", "Точки и квадраты"),
    "dots-and-triangles": ("Dots and Triangles", "Punti e Triangoli", "Точки и треугольники"),
    "figures": ("Figures", "Figure", "Фигуры"),
    "vert3x": ("Vert3x", "Vert3x", "Vert3x"),
    "juxtapose": ("Juxtapose", "Juxtapose", "Juxtapose"),
    "verticality": ("Verticality", "Verticality", "Verticality"),
}
#: A section title per language, so a switch is seen in the body too, not only the name.
OPTIONS_TITLE = {"en": "Options", "it": "Opzioni", "ru": "Настройки"}
SECTIONS = ["play", "win", "options", "decisions", "notation", "here"]


def open_rules(page: Any, url: str, game: str) -> Any:
    response = page.goto(f"{url}/rules/{game}")
    page.wait_for_selector("[data-rules][data-pictures]")
    return response


def switch(page: Any, code: str) -> None:
    switch_lang(page, code)
    page.wait_for_function("c => document.documentElement.lang === c", arg=code)


def drawable(page: Any, game: str) -> int:
    """How many of the game's pictures a board module can draw right now (boards are being
    written in parallel; the page must skip the others and still show the text)."""
    count: int = page.evaluate(
        """async (game) => {
          const src = document.querySelector('script[type=module][src$="/js/rules/main.js"]').src;
          const boards = await import(src.replace(/rules\\/main\\.js$/, "boards/index.js"));
          const list = await (await fetch(`/api/rules/${game}/diagrams`)).json();
          let n = 0;
          for (const d of list) {
            try {
              const mod = await boards.loadBoard(d.state);
              if (mod && typeof mod.renderPreview === "function") n += 1;
            } catch { /* a module that does not load draws nothing */ }
          }
          return n;
        }""",
        game,
    )
    return count


@pytest.mark.parametrize("game", list(NAMES))
def test_rules_page_in_three_languages(server: Any, context_factory: Any, game: str) -> None:
    page = context_factory(locale="en-US").new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    response = open_rules(page, server.url, game)
    assert response.status == 200
    for code, name in zip(("en", "it", "ru"), NAMES[game], strict=True):
        switch(page, code)
        assert page.inner_text("h1") == name
        assert page.inner_text("#options-title") == OPTIONS_TITLE[code]
        assert name in page.title()
    switch(page, "en")
    # The sections and the table of contents that leads to them.
    toc = page.eval_on_selector_all(".rules-toc a", "els => els.map(a => a.hash.slice(1))")
    # every game's page has the common sections in this order (a game may add its own)
    assert [s for s in toc if s in SECTIONS] == SECTIONS
    for section in toc:
        assert page.locator(f"section#{section} h2").count() == 1
    # Every option the server lists is explained, with its default and range.
    info = next(g for g in server.get("/api/games") if g["id"] == game)
    shown = page.eval_on_selector_all("[data-option]", "els => els.map(e => e.dataset.option)")
    assert sorted(shown) == sorted(info["options"]["properties"])
    assert page.locator("[data-option] [data-default]").count() == len(shown)
    # Back to the lobby, and straight to a new table of this game.
    assert page.get_attribute("[data-start-table]", "href") == f"/?game={game}"
    assert page.locator('.rules-crumbs a[href="/"]').count() == 1
    assert not errors, errors


def test_options_show_the_servers_defaults_in_each_language(
    server: Any, context_factory: Any
) -> None:
    page = context_factory(locale="en-US").new_page()
    open_rules(page, server.url, "dots-and-boxes")
    switch(page, "en")

    def default(name: str) -> str:
        text: str = page.inner_text(f'[data-option="{name}"] [data-default]')
        return text

    def facts(name: str) -> str:
        text: str = page.inner_text(f'[data-option="{name}"] dl')
        return text

    assert default("rows") == "3" and "1–12" in facts("rows")
    assert default("players") == "2" and "2–6" in facts("players")
    assert default("misere") == "off" and default("extra_turn") == "on"
    switch(page, "it")
    assert default("misere") == "no" and default("extra_turn") == "sì"
    switch(page, "ru")
    assert default("misere") == "нет"
    open_rules(page, server.url, "juxtapose")
    assert default("move_limit") == "200"


@pytest.mark.parametrize("game", list(NAMES))
def test_pictures_are_drawn_by_the_board_modules(
    server: Any, context_factory: Any, game: str
) -> None:
    page = context_factory().new_page()
    open_rules(page, server.url, game)
    drawn = int(page.get_attribute("[data-rules]", "data-pictures") or "0")
    if game == "verticality":
        # No board module: the page draws the sizes, a tower and the die itself.
        assert drawn == 3
        assert page.locator("figure[data-drawn] svg").count() == 3
        return
    expected = drawable(page, game)
    assert drawn == expected
    assert page.locator("figure[data-drawn] svg").count() == expected
    # Each board family has its folder and its board module named after it
    # (js/boards/<renderer>/<renderer>.js), which draws every one of the game's pictures.
    renderer = {"dots-and-boxes": "dots", "dots-and-triangles": "dots", "figures": "dots"}
    family = renderer.get(game, game)
    assert (WEB / "js" / "boards" / family / f"{family}.js").exists(), family
    assert expected == len(server.get(f"/api/rules/{game}/diagrams"))
    # A picture that is shown has a caption saying in words what it shows; the drawing
    # itself is left to the eyes (a screen reader reads the caption once).
    for fig in page.query_selector_all("figure[data-drawn]"):
        cap = fig.query_selector("figcaption")
        assert cap is not None and cap.inner_text().strip()
        assert fig.query_selector("svg").get_attribute("aria-hidden") == "true"
    # Pictures are drawn again after a language switch.
    switch(page, "ru")
    page.wait_for_selector("[data-rules][data-pictures]")
    assert int(page.get_attribute("[data-rules]", "data-pictures") or "0") == drawn


def test_unknown_game_gets_a_clear_404_page(server: Any, context_factory: Any) -> None:
    page = context_factory(locale="en-US").new_page()
    response = page.goto(f"{server.url}/rules/chess")
    assert response.status == 404
    page.wait_for_selector("h1[data-missing]")
    switch(page, "en")
    assert page.inner_text("h1") == "No such game"
    assert "“chess”" in page.inner_text(".notice")
    links = page.eval_on_selector_all(".rules-game-list a", "els => els.map(a => a.pathname)")
    assert links == [f"/rules/{g['id']}" for g in server.get("/api/games")]  # the server's
    switch(page, "it")
    assert page.inner_text("h1") == "Gioco non trovato"
    shot(page, "rules-missing")


def test_keyboard_reaches_the_contents_and_the_sections(server: Any, context_factory: Any) -> None:
    page = context_factory(locale="en-US").new_page()
    open_rules(page, server.url, "figures")
    switch(page, "en")
    page.focus(".rules-toc a[href='#options']")
    page.keyboard.press("Enter")
    page.wait_for_function("() => location.hash === '#options'")
    top = page.evaluate("document.querySelector('#options').getBoundingClientRect().top")
    assert 0 <= top < 100
    # A link to a section (shared, or from another page) lands on it once the page is drawn.
    page.goto(f"{server.url}/rules/juxtapose#decisions")
    page.wait_for_selector("[data-rules][data-pictures]")
    page.wait_for_function(
        "() => Math.abs(document.querySelector('#decisions').getBoundingClientRect().top) < 100"
    )
    # The skip link is the first stop and leads to the content.
    page.goto(f"{server.url}/rules/figures")
    page.wait_for_selector("[data-rules][data-pictures]")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.classList.contains('skip')")


@pytest.mark.parametrize("game", list(NAMES))
def test_rules_fit_a_phone(server: Any, context_factory: Any, game: str) -> None:
    page = context_factory(**PHONE, locale="en-US").new_page()
    open_rules(page, server.url, game)
    for code in ("en", "it", "ru"):
        switch(page, code)
        page.wait_for_selector("[data-rules][data-pictures]")
        assert no_sideways_scroll(page), f"{game} ({code}) scrolls sideways at 360 px"
    shot(page, f"rules-{game}-phone")


@pytest.mark.parametrize("game", list(NAMES))
def test_rules_on_a_desktop_show_every_picture_inside_the_column(
    server: Any, context_factory: Any, game: str
) -> None:
    page = context_factory(locale="en-US").new_page()
    open_rules(page, server.url, game)
    code = "en" if game != "dots-and-triangles" else "it"
    switch(page, code)
    page.wait_for_selector("[data-rules][data-pictures]")
    assert page.inner_text("h1") == NAMES[game][0 if code == "en" else 1]
    drawn = int(page.get_attribute("[data-rules]", "data-pictures") or "0")
    boxes = page.eval_on_selector_all(
        "figure[data-drawn] svg",
        "els => els.map(e => { const r = e.getBoundingClientRect(); "
        "return [r.left, r.right, r.width, r.height]; })",
    )
    assert drawn > 0 and len(boxes) == drawn  # every game's page has its pictures
    width = page.viewport_size["width"]
    for left, right, w, h in boxes:
        assert left >= 0 and right <= width and w > 40 and h > 20, (game, left, right, w, h)
    assert no_sideways_scroll(page)
    shot(page, f"rules-{game}-desktop")

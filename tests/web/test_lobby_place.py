"""The lobby as a place in the browser: a listed table appears live on another lobby, a
stranger sits with one click, "Your tables" marks your turn, a private table shows nowhere,
Play now seats two people at one table, three languages and the phone width."""

from __future__ import annotations

import re
from typing import Any

from tests.web.conftest import PHONE, no_sideways_scroll, shot, switch_lang, wait_version

FORM = "form[data-new-table]"
PLACE = "[data-lobby-place]"
TABLE_URL = re.compile(r"/tables/[A-Za-z0-9_-]+$")


def lobby_page(context: Any, server: Any) -> Any:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(server.url + "/")
    page.wait_for_selector(f"{PLACE}:not([data-version=''])")
    page.errors = errors
    return page


def place_version(page: Any) -> int:
    return int(page.get_attribute(PLACE, "data-version") or 0)


def move_on(page: Any, server: Any, tid: str) -> int:
    """Play the first legal move of the seat to move, by clicking its line; the new version."""
    view = server.get(f"/api/tables/{tid}")
    wait_version(page, view["version"])
    page.locator(f'[data-line="{view["state"]["legal_moves"][0]}"]').click()
    return wait_version(page, view["version"] + 1)


def test_a_listed_table_appears_live_and_a_stranger_sits_with_one_click(
    server: Any, context_factory: Any
) -> None:
    ctx_a, ctx_b = context_factory(), context_factory()
    b = lobby_page(ctx_b, server)  # B's lobby is open before the table exists
    before = place_version(b)
    a = ctx_a.new_page()
    a.goto(server.url + "/?game=dots-and-boxes")
    a.wait_for_selector(f'{FORM}[data-for-game="dots-and-boxes"][data-state="ok"]')
    form = a.locator(FORM)
    form.locator('[name="rows"]').fill("3")
    form.locator('[name="cols"]').fill("3")
    assert not form.locator('[name="listed"]').is_checked()  # private unless asked
    form.locator('[name="listed"]').check()
    form.locator('[name="display-name"]').fill("Ann <b>")
    a.wait_for_selector(f'{FORM}[data-state="ok"]')
    form.locator('button[type="submit"]').click()
    a.wait_for_url(TABLE_URL)
    tid = a.url.rsplit("/", 1)[1]

    entry = f'[data-lobby-open] [data-lobby-table="{tid}"]'
    b.wait_for_selector(f'{entry}[data-free-seats="1"][data-game="dots-and-boxes"]')
    assert place_version(b) > before
    assert "Ann <b>" in b.locator(entry).inner_text()  # a name is text, never markup
    assert b.locator(f"{entry} b").count() == 0
    shot(b, "lobby-place-desktop")
    # a private table made meanwhile is in no section and no answer
    private = server.post("/api/tables", {"game": "dots-and-boxes", "options": {"rows": 3}})["id"]
    b.click(f'{entry} [data-action="sit"]')
    b.fill('[data-name-ask] [name="display-name"]', "Bob")
    b.press('[data-name-ask] [name="display-name"]', "Enter")
    b.wait_for_url(re.compile(f"/tables/{tid}$"))
    b.wait_for_selector('[data-table][data-my-seat="1"]')

    a_lobby = lobby_page(ctx_a, server)
    mine = f'[data-my-tables] [data-my-table="{tid}"]'
    a_lobby.wait_for_selector(f'{mine}[data-my-turn="true"]')  # the game started: A first
    move_on(a, server, tid)
    a_lobby.wait_for_selector(f'{mine}[data-my-turn="false"]')
    v = move_on(b, server, tid)
    a_lobby.wait_for_selector(f'{mine}[data-my-turn="true"]')
    wait_version(a, v)
    a_lobby.wait_for_selector(f'[data-lobby-live] [data-lobby-table="{tid}"]')
    assert a_lobby.locator(f'[data-lobby-open] [data-lobby-table="{tid}"]').count() == 0
    for page in (a_lobby, b):
        assert private not in page.content()
    lobby = server.get("/api/lobby")
    assert private not in str(lobby) and tid in [e["id"] for e in lobby["live"]]
    shot(a_lobby, "lobby-place-your-turn")
    assert a_lobby.errors == [] and b.errors == []


def test_play_now_at_the_same_moment_lands_two_people_at_one_table(
    server: Any, context_factory: Any
) -> None:
    pages = []
    for name in ("Cy", "Di"):
        ctx = context_factory()
        ctx.add_init_script(f"localStorage.setItem('vertex.name', '{name}')")
        pages.append(lobby_page(ctx, server))
    button = '[data-game="juxtapose"] [data-action="play-now"]'
    # Playwright drives both pages from this thread: the two presses go out back to back
    for page in pages:
        page.locator(button).wait_for()
    pages[0].evaluate(f"document.querySelector('{button}').click()")
    pages[1].evaluate(f"document.querySelector('{button}').click()")
    for page in pages:
        page.wait_for_url(TABLE_URL, timeout=30_000)
    assert pages[0].url == pages[1].url
    tid = pages[0].url.rsplit("/", 1)[1]
    view = server.get(f"/api/tables/{tid}")
    assert view["game"] == "juxtapose" and view["started"]
    assert sorted(s["name"] for s in view["seats"]) == ["Cy", "Di"]
    mine = set()
    for page in pages:
        page.wait_for_selector('[data-table]:not([data-my-seat=""])')
        mine.add(page.get_attribute("[data-table]", "data-my-seat"))
    assert mine == {"0", "1"}


def test_play_now_waits_visibly_and_can_be_cancelled(server: Any, context_factory: Any) -> None:
    ctx = context_factory()
    ctx.add_init_script("localStorage.setItem('vertex.name', 'Eve')")
    page = lobby_page(ctx, server)
    page.click('[data-game="vert3x"] [data-action="play-now"]')
    panel = page.locator("[data-play-now-waiting]")
    panel.wait_for()
    assert "Waiting for an opponent" in panel.inner_text()
    open_ids = [e["id"] for e in server.get("/api/lobby?game=vert3x")["open"]]
    assert len(open_ids) == 1
    page.wait_for_selector(f'[data-lobby-open] [data-lobby-table="{open_ids[0]}"]')
    assert page.evaluate("document.activeElement.dataset.action") == "cancel-play-now"
    page.keyboard.press("Enter")  # the keyboard alone cancels
    page.wait_for_selector("[data-play-now-waiting]", state="hidden")
    page.wait_for_selector(f'[data-lobby-table="{open_ids[0]}"]', state="detached")
    assert server.get("/api/lobby?game=vert3x")["open"] == []


def test_the_place_in_italian_and_russian_on_a_phone(server: Any, context_factory: Any) -> None:
    tid = server.post("/api/tables", {"game": "figures", "options": {}, "listed": True})["id"]
    page = lobby_page(context_factory(**PHONE), server)
    page.wait_for_selector(f'[data-lobby-table="{tid}"]')
    assert no_sideways_scroll(page)
    shot(page, "lobby-place-phone")
    switch_lang(page, "it")
    heading = "w => document.querySelector('[data-lobby-open] h3').textContent.includes(w)"
    page.wait_for_function(heading, arg="In attesa")
    sit = page.locator(f'[data-lobby-table="{tid}"] [data-action="sit"]')
    assert sit.inner_text() == "Siediti"
    switch_lang(page, "ru")
    page.wait_for_function(heading, arg="Ждут")
    play = page.locator('[data-game="juxtapose"] [data-action="play-now"]')
    assert play.inner_text() == "Играть сейчас"
    assert no_sideways_scroll(page)
    shot(page, "lobby-place-phone-ru")
    assert page.errors == []


BACKGROUND = """
window.__hidden = false; window.__asked = 0; window.__beeps = 0; window.__notes = [];
Object.defineProperty(document, 'visibilityState', {
  configurable: true, get: () => (window.__hidden ? 'hidden' : 'visible') });
window.Notification = class {
  constructor(text) { window.__notes.push(text); }
  static async requestPermission() {
    window.__asked += 1; window.Notification.permission = 'granted'; return 'granted'; }
};
window.Notification.permission = 'default';
window.AudioContext = class { constructor() { window.__beeps += 1; throw new Error('quiet'); } };
"""


def test_being_told_in_the_background(server: Any, context_factory: Any) -> None:
    tid = server.post("/api/tables", {"game": "dots-and-boxes", "options": {"rows": 3}})["id"]
    mine = server.post(f"/api/tables/{tid}/seats/0", {"name": "Gil"})["token"]
    theirs = server.post(f"/api/tables/{tid}/seats/1", {"name": "Hal"})["token"]
    ctx = context_factory()
    ctx.add_init_script(BACKGROUND)
    ctx.add_init_script(
        f"localStorage.setItem('vertex.seat.{tid}', '{mine}');"
        f"localStorage.setItem('vertex.myseat.{tid}', '0');"
    )
    page = lobby_page(ctx, server)
    entry = f'[data-my-table="{tid}"]'
    page.wait_for_selector(f'{entry}[data-my-turn="true"]')
    assert page.evaluate("window.__asked") == 0  # never at load
    page.click(".alerts summary")
    page.check('[name="alert-notify"]')  # the permission is asked on this click
    page.wait_for_function(
        "() => window.__asked === 1"
    )  # a function: an expression is eval()ed, which the CSP refuses
    title = page.title()

    def play(token: str) -> None:
        view = server.get(f"/api/tables/{tid}")
        move = view["state"]["legal_moves"][0]
        server.post(f"/api/tables/{tid}/moves", {"token": token, "move": move})

    play(mine)
    page.wait_for_selector(f'{entry}[data-my-turn="false"]')
    page.evaluate("window.__hidden = true")
    play(theirs)
    page.wait_for_selector(f'{entry}[data-my-turn="true"]')
    page.wait_for_function("() => document.documentElement.dataset.alerted === '1'")
    assert page.title().startswith("(1) Your turn at Dots and Boxes")
    assert page.get_attribute('link[rel="icon"]', "href").startswith("data:image/svg+xml")
    assert page.evaluate("window.__notes") == ["Your turn at Dots and Boxes"]
    assert page.evaluate("window.__beeps") == 1
    page.evaluate("window.__hidden = false")
    page.uncheck('[name="alert-sound"]')  # muted: nothing plays
    page.evaluate("window.__hidden = true")
    play(mine)
    page.wait_for_selector(f'{entry}[data-my-turn="false"]')
    play(theirs)
    page.wait_for_function("() => document.documentElement.dataset.alerted === '2'")
    assert page.evaluate("window.__beeps") == 1 and len(page.evaluate("window.__notes")) == 2
    page.evaluate("window.__hidden = false; document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("() => !document.documentElement.dataset.alerted")
    assert page.title() == title
    assert page.errors == []


def test_a_finished_listed_table_opens_into_its_replay(server: Any, context_factory: Any) -> None:
    body = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}, "listed": True}
    tid = server.post("/api/tables", body)["id"]
    ann = server.post(f"/api/tables/{tid}/seats/0", {"name": "Ann"})["token"]
    bob = server.post(f"/api/tables/{tid}/seats/1", {"name": "Bob"})["token"]
    server.post(f"/api/tables/{tid}/moves", {"token": ann, "move": "a1-b1"})
    server.post(f"/api/tables/{tid}/actions", {"token": bob, "action": "resign"})
    page = lobby_page(context_factory(), server)
    link = page.locator(f'[data-lobby-finished] [data-lobby-table="{tid}"] a')
    link.wait_for()
    assert link.get_attribute("href") == f"/tables/{tid}#replay"
    link.click()
    page.wait_for_selector("[data-replay]:not([hidden])")
    page.wait_for_selector("[data-replay-status]")
    assert page.errors == []

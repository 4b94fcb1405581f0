"""Players in the browser (issue 34, DESIGN §6 "Players"): claim a name from the header
(keyboard only too), the key link shown once and opened in a second context (the same
player), the profile and leaderboard pages with their hooks, Russian and Italian, a phone's
width, and a rated game between two players whose result shows `+N` and `−N`.

Screenshots land in artifacts/web/players-*.png."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from playwright.sync_api import expect

from tests.web.conftest import PHONE, LiveServer, no_sideways_scroll, shot
from vertex.server.players import profiles
from vertex.server.storage import players as stored_players

#: The header's player part once it shows a player's name.
ME = "[data-me]:not([data-me=''])"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A site behind a "proxy" at 127.0.0.1: the API calls of a test say which address they
    come from (X-Forwarded-For), so two players of a rated game are two people, as the
    server's anti-farming rule wants (two keys from one address play unrated)."""
    with LiveServer(tmp_path_factory.mktemp("players"), trusted_proxies="127.0.0.1") as live:
        yield live


@pytest.fixture(scope="module")
def players(server: LiveServer) -> LiveServer:
    """The server, with the players API (issue 34's server side) there."""
    probe = server.http.post("/api/players", json={"name": "x"})
    if probe.status_code in (404, 405):
        pytest.skip("the players API (/api/players) is not on this branch yet")
    return server


def claim(server: LiveServer, name: str, address: str = "192.0.2.1") -> str:
    """Claim `name` over the API (from `address`); its key."""
    r = server.http.post("/api/players", json={"name": name}, headers={"x-forwarded-for": address})
    assert r.status_code == 201, r.text
    return str(r.json()["key"])


def as_player(server: LiveServer, key: str, address: str) -> httpx.Client:
    headers = {"authorization": f"Bearer {key}", "x-forwarded-for": address}
    return httpx.Client(base_url=server.url, timeout=10, headers=headers)


def new_page(context_factory: Any, **kw: Any) -> Any:
    page = context_factory(**kw).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def test_a_guest_sees_claim_a_name(server: LiveServer, context_factory: Any) -> None:
    page = new_page(context_factory)
    page.goto(server.url + "/")
    button = page.locator('[data-me] [data-action="claim-name"]')
    expect(button).to_have_text("Claim a name")
    button.click()
    dialog = page.locator("dialog[open]")
    expect(dialog.locator('form[data-claim-name] input[name="player-name"]')).to_be_focused()
    page.keyboard.press("Escape")
    expect(dialog).to_have_count(0)
    expect(button).to_be_focused()  # focus back on what opened it
    assert page.errors == []


def test_claim_by_keyboard_and_the_key_link_on_another_device(
    players: LiveServer, context_factory: Any
) -> None:
    page = new_page(context_factory)
    page.goto(players.url + "/")
    page.wait_for_selector('[data-action="claim-name"]')
    # the keyboard alone: Tab to "Claim a name" (after the skip link and the brand)
    for _ in range(6):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement?.dataset.action === 'claim-name'"):
            break
    assert page.evaluate("document.activeElement?.dataset.action") == "claim-name"
    page.keyboard.press("Enter")
    field = page.locator('form[data-claim-name] input[name="player-name"]')
    expect(field).to_be_focused()
    field.fill("")
    page.keyboard.type("Ann Keys")
    shot(page, "players-claim-desktop")
    page.keyboard.press("Enter")
    link = page.locator("[data-key-link]")
    expect(link).to_have_value(re.compile(r"/#key=[^&?]{16,}$"))
    page.wait_for_selector("img[data-key-qr][src^='data:image/svg+xml']")
    expect(page.locator("[data-action=copy-key-link]")).to_be_focused()
    shot(page, "players-key-link-desktop")
    key_link = link.input_value()
    assert key_link.startswith(players.url + "/#key=")
    key = key_link.split("#key=")[1]
    page.keyboard.press("Escape")
    expect(page.locator(ME)).to_have_text("Ann Keys")
    assert page.evaluate("localStorage.getItem('vertex.player.key')") == key

    # the key link in another browser: the same player, and the key leaves the address bar
    other = new_page(context_factory)
    other.goto(key_link)
    expect(other.locator(ME)).to_have_text("Ann Keys")
    assert "#key" not in other.url and key not in other.url
    assert other.evaluate("localStorage.getItem('vertex.player.key')") == key
    # the menu: profile link, then sign out on this device (a guest again)
    other.click('[data-action="player-menu"]')
    expect(other.locator('[data-action="my-profile"]')).to_have_attribute(
        "href", "/players/Ann%20Keys"
    )
    other.click('[data-action="sign-out"]')
    other.click("dialog[open] [data-confirm]")
    expect(other.locator('[data-me] [data-action="claim-name"]')).to_be_visible()
    assert other.evaluate("localStorage.getItem('vertex.player.key')") is None
    assert page.errors == [] and other.errors == []


def test_a_taken_name_is_refused_in_italian(players: LiveServer, context_factory: Any) -> None:
    claim(players, "Taken")
    page = new_page(context_factory, locale="it-IT")
    page.goto(players.url + "/")
    page.click('[data-action="claim-name"]')
    page.fill('input[name="player-name"]', "TAKEN")
    page.keyboard.press("Enter")
    expect(page.locator("#player-name-error")).to_contain_text("già preso")
    page.fill('input[name="player-name"]', "x")
    page.keyboard.press("Enter")
    expect(page.locator("#player-name-error")).to_contain_text("almeno 2 caratteri")
    assert page.errors == []


def rated_game(server: LiveServer, keys: list[str]) -> tuple[str, str]:
    """A rated table of the first Dots and Boxes pool, both seats taken with a key, a move
    each, then seat 1 resigns: (table id, pool id)."""
    games = server.get("/api/games")
    pool = next(g for g in games if g["id"] == "dots-and-boxes")["pools"][0]
    body = {
        "game": "dots-and-boxes",
        "options": pool["options"],
        "seats": [{"kind": "human"}, {"kind": "human"}],
        "rated": True,
    }
    with as_player(server, keys[0], "192.0.2.1") as first:
        made = first.post("/api/tables", json=body)
    assert made.status_code < 300, made.text
    table = str(made.json()["id"])
    tokens = []
    for seat, key in enumerate(keys):
        with as_player(server, key, f"192.0.2.{seat + 1}") as client:
            r = client.post(f"/api/tables/{table}/seats/{seat}", json={"name": "ignored"})
            assert r.status_code < 300, r.text
            tokens.append(str(r.json()["token"]))
    for _ in range(2):
        state = server.get(f"/api/tables/{table}")["state"]
        seat, move = state["to_move"][0], state["legal_moves"][0]
        server.post(f"/api/tables/{table}/moves", {"token": tokens[seat], "move": move})
    return table, str(pool["id"])


def test_a_rated_game_shows_ratings_and_changes(
    players: LiveServer, context_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # one game lists a player on the leaderboard (the site's rule is 10: the server's tests)
    monkeypatch.setattr(stored_players, "BOARD_GAMES", 1)
    keys = [claim(players, "Rater One", "192.0.2.1"), claim(players, "Rater Two", "192.0.2.2")]
    table, pool = rated_game(players, keys)
    pages = []
    for n, key in enumerate(keys):
        page = new_page(context_factory, **(PHONE if n else {}))
        # a player seated from this browser by the key alone (no seat token here)
        page.goto(f"{players.url}/#key={key}")
        page.wait_for_selector(ME)
        # "Your tables" from the server (this browser never sat there): seat 0 is to move
        mine = page.locator(f'[data-my-tables] [data-my-table="{table}"]')
        expect(mine).to_have_attribute("data-my-turn", "true" if n == 0 else "false")
        page.goto(f"{players.url}/tables/{table}")
        page.wait_for_function(
            "s => document.querySelector('[data-table]')?.dataset.mySeat === s", arg=str(n)
        )
        pages.append(page)
    for page in pages:
        for seat in (0, 1):
            rating = page.locator(f'[data-seat-rating="{seat}"]')
            expect(rating).to_have_attribute("data-provisional", "true")
            expect(rating).to_contain_text("1500?")
    shot(pages[0], "players-rated-table-desktop")
    # seat 1 resigns: seat 0 wins
    pages[1].click('[data-action="resign"]')
    pages[1].click("dialog[open] [data-confirm]")
    for page in pages:
        won = page.locator('[data-rating-change="0"]')
        lost = page.locator('[data-rating-change="1"]')
        expect(won).to_have_text(re.compile(r"^\+\d+$"))
        expect(lost).to_have_text(re.compile(r"^\u2212\d+$"))
        expect(lost).to_have_attribute("data-change", re.compile(r"^-\d+$"))
    shot(pages[0], "players-rated-result-desktop")
    shot(pages[1], "players-rated-result-phone")

    # the profile: the pool's rating (provisional), the game with its replay link
    page = pages[0]
    page.goto(f"{players.url}/players/rater%20one")  # any case finds the player
    root = page.locator('[data-player="Rater One"]')
    expect(root).to_be_visible()
    rating = root.locator(f'[data-player-rating="{pool}"]')
    expect(rating).to_have_attribute("data-provisional", "true")
    assert int(rating.get_attribute("data-value") or 0) > 1500
    game = root.locator(f'[data-player-game="{table}"]')
    expect(game).to_contain_text("Won")
    expect(game.locator("a.replay")).to_have_attribute("href", f"/tables/{table}")
    assert no_sideways_scroll(page)
    shot(page, "players-profile-desktop")
    # the leaderboard page of that pool: the winner first, a link to the profile
    page.goto(f"{players.url}/leaderboard/{pool}")
    rows = page.locator(f'[data-leaderboard="{pool}"] [data-leaderboard-row]')
    expect(rows).to_have_count(2)
    expect(rows.first).to_have_attribute("data-leaderboard-row", "Rater One")
    expect(rows.first.locator("a")).to_have_attribute("href", "/players/Rater%20One")
    expect(rows.first).to_have_attribute("aria-current", "true")  # this browser's player
    shot(page, "players-leaderboard-desktop")
    assert all(p.errors == [] for p in pages)


def test_profile_and_leaderboard_on_a_phone_in_russian(
    players: LiveServer, context_factory: Any
) -> None:
    claim(players, "Дмитрий")
    page = new_page(context_factory, **PHONE, locale="ru-RU")
    page.goto(players.url + "/players/%D0%94%D0%BC%D0%B8%D1%82%D1%80%D0%B8%D0%B9")
    root = page.locator('[data-player="Дмитрий"]')
    expect(root.locator("h1")).to_have_text("Дмитрий")
    expect(root).to_contain_text("Сыгранные партии")
    assert no_sideways_scroll(page)
    shot(page, "players-profile-phone-ru")
    page.goto(players.url + "/players/nobody-here")
    expect(page.locator("main h1")).to_have_text("Такого игрока нет")
    games = players.get("/api/games")
    pool = next(g for g in games if g.get("pools"))["pools"][0]["id"]
    page.goto(f"{players.url}/leaderboard/{pool}")
    page.wait_for_selector(f'[data-leaderboard="{pool}"]')
    expect(page.locator("main h1")).to_contain_text("Лидеры")
    assert no_sideways_scroll(page)
    shot(page, "players-leaderboard-phone-ru")
    # the lobby's card links to the game's leaderboard
    page.goto(players.url + "/")
    link = page.locator(f'[data-game] [data-leaderboard-link="{pool}"]')
    expect(link).to_have_attribute("href", f"/leaderboard/{pool}")
    assert no_sideways_scroll(page)
    assert page.errors == []


def test_the_rated_switch_of_the_new_table_form(players: LiveServer, context_factory: Any) -> None:
    key = claim(players, "Form Rater", "192.0.2.7")
    page = new_page(context_factory)
    page.goto(f"{players.url}/#key={key}")
    page.wait_for_selector(ME)
    page.click('[data-game="dots-and-boxes"] .game-choose')
    form = page.locator('form[data-new-table][data-for-game="dots-and-boxes"][data-state="ok"]')
    rated = form.locator('input[name="rated"]')
    # the defaults are a pool's options (3×3), every seat a person: offered
    expect(rated).to_be_visible()
    # a computer seat: not ratable, not offered
    form.locator('select[name="seat-1"]').select_option("ai-2")
    expect(rated).to_be_hidden()
    form.locator('select[name="seat-1"]').select_option("human")
    expect(rated).to_be_visible()
    # 4 rows: no pool has them
    form.locator('[name="rows"]').fill("4")
    expect(rated).to_be_hidden()
    form.locator('[name="rows"]').fill("3")
    page.wait_for_selector('form[data-new-table][data-state="ok"]')
    expect(rated).to_be_visible()
    rated.check()
    shot(page, "players-rated-switch-desktop")
    form.locator('[type="submit"]').click()
    page.wait_for_url(re.compile(r"/tables/[^/#?]+$"))
    table = page.url.rsplit("/", 1)[1]
    view = players.get(f"/api/tables/{table}")
    assert view["rated"] is True
    assert view["seats"][0]["name"] == "Form Rater" and view["seats"][0]["player"] is True
    page.wait_for_selector('[data-seat-rating="0"]')
    assert page.errors == []


def test_a_guest_keeps_the_name_when_sitting(players: LiveServer, context_factory: Any) -> None:
    table = players.post("/api/tables", {"game": "dots-and-boxes", "options": {}})["id"]
    page = new_page(context_factory, **PHONE)
    page.goto(f"{players.url}/tables/{table}")
    page.fill('input[name="display-name"]', "Sitting Keeper")
    page.check('input[name="keep-name"]')
    page.click('[data-take-seat="0"]')
    expect(page.locator("[data-key-link]")).to_have_value(re.compile(r"/#key="))
    shot(page, "players-keep-name-key-phone")
    page.keyboard.press("Escape")
    page.wait_for_function("() => document.querySelector('[data-table]')?.dataset.mySeat === '0'")
    expect(page.locator(ME)).to_have_text("Sitting Keeper")
    view = players.get(f"/api/tables/{table}")
    assert view["seats"][0]["player"] is True and view["seats"][0]["name"] == "Sitting Keeper"
    assert no_sideways_scroll(page)
    assert page.errors == []


def casual_game(server: LiveServer, keys: list[str]) -> str:
    """An unrated Dots and Boxes game of two players (a move each, then seat 1 resigns)."""
    table = str(server.post("/api/tables", {"game": "dots-and-boxes", "options": {}})["id"])
    tokens = []
    for seat, key in enumerate(keys):
        with as_player(server, key, f"192.0.2.{seat + 1}") as client:
            r = client.post(f"/api/tables/{table}/seats/{seat}", json={"name": "x"})
            tokens.append(str(r.json()["token"]))
    for _ in range(2):
        state = server.get(f"/api/tables/{table}")["state"]
        seat, move = state["to_move"][0], state["legal_moves"][0]
        server.post(f"/api/tables/{table}/moves", {"token": tokens[seat], "move": move})
    server.post(f"/api/tables/{table}/actions", {"token": tokens[1], "action": "resign"})
    return table


def test_the_profile_pages_by_cursor_and_filters_by_game(
    players: LiveServer, context_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(profiles, "PAGE", 2)  # 50 a page on the site
    keys = [claim(players, "Pager", "192.0.2.1"), claim(players, "Paged", "192.0.2.2")]
    tables = [casual_game(players, keys) for _ in range(3)]
    page = new_page(context_factory)
    page.goto(f"{players.url}/players/Pager")
    games = page.locator('[data-player="Pager"] [data-player-game]')
    expect(games).to_have_count(2)
    assert games.first.get_attribute("data-player-game") == tables[-1]  # newest first
    expect(games.first.locator(".hint").first).to_contain_text("Paged")
    page.click('[data-action="more-games"]')
    expect(games).to_have_count(3)
    expect(page.locator('[data-action="more-games"]')).to_have_count(0)
    # the first game added has the focus (the keyboard goes on from there)
    focused = "document.activeElement.closest('[data-player-game]')?.dataset.playerGame"
    assert page.evaluate(focused) == tables[0]
    page.select_option("#game-filter", "figures")
    expect(games).to_have_count(0)
    page.select_option("#game-filter", "dots-and-boxes")
    expect(games).to_have_count(2)
    assert page.errors == []


def test_a_new_key_then_forget_me(players: LiveServer, context_factory: Any) -> None:
    old = claim(players, "Short Lived", "192.0.2.9")
    page = new_page(context_factory)
    page.goto(f"{players.url}/#key={old}")
    expect(page.locator(ME)).to_have_text("Short Lived")
    # a new key: shown once as a key link; the old one stops at once
    page.click('[data-action="player-menu"]')
    page.click('[data-action="replace-key"]')
    page.click("dialog[open] [data-confirm]")
    link = page.locator("[data-key-link]")
    expect(link).to_have_value(re.compile(r"/#key="))
    new = link.input_value().split("#key=")[1]
    assert new != old
    assert page.evaluate("localStorage.getItem('vertex.player.key')") == new
    with as_player(players, old, "192.0.2.9") as client:
        assert client.get("/api/players/me").status_code == 401
    page.click('[data-action="key-link-done"]')
    expect(page.locator('[data-action="player-menu"]')).to_be_focused()
    # forget me: asked first (Cancel changes nothing), then the name is free again
    page.click('[data-action="player-menu"]')
    page.click('[data-action="forget-me"]')
    dialog = page.locator("dialog[open]")
    expect(dialog).to_contain_text("Short Lived")
    expect(dialog.get_by_role("button", name="Cancel")).to_be_focused()
    shot(page, "players-forget-desktop")
    dialog.get_by_role("button", name="Cancel").click()
    expect(page.locator(ME)).to_have_text("Short Lived")
    page.click('[data-action="player-menu"]')
    page.click('[data-action="forget-me"]')
    page.click("dialog[open] [data-confirm]")
    expect(page.locator('[data-me] [data-action="claim-name"]')).to_be_focused()
    assert page.evaluate("localStorage.getItem('vertex.player.key')") is None
    assert players.http.get("/api/players/Short%20Lived").status_code == 404
    assert page.errors == []


def test_play_rated_seats_two_players(players: LiveServer, context_factory: Any) -> None:
    pages = []
    for n, name in enumerate(["Quick One", "Quick Two"]):
        address = f"198.51.100.{n + 1}"  # two people: rated Play now never pairs one address
        key = claim(players, name, address)
        page = new_page(context_factory, extra_http_headers={"x-forwarded-for": address})
        page.goto(f"{players.url}/#key={key}")
        page.wait_for_selector(ME)
        pages.append(page)
    first, second = pages
    button = first.locator('[data-game="dots-and-boxes"] [data-action="play-rated"]')
    expect(button).to_have_attribute("data-pool", "dots-and-boxes-3x3")
    shot(first, "players-play-rated-desktop")
    button.click()
    first.wait_for_selector("[data-play-now-waiting]:not([hidden])")
    second.click('[data-game="dots-and-boxes"] [data-action="play-rated"]')
    for page in pages:
        page.wait_for_url(re.compile(r"/tables/[^/#?]+$"))
        page.wait_for_selector('[data-seat-rating="1"]')
    assert first.url == second.url
    view = players.get("/api/tables/" + first.url.rsplit("/", 1)[1])
    assert view["rated"] is True
    assert sorted(s["name"] for s in view["seats"]) == ["Quick One", "Quick Two"]
    assert first.errors == [] and second.errors == []


def test_play_rated_in_the_pool_chosen(players: LiveServer, context_factory: Any) -> None:
    """A game of several pools offers each (Dots and Boxes 3×3 and 5×5): chosen by keyboard
    on a phone in Russian, and by pointer on a desktop in Italian; both meet at a 5×5 table."""
    pages = []
    looks = [
        ({**PHONE, "locale": "ru-RU"}, "Пул Один"),
        ({"viewport": {"width": 1280, "height": 800}, "locale": "it-IT"}, "Pool Due"),
    ]
    for n, (look, name) in enumerate(looks):
        address = f"198.51.100.{n + 11}"
        key = claim(players, name, address)
        page = new_page(context_factory, extra_http_headers={"x-forwarded-for": address}, **look)
        page.goto(f"{players.url}/#key={key}")
        page.wait_for_selector(ME)
        pages.append(page)
    phone, desk = pages
    card = '.game-card[data-game="dots-and-boxes"]'
    choice = phone.locator(f'{card} select[name="rated-pool"]')
    expect(choice).to_have_attribute("aria-label", re.compile("рейтинговая"))
    expect(choice.locator("option")).to_have_text(["3×3", "5×5"])
    button = phone.locator(f'{card} [data-action="play-rated"]')
    expect(button).to_have_attribute("data-pool", "dots-and-boxes-3x3")
    # the keyboard alone: focus the choice, pick 5×5 with the arrow, Tab on to the button
    choice.focus()
    phone.keyboard.press("ArrowDown")
    expect(choice).to_have_value("dots-and-boxes-5x5")
    expect(button).to_have_attribute("data-pool", "dots-and-boxes-5x5")
    expect(button).to_have_attribute("aria-label", re.compile("5×5"))
    phone.keyboard.press("Tab")
    expect(button).to_be_focused()
    assert no_sideways_scroll(phone)
    phone.locator(card).scroll_into_view_if_needed()
    shot(phone, "players-rated-pools-phone-ru")
    phone.keyboard.press("Enter")
    phone.wait_for_selector("[data-play-now-waiting]:not([hidden])")

    desk.locator(f'{card} select[name="rated-pool"]').select_option("dots-and-boxes-5x5")
    expect(desk.locator(f'{card} [data-action="play-rated"]')).to_have_attribute(
        "aria-label", re.compile("5×5")
    )
    shot(desk, "players-rated-pools-desktop-it")
    desk.click(f'{card} [data-action="play-rated"]')
    for page in pages:
        page.wait_for_url(re.compile(r"/tables/[^/#?]+$"))
    assert phone.url == desk.url
    view = players.get("/api/tables/" + desk.url.rsplit("/", 1)[1])
    assert view["rated"] is True and (view["options"]["rows"], view["options"]["cols"]) == (5, 5)
    assert phone.errors == [] and desk.errors == []


@pytest.mark.parametrize(
    ("look", "said", "shot_name"),
    [
        ({"viewport": {"width": 1280, "height": 800}}, "slow game, 3 days a move", "desktop"),
        ({**PHONE, "locale": "it-IT"}, "partita lenta, 3 giorni a mossa", "phone-it"),
    ],
)
def test_your_tables_show_a_slow_tables_deadline(
    players: LiveServer, context_factory: Any, look: dict[str, Any], said: str, shot_name: str
) -> None:
    address = "198.51.100.40" if shot_name == "desktop" else "198.51.100.41"
    name = "Slow Sam" if shot_name == "desktop" else "Lenta Lia"
    key = claim(players, name, address)
    player = as_player(players, key, address)
    body = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}}
    tid = player.post("/api/tables", json={**body, "clock": {"per_move_days": 3}}).json()["id"]
    assert player.post(f"/api/tables/{tid}/seats/0", json={}).status_code == 200
    players.http.post(f"/api/tables/{tid}/seats/1", json={"name": "Guest"})
    listed: dict[str, Any] = {}
    for _ in range(100):  # the seats' turns are written just after the event
        listed = next(
            tb for tb in player.get("/api/players/me").json()["tables"] if tb["id"] == tid
        )
        if listed["status"] == "playing":
            break
        time.sleep(0.05)
    assert listed["slow"] is True and isinstance(listed["deadline"], float)
    page = new_page(context_factory, extra_http_headers={"x-forwarded-for": address}, **look)
    page.goto(f"{players.url}/#key={key}")
    entry = page.locator(f'[data-my-table="{tid}"][data-slow="true"]')
    expect(entry).to_contain_text(said)
    due = entry.locator("time[data-my-deadline]")
    expect(due).to_have_attribute("data-my-deadline", str(round(listed["deadline"])))
    turn = "your move by" if listed["my_turn"] else "their move by"
    if shot_name != "desktop":
        turn = "muovi entro" if listed["my_turn"] else "la loro mossa entro"
    expect(due).to_contain_text(turn)
    assert no_sideways_scroll(page)
    # (no scrolling to it: the list may be drawn again meanwhile, and the shot is the whole page)
    shot(page, f"players-slow-deadline-{shot_name}")
    # the profile lists it as being played: whose turn, slow, by when
    page.goto(f"{players.url}/players/{quote(name)}")
    playing = page.locator(f'[data-playing="{tid}"][data-slow="true"]')
    expect(playing.locator("time[data-playing-deadline]")).to_have_attribute(
        "data-playing-deadline", str(round(listed["deadline"]))
    )
    expect(playing).to_contain_text("slow game" if shot_name == "desktop" else "partita lenta")
    assert (playing.get_attribute("data-their-turn") == "true") is listed["my_turn"]
    assert no_sideways_scroll(page)
    shot(page, f"players-profile-slow-{shot_name}")
    assert page.errors == []


def test_a_rated_rematch_is_rated_and_both_players_follow_by_key(
    players: LiveServer, context_factory: Any
) -> None:
    """Two players seated by their keys alone (no seat token in these browsers): the rematch
    one asks for is rated, both go there, each in their seat (rotated), and it is in their
    "Your tables"."""
    keys = [claim(players, "Again One", "192.0.2.1"), claim(players, "Again Two", "192.0.2.2")]
    table, _pool = rated_game(players, keys)
    pages = []
    for n, key in enumerate(keys):
        page = new_page(context_factory, **(PHONE if n else {}))
        page.goto(f"{players.url}/#key={key}")
        page.wait_for_selector(ME)
        page.goto(f"{players.url}/tables/{table}")
        page.wait_for_function(
            "s => document.querySelector('[data-table]')?.dataset.mySeat === s", arg=str(n)
        )
        pages.append(page)
    pages[1].click('[data-action="resign"]')
    pages[1].click("dialog[open] [data-confirm]")
    expect(pages[0].locator('[data-rating-change="0"]')).to_have_text(re.compile(r"^\+\d+$"))
    pages[0].click('[data-action="rematch"]')
    for n, page in enumerate(pages):
        page.wait_for_url(re.compile(r"/tables/(?!" + re.escape(table) + r")[^/#?]+$"))
        page.wait_for_function(
            "s => document.querySelector('[data-table]')?.dataset.mySeat === s", arg=str(1 - n)
        )
        expect(page.locator('[data-seat-rating="0"]')).to_be_visible()
    new = pages[0].url.rsplit("/", 1)[1]
    assert pages[1].url.endswith(new)
    view = players.get(f"/api/tables/{new}")
    assert view["rated"] is True and view["seats"][0]["name"] == "Again Two"
    shot(pages[1], "players-rated-rematch-phone")
    pages[1].goto(players.url + "/")
    expect(pages[1].locator(f'[data-my-tables] [data-my-table="{new}"]')).to_be_visible()
    assert all(p.errors == [] for p in pages)


def test_a_player_forgotten_leaves_the_table_page_at_once(
    players: LiveServer, context_factory: Any
) -> None:
    """Forget me on one device: a table page open elsewhere (a spectator's, in Russian) shows
    the seat as a former player's without a reload."""
    key = claim(players, "Gone Soon", "192.0.2.61")
    player = as_player(players, key, "192.0.2.61")
    body = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}}
    tid = player.post("/api/tables", json=body).json()["id"]
    assert player.post(f"/api/tables/{tid}/seats/0", json={}).status_code == 200
    page = new_page(context_factory, **PHONE, locale="ru-RU")
    page.goto(f"{players.url}/tables/{tid}")
    seats = page.locator("[data-table]")
    expect(seats).to_contain_text("Gone Soon")
    page.wait_for_selector('[data-connection="online"]')
    assert player.delete("/api/players/me").status_code == 204
    expect(seats).not_to_contain_text("Gone Soon")
    expect(seats).to_contain_text("бывший игрок")  # me.former
    assert page.errors == []


def test_a_key_replaced_elsewhere_lets_the_table_page_go(
    players: LiveServer, context_factory: Any
) -> None:
    """A table page seated by the player's key alone: a new key asked for on another device
    stops the old one at once; the page is a guest's watching the table (still online)."""
    key = claim(players, "Key Moved", "192.0.2.71")
    player = as_player(players, key, "192.0.2.71")
    body = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}}
    tid = player.post("/api/tables", json=body).json()["id"]
    assert player.post(f"/api/tables/{tid}/seats/0", json={}).status_code == 200
    page = new_page(context_factory)
    page.goto(f"{players.url}/#key={key}")
    page.wait_for_selector(ME)
    page.goto(f"{players.url}/tables/{tid}")
    root = page.locator("[data-table]")
    expect(root).to_have_attribute("data-my-seat", "0")
    assert player.post("/api/players/me/key").status_code == 200  # on another device
    expect(root).to_have_attribute("data-my-seat", "")
    expect(page.locator('[data-me] [data-action="claim-name"]')).to_be_visible()
    expect(page.locator("[data-connection]")).to_have_attribute("data-connection", "online")
    assert page.evaluate("localStorage.getItem('vertex.player.key')") is None
    assert page.errors == []

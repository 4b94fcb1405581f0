"""The table page /tables/{id} (js/table/*.js): a game from the lobby to the
result and the rematch between two people; spectators, reloads, the seat link and a dropped
socket (a move made while it is down lands once); a refused move; a missing table; the
phone and desktop screenshots of a finished game."""

from __future__ import annotations

import re
from typing import Any

import httpx

from tests.web.conftest import (
    PHONE,
    no_sideways_scroll,
    shot,
    sit,
    switch_lang,
    version,
    wait_turn,
    wait_version,
)

ROOT = "[data-table]"
WS = re.compile(r".*/ws/tables/.*")
#: The table's actions (replay and analysis are for everyone and not among them).
ACTIONS = ", ".join(
    f'[data-action="{a}"]' for a in ("resign", "rematch", "undo", "end", "chat", "hand-over")
)


# ---- helpers ------------------------------------------------------------------------------
def open_page(context: Any, url: str) -> Any:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(url)
    return page


def wait_seat(page: Any, seat: str) -> None:
    page.wait_for_function(
        "s => document.querySelector('[data-table]')?.dataset.mySeat === s", arg=seat
    )


def wait_connection(page: Any, status: str) -> None:
    page.wait_for_selector(f'[data-connection="{status}"]')


def new_table(server: Any, rows: int, cols: int, **settings: Any) -> str:
    body = {"game": "dots-and-boxes", "options": {"rows": rows, "cols": cols}, **settings}
    return str(server.post("/api/tables", body)["id"])


def view_of(server: Any, table: str) -> dict[str, Any]:
    out: dict[str, Any] = server.get(f"/api/tables/{table}")
    return out


def record_moves(server: Any, table: str) -> list[str]:
    return [m["move"] for m in server.get(f"/api/tables/{table}/record")["moves"]]


def open_seat(context: Any, server: Any, table: str, token: str, seat: int) -> Any:
    page = open_page(context, f"{server.url}/tables/{table}#token={token}")
    wait_seat(page, str(seat))
    wait_connection(page, "online")
    return page


def click_line(page: Any, watchers: list[Any], server: Any, table: str, move: str) -> int:
    """Draw `move` on `page` by clicking it; wait until every page has drawn it."""
    before = int(view_of(server, table)["version"])
    page.locator(f'[data-line="{move}"]').click()
    for p in [page, *watchers]:
        wait_version(p, before + 1)
        assert p.get_attribute(f'[data-line="{move}"]', "data-drawn") is not None
    return before + 1


def play_to_end(server: Any, table: str, by_seat: dict[int, Any]) -> dict[str, Any]:
    """Each seat's page draws the first legal line when its turn comes, to the end."""
    pages = list(by_seat.values())
    while True:
        view = view_of(server, table)
        state = view["state"]
        if state["is_over"]:
            return view
        seat = state["to_move"][0]
        page = by_seat[seat]
        wait_turn(page, str(seat))
        others = [p for p in pages if p is not page]
        click_line(page, others, server, table, state["legal_moves"][0])


def wait_title(page: Any, title: str) -> None:
    page.wait_for_function("t => document.title === t", arg=title)


def scores_shown(page: Any, n: int) -> list[int]:
    return [int(page.locator(f'[data-score="{s}"]').inner_text()) for s in range(n)]


# ---- 1. from the lobby to the result and a rematch ----------------------------------------
def test_a_game_from_the_lobby_to_the_rematch(server: Any, context_factory: Any) -> None:
    ann = open_page(context_factory(), server.url + "/")
    ann.click('[data-game="dots-and-boxes"]')
    form = ann.locator("form[data-new-table]")
    form.wait_for()
    form.locator('[name="rows"]').fill("2")
    form.locator('[name="cols"]').fill("2")
    form.locator('[name="seat-0"]').select_option("human")
    form.locator('[name="seat-1"]').select_option("human")
    form.locator('[name="display-name"]').fill("Ann")
    ann.wait_for_selector('form[data-new-table][data-state="ok"]')
    form.locator('button[type="submit"]').click()
    ann.wait_for_url(re.compile(r"/tables/[A-Za-z0-9_-]+$"))
    table = ann.url.rsplit("/", 1)[1]
    wait_seat(ann, "0")  # the lobby took seat 0 and left its token for the table page
    assert ann.get_attribute(ROOT, "data-turn") == ""  # not started: seat 1 is free
    share = ann.locator("[data-share-link]").input_value()
    assert share == f"{server.url}/tables/{table}"
    assert ann.locator(f'img[src="/tables/{table}/qr.svg"]').count() == 1
    seat_link = ann.locator("[data-seat-link]").input_value()
    assert re.fullmatch(re.escape(share) + r"#token=[A-Za-z0-9_%-]{20,}", seat_link)
    assert "?" not in ann.url and "#" not in ann.url

    # Bob follows the share link on a phone and takes seat 1.
    bob = open_page(context_factory(**PHONE), share)
    bob.locator('input[name="display-name"]').fill("Bob")
    bob.locator('[data-take-seat="1"]').click()
    wait_seat(bob, "1")
    assert bob.locator("[data-take-seat]").count() == 0
    assert bob.locator("[data-seat-link]").input_value().startswith(share + "#token=")
    wait_turn(ann, "0")
    wait_turn(bob, "0")
    wait_title(ann, "Your turn · Vertex")
    wait_title(bob, "Dots and Boxes · Vertex")
    assert "Bob" in ann.locator(".seats").inner_text()

    final = play_to_end(server, table, {0: ann, 1: bob})
    scores = final["state"]["scores"]
    assert sum(scores) == 4
    for page in (ann, bob):
        wait_version(page, final["version"])
        page.wait_for_selector("[data-result]")
        assert page.get_attribute(ROOT, "data-turn") == ""
        assert scores_shown(page, 2) == scores
        names = {0: "Ann", 1: "Bob"}
        winners = final["result"]["winners"]
        text = page.locator("[data-result]").inner_text()
        if len(winners) == 1:
            assert f"{names[winners[0]]} wins" in text
        else:
            assert "draw" in text.lower()
        assert page.locator("[data-action=resign]").count() == 0
    assert no_sideways_scroll(bob)
    shot(ann, "dots-finished-desktop")
    shot(bob, "dots-finished-phone")

    # The rematch: Ann asks and is taken there, and so is Bob (he stayed on the page).
    # Seats rotate.
    ann.locator("[data-action=rematch]").click()
    ann.wait_for_url(lambda url: "/tables/" in url and not url.endswith(table))
    again = ann.url.rsplit("/", 1)[1]
    assert view_of(server, table)["rematch"] == again
    bob.wait_for_url(re.compile(re.escape(again) + "$"))
    wait_seat(ann, "1")
    wait_seat(bob, "0")
    wait_turn(ann, "0")
    wait_turn(bob, "0")
    wait_title(bob, "Your turn · Vertex")
    assert [s["name"] for s in view_of(server, again)["seats"]] == ["Bob", "Ann"]
    assert ann.errors == [] and bob.errors == []


# ---- 2. spectators, reloads, the seat link, a dropped socket ------------------------------
def test_spectators_reloads_seat_links_and_a_dropped_socket(
    server: Any, context_factory: Any
) -> None:
    table = new_table(server, 3, 3)
    tokens = [sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")]
    ann = open_seat(context_factory(), server, table, tokens[0], 0)
    # The seat link's token is kept and leaves the address bar.
    assert ann.evaluate("location.hash") == ""
    assert ann.evaluate(f"localStorage.getItem('vertex.seat.{table}')") == tokens[0]

    # Bob's socket goes through a proxy the test can cut (and hold back).
    bob_page = context_factory().new_page()
    bob_page.errors = []
    bob_page.on("pageerror", lambda e: bob_page.errors.append(str(e)))
    proxy: dict[str, Any] = {"hold": False, "conns": [], "held": [], "drop_after_move": False}

    def route(ws: Any) -> None:
        if proxy["hold"]:
            proxy["held"].append(ws)  # never connected: the page waits for a snapshot
            return
        upstream = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            upstream.send(message)
            if proxy["drop_after_move"] and '"t":"move"' in str(message):
                proxy["drop_after_move"] = False
                ws.close()  # the move reached the server; its answer never reaches us

        ws.on_message(from_page)
        proxy["conns"].append(ws)

    bob_page.route_web_socket(WS, route)
    bob_page.goto(f"{server.url}/tables/{table}#token={tokens[1]}")
    wait_seat(bob_page, "1")
    wait_connection(bob_page, "online")
    bob = bob_page

    spectator = open_page(context_factory(), f"{server.url}/tables/{table}")
    wait_connection(spectator, "online")
    assert spectator.get_attribute(ROOT, "data-my-seat") == ""
    assert spectator.locator(ACTIONS).count() == 0
    assert spectator.locator("[data-take-seat]").count() == 0  # both seats are taken
    assert spectator.locator("[data-seat-link]").input_value() == ""
    assert spectator.locator("form.chat-form").count() == 0
    # (and the API refuses an occupied seat)
    r = httpx.post(f"{server.url}/api/tables/{table}/seats/0", json={"name": "Eve"}, timeout=10)
    assert r.status_code == 409 and r.json()["error"]["code"] == "seat-taken"

    # A move shows live to the spectator.
    state = view_of(server, table)["state"]
    v = click_line(ann, [bob, spectator], server, table, state["legal_moves"][0])
    assert version(spectator) == v

    # Reloading keeps the seat; the seat link in a fresh browser holds the seat too.
    ann.reload()
    wait_seat(ann, "0")
    wait_version(ann, v)
    link = ann.locator("[data-seat-link]").input_value()
    elsewhere = open_page(context_factory(), link)
    wait_seat(elsewhere, "0")
    assert elsewhere.evaluate("location.hash") == ""

    # Bob's socket drops and the proxy holds back the reconnection: his move waits.
    wait_turn(bob, "1")
    proxy["hold"] = True
    proxy["conns"][-1].close()
    wait_connection(bob, "reconnecting")
    move = view_of(server, table)["state"]["legal_moves"][0]
    bob.locator(f'[data-line="{move}"]').click()
    bob.wait_for_function(
        "m => document.querySelector('[data-table]').dataset.pending === m", arg=move
    )
    assert record_moves(server, table).count(move) == 0
    proxy["hold"] = False
    for held in proxy["held"]:
        held.close()
    wait_connection(bob, "online")
    for page in (ann, bob, spectator):
        wait_version(page, v + 1)
        assert page.get_attribute(f'[data-line="{move}"]', "data-drawn") is not None
    assert bob.get_attribute(ROOT, "data-pending") == ""
    assert record_moves(server, table).count(move) == 1

    # Dropped right after a move went out: after the catch-up it is not played twice.
    state = view_of(server, table)["state"]
    while state["to_move"] != [1]:
        click_line(ann, [bob], server, table, state["legal_moves"][0])
        state = view_of(server, table)["state"]
    wait_turn(bob, "1")
    v = view_of(server, table)["version"]
    move = state["legal_moves"][0]
    proxy["drop_after_move"] = True
    drops = len(proxy["conns"])
    bob.locator(f'[data-line="{move}"]').click()
    for page in (ann, bob):
        wait_version(page, v + 1)
    wait_connection(bob, "online")
    bob.wait_for_function("() => document.querySelector('[data-table]').dataset.pending === ''")
    assert len(proxy["conns"]) == drops + 1  # it did reconnect
    assert record_moves(server, table).count(move) == 1
    assert version(bob) == view_of(server, table)["version"] == v + 1
    assert len(proxy["conns"]) >= 2
    assert ann.errors == [] and bob.errors == [] and spectator.errors == []


# ---- 3. a refused move --------------------------------------------------------------------
def test_a_refused_move_shows_why_and_changes_nothing(server: Any, context_factory: Any) -> None:
    """Two pages on one seat. The second page's move is held back on its way to the server
    (the test's proxy) while the first page moves; when it arrives it is stale, and the
    server's refusal is shown while nothing else changes."""
    table = new_table(server, 2, 2)
    tokens = [sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")]
    first = open_seat(context_factory(), server, table, tokens[0], 0)
    second = context_factory().new_page()
    second.errors = []
    second.on("pageerror", lambda e: second.errors.append(str(e)))
    held: dict[str, Any] = {"on": False, "queue": [], "upstream": None}

    def route(ws: Any) -> None:
        upstream = ws.connect_to_server()
        held["upstream"] = upstream

        def from_page(message: str | bytes) -> None:
            if held["on"]:
                held["queue"].append(message)
            else:
                upstream.send(message)

        ws.on_message(from_page)

    second.route_web_socket(WS, route)
    second.goto(f"{server.url}/tables/{table}#token={tokens[0]}")
    wait_seat(second, "0")
    wait_connection(second, "online")
    wait_turn(second, "0")
    assert version(second) == 2  # two seats taken

    legal = view_of(server, table)["state"]["legal_moves"]
    played, refused = legal[0], legal[-1]
    held["on"] = True
    second.locator(f'[data-line="{refused}"]').click()
    second.wait_for_function(
        "m => document.querySelector('[data-table]').dataset.pending === m", arg=refused
    )
    # Meanwhile the first page moves; the second page hears of it (and still waits).
    click_line(first, [second], server, table, played)
    assert second.get_attribute(ROOT, "data-pending") == refused
    assert len(held["queue"]) == 1 and '"t":"move"' in str(held["queue"][0])
    # The held move reaches the server now: stale, refused, nothing changes.
    held["on"] = False
    held["upstream"].send(held["queue"].pop())
    error = second.locator("[data-error]")
    error.wait_for()
    text = error.inner_text()
    assert "changed before your move arrived" in text and "version 3, not 2" in text, text
    second.wait_for_function("() => document.querySelector('[data-table]').dataset.pending === ''")
    assert second.get_attribute(f'[data-line="{refused}"]', "data-drawn") is None
    assert record_moves(server, table) == [played]
    assert view_of(server, table)["version"] == version(second) == 3
    # The refusal is said aloud too.
    said = "() => document.querySelector('[data-announce=assertive]').textContent"
    second.wait_for_function(f"() => ({said})().includes('version 3')")
    assert first.errors == [] and second.errors == []


def test_resigning_and_handing_over_ask_first(server: Any, context_factory: Any) -> None:
    """The confirmations (fetched on the first question, with their words): Cancel changes
    nothing; a seat handed to the computer at the level chosen; resigning ends the game. In
    English, then in Russian after a switch (the dialogs' words follow the language)."""
    table = new_table(server, 2, 2)
    token = sit(server, table, 0, "Ann")
    ann = open_seat(context_factory(), server, table, token, 0)
    sit(server, table, 1, "Bob")  # Bob never opens the table: his seat may be handed over
    # a game to resign: one move played (before it, the table is cancelled instead)
    server.post(f"/api/tables/{table}/moves", {"token": token, "move": "a1-b1"})
    wait_version(ann, view_of(server, table)["version"])
    dialog = ann.locator("dialog[open]")
    ann.click("[data-action=resign]")
    assert dialog.locator("h2").inner_text() == "Resign this game?"
    dialog.locator('button[value="cancel"]').click()
    dialog.wait_for(state="detached")
    assert view_of(server, table)["result"] is None
    assert ann.locator("[data-result]").count() == 0

    switch_lang(ann, "ru")
    ann.click('[data-action="hand-over"][data-seat="1"]')
    assert dialog.locator("h2").inner_text() == "Пусть за Bob играет компьютер?"
    dialog.locator('select[name="level"]').select_option("1")
    dialog.locator("[data-confirm]").click()
    ann.wait_for_function(
        '() => !document.querySelector(\'[data-action="hand-over"][data-seat="1"]\')'
    )
    bob = view_of(server, table)["seats"][1]
    assert (bob["kind"], bob["level"]) == ("ai", 1)

    ann.click("[data-action=resign]")
    assert dialog.locator("h2").inner_text() == "Сдаться в этой игре?"
    dialog.locator("[data-confirm]").click()
    ann.wait_for_selector('[data-result="resign"]')
    assert view_of(server, table)["result"]["reason"] == "resign"
    assert "Ann сдаётся." in ann.locator("[data-result]").inner_text()
    assert ann.errors == []


# ---- 4. a missing table, and a game without a drawn board ---------------------------------
def test_a_missing_table_says_so(server: Any, context_factory: Any) -> None:
    page = context_factory().new_page()
    response = page.goto(f"{server.url}/tables/NoSuchTable12345")
    assert response is not None and response.status == 404
    page.wait_for_selector("[data-missing]")
    assert "There is no table here" in page.locator("main").inner_text()
    assert page.locator('[data-missing] a[href="/"]').count() == 1


def test_without_its_board_a_game_is_played_by_writing_moves(
    server: Any, context_factory: Any
) -> None:
    """When a game's board cannot be drawn (here: its module fails to load) the page offers a
    plain move form; the server still checks the moves and its refusals are shown."""
    table = new_table(server, 1, 1)
    tokens = [sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")]
    context = context_factory()
    context.route(re.compile(r".*/js/boards/dots/dots\.js$"), lambda route: route.abort())
    page = open_seat(context, server, table, tokens[0], 0)
    form = page.locator("form[data-text-board]")
    form.wait_for()
    assert "Your move, in the game's notation" in form.inner_text()
    form.locator('input[name="move"]').fill("a1-c3")
    form.locator("[data-move-submit]").click()
    error = page.locator("[data-error]")
    error.wait_for()
    # in the page's words only, from the rule's code (the server's English is not appended)
    assert error.inner_text().strip() == "There is no dot c3 on this board."
    assert page.get_attribute("[data-refusal]", "data-code") == "no-such-dot"
    assert version(page) == 2 and record_moves(server, table) == []
    form.locator('input[name="move"]').fill("b1-a1")  # either order is accepted
    form.locator("[data-move-submit]").click()
    wait_version(page, 3)
    assert record_moves(server, table) == ["a1-b1"]
    assert page.locator("[data-error]").is_hidden()
    assert "Last move: a1-b1" in form.inner_text()
    wait_turn(page, "1")
    assert form.locator('input[name="move"]').is_disabled()
    # The browser going offline is said at once; back online, the page says so again.
    context.set_offline(True)
    wait_connection(page, "offline")
    context.set_offline(False)
    wait_connection(page, "online")
    assert page.errors == []

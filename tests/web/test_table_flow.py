"""The flow at the table (issue 21), in the browser: a take-back request answered with its
own buttons (declined: the asker is told; the opponent moving on: told too), "take back"
only with a move to take back, and "cancel table" instead of "resign" before the first move
(no "let the computer play" before the game starts); a rematch takes every player along;
a clock that runs out is said when the computer moves for its seat. Screenshots desktop
and phone."""

from __future__ import annotations

from typing import Any

from tests.eventually import eventually
from tests.web.conftest import PHONE, LiveServer, no_sideways_scroll, shot, sit, wait_version


def new_table(server: LiveServer, **settings: Any) -> str:
    body = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}, **settings}
    return str(server.post("/api/tables", body)["id"])


def open_seat(context: Any, server: LiveServer, table: str, token: str, seat: int) -> Any:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(f"{server.url}/tables/{table}#token={token}")
    page.wait_for_function(
        "s => document.querySelector('[data-table]')?.dataset.mySeat === s", arg=str(seat)
    )
    page.wait_for_selector('[data-connection="online"]')
    return page


def version_of(server: LiveServer, table: str) -> int:
    return int(server.get(f"/api/tables/{table}")["version"])


def move(server: LiveServer, table: str, token: str, line: str) -> None:
    server.post(f"/api/tables/{table}/moves", {"token": token, "move": line})


def test_a_declined_take_back_and_one_the_opponent_moves_past(
    context_factory: Any, server: LiveServer
) -> None:
    table = new_table(server, undo=True)
    ann_token, bob_token = sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")
    ann = open_seat(context_factory(), server, table, ann_token, 0)
    bob = open_seat(context_factory(**PHONE), server, table, bob_token, 1)
    # nobody has moved: no take-back offered, and the table is cancelled, not resigned
    assert ann.locator('[data-action="undo"]').count() == 0
    assert ann.locator('[data-action="resign"]').count() == 0
    ann.wait_for_selector('[data-action="cancel"]')
    move(server, table, ann_token, "a1-b1")
    for page in (ann, bob):
        wait_version(page, version_of(server, table))
    ann.wait_for_selector('[data-action="undo"]')
    assert bob.locator('[data-action="undo"]').count() == 0  # Bob has no move to take back
    assert ann.locator('[data-action="resign"]').count() == 1

    ann.click('[data-action="undo"]')
    box = bob.wait_for_selector("[data-undo-request]:not([hidden])")
    assert "Ann asks to take back their last move" in box.inner_text()
    accept, decline = (
        bob.locator('[data-action="undo-accept"]'),
        bob.locator('[data-action="undo-decline"]'),
    )
    # on the phone the request and both answers are together and in view
    for button in (accept, decline):
        assert button.is_visible() and button.bounding_box()["y"] < 740
    shot(bob, "takeback-request-phone")
    assert no_sideways_scroll(bob)
    shot(ann, "takeback-asked-desktop")
    decline.click()
    note = ann.wait_for_selector("[data-undo-note]:not([hidden])")
    assert "Bob declined your take-back request" in note.inner_text()
    said = "() => document.querySelector('[data-announce=assertive]').textContent"
    ann.wait_for_function(f"() => ({said})().includes('declined')")
    bob.wait_for_selector("[data-undo-request]", state="hidden")
    assert server.get(f"/api/tables/{table}")["state"]["ply"] == 1  # nothing taken back

    # asked again, and Bob simply plays on: Ann is told the request lapsed
    ann.click('[data-action="undo"]')
    bob.wait_for_selector("[data-undo-request]:not([hidden])")
    ann.wait_for_selector("[data-undo-note]", state="hidden")
    move(server, table, bob_token, "a2-b2")
    note = ann.wait_for_selector("[data-undo-note]:not([hidden])")
    assert "Bob moved on: your take-back request lapsed" in note.inner_text()
    assert ann.errors == [] and bob.errors == []


def test_cancel_before_the_first_move(context_factory: Any, server: LiveServer) -> None:
    table = new_table(server)
    token = sit(server, table, 0, "Ann")  # waiting for an opponent
    for name, kw in (("cancel-table-desktop", {}), ("cancel-table-phone", PHONE)):
        page = open_seat(context_factory(**kw), server, table, token, 0)
        page.wait_for_selector('[data-action="cancel"]')
        # the game has not started: no computer takes Ann's seat, nothing to resign (the
        # free seat may still be given to a computer: that starts the game)
        assert page.locator('[data-action="hand-over"][data-seat="0"]').count() == 0
        assert page.locator('[data-action="resign"]').count() == 0
        shot(page, name)
    page.click('[data-action="cancel"]')
    dialog = page.locator("dialog[open]")
    assert dialog.locator("h2").inner_text() == "Cancel this table?"
    dialog.locator("[data-confirm]").click()
    banner = page.wait_for_selector('[data-result="cancelled"]')
    assert "Table cancelled" in banner.inner_text()
    assert "Ann cancelled the table before the first move" in banner.inner_text()
    assert server.get(f"/api/tables/{table}")["result"]["reason"] == "cancelled"
    assert page.locator('[data-action="rematch"]').count() == 0
    assert page.errors == []


def test_a_rematch_takes_the_opponent_along(context_factory: Any, server: LiveServer) -> None:
    table = new_table(server)
    ann_token, bob_token = sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")
    ann = open_seat(context_factory(), server, table, ann_token, 0)
    bob = open_seat(context_factory(**PHONE), server, table, bob_token, 1)
    watcher = context_factory().new_page()
    watcher.goto(f"{server.url}/tables/{table}")
    watcher.wait_for_selector('[data-connection="online"]')
    move(server, table, ann_token, "a1-b1")
    server.post(f"/api/tables/{table}/actions", {"token": bob_token, "action": "resign"})
    ann.wait_for_selector('[data-action="rematch"]:not([hidden])').click()
    # the click returns before the page's request is answered: wait for the new table
    new = eventually(
        lambda: server.get(f"/api/tables/{table}")["rematch"], what="the rematch's table"
    )
    assert new != table
    # both pages land at the new table, each in its own (rotated) seat: Bob moves first
    for page, seat in ((ann, 1), (bob, 0)):
        page.wait_for_url(f"**/tables/{new}")
        page.wait_for_function(
            "s => document.querySelector('[data-table]')?.dataset.mySeat === s", arg=str(seat)
        )
    view = server.get(f"/api/tables/{new}")
    assert [s["name"] for s in view["seats"]] == ["Bob", "Ann"] and view["started"]
    # a spectator is not taken anywhere: they are offered the way to the new table
    watcher.wait_for_selector(f'[data-rematch-link="{new}"]')
    assert watcher.url.endswith(f"/tables/{table}")
    assert ann.errors == [] and bob.errors == []


def test_a_clock_that_runs_out_is_said_when_the_computer_moves(
    context_factory: Any, server: LiveServer
) -> None:
    table = new_table(server, clock={"per_move": 1.5}, on_timeout="computer")
    bob_token = sit(server, table, 1, "Bob")
    bob = open_seat(context_factory(), server, table, bob_token, 1)
    wait_version(bob, version_of(server, table))
    # Every note the page shows, in order: Bob never moves either, so 1.5 s after Ann's note
    # his own replaces it (a page that read the note late saw Bob's, on a loaded CI box).
    bob.evaluate(
        """() => {
          window.clockNotes = [];
          new MutationObserver(() => {
            const el = document.querySelector("[data-clock-note]:not([hidden])");
            const text = el ? el.textContent : "";
            if (text && window.clockNotes.at(-1) !== text) window.clockNotes.push(text);
          }).observe(document.body, {
            subtree: true, childList: true, characterData: true, attributes: true,
          });
        }"""
    )
    # The game starts with Bob's page already live: Ann never moves, her clock runs out and
    # the computer plays her line.
    sit(server, table, 0, "Ann")
    bob.wait_for_function("() => window.clockNotes.length > 0", timeout=20_000)
    first = bob.evaluate("() => window.clockNotes[0]")
    assert "Ann's time ran out: the computer moved for them" in first
    said = "() => document.querySelector('[data-announce=assertive]').textContent"
    bob.wait_for_function(f"() => ({said})().includes('time ran out')")
    assert server.get(f"/api/tables/{table}")["state"]["ply"] >= 1
    shot(bob, "clock-out-desktop")
    assert bob.errors == []


def test_a_table_page_asks_for_nothing_the_site_lacks(
    context_factory: Any, server: LiveServer
) -> None:
    """A game without words of its own for its versions (Dots) fetches none: no 404s."""
    table = new_table(server)
    token = sit(server, table, 0, "Ann")
    context = context_factory()
    missing: list[str] = []
    context.on("response", lambda r: missing.append(r.url) if r.status >= 400 else None)
    page = open_seat(context, server, table, token, 0)
    page.wait_for_selector("[data-version-words]", state="attached")
    page.wait_for_load_state("networkidle")
    assert missing == [] and page.errors == []

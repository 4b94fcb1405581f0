"""The table page's layout for a newcomer (issue 33, items 7, 8, 9 and 11), in the browser:
on a phone the scores and whose turn are in the first screen while playing, every board;
while seats are free the invitation (the share link and its QR code) comes first, on a
desktop and on a phone; a spectator is offered the rematch's table (and never sees a seat
token); with the result shown at 1280×800 the whole board stays in view. Everything is
measured in the first screen, without scrolling."""

from __future__ import annotations

from typing import Any

import pytest

from tests.eventually import eventually
from tests.web.conftest import PHONE, LiveServer, no_sideways_scroll, open_seat, shot, sit

pytestmark = pytest.mark.timeout(240)

#: Each game's board, as a newcomer meets it (Dots and Boxes 5×5).
GAMES: dict[str, dict[str, Any]] = {
    "dots-and-boxes": {"rows": 5, "cols": 5},
    "dots-and-triangles": {},
    "figures": {},
    "vert3x": {},
    "juxtapose": {},
    "verticality": {},
}
LAPTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}

#: Where an element is, in the first screen: its box, the window's height, the scroll.
BOX = """el => { const b = el.getBoundingClientRect();
  return {top: b.top, bottom: b.bottom, left: b.left, right: b.right, width: b.width,
          height: b.height, inner: innerHeight, innerW: innerWidth, scrolled: scrollY}; }"""


def in_first_screen(page: Any, selector: str) -> dict[str, float]:
    """The box of `selector` (the first one), asserted wholly in the first screen."""
    box: dict[str, float] = page.locator(selector).first.evaluate(BOX)
    assert box["scrolled"] == 0, box
    assert box["height"] > 0 and box["width"] > 0, (selector, box)
    assert box["top"] >= 0 and box["bottom"] <= box["inner"], (selector, box)
    assert box["left"] >= 0 and box["right"] <= box["innerW"], (selector, box)
    return box


def new_table(server: LiveServer, game: str, options: dict[str, Any] | None = None) -> str:
    body = {"game": game, "options": GAMES[game] if options is None else options}
    return str(server.post("/api/tables", body)["id"])


def drawn(page: Any) -> None:
    """The table and its board drawn (the socket's version)."""
    page.wait_for_function(
        "() => document.querySelector('[data-table]')?.dataset.version"
        " && document.querySelector('[data-connection=\"online\"]')"
    )


# ---- item 7: on a phone, the scores and whose turn while playing ---------------------------
@pytest.mark.parametrize("game", list(GAMES))
def test_a_phone_shows_scores_and_turn_above_the_board(
    game: str, context_factory: Any, server: LiveServer
) -> None:
    table = new_table(server, game)
    ann, bob = sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")
    open_seat(context_factory, server, table, bob, 1)  # Bob is here too
    page = open_seat(context_factory, server, table, ann, 0, **PHONE)
    drawn(page)
    page.wait_for_selector("[data-turn-line]:not([hidden])")
    page.wait_for_selector('.seat[aria-current="true"]')
    view = server.get(f"/api/tables/{table}")
    assert view["started"] and not view["result"]
    if view["scored"] is not False:
        for n in range(len(view["seats"])):
            in_first_screen(page, f'[data-score="{n}"]')
    # whose turn: the line above the board and the seat that is due, with its name
    line = in_first_screen(page, "[data-turn-line]")
    assert page.locator("[data-turn-line]").inner_text().strip()
    due = in_first_screen(page, '.seat[aria-current="true"]')
    board = page.locator("#board").evaluate(BOX)
    assert line["bottom"] <= board["top"] and due["bottom"] <= board["top"], (line, due, board)
    assert no_sideways_scroll(page)
    shot(page, f"layout-phone-playing-{game}")
    assert page.errors == []


# ---- item 8: the invitation first while seats are free -------------------------------------
@pytest.mark.parametrize("device", ["laptop", "phone"])
def test_the_invitation_comes_first_while_a_seat_is_free(
    device: str, context_factory: Any, server: LiveServer
) -> None:
    table = new_table(server, "dots-and-boxes")
    ann = sit(server, table, 0, "Ann")
    page = open_seat(
        context_factory, server, table, ann, 0, **(PHONE if device == "phone" else LAPTOP)
    )
    drawn(page)
    link = in_first_screen(page, "[data-share-link]")
    qr = in_first_screen(page, "img[data-qr]")
    assert page.locator("[data-table]").get_attribute("data-stage") == "waiting"
    board = page.locator("#board").evaluate(BOX)
    assert link["bottom"] <= board["top"] and qr["bottom"] <= board["top"], (link, qr, board)
    assert page.locator("[data-share-link]").input_value().endswith(f"/tables/{table}")
    assert no_sideways_scroll(page)
    shot(page, f"layout-waiting-{device}")
    if device == "laptop":
        # a visitor with the link: the free seat to take and the invitation, both in view
        visitor = context_factory(**LAPTOP).new_page()
        visitor.goto(f"{server.url}/tables/{table}")
        drawn(visitor)
        in_first_screen(visitor, '[data-take-seat="1"]')
        in_first_screen(visitor, "[data-share-link]")
        in_first_screen(visitor, "img[data-qr]")
    # once every seat is taken the game comes first: the links go back beside it
    sit(server, table, 1, "Bob")
    page.wait_for_selector('[data-table][data-stage="playing"]')
    assert page.locator(".table-side [data-share-link]").count() == 1
    assert page.errors == []


# ---- item 9: spectators are offered the rematch -------------------------------------------
def test_a_spectator_is_offered_the_next_game_and_never_sees_a_token(
    context_factory: Any, server: LiveServer
) -> None:
    table = new_table(server, "dots-and-boxes", {"rows": 2, "cols": 2})
    ann, bob = sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")
    ann_page = open_seat(context_factory, server, table, ann, 0)
    watcher = context_factory(**PHONE).new_page()
    frames: list[str] = []
    watcher.on(
        "websocket",
        lambda ws: ws.on("framereceived", lambda f: frames.append(f if isinstance(f, str) else "")),
    )
    watcher.goto(f"{server.url}/tables/{table}")
    drawn(watcher)
    server.post(f"/api/tables/{table}/moves", {"token": ann, "move": "a1-b1"})
    server.post(f"/api/tables/{table}/actions", {"token": bob, "action": "resign"})
    ann_page.wait_for_selector('[data-action="rematch"]:not([hidden])').click()
    new = eventually(
        lambda: server.get(f"/api/tables/{table}")["rematch"], what="the rematch's table"
    )
    ann_page.wait_for_url(f"**/tables/{new}")
    # the spectator stays, and is offered the new table in words of its own, in view
    link = watcher.wait_for_selector(f'a[href="/tables/{new}"]')
    assert link.inner_text().strip() == "Watch the next game"
    in_first_screen(watcher, f'a[href="/tables/{new}"]')
    assert watcher.url.endswith(f"/tables/{table}")
    assert watcher.locator("[data-table]").get_attribute("data-my-seat") == ""
    shot(watcher, "layout-spectator-rematch")
    # ...and no seat token ever reached the spectator's page: not on the socket, not in the
    # page, not in what the browser keeps
    assert frames and any(f'"{new}"' in f for f in frames)
    kept = watcher.evaluate("() => JSON.stringify({...localStorage}) + document.cookie")
    html = watcher.content()
    for token in (ann, bob):
        assert not any(token in f for f in frames)
        assert token not in kept and token not in html
    watcher.click(f'a[href="/tables/{new}"]')
    watcher.wait_for_url(f"**/tables/{new}")
    drawn(watcher)
    assert watcher.locator("[data-table]").get_attribute("data-my-seat") == ""
    assert ann_page.errors == []


# ---- item 11: the result shown, the whole board in view at 1280×800 ------------------------
@pytest.mark.parametrize("game", ["dots-and-triangles", "juxtapose"])
def test_the_whole_board_stays_in_view_with_the_result(
    game: str, context_factory: Any, server: LiveServer
) -> None:
    table = new_table(server, game)
    ann, bob = sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")
    page = open_seat(context_factory, server, table, ann, 0, **LAPTOP)
    drawn(page)
    state = server.get(f"/api/tables/{table}")["state"]
    server.post(f"/api/tables/{table}/moves", {"token": ann, "move": state["legal_moves"][0]})
    server.post(f"/api/tables/{table}/actions", {"token": bob, "action": "resign"})
    page.wait_for_selector("[data-result]:not([hidden])")
    in_first_screen(page, "[data-result]")
    in_first_screen(page, "#board")
    shot(page, f"layout-result-{game}")
    assert page.errors == []


# ---- the board stays where it was first drawn ----------------------------------------------
#: The board's box in the frame after the table's first version was drawn.
FIRST_FRAME = """
window.__firstBoard = null;
new MutationObserver((changes, seen) => {
  if (!changes.some((c) => c.target.dataset && c.target.dataset.version)) return;
  seen.disconnect();
  requestAnimationFrame(() => {
    const b = document.getElementById('board').getBoundingClientRect();
    window.__firstBoard = {top: b.top, left: b.left};
  });
}).observe(document, {attributes: true, subtree: true, attributeFilter: ['data-version']});
"""


@pytest.mark.parametrize(
    ("game", "options", "words"),
    [
        ("vert3x", {"rules": "trianguliche", "width": 2, "height": 2, "lines_per_turn": 2}, True),
        ("figures", {"rows": 3, "cols": 3}, False),
    ],
)
def test_the_board_does_not_move_once_drawn(
    server: LiveServer, context_factory: Any, game: str, options: dict[str, Any], words: bool
) -> None:
    """What shows above the board (the version in words, whose turn it is) is there in its
    first frame: coming a moment later it pushed the board down under a pointer already
    aimed at a line, and the click missed (a fresh-clone CI failure)."""
    body = {"game": game, "options": options, "seats": [{"kind": "human"}, {"kind": "human"}]}
    table = str(server.post("/api/tables", body)["id"])
    token = sit(server, table, 0, "Ann")
    sit(server, table, 1, "Bob")
    context = context_factory()
    context.add_init_script(FIRST_FRAME)
    page = context.new_page()
    page.goto(f"{server.url}/tables/{table}#token={token}")
    page.wait_for_function(
        "() => window.__firstBoard && document.querySelector('[data-table]').dataset.mySeat"
        " === '0' && document.querySelector('[data-connection=\"online\"]')"
    )
    if words:  # only some games say their version in words
        page.wait_for_selector("[data-version-words]:not([hidden])")
    page.wait_for_selector("[data-turn-line]")
    first = page.evaluate("window.__firstBoard")
    now = page.locator("#board").evaluate(BOX)
    assert (now["top"], now["left"]) == (first["top"], first["left"])

"""The Vert3x board (js/boards/vert3x/vert3x.js) through the real table page: GYØ by clicking (a
diagonal picked at a quarter of its length, away from the crossing), by keyboard (dot cursor
and direction keys), a scored triangle with its points, a closed line's reason on hover and on
focus; classic and Trianguliche by clicking and tapping; screenshots to look at."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import PHONE, no_sideways_scroll, open_seat, shot, sit, wait_version


# ---- helpers ------------------------------------------------------------------------------
def new_table(server: Any, options: dict[str, Any], seats: list[dict[str, Any]]) -> str:
    reply = server.post("/api/tables", {"game": "vert3x", "options": options, "seats": seats})
    return str(reply["id"])


def state(server: Any, table: str) -> dict[str, Any]:
    out: dict[str, Any] = server.get(f"/api/tables/{table}")
    return out


def api_move(server: Any, table: str, token: str, move: str) -> None:
    server.post(f"/api/tables/{table}/moves", {"token": token, "move": move})


def version_of(server: Any, table: str) -> int:
    return int(state(server, table)["version"])


def line_point(page: Any, name: str, at: float) -> tuple[float, float]:
    """The screen point at fraction `at` of line `name`, from its first dot, once the board is
    in view and has stopped moving (a panel that appears above it moves it down, and a
    point read just before that missed its line in the fresh-clone CI)."""
    x1, y1, x2, y2 = page.evaluate(
        """async name => {
            const svg = document.querySelector('[data-vert3x] svg');
            const line = svg.querySelector(`[data-grid="${name}"]`);
            line.scrollIntoView({block: 'nearest', inline: 'nearest'});
            const read = () => {
                const m = svg.getScreenCTM();
                const p = (a, b) => new DOMPoint(+line.getAttribute(a), +line.getAttribute(b))
                    .matrixTransform(m);
                const p1 = p('x1', 'y1'), p2 = p('x2', 'y2');
                return [p1.x, p1.y, p2.x, p2.y];
            };
            const frame = () => new Promise(r => requestAnimationFrame(() => r()));
            let last = read();
            for (let i = 0; i < 30; i++) {  // at most half a second of frames
                await frame(); await frame();
                const now = read();
                if (now.every((v, k) => Math.abs(v - last[k]) < 0.5)) return now;
                last = now;
            }
            return last;
        }""",
        name,
    )
    return x1 + (x2 - x1) * at, y1 + (y2 - y1) * at


def click_line(page: Any, name: str, at: float = 0.5) -> None:
    """Click line `name` at fraction `at` of its length. A GYØ square's two diagonals cross at
    their middles: click them at 1/4, where the nearest line is the one meant."""
    page.mouse.click(*line_point(page, name, at))


def hover_line(page: Any, name: str, at: float = 0.5) -> None:
    x, y = line_point(page, name, at)
    page.mouse.move(x, y, steps=2)


def drawn(page: Any) -> dict[str, str]:
    out: dict[str, str] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('[data-line][data-drawn]')]
            .map(el => [el.dataset.line, el.dataset.owner]))"""
    )
    return out


def server_drawn(server: Any, table: str) -> dict[str, str]:
    lines = state(server, table)["state"]["board"]["lines"]
    return {ln["name"]: str(ln["owner"]) for ln in lines if ln["owner"] is not None}


def score(page: Any, seat: int) -> str:
    return str(page.locator(f'[data-score="{seat}"]').first.inner_text()).strip()


def tip(page: Any) -> str:
    page.wait_for_selector("[data-line-tip]:not([hidden])")
    return str(page.locator("[data-line-tip]").inner_text())


# ---- GYØ ----------------------------------------------------------------------------------
def test_gyo_click_keyboard_triangle_and_reasons(server: Any, context_factory: Any) -> None:
    table = new_table(server, {"rules": "gyo", "size": 4}, [{"kind": "human"}, {"kind": "human"}])
    ann_token = sit(server, table, 0, "Ann")
    bob_token = sit(server, table, 1, "Bob")
    ann = open_seat(context_factory, server, table, ann_token, 0)
    bob = open_seat(context_factory, server, table, bob_token, 1)
    v = version_of(server, table)

    # Ann clicks a straight line; both pages show it as hers
    click_line(ann, "a1-b1")
    v = wait_version(ann, v + 1)
    wait_version(bob, v)
    assert drawn(ann) == drawn(bob) == {"a1-b1": "0"} == server_drawn(server, table)
    assert ann.locator('[data-line="a1-b1"]').get_attribute("aria-label") == (
        "line from a1 to b1, drawn by Ann, the last move"
    )

    # Bob clicks; then Ann plays b1-b2 by keyboard: cursor to b1, X (down) picks, Enter draws
    click_line(bob, "c4-d4")
    v = wait_version(ann, v + 1)
    help_text = ann.locator("[data-v3x-help]").inner_text()
    assert ann.locator("[data-v3x-help]").is_visible() and "Arrow keys" in help_text
    ann.locator('[data-dot="a1"]').evaluate("el => el.focus()")
    ann.keyboard.press("ArrowRight")
    assert ann.evaluate("document.activeElement.dataset.dot") == "b1"
    # the board is one tab stop: the cursor dot (roving tabindex)
    assert ann.locator('[data-vert3x] [tabindex="0"]').count() == 1
    assert ann.locator('[data-vert3x] [tabindex="0"]').get_attribute("data-dot") == "b1"
    ann.keyboard.press("KeyX")
    assert ann.evaluate("document.activeElement.dataset.line") == "b1-b2"
    assert "free, you can draw it" in tip(ann)
    ann.keyboard.press("Enter")
    v = wait_version(ann, v + 1)
    assert server_drawn(server, table)["b1-b2"] == "0"
    # the cursor went on to the line's far end
    assert ann.evaluate("document.activeElement.dataset.dot") == "b2"

    # Bob draws the diagonal d1-c2, clicked at a quarter of its length (not at the crossing)
    click_line(bob, "d1-c2", 0.25)
    v = wait_version(ann, v + 1)
    assert server_drawn(server, table)["d1-c2"] == "1"
    # while Ann is to move, any line Bob points at is not his to draw now
    hover_line(bob, "a2-b2")
    assert "it is not your turn" in tip(bob)

    # Ann points at c1-d2, which crosses it: the page says why, in the server's words
    hover_line(ann, "c1-d2", 0.25)
    text = tip(ann)
    assert "line from c1 to d2" in text and "crosses Bob's line d1-c2" in text
    assert ann.locator("[data-line-tip]").get_attribute("data-tip-line") == "c1-d2"
    label = ann.locator('[data-line="c1-d2"]').get_attribute("aria-label")
    assert label == "line from c1 to d2, not playable: crosses Bob's line d1-c2"
    # and the other half of the same diagonal is the same line
    hover_line(ann, "c1-d2", 0.75)
    assert ann.locator("[data-line-tip]").get_attribute("data-tip-line") == "c1-d2"
    # clicking it sends nothing: the next version is Ann's real move
    click_line(ann, "c1-d2", 0.25)

    # focus shows the reason too (keyboard): cursor on c1, C (down-right)
    ann.locator('[data-dot="c1"]').evaluate("el => el.focus()")
    ann.keyboard.press("KeyC")
    assert ann.evaluate("document.activeElement.dataset.line") == "c1-d2"
    assert "crosses Bob's line d1-c2" in tip(ann)
    ann.keyboard.press("Enter")  # not playable: nothing is sent

    # Ann completes the triangle a1 b1 b2 with the diagonal a1-b2, clicked at 1/4
    click_line(ann, "a1-b2", 0.25)
    v = wait_version(ann, v + 1)
    wait_version(bob, v)
    view = state(server, table)["state"]
    assert server_drawn(server, table) == drawn(ann) == drawn(bob)
    assert "c1-d2" not in drawn(ann)
    assert view["board"]["triangles"] == [
        {"owner": 0, "points": 1, "corners": ["a1", "b1", "b2"], "sides": [1, 1, 1], "small": 1}
    ]
    for page in (ann, bob):
        label_el = page.locator('[data-vert3x] [data-points="0"]')
        assert label_el.text_content().strip() == "1"
        assert label_el.get_attribute("data-owner") == "0"
        assert page.locator("[data-vert3x] [data-claim='0']").count() == 2  # two quarters
        assert score(page, 0) == str(view["scores"][0]) == "1"
        assert score(page, 1) == str(view["scores"][1]) == "0"

    # screenshots, then a phone
    shot(ann, "vert3x-gyo-desktop")
    phone = open_seat(context_factory, server, table, bob_token, 1, **PHONE)
    assert no_sideways_scroll(phone)
    shot(phone, "vert3x-gyo-phone")
    assert ann.errors == [] and bob.errors == [] and phone.errors == []


# ---- classic ------------------------------------------------------------------------------
def test_classic_hexagon_by_clicking_and_tapping(server: Any, context_factory: Any) -> None:
    table = new_table(
        server, {"rules": "classic", "radius": 2}, [{"kind": "human"}, {"kind": "human"}]
    )
    ann_token = sit(server, table, 0, "Ann")
    bob_token = sit(server, table, 1, "Bob")
    ann = open_seat(context_factory, server, table, ann_token, 0)
    board = state(server, table)["state"]["board"]
    assert board["start"] == ["a1", "e5"]
    # the start dots are marked; a line away from Ann's start dot says why it is closed
    assert ann.locator("[data-vert3x] [data-start]").count() == 2
    hover_line(ann, "c3-d3")
    assert "your first line must start at your start dot a1" in tip(ann)
    v = version_of(server, table)
    for ann_move, bob_move in (("a1-b1", "e5-d5"), ("b1-b2", "d5-d4")):
        click_line(ann, ann_move)
        v = wait_version(ann, v + 1)
        api_move(server, table, bob_token, bob_move)
        v = wait_version(ann, v + 1)
    hover_line(ann, "c3-d3")
    assert "not connected to your lines" in tip(ann)
    # Ann closes her triangle; then Bob, on a phone, closes his with d4-e5
    click_line(ann, "a1-b2")
    v = wait_version(ann, v + 1)
    view = state(server, table)["state"]
    assert view["scores"][0] == 3 + 3  # three lines and the outline of the small triangle
    assert score(ann, 0) == "6"
    assert ann.locator('[data-vert3x] [data-points="0"]').text_content().strip() == "3"
    phone = open_seat(context_factory, server, table, bob_token, 1, **PHONE)
    # with "confirm moves" on, the first tap previews the line and the second draws it
    phone.locator('input[name="confirm-touch"]').check()
    phone.locator('[data-line="d4-e5"]').tap()
    phone.wait_for_selector('[data-ghost="d4-e5"]', state="attached")
    assert "free, you can draw it" in tip(phone)
    assert version_of(server, table) == v
    phone.locator('[data-line="d4-e5"]').tap()
    v = wait_version(phone, v + 1)
    wait_version(ann, v)
    assert server_drawn(server, table)["d4-e5"] == "1"
    assert drawn(ann) == drawn(phone) == server_drawn(server, table)
    assert score(phone, 1) == str(state(server, table)["state"]["scores"][1]) == "6"
    assert no_sideways_scroll(phone)
    shot(ann, "vert3x-classic-desktop")
    shot(phone, "vert3x-classic-phone")
    assert ann.errors == [] and phone.errors == []


# ---- Trianguliche -------------------------------------------------------------------------
def test_trianguliche_two_lines_a_turn(server: Any, context_factory: Any) -> None:
    table = new_table(
        server,
        {"rules": "trianguliche", "width": 2, "height": 2, "lines_per_turn": 2},
        [{"kind": "human"}, {"kind": "human"}],
    )
    ann_token = sit(server, table, 0, "Ann")
    bob_token = sit(server, table, 1, "Bob")
    ann = open_seat(context_factory, server, table, ann_token, 0)
    assert "Your turn: line 1 of 2" in ann.locator("[data-v3x-status]").inner_text()
    v = version_of(server, table)
    click_line(ann, "a1-b1")
    v = wait_version(ann, v + 1)
    assert "Your turn: line 2 of 2" in ann.locator("[data-v3x-status]").inner_text()
    click_line(ann, "b1-b2")
    v = wait_version(ann, v + 1)
    assert ann.get_attribute("[data-table]", "data-turn") == "1"
    assert "Bob: line 1 of 2" in ann.locator("[data-v3x-status]").inner_text()
    api_move(server, table, bob_token, "e5-d5")
    api_move(server, table, bob_token, "d4-e5")
    v = wait_version(ann, v + 2)
    # d4-e5 is a window diagonal, drawn in Bob's pattern
    assert (
        drawn(ann)
        == server_drawn(server, table)
        == {"a1-b1": "0", "b1-b2": "0", "d5-e5": "1", "d4-e5": "1"}
    )
    # d4-d5 touches Bob's dots: the reason names him and the dot
    hover_line(ann, "d4-d5")
    assert "dot d4 is held by Bob" in tip(ann)
    # the window diagonal a1-b2 closes the triangle a1 b1 b2 (one small triangle: 1 point)
    click_line(ann, "a1-b2")
    v = wait_version(ann, v + 1)
    view = state(server, table)["state"]
    assert view["board"]["triangles"][0]["corners"] == ["a1", "b1", "b2"]
    assert score(ann, 0) == str(view["scores"][0]) == "1"
    assert ann.locator('[data-vert3x] [data-points="0"]').text_content().strip() == "1"
    # no extra turn by default: still Ann's turn, her second line
    assert "Your turn: line 2 of 2" in ann.locator("[data-v3x-status]").inner_text()
    shot(ann, "vert3x-trianguliche-desktop")
    phone = open_seat(context_factory, server, table, bob_token, 1, **PHONE)
    assert no_sideways_scroll(phone)
    shot(phone, "vert3x-trianguliche-phone")
    assert ann.errors == [] and phone.errors == []


# ---- the seed's other variations ----------------------------------------------------------
def test_overrule_by_clicking_the_other_players_line(server: Any, context_factory: Any) -> None:
    table = new_table(
        server,
        {"rules": "classic", "radius": 2, "connected": False, "overrules": 1},
        [{"kind": "human"}, {"kind": "human"}],
    )
    ann_token = sit(server, table, 0, "Ann")
    bob_token = sit(server, table, 1, "Bob")
    for token, move in ((ann_token, "a1-b1"), (bob_token, "a1-b2"), (ann_token, "b1-b2")):
        api_move(server, table, token, move)
    api_move(server, table, bob_token, "d5-e5")
    ann = open_seat(context_factory, server, table, ann_token, 0)
    assert "You have 1 overrule left" in ann.locator("[data-v3x-note='overrules']").inner_text()
    hover_line(ann, "a1-b2")
    assert "drawn by Bob, you can overrule it" in tip(ann)
    v = version_of(server, table)
    click_line(ann, "a1-b2")
    v = wait_version(ann, v + 1)
    view = state(server, table)["state"]
    assert server_drawn(server, table)["a1-b2"] == "0"
    assert view["last_move"]["move"] == "!a1-b2"
    assert view["scores"] == [2 + 1 + 3, 2]
    assert view["board"]["overrules"] == [0, 1]
    assert drawn(ann) == server_drawn(server, table)
    assert score(ann, 0) == "6"
    assert "used all your overrules" in ann.locator("[data-v3x-note='overrules']").inner_text()
    shot(ann, "vert3x-overrule-desktop")
    assert ann.errors == []

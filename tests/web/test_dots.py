"""The Dots-family boards (js/boards/dots/dots.js) through the real table page: Figures by keyboard
alone (cursor, Shift+arrows, the side menu), Dots and Triangles and the strip by clicking, a
phone by tapping (confirm moves, long press), and screenshots to look at."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import (
    PHONE,
    no_sideways_scroll,
    open_seat,
    shot,
    sit,
    switch_lang,
    version,
    wait_version,
)

#: The server's letters as the page shows them (shared/seats.js); "+" and "＋" are one plus.
LETTERS = {"X": "✕", "O": "○", "+": "＋"}


# ---- helpers ------------------------------------------------------------------------------
def new_table(server: Any, game: str, options: dict[str, Any], seats: list[dict[str, Any]]) -> str:
    reply = server.post("/api/tables", {"game": game, "options": options, "seats": seats})
    return str(reply["id"])


def table_view(server: Any, table: str) -> dict[str, Any]:
    out: dict[str, Any] = server.get(f"/api/tables/{table}")
    return out


def wait_humans_turn(page: Any, humans: set[int]) -> None:
    """Wait until a human seat is to move, or the game is over (the computer moved)."""
    allowed = [str(s) for s in humans] + [""]
    page.wait_for_function(
        "ok => ok.includes(document.querySelector('[data-table]')?.dataset.turn)", arg=allowed
    )


def symbol(board: dict[str, Any], seat: int) -> str:
    own = str(board["symbols"][seat])
    return LETTERS.get(own, own)


def check_cells(page: Any, view: dict[str, Any]) -> int:
    """Every cell on the page shows the server's owner, that owner's symbol and name (the
    table view's); returns how many are claimed."""
    board = view["state"]["board"]
    names = [seat["name"] for seat in view["seats"]]
    shown = page.evaluate(
        """() => [...document.querySelectorAll('[data-cell]')].map(el => ({
            i: Number(el.dataset.cell), owner: el.dataset.owner ?? null,
            symbol: el.dataset.symbol ?? null, label: el.getAttribute('aria-label'),
            drawn: document.querySelector(`[data-cell-symbol="${el.dataset.cell}"] [data-symbol]`)
                ?.dataset.symbol ?? null,
        }))"""
    )
    assert len(shown) == len(board["cells"])
    claimed = 0
    for cell in shown:
        owner = board["cells"][cell["i"]]["owner"]
        if owner is None:
            assert cell["owner"] is None and cell["drawn"] is None, cell
            assert "free" in cell["label"]
            continue
        claimed += 1
        want = symbol(board, owner)
        assert cell["owner"] == str(owner), cell
        shown = cell["symbol"]
        assert LETTERS.get(shown, shown) == want and cell["drawn"] == shown, (cell, want)
        assert cell["label"].endswith(f"claimed by {names[owner]} {shown}"), cell
    return claimed


# ---- square-board geometry for the keyboard (from the server's dots) -----------------------
def cell_box(board: dict[str, Any], i: int) -> tuple[float, float, float, float]:
    pos = {d["name"]: (d["x"], d["y"]) for d in board["dots"]}
    pts = [pos[n] for n in board["cells"][i]["dots"]]
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return min(xs), min(ys), max(xs), max(ys)


def side_key(board: dict[str, Any], i: int, line: str) -> str:
    """The arrow key that names `line` as a side of square cell i."""
    pos = {d["name"]: (d["x"], d["y"]) for d in board["dots"]}
    left, top, right, bottom = cell_box(board, i)
    (ax, ay), (bx, by) = (pos[n] for n in line.split("-"))
    if ay == by == top:
        return "ArrowUp"
    if ay == by == bottom:
        return "ArrowDown"
    if ax == bx == left:
        return "ArrowLeft"
    assert ax == bx == right
    return "ArrowRight"


def focused_cell(page: Any) -> int:
    raw = page.evaluate("document.activeElement?.dataset?.cell ?? null")
    assert raw is not None, "the focus left the board"
    return int(raw)


def walk_to(page: Any, board: dict[str, Any], target: int) -> None:
    """Arrow keys from the focused cell to `target` (square grid: rows, then columns)."""
    here = cell_box(board, focused_cell(page))
    there = cell_box(board, target)
    dy = round(there[1] - here[1])
    dx = round(there[0] - here[0])
    for _ in range(abs(dy)):
        page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
    for _ in range(abs(dx)):
        page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
    assert focused_cell(page) == target


def tab_to_board(page: Any) -> int:
    """Tab from the top of the page until a cell has the focus; returns how many Tabs."""
    page.evaluate("document.activeElement?.blur()")
    for n in range(1, 60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement?.dataset?.cell !== undefined"):
            return n
    raise AssertionError("Tab never reached the board")


def assertive(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => document.querySelector('[data-announce=assertive]')?.textContent.includes(t)",
        arg=text,
    )


def polite(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => document.querySelector('[data-announce=polite]')?.textContent.includes(t)",
        arg=text,
    )


# ---- 1. Figures by keyboard alone -----------------------------------------------------------
def test_figures_by_keyboard_alone_with_the_side_menu(server: Any, context_factory: Any) -> None:
    table = new_table(
        server,
        "figures",
        {"rows": 3, "cols": 3, "players": 3},
        [{"kind": "human"}, {"kind": "human"}, {"kind": "ai", "level": 1}],
    )
    tokens = {0: sit(server, table, 0, "Ann"), 1: sit(server, table, 1, "Bob")}
    pages = {s: open_seat(context_factory, server, table, tok, s) for s, tok in tokens.items()}

    # One tab stop: Tab reaches a cell; the next Tab leaves the board.
    for page in pages.values():
        tab_to_board(page)
        assert page.locator('[data-cell][tabindex="0"]').count() == 1
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement?.dataset?.cell === undefined")
        page.keyboard.press("Shift+Tab")
        focused_cell(page)
        # The keyboard help is on the board, translated.
        assert page.locator(".dots-help summary").inner_text() == "Keyboard"
        assert "Shift" in page.locator(".dots-help").text_content()

    humans = {0, 1}
    moves = menu_moves = refused = 0
    while True:
        wait_humans_turn(pages[0], humans)
        view = table_view(server, table)
        state = view["state"]
        if state["is_over"]:
            break
        seat = state["to_move"][0]
        page = pages[seat]
        wait_version(page, view["version"])
        board = state["board"]
        legal = state["legal_moves"]
        drawn = {ln["name"] for ln in board["lines"] if ln["drawn"]}

        if not refused:
            # The touch rule: a free side touching nothing is not offered, and Shift+arrow on
            # it says so and draws nothing.
            for i, cell in enumerate(board["cells"]):
                bad = [ln for ln in cell["lines"] if ln not in drawn and ln not in legal]
                if bad:
                    walk_to(page, board, i)
                    page.keyboard.press(f"Shift+{side_key(board, i, bad[0])}")
                    # said at once, with the server's reason, and kept in [data-refusal]
                    assertive(page, f"{bad[0]} cannot be drawn: it touches no drawn line")
                    assert board["blocked"][bad[0]] == {"reason": "untouched"}
                    assert page.get_attribute("[data-refusal]", "data-code") == "untouched"
                    assert "touches no drawn line or border" in page.inner_text("[data-refusal]")
                    assert version(page) == view["version"]
                    refused += 1
                    break

        move = legal[0]
        cells = [i for i, c in enumerate(board["cells"]) if move in c["lines"]]
        here = focused_cell(page)
        target = min(cells, key=lambda i: abs(i - here))
        walk_to(page, board, target)
        if moves in (1, 3):
            # The side menu, opened by the menu key (then Shift+F10): undrawn sides, the ones
            # not legal now disabled; arrows to the line, Enter draws it.
            page.keyboard.press("ContextMenu" if moves == 1 else "Shift+F10")
            page.wait_for_selector('[role="menu"]')  # its module may still be on its way
            items = page.locator('[role="menu"] [role="menuitem"]')
            listed = items.evaluate_all(
                "els => els.map(e => [e.dataset.line, e.getAttribute('aria-disabled'),"
                " e.textContent])"
            )
            sides = [ln for ln in board["cells"][target]["lines"] if ln not in drawn]
            assert sorted(x[0] for x in listed) == sorted(sides)
            for line, disabled, text in listed:
                assert (disabled == "true") == (line not in legal), (line, disabled)
                assert f"side ({line})" in text
                # a closed entry says why (the touch rule)
                assert (disabled == "true") == ("touches no drawn line" in text), text
            for _ in range(len(listed)):
                if page.evaluate("document.activeElement?.dataset?.line") == move:
                    break
                page.keyboard.press("ArrowDown")
            page.keyboard.press("Enter")
            menu_moves += 1
        else:
            page.keyboard.press(f"Shift+{side_key(board, target, move)}")
        wait_version(page, view["version"] + 1)
        assert page.locator('[role="menu"]').count() == 0
        focused_cell(page)  # the focus stays on the board after a move
        moves += 1

    final_view = table_view(server, table)
    final = final_view["state"]
    assert final["is_over"] and moves >= 3 and menu_moves == 2 and refused == 1
    for page in pages.values():
        wait_version(page, final_view["version"])
        assert check_cells(page, final_view) == 9
        assert page.errors == []
    # Figures' own figures, one per seat by lot, shown in the claimed cells.
    assert sorted(final["board"]["symbols"]) == sorted(["✕", "○", "＋"])

    # Names for screen readers: a grid of rows of cells; lines named by row, column and side.
    page = pages[0]
    assert page.locator('[role="grid"] [role="row"] [role="gridcell"][data-cell]').count() == 9
    assert page.get_attribute('[data-line="b1-b2"]', "aria-label") == (
        "row 1, column 2, left side, drawn (b1-b2)"
    )
    assert page.get_attribute('[data-line="a1-b1"]', "aria-label") == (
        "row 1, column 1, top side, border (a1-b1)"
    )
    assert page.locator("svg.dots-svg title").first.text_content() == "Figures, 3 by 3"
    # … in every language, switched on the fly.
    owner = final["board"]["cells"][0]["owner"]
    for code, start, help_title in (
        ("ru", "ряд 1, столбец 1, занята: ", "Клавиатура"),
        ("it", "riga 1, colonna 1, presa da ", "Tastiera"),
    ):
        switch_lang(page, code)
        label = page.get_attribute('[data-cell="0"]', "aria-label")
        shown = label[-1]  # the page's spelling of the owner's figure (shared/seats.js)
        assert label.startswith(start) and LETTERS.get(shown, shown) == symbol(
            final["board"], owner
        ), label
        assert page.locator(".dots-help summary").inner_text() == help_title


# ---- 2. Dots and Triangles and the strip by clicking ---------------------------------------
def play_by_clicking(server: Any, context_factory: Any, options: dict[str, Any]) -> list[Any]:
    table = new_table(server, "dots-and-triangles", options, [{"kind": "human"}] * 2)
    tokens = [sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")]
    pages = [open_seat(context_factory, server, table, tok, s) for s, tok in enumerate(tokens)]
    clicks = 0
    while True:
        view = table_view(server, table)
        state = view["state"]
        if state["is_over"]:
            break
        page = pages[state["to_move"][0]]
        wait_version(page, view["version"])
        drawn = [ln["name"] for ln in state["board"]["lines"] if ln["drawn"]]
        if drawn and clicks == 1:
            # A drawn line does not react: no hover preview over it.
            page.locator(f'[data-line="{drawn[0]}"]').hover()
            assert page.locator('[data-overlay="hover"]').count() == 0
        move = state["legal_moves"][-1]
        hit = page.locator(f'[data-line="{move}"]')
        if clicks % 2:
            # Near the line, not on it: the nearest legal line is the one drawn.
            box = hit.bounding_box()
            page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2 + 7)
            assert page.locator('[data-overlay="hover"]').count() == 1
            page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2 + 7)
        else:
            hit.click()
        wait_version(page, view["version"] + 1)
        assert page.get_attribute(f'[data-line="{move}"]', "data-drawn") == "drawn"
        clicks += 1
    final = table_view(server, table)
    for page in pages:
        wait_version(page, final["version"])
        assert check_cells(page, final) == len(final["state"]["board"]["cells"])
        # A claimed triangle's symbol is visible.
        assert page.locator("[data-cell-symbol] [data-symbol]").first.is_visible()
        assert page.errors == []
    return pages


def test_triangles_by_clicking(server: Any, context_factory: Any) -> None:
    pages = play_by_clicking(server, context_factory, {"size": 2})
    page = pages[0]
    labels = page.locator("[data-cell]").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))"
    )
    assert labels[0].startswith("row 1, triangle 1, pointing up, claimed by ")
    assert labels[2].startswith("row 2, triangle 2, pointing down, claimed by ")
    assert page.locator("svg.dots-svg title").first.text_content().endswith(", 2 triangles a side")
    shot(page, "triangles-desktop")


def test_triangles_by_keyboard_sides_facing_the_arrow(server: Any, context_factory: Any) -> None:
    table = new_table(server, "dots-and-triangles", {"size": 2}, [{"kind": "human"}] * 2)
    tokens = [sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")]
    ann, bob = (open_seat(context_factory, server, table, tok, s) for s, tok in enumerate(tokens))
    v = version(ann)
    tab_to_board(ann)
    assert focused_cell(ann) == 0  # the apex triangle, pointing up
    # Up on a triangle pointing up: two sides face that way; nothing is drawn, both are named.
    ann.keyboard.press("Shift+ArrowUp")
    polite(ann, "Two sides face that way: left side (a1-a2) and right side (a1-b2)")
    assert version(ann) == v and ann.locator("[data-line][data-drawn]").count() == 0
    ann.keyboard.press("Shift+ArrowLeft")
    wait_version(ann, v + 1)
    assert ann.get_attribute('[data-line="a1-a2"]', "data-drawn") == "drawn"
    # Bob: down to the triangle pointing down under it, whose top side faces up.
    wait_version(bob, v + 1)
    tab_to_board(bob)
    bob.keyboard.press("ArrowDown")
    assert focused_cell(bob) == 2
    assert bob.get_attribute('[data-cell="2"]', "aria-label") == (
        "row 2, triangle 2, pointing down, free"
    )
    bob.keyboard.press("Shift+ArrowUp")
    wait_version(bob, v + 2)
    assert bob.get_attribute('[data-line="a2-b2"]', "data-drawn") == "drawn"
    switch_lang(bob, "it")
    assert bob.get_attribute('[data-cell="0"]', "aria-label") == (
        "riga 1, triangolo 1, con la punta in su, libero; tracciati: lato sinistro, lato inferiore"
    )


def test_closed_strip_by_clicking(server: Any, context_factory: Any) -> None:
    strip = {"shape": "strip", "length": 3, "border": True}
    pages = play_by_clicking(server, context_factory, strip)
    page = pages[1]
    # The closed strip: its pre-drawn lines are border lines, not played ones.
    assert page.locator('[data-line][data-drawn="border"]').count() == 4
    assert page.locator('[data-line="a1-b1"]').get_attribute("aria-label") == (
        "triangle 2, top side, border (a1-b1)"
    )
    shot(page, "strip-desktop")


# ---- 3. A phone: tapping, confirm moves, long press ----------------------------------------
def test_phone_taps_confirm_and_long_press(server: Any, context_factory: Any) -> None:
    table = new_table(
        server, "dots-and-boxes", {"rows": 3, "cols": 3}, [{"kind": "human"}, {"kind": "human"}]
    )
    mine = sit(server, table, 0, "Ann")
    theirs = sit(server, table, 1, "Bob")
    page = open_seat(context_factory, server, table, mine, 0, **PHONE)
    assert no_sideways_scroll(page)
    touch = "getComputedStyle(document.querySelector('.dots-svg')).touchAction"
    assert page.evaluate(touch) == "none"
    assert page.evaluate("getComputedStyle(document.body).touchAction") == "auto"

    def their_move() -> None:
        view = table_view(server, table)
        move = view["state"]["legal_moves"][0]
        server.post(f"/api/tables/{table}/moves", {"token": theirs, "move": move})
        wait_version(page, view["version"] + 1)

    def midpoint(line: str) -> tuple[float, float]:
        box = page.locator(f'[data-line="{line}"]').bounding_box()
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    # A tap 18 px beside a line still draws it (touch targets of 44 px).
    v = version(page)
    x, y = midpoint("b1-c1")
    page.touchscreen.tap(x, y + 18)
    wait_version(page, v + 1)
    assert page.get_attribute('[data-line="b1-c1"]', "data-drawn") == "drawn"
    their_move()

    # Confirm moves: the first tap previews, a tap elsewhere cancels, a second tap draws.
    page.locator('input[name="confirm-touch"]').tap()
    assert page.locator('input[name="confirm-touch"]').is_checked()
    v = version(page)
    line = table_view(server, table)["state"]["legal_moves"][-1]
    page.locator(f'[data-line="{line}"]').tap()
    page.wait_for_selector(f'[data-line="{line}"][data-preview]')
    assert page.locator('[data-overlay="preview"]').count() == 1
    assert version(page) == v and page.get_attribute("[data-table]", "data-pending") == ""
    page.locator('[data-cell="4"]').tap()  # the middle of a cell: no line there
    page.wait_for_selector("[data-line][data-preview]", state="detached")
    page.locator(f'[data-line="{line}"]').tap()
    page.wait_for_selector(f'[data-line="{line}"][data-preview]')
    page.locator(f'[data-line="{line}"]').tap()
    wait_version(page, v + 1)
    assert page.get_attribute(f'[data-line="{line}"]', "data-drawn") == "drawn"
    their_move()

    # A long press on a cell opens its side menu; tapping an entry draws that side.
    box = page.locator('[data-cell="8"]').bounding_box()
    cdp = page.context.new_cdp_session(page)
    point = {"x": box["x"] + box["width"] / 2, "y": box["y"] + box["height"] / 2}
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [point]})
    page.wait_for_selector('[role="menu"]')
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    assert no_sideways_scroll(page)
    legal = table_view(server, table)["state"]["legal_moves"]
    entry = page.locator('[role="menuitem"]:not([aria-disabled])').first
    picked = entry.get_attribute("data-line")
    assert picked in legal
    v = version(page)
    entry.tap()
    wait_version(page, v + 1)
    assert page.get_attribute(f'[data-line="{picked}"]', "data-drawn") == "drawn"
    assert no_sideways_scroll(page)
    assert page.errors == []


# ---- 4. Screenshots and speed ---------------------------------------------------------------
def play_some(server: Any, table: str, tokens: dict[int, str], n: int) -> None:
    for _ in range(n):
        state = table_view(server, table)["state"]
        if state["is_over"]:
            return
        seat = state["to_move"][0]
        legal = state["legal_moves"]
        move = legal[len(legal) // 2]
        server.post(f"/api/tables/{table}/moves", {"token": tokens[seat], "move": move})


def test_screenshots_mid_game(server: Any, context_factory: Any) -> None:
    table = new_table(
        server, "figures", {"rows": 5, "cols": 5, "players": 3}, [{"kind": "human"}] * 3
    )
    tokens = {s: sit(server, table, s, name) for s, name in enumerate(["Ann", "Bob", "Cy"])}
    play_some(server, table, tokens, 30)
    for name, opts in (("figures-desktop", {}), ("figures-phone", PHONE)):
        page = open_seat(context_factory, server, table, tokens[0], 0, **opts)
        wait_version(page, table_view(server, table)["version"])
        assert check_cells(page, table_view(server, table)) > 0
        assert no_sideways_scroll(page)
        # The whole board is in view on a desktop (limited by the viewport's height).
        svg = page.locator("svg.dots-svg").bounding_box()
        assert svg["width"] <= page.viewport_size["width"]
        if not opts:
            assert svg["height"] <= page.viewport_size["height"]
        assert page.locator(".dots-last").count() == 1
        shot(page, name)
        # The side menu of a cell with free sides, in view and inside the page.
        board = table_view(server, table)["state"]["board"]
        drawn = {ln["name"] for ln in board["lines"] if ln["drawn"]}
        free = [i for i, c in enumerate(board["cells"]) if set(c["lines"]) - drawn]
        page.locator(f'[data-cell="{free[len(free) // 2]}"]').focus()
        page.keyboard.press("Enter")
        page.wait_for_selector('[role="menu"]')  # its module is fetched on the first focus
        assert page.locator('[role="menu"]').is_visible()
        assert no_sideways_scroll(page)
        # every item's words inside it, a long reason why not too (wrapped on a phone)
        cut = page.evaluate(
            """() => [...document.querySelectorAll('[role="menuitem"]')]
                .filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => el.textContent)"""
        )
        assert cut == [], cut
        shot(page, f"{name}-menu")
        page.keyboard.press("Escape")
        assert page.locator('[role="menu"]').count() == 0

    rhombus = new_table(
        server, "figures", {"rows": 6, "cols": 6, "shape": "rhombus"}, [{"kind": "human"}] * 2
    )
    tokens = {s: sit(server, rhombus, s, name) for s, name in enumerate(["Ann", "Bob"])}
    play_some(server, rhombus, tokens, 16)
    page = open_seat(context_factory, server, rhombus, tokens[0], 0, **PHONE)
    assert page.locator("[data-cell]").count() == 24
    assert no_sideways_scroll(page)
    shot(page, "figures-rhombus-phone")

    strip = new_table(
        server, "dots-and-triangles", {"shape": "strip", "length": 6}, [{"kind": "human"}] * 2
    )
    tokens = {s: sit(server, strip, s, name) for s, name in enumerate(["Ann", "Bob"])}
    play_some(server, strip, tokens, 12)
    page = open_seat(context_factory, server, strip, tokens[0], 0, **PHONE)
    assert no_sideways_scroll(page)
    shot(page, "strip-phone")

    tri = new_table(server, "dots-and-triangles", {"size": 6}, [{"kind": "human"}] * 2)
    tokens = {s: sit(server, tri, s, name) for s, name in enumerate(["Ann", "Bob"])}
    play_some(server, tri, tokens, 50)
    page = open_seat(context_factory, server, tri, tokens[0], 0, **PHONE)
    assert no_sideways_scroll(page)
    shot(page, "triangles-phone")


def test_a_big_board_drawn_line_by_line(server: Any, context_factory: Any) -> None:
    """A 12×12 board drawn line by line through every position: each update keeps the
    board right (every cell claimed at the end), a pending move is drawn as pending and no
    line reacts meanwhile. (How long an update takes is bench/bench_page.py's business.)"""
    import vertex

    start = vertex.create_game("dots-and-boxes", rows=12, cols=12, players=3).initial_state(1)
    table = new_table(server, "dots-and-boxes", {"rows": 2, "cols": 2}, [{"kind": "human"}] * 2)
    page = open_seat(context_factory, server, table, sit(server, table, 0, "Ann"), 0)
    ms = page.evaluate(
        """async (first) => {
            // Every position of a game that draws the lines in order, made here (cheap).
            const states = [first];
            for (let k = 0; k < first.board.lines.length; k++) {
                const s = structuredClone(states[states.length - 1]);
                const line = s.board.lines[k];
                line.drawn = true;
                const drawn = new Set(s.board.lines.filter(l => l.drawn).map(l => l.name));
                for (const c of s.board.cells) {
                    if (c.owner === null && c.lines.every(n => drawn.has(n))) c.owner = k % 3;
                }
                s.last_move = {seat: k % 3, move: line.name};
                s.legal_moves = s.board.lines.filter(l => !l.drawn).map(l => l.name);
                s.ply = k + 1;
                states.push(s);
            }
            const base = document.querySelector('link[rel=stylesheet][href*="/static/"]')
                .getAttribute('href').replace(/\\/css\\/.*$/, '');
            const mod = await import(base + '/js/boards/dots/dots.js');
            const host = document.createElement('div');
            document.body.append(host);
            const board = mod.createBoard(host, {onMove() {}, announce() {}});
            board.update(states[0], {mySeat: 0, canMove: true, animate: false});
            const t0 = performance.now();
            for (const s of states.slice(1)) {
                board.update(s, {mySeat: 0, canMove: true, animate: true});
            }
            const each = (performance.now() - t0) / (states.length - 1);
            const owned = host.querySelectorAll('[data-cell][data-owner]').length;
            // A move sent and not yet acknowledged: drawn as pending; no line reacts.
            board.update(first, {mySeat: 0, canMove: false, pending: 'a1-b1', animate: false});
            const pending = host.querySelectorAll('[data-overlay="pending"]').length;
            const reacting = host.querySelectorAll('[data-line][data-legal]').length;
            board.destroy();
            return [each, owned, states.length, pending, reacting];
        }""",
        start.to_dict(),
    )
    _each, owned, n, pending, reacting = ms
    assert n == 313 and owned == 144
    assert pending == 1 and reacting == 0


# ---- 5. Animation only for live moves, and never under reduced motion ----------------------
def test_new_lines_animate_unless_reduced_motion(server: Any, context_factory: Any) -> None:
    table = new_table(
        server, "dots-and-boxes", {"rows": 2, "cols": 2}, [{"kind": "human"}, {"kind": "human"}]
    )
    tokens = [sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")]
    calm = open_seat(context_factory, server, table, tokens[0], 0)
    still = open_seat(context_factory, server, table, tokens[1], 1, reduced_motion="reduce")
    watch = """() => {
        window.animated = [];
        new MutationObserver((records) => {
            for (const r of records) {
                const el = r.target.nodeType === 1 ? r.target : null;
                for (const n of [el, ...[...r.addedNodes]].filter(Boolean)) {
                    const sel = '.dots-enter, .dots-pop';
                    if (n.nodeType === 1 && (n.matches(sel) || n.querySelector?.(sel))) {
                        window.animated.push(n.tagName);
                    }
                }
            }
        }).observe(document.querySelector('[data-board]'),
                   {subtree: true, childList: true, attributes: true, attributeFilter: ['class']});
    }"""
    for page in (calm, still):
        page.evaluate(watch)
    for move, seat in (("a1-b1", 0), ("b1-c1", 1)):
        v = version(calm)
        server.post(f"/api/tables/{table}/moves", {"token": tokens[seat], "move": move})
        wait_version(calm, v + 1)
        wait_version(still, v + 1)
    assert calm.evaluate("window.animated.length") >= 2
    assert still.evaluate("window.animated.length") == 0
    # A reload draws the same lines at once, without animation (a snapshot).
    calm.reload()
    wait_version(calm, version(still))
    calm.evaluate(watch)
    assert calm.locator('[data-line][data-drawn="drawn"]').count() == 2
    assert calm.evaluate("document.querySelectorAll('.dots-enter, .dots-pop').length") == 0


# ---- refusals by mouse --------------------------------------------------------------------
def test_a_refused_figures_line_says_why_on_hover_and_click_in_english_and_russian(
    server: Any, context_factory: Any
) -> None:
    table = new_table(
        server, "figures", {"rows": 3, "cols": 3}, [{"kind": "human"}, {"kind": "human"}]
    )
    tokens = {0: sit(server, table, 0, "Ann"), 1: sit(server, table, 1, "Bob")}
    view = table_view(server, table)
    seat = view["state"]["to_move"][0]
    page = open_seat(context_factory, server, table, tokens[seat], seat)
    wait_version(page, view["version"])
    blocked = view["state"]["board"]["blocked"]
    line = next(iter(sorted(blocked)))
    assert blocked[line] == {"reason": "untouched"} and line not in view["state"]["legal_moves"]
    assert page.is_hidden("[data-refusal]")
    box = page.locator(f'[data-line="{line}"]').bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    # the mouse over it: the reason beside the line
    page.mouse.move(x, y)
    page.wait_for_selector(f'[data-line-tip][data-tip-line="{line}"]')
    assert page.get_attribute("[data-line-tip]", "data-code") == "untouched"
    assert "touches no drawn line or border" in page.inner_text("[data-line-tip]")
    # a click on it: nothing is sent, the reason is shown and said
    page.mouse.click(x, y)
    assertive(page, f"{line} cannot be drawn: it touches no drawn line or border")
    assert page.get_attribute("[data-refusal]", "data-code") == "untouched"
    assert page.inner_text("[data-refusal]") == (
        f"{line} cannot be drawn: it touches no drawn line or border (touch rule)."
    )
    assert version(page) == view["version"]
    shot(page, "dots-refusal-desktop")
    # in Russian
    switch_lang(page, "ru")
    page.mouse.move(x + 1, y)
    page.mouse.click(x + 1, y)
    page.wait_for_selector("[data-refusal]:has-text('правило касания')")
    assert page.inner_text("[data-refusal]").startswith(f"Линию {line} провести нельзя")
    # a line that may be drawn clears it
    move = view["state"]["legal_moves"][0]
    mbox = page.locator(f'[data-line="{move}"]').bounding_box()
    assert mbox is not None
    page.mouse.click(mbox["x"] + mbox["width"] / 2, mbox["y"] + mbox["height"] / 2)
    wait_version(page, view["version"] + 1)
    page.wait_for_selector("[data-refusal]", state="hidden")
    assert page.errors == []

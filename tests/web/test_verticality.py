"""The Verticality 3-D table (js/boards/towers/towers*.js) on the real table page: pieces placed by
dragging in the 3-D view (mouse) and by tapping (touch, 360 px), by keys alone, and by the
text form where there is no WebGL; the server's refusal shown on the ghost; both towers drawn;
a mulligan, a fall played back and the result; solo play with its personal best; the bests
board ("How tall can you build?") on the rules page, with its links to the replays.

Tables use `tremor_mm: 0` and `step_seconds: 0`, so where a piece lands is known and no clock
runs; the aims that make a card slide or a tower fall were found with the engine (they hold
for every die roll)."""

from __future__ import annotations

import base64
import json
import math
import re
import secrets
import types
from pathlib import Path
from typing import Any

import pytest

import vertex
from tests.web.conftest import (
    PHONE,
    LiveServer,
    no_sideways_scroll,
    shot,
    switch_lang,
    version,
    wait_version,
)
from vertex.games.verticality.plan import plan_aim
from vertex.server import Limits

DATA = Path(__file__).parent.parent / "ai" / "data"
SIZES = {"S": 14.29, "M": 19.84, "L": 25.40}
CARD_HALF = (31.75, 44.45)
CANVAS = "canvas[data-view3d]"
#: A hair between pyramids of a level: inside the touching rule's 1 mm.
GAP = 0.2


class Towers:
    """A Verticality table with everybody seated, read through the public API."""

    def __init__(self, server: LiveServer, names: list[str], **options: Any) -> None:
        self.server = server
        opts = {"players": len(names), "tremor_mm": 0.0, "step_seconds": 0, **options}
        self.id = server.post("/api/tables", {"game": "verticality", "options": opts})["id"]
        self.tokens = [
            server.post(f"/api/tables/{self.id}/seats/{n}", {"name": name})["token"]
            for n, name in enumerate(names)
        ]

    def url(self, seat: int) -> str:
        return f"{self.server.url}/tables/{self.id}#token={self.tokens[seat]}"

    def view(self) -> dict[str, Any]:
        out: dict[str, Any] = self.server.get(f"/api/tables/{self.id}")
        return out

    def board(self) -> dict[str, Any]:
        out: dict[str, Any] = self.view()["state"]["board"]
        return out

    def level_aims(self) -> list[tuple[float, float]]:
        """Three pyramids of the die's size in a tight triangle, a hair apart."""
        d = SIZES[self.board()["die"]["size"]] + GAP
        return [(0.0, 0.0), (d, 0.0), (d / 2, d)]

    def card_aim(self) -> tuple[float, float]:
        d = SIZES[self.board()["die"]["size"]] + GAP
        return (d / 2, d / 3)  # over the middle of the three tips


# ---- helpers ------------------------------------------------------------------------------
def open_seat(context_factory: Any, table: Towers, seat: int, **options: Any) -> Any:
    page = context_factory(**options).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(table.url(seat))
    page.wait_for_function(
        "s => document.querySelector('[data-table]')?.dataset.mySeat === s", arg=str(seat)
    )
    page.wait_for_selector(f"{CANVAS}, form[data-aim-form]", state="attached")
    wait_version(page, table.view()["version"])
    return page


def canvas_data(page: Any, key: str) -> str:
    value: str = page.eval_on_selector(CANVAS, "(c, k) => c.dataset[k] ?? ''", key)
    return value


def aim_point(page: Any, x: float, y: float, pointer: str = "mouse") -> tuple[float, float]:
    p = page.eval_on_selector(CANVAS, "(c, a) => c.aimPoint(a[0], a[1], a[2])", [x, y, pointer])
    return float(p["x"]), float(p["y"])


def wait_aim(page: Any, states: tuple[str, ...]) -> str:
    page.wait_for_function(
        "s => s.includes(document.querySelector('canvas[data-view3d]').dataset.aimState)",
        arg=list(states),
    )
    return canvas_data(page, "aimState")


def drag_to(page: Any, x: float, y: float) -> None:
    """Press on the view, drag the ghost to (x, y) mm of my base and let go there."""
    box = page.locator(CANVAS).bounding_box()
    assert box is not None
    x0, y0 = box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.75
    page.mouse.move(x0, y0)
    page.mouse.down()
    x1, y1 = aim_point(page, x, y)
    for i in range(1, 7):
        page.mouse.move(x0 + (x1 - x0) * i / 6, y0 + (y1 - y0) * i / 6)
    page.mouse.move(*aim_point(page, x, y))  # the camera may have eased meanwhile
    page.mouse.up()


def place_by_drag(page: Any, x: float, y: float) -> None:
    v = version(page)
    drag_to(page, x, y)
    wait_version(page, v + 1)


def last_piece(table: Towers, seat: int) -> dict[str, Any]:
    piece: dict[str, Any] = table.board()["towers"][seat]["pieces"][-1]
    return piece


def colours(page: Any) -> dict[str, int]:
    """Distinct colours and seat-coloured pixels in a screenshot of the 3-D view."""
    box = page.locator(CANVAS).bounding_box()
    png = page.screenshot(clip=box)
    counted: dict[str, int] = page.evaluate(
        """async (b64) => {
          const img = new Image();
          img.src = 'data:image/png;base64,' + b64;
          await img.decode();
          const c = document.createElement('canvas');
          c.width = img.width; c.height = img.height;
          const g = c.getContext('2d');
          g.drawImage(img, 0, 0);
          const d = g.getImageData(0, 0, c.width, c.height).data;
          const seen = new Set();
          let blue = 0, orange = 0;
          for (let i = 0; i < d.length; i += 4) {
            const [r, gr, b] = [d[i], d[i + 1], d[i + 2]];
            seen.add((r >> 3) << 10 | (gr >> 3) << 5 | (b >> 3));
            if (b > r + 70 && b > gr + 20) blue += 1;     // seat 0: Okabe–Ito blue
            if (r > b + 90 && r > gr + 40) orange += 1;   // seat 1: vermilion
          }
          return {colours: seen.size, blue, orange};
        }""",
        base64.b64encode(png).decode(),
    )
    return counted


def wait_still(page: Any) -> None:
    page.wait_for_function(
        "() => !document.querySelector('canvas[data-view3d]')?.hasAttribute('data-animating')"
    )


# ---- two players ----------------------------------------------------------------------------
def test_two_players_build_by_dragging_see_a_slide_a_fall_build_on_and_stop(
    server: LiveServer, context_factory: Any
) -> None:
    table = Towers(server, ["Ann", "Bob"], build_on=True)
    ann = open_seat(context_factory, table, 0)
    bob = open_seat(context_factory, table, 1, **PHONE)
    assert ann.get_attribute(CANVAS, "role") == "img" and ann.get_attribute(CANVAS, "aria-label")
    aims = table.level_aims()

    # Level 1, pyramid 1: Ann drags; her piece is hers alone until Bob's is in.
    place_by_drag(ann, *aims[0])
    ann.wait_for_selector("[data-towers-turn]:has-text('waiting for Bob')")
    assert table.view()["state"]["last_move"] == {"seat": 0, "move": None}
    v = version(bob)
    tap(bob, *aims[0])
    wait_version(bob, v + 1)
    wait_version(ann, v + 1)
    for seat in (0, 1):
        x, y, _ = last_piece(table, seat)["position_mm"]
        assert abs(x - aims[0][0]) < 0.1 and abs(y - aims[0][1]) < 0.1

    # Too far from the first pyramid: the ghost shows the server's reason and stays.
    box = ann.locator(CANVAS).bounding_box()
    assert box is not None
    ann.mouse.move(*aim_point(ann, 70, 0))
    assert wait_aim(ann, ("refused",)) == "refused"
    assert "Touching rule" in (ann.text_content("[data-aim-reason]") or "")
    assert "Touching rule" in (ann.text_content(".towers-ghost-note") or "")
    # The server names the rule and its numbers; the page says it in the player's language.
    switch_lang(ann, "it")
    ann.wait_for_selector("[data-aim-reason]:has-text('Regola del contatto')")
    assert re.search(r"entro 1 mm", ann.text_content("[data-aim-reason]") or "")
    switch_lang(ann, "en")
    ann.wait_for_selector("[data-aim-reason]:has-text('Touching rule')")
    v = version(ann)
    ann.mouse.down()
    ann.mouse.up()
    assert wait_aim(ann, ("refused",)) == "refused" and version(ann) == v  # nothing sent

    for x, y in aims[1:]:
        place_by_drag(ann, x, y)
        v = version(bob)
        tap(bob, x, y)
        wait_version(bob, v + 1)
    wait_version(ann, version(bob))
    board = table.board()
    assert (board["level"], board["step"]) == (1, 3)
    assert [len(t["pieces"]) for t in board["towers"]] == [3, 3]
    wait_still(ann)
    seen = colours(ann)
    assert seen["colours"] > 200 and seen["blue"] > 100 and seen["orange"] > 50, seen
    text = ann.text_content("[data-towers-description]") or ""
    assert "Ann (you): 0 levels" in text and "Bob: 0 levels" in text and "3 pieces" in text
    shot(ann, "verticality-two-desktop")
    shot(bob, "verticality-two-phone")
    assert no_sideways_scroll(bob)

    # The card: Ann's over the tips; Bob's far off-centre is refused by the page (it would not
    # rest on his pyramids, issue 33), and dropped there anyway by a script it slides off (his
    # mulligan).
    cx, cy = table.card_aim()
    place_by_drag(ann, cx, cy)
    v = version(bob)
    drop_off(table, bob, 1, cx + 30, cy)
    wait_version(bob, v + 1)
    wait_version(ann, v + 1)
    board = table.board()
    assert board["towers"][0]["levels"] == 1 and board["towers"][1]["mulligan_used"]
    assert board["due"] == [1] and board["level"] == 1
    ann.wait_for_selector("[data-towers-events] [data-event='slid']")
    ann.wait_for_selector("[data-towers-turn]:has-text('waiting for Bob')")

    # Again off-centre: a second slide is a fall, played back; Ann has won and builds on.
    played = int(canvas_data(ann, "animations") or 0)
    v = version(bob)
    drop_off(table, bob, 1, cx + 30, cy)
    wait_version(ann, v + 1)
    ann.wait_for_function(
        "n => Number(document.querySelector('canvas[data-view3d]').dataset.animations) > n",
        arg=played,
    )
    ann.wait_for_selector("[data-towers-events] [data-event='fell']")
    ann.wait_for_selector("[data-towers-events] [data-event='buildOn']")
    wait_still(ann)
    assert canvas_data(ann, "fallsPlayed") == "1"
    board = table.board()
    assert board["building_on"] and board["winner"] == 0 and board["due"] == [0]
    assert ann.get_attribute("[data-tower='1']", "data-standing") == "false"
    assert "Ann won and builds on alone" in (ann.text_content("[data-towers-winner]") or "")
    bob.wait_for_selector("[data-towers-turn]:has-text('Your tower has fallen')")
    assert bob.is_hidden("[data-towers-stop]")
    shot(ann, "verticality-fall-desktop")
    wait_still(bob)
    shot(bob, "verticality-fall-phone")

    # Building on alone ends with Stop; the height counts for Ann's personal best.
    ann.click("[data-towers-stop]")
    for page in (ann, bob):
        page.wait_for_selector("[data-result]")
    assert table.view()["state"]["winners"] == [0]
    assert table.view()["state"]["last_move"] == {"seat": 0, "move": "stop"}
    ann.wait_for_selector("[data-towers-best]:has-text('Ann: 1 level,')")

    # A spectator sees both towers and what became of them, in Italian if asked.
    watcher = context_factory().new_page()
    watcher.goto(f"{server.url}/tables/{table.id}")
    watcher.wait_for_selector(f"{CANVAS}")
    wait_version(watcher, table.view()["version"])
    watcher.click("[data-lang='it']")
    watcher.wait_for_selector("[data-tower='1']:has-text('caduta')")
    assert "in piedi" in (watcher.text_content("[data-tower='0']") or "")
    assert watcher.text_content("[data-towers-help] summary") == "Come mirare e mettere i pezzi"
    assert canvas_data(watcher, "aimState") == "idle"
    assert not ann.errors and not bob.errors


def drop_off(table: Towers, page: Any, seat: int, x: float, y: float) -> None:
    """A card tapped at (x, y), off its pyramids: the page refuses it in words and sends
    nothing; a script drops it there anyway (square to the base), and it slides off."""
    v = version(page)
    tap(page, x, y)
    page.wait_for_selector("[data-aim-reason]:has-text('Not resting on the pyramids')")
    assert version(page) == v
    table.server.post(
        f"/api/tables/{table.id}/moves",
        {"token": table.tokens[seat], "move": f"card x={x:.2f} y={y:.2f} rot=0"},
    )


def tap(page: Any, x: float, y: float) -> None:
    """A finger on the view (the ghost rides just above it) lifted at once: it places."""
    page.touchscreen.tap(*aim_point(page, x, y, "touch"))


# ---- solo, keys -----------------------------------------------------------------------------
def test_solo_by_keys_and_drags_until_the_tower_falls_and_the_best_is_kept(
    server: LiveServer, context_factory: Any
) -> None:
    table = Towers(server, ["Cleo"])
    page = open_seat(context_factory, table, 0)
    assert page.is_visible("[data-towers-help]")
    assert "Enter" in (page.text_content("[data-towers-help]") or "")

    # Keys alone: the ghost starts on the spot the game suggests (issue 33); 3 mm right,
    # 10 mm away; Q/E turn it.
    page.wait_for_function("() => document.querySelector('.towers')?.dataset.suggested")

    def aim_now() -> dict[str, float]:
        return {
            k: float(v) for k, v in (w.split("=") for w in canvas_data(page, "aim").split()[1:])
        }

    start = aim_now()
    page.focus(CANVAS)
    for key in ("ArrowRight", "ArrowRight", "ArrowRight", "Shift+ArrowUp", "q"):
        page.keyboard.press(key)
    moved = aim_now()
    assert moved["x"] == pytest.approx(start["x"] + 3, abs=0.06)
    assert moved["y"] == pytest.approx(start["y"] + 10, abs=0.06) and moved["rot"] == 5
    sx, sy = moved["x"], moved["y"]
    page.keyboard.press("e")  # back square to the base, as the next two will be
    assert aim_now() == {"x": sx, "y": sy, "rot": 0}
    v = version(page)
    page.keyboard.press("Enter")
    wait_version(page, v + 1)
    piece = last_piece(table, 0)
    assert piece["position_mm"][:2] == [sx, sy]

    # The rest of the level by dragging, round the first pyramid.
    d = SIZES[table.board()["die"]["size"]] + GAP
    place_by_drag(page, sx + d, sy)
    place_by_drag(page, sx + d / 2, sy + d)
    wait_still(page)
    place_by_drag(page, sx + d / 2, sy + d / 3)
    board = table.board()
    assert board["towers"][0]["levels"] == 1 and board["level"] == 2
    page.wait_for_selector("[data-towers-events] [data-event='level']")
    wait_still(page)
    shot(page, "verticality-solo-desktop")

    # A pyramid at the card's corner tips the card: the tower falls, the game is over.
    card = next(p for p in board["towers"][0]["pieces"] if p["kind"] == "card")
    b2 = SIZES[board["die"]["size"]]
    w, qx, qy, qz = card["quaternion"]  # the card's turn: the suggested card may be turned
    yaw = math.atan2(2 * (w * qz + qx * qy), 1 - 2 * (qy * qy + qz * qz))
    dx, dy = CARD_HALF[0] - b2 / 2 - 1, CARD_HALF[1] - b2 / 2 - 1
    x = card["position_mm"][0] + dx * math.cos(yaw) - dy * math.sin(yaw)
    y = card["position_mm"][1] + dx * math.sin(yaw) + dy * math.cos(yaw)
    page.focus(CANVAS)
    for _ in range(18):  # the pyramid square to the card (its turn, to the nearest 5°)
        off = (float(canvas_data(page, "aim").split("rot=")[1]) - math.degrees(yaw)) % 90
        if min(off, 90 - off) < 2.6:
            break
        page.keyboard.press("e")
    place_by_drag(page, x, y)
    page.wait_for_selector("[data-result]")
    page.wait_for_selector("[data-towers-events] [data-event='fell']")
    wait_still(page)
    assert canvas_data(page, "fallsPlayed") == "1"
    height = table.board()["result"]["height_mm"][0]
    said = re.search(
        r"You reached 1 level, ([\d.]+) mm\.", page.text_content("[data-towers-winner]") or ""
    )
    assert said and float(said[1]) == pytest.approx(height, abs=0.06)
    page.wait_for_selector("[data-towers-best]:has-text('Cleo: 1 level,')")
    assert "Cleo" in (page.text_content(".towers-top") or "")
    shot(page, "verticality-solo-fall-desktop")
    assert not page.errors


def test_solo_on_a_phone_places_by_tapping(server: LiveServer, context_factory: Any) -> None:
    table = Towers(server, ["Dan"])
    page = open_seat(context_factory, table, 0, **PHONE)
    assert no_sideways_scroll(page)
    v = version(page)
    tap(page, 5, -8)
    wait_version(page, v + 1)
    assert last_piece(table, 0)["position_mm"][:2] == pytest.approx([5.0, -8.0], abs=0.1)
    buttons = page.eval_on_selector_all(
        "[data-view-action]", "els => els.map(e => e.getBoundingClientRect().height)"
    )
    assert buttons and min(buttons) >= 44
    wait_still(page)
    shot(page, "verticality-solo-phone")
    assert no_sideways_scroll(page)
    # Aimed far to the right by keys: the refused ghost's note stays whole inside the view.
    page.focus(CANVAS)
    for _ in range(6):
        page.keyboard.press("Shift+ArrowRight")
    assert wait_aim(page, ("refused",)) == "refused"
    page.wait_for_selector(".towers-ghost-note:not([hidden])")
    note = page.locator(".towers-ghost-note").bounding_box()
    view = page.locator(CANVAS).bounding_box()
    assert note is not None and view is not None
    assert view["x"] <= note["x"] and note["x"] + note["width"] <= view["x"] + view["width"]
    assert view["y"] <= note["y"]
    assert not page.errors


# ---- a tall tower on a phone ----------------------------------------------------------------
def test_a_30_level_tower_on_a_phone_is_followed_and_numbered(
    tmp_path: Any, context_factory: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Level 5's recorded tower to the supply's end (seed 3, tremor 0), all but its last card:
    the camera follows it up and the levels are numbered beside it, legible at 360 px."""
    import vertex.server.play.new_tables as new_tables

    record = json.loads((DATA / "tower30_seed3.json").read_text())
    seeded = types.SimpleNamespace(
        randbits=lambda bits: record["seed"], token_urlsafe=secrets.token_urlsafe
    )
    # the table's seed: the recorded tower's (drawn where tables are opened; when that moved
    # out of hub.py the tower was played on a random seed and its moves were refused)
    monkeypatch.setattr(new_tables, "secrets", seeded)
    # the recorded tower is posted as fast as the server takes it: no 20-a-second limit here
    fast = Limits(messages_per_second=10_000.0, message_burst=10_000)
    with LiveServer(tmp_path, limits=fast) as live:
        table = Towers(live, ["Tall"])
        for move in record["moves"][:119]:
            live.post(f"/api/tables/{table.id}/moves", {"token": table.tokens[0], "move": move})
        board = table.board()
        assert board["towers"][0]["standing"] and (board["level"], board["step"]) == (30, 3)
        page = open_seat(context_factory, table, 0, **PHONE)
        page.set_default_timeout(60_000)  # 119 pieces to load on a busy box
        wait_still(page)
        page.wait_for_selector(".towers-level[data-level='29']:not([hidden])")
        # Close up, following the top: the top levels numbered one by one, in order upwards,
        # none on another, all inside the view.
        marks = level_marks(page)
        assert [m[0] for m in marks][-1] == 29 and len(marks) >= 3
        assert [m[0] for m in marks] == list(range(30 - len(marks), 30))
        shot(page, "verticality-tall-phone")
        # Zoomed out over the whole height: fewer numbers (every 2nd, 5th or 10th), still apart.
        for _ in range(10):
            page.click("[data-view-action='zoom-out']")
        for _ in range(12):
            page.click("[data-view-action='down']")
        wait_still(page)
        page.wait_for_function(
            "() => document.querySelectorAll('.towers-level:not([hidden])').length >= 2"
        )
        marks = level_marks(page)
        levels = [m[0] for m in marks]
        every = levels[1] - levels[0]
        assert every in (2, 5, 10) and all(n % every == 0 for n in levels[:-1]), levels
        assert no_sideways_scroll(page)
        shot(page, "verticality-tall-phone-whole")
        assert not page.errors


def level_marks(page: Any) -> list[tuple[int, float, float]]:
    """The level numbers shown beside the tower: (level, y, height), checked to be in order
    upwards, apart, and inside the 3-D view."""
    marks = page.eval_on_selector_all(
        ".towers-level:not([hidden])",
        "els => els.map(e => { const r = e.getBoundingClientRect();"
        " return [Number(e.dataset.level), r.y, r.height, r.x, r.right]; })",
    )
    view = page.locator(CANVAS).bounding_box()
    assert view is not None
    ys = [m[1] for m in marks]
    assert ys == sorted(ys, reverse=True)  # numbered upwards
    assert all(a - b >= m[2] for (a, b, m) in zip(ys, ys[1:], marks, strict=False))
    for m in marks:
        assert view["x"] <= m[3] and m[4] <= view["x"] + view["width"]
        assert view["y"] <= m[1] and m[1] + m[2] <= view["y"] + view["height"]
    return [(int(m[0]), m[1], m[2]) for m in marks]


# ---- no WebGL: the text form -------------------------------------------------------------
NO_WEBGL = """
(() => {
  const real = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
    if (String(kind).startsWith('webgl')) return null;
    return real.call(this, kind, ...rest);
  };
})();
"""


def test_without_webgl_the_form_aims_and_places_by_keyboard(
    server: LiveServer, context_factory: Any
) -> None:
    table = Towers(server, ["Eve"])
    ctx = context_factory()
    ctx.add_init_script(NO_WEBGL)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(table.url(0))
    page.wait_for_selector("[data-no-webgl]")
    assert "WebGL" in (page.text_content("[data-no-webgl]") or "")
    assert page.query_selector(CANVAS) is None
    wait_version(page, table.view()["version"])
    page.wait_for_function("() => !document.querySelector('form[data-aim-form] [name=x]').disabled")

    # A card in a pyramid step: "Aim" asks the server, which says why not.
    page.focus("form[data-aim-form] [name=piece]")
    page.keyboard.press("ArrowDown")  # pyramid -> card
    assert page.input_value("[name=piece]") == "card"
    page.keyboard.press("Tab")
    page.keyboard.press("Control+A")
    page.keyboard.type("4")
    page.keyboard.press("Tab")
    page.keyboard.press("Control+A")
    page.keyboard.type("2")
    page.keyboard.press("Tab")
    page.keyboard.press("Control+A")
    page.keyboard.type("15")
    page.keyboard.press("Tab")  # the Aim button
    page.keyboard.press("Enter")
    page.wait_for_selector("[data-aim-form-status]:has-text('not a card')")

    # The pyramid, placed with Enter from the form.
    page.focus("form[data-aim-form] [name=piece]")
    page.keyboard.press("ArrowUp")
    page.focus("form[data-aim-form] [name=rot]")
    v = version(page)
    page.keyboard.press("Enter")
    wait_version(page, v + 1)
    piece = last_piece(table, 0)
    assert piece["position_mm"][:2] == [4.0, 2.0] and piece["kind"] in SIZES
    assert "1 piece" in (page.text_content("[data-towers-description]") or "")
    shot(page, "verticality-no-webgl-desktop")
    assert not errors


# ---- "How tall can you build?": the bests board ------------------------------------------------
def solo_game(server: LiveServer, name: str, levels: int) -> tuple[str, str]:
    """A solo table where `name` completes `levels` levels with the plan (tremor 0), then
    resigns: its (table id, seat token). The plan is worked out on a local copy of the game
    (the same seed replays the same towers)."""
    opts = {"players": 1, "tremor_mm": 0.0, "step_seconds": 0}
    tid = server.post("/api/tables", {"game": "verticality", "options": opts})["id"]
    token = server.post(f"/api/tables/{tid}/seats/0", {"name": name})["token"]
    state = vertex.replay(server.get(f"/api/tables/{tid}/record"))
    for _ in range(4 * levels):
        move = str(plan_aim(state, 0))  # type: ignore[arg-type]
        server.post(f"/api/tables/{tid}/moves", {"token": token, "move": move})
        state = state.play(move, seat=0)
    server.post(f"/api/tables/{tid}/actions", {"token": token, "action": "resign"})
    assert server.get(f"/api/tables/{tid}")["state"]["board"]["result"]["levels"] == [levels]
    return tid, token


def test_the_bests_board_lists_solo_towers_best_first_with_their_replays(
    tmp_path: Any, context_factory: Any
) -> None:
    with LiveServer(tmp_path) as live:
        games = {name: solo_game(live, name, n) for name, n in (("Bo", 0), ("Ann", 2), ("Cy", 1))}
        # Ann opens her finished table; its panel links to the board.
        context = context_factory()
        page = context.new_page()
        page.set_default_timeout(60_000)  # the three games' towers load slowly on a busy box
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        tid, token = games["Ann"]
        page.goto(f"{live.url}/tables/{tid}#token={token}")
        page.wait_for_selector("[data-towers-best]")
        page.wait_for_selector("a[data-bests-link]")
        page.click("a[data-bests-link]")
        page.wait_for_url("**/rules/verticality#bests")
        page.wait_for_selector("[data-bests-board][data-bests='3']")
        rows = page.query_selector_all("table.bests-site tbody tr")
        names = [r.query_selector("th").text_content() for r in rows]  # type: ignore[union-attr]
        assert names == ["Ann", "Cy", "Bo"]
        levels = [r.query_selector_all("td")[1].text_content() for r in rows]
        assert levels == ["2", "1", "0"]
        links = [
            r.query_selector("a[data-replay-link]").get_attribute("href")  # type: ignore[union-attr]
            for r in rows
        ]
        assert links == [f"/tables/{games[n][0]}#replay" for n in ("Ann", "Cy", "Bo")]
        label = rows[0].query_selector("a").get_attribute("aria-label")  # type: ignore[union-attr]
        assert label == "Replay Ann's tower of 2 levels"
        # Ann's game ended by resignation, seen in this browser: it is this browser's own best
        # (the table ended the game; the game's own state does not say it is over).
        own = page.wait_for_selector("[data-own-best='2']")
        assert own.is_visible()
        computer = page.query_selector_all("table.bests-computer tbody tr")
        assert [r.query_selector("th").text_content() for r in computer][:1] == [  # type: ignore[union-attr]
            "Computer, level 1"
        ]
        shot(page, "verticality-bests-desktop")
        # The link opens the table with its replay.
        page.click("table.bests-site tbody tr:first-child a[data-replay-link]")
        page.wait_for_selector("[data-replay]:not([hidden])")
        page.wait_for_selector("[data-replay-status]")
        assert page.url.endswith(f"/tables/{tid}")  # the #replay is used up
        # In Russian on a phone, by keyboard: the links are reachable.
        phone = context_factory(**PHONE).new_page()
        phone.goto(f"{live.url}/rules/verticality#bests")
        phone.wait_for_selector("[data-bests-board][data-bests='3']")
        switch_lang(phone, "ru")
        phone.wait_for_selector("table.bests-site caption:has-text('Лучшие одиночные башни')")
        assert no_sideways_scroll(phone)
        shot(phone, "verticality-bests-phone-ru")
        assert not errors


# ---- snapping, and the refusal line -------------------------------------------------------
def test_an_aim_3_mm_short_snaps_against_its_neighbour_and_a_far_one_is_refused_in_words(
    server: LiveServer, context_factory: Any
) -> None:
    table = Towers(server, ["Dora"])
    page = open_seat(context_factory, table, 0)
    place_by_drag(page, 0.0, 0.0)
    wait_still(page)
    side = SIZES[table.board()["die"]["size"]]  # centres this far apart: the bases touch
    # Far: refused, the reason in the page's refusal line with the rule as its code.
    page.mouse.move(*aim_point(page, side + 30, 0.0))
    wait_aim(page, ("refused",))
    page.wait_for_selector("[data-refusal][data-code=touching]:has-text('Touching rule')")
    refusal = page.text_content("[data-refusal]") or ""
    assert "would stand" in refusal and "mm" in refusal and "touching rule:" not in refusal
    # 3 mm short of touching: accepted, snapped (said beside the aim), and played snapped.
    page.mouse.move(*aim_point(page, side + 3, 0.0))
    wait_aim(page, ("ok",))
    page.wait_for_selector("[data-aim-snap]")
    assert page.is_hidden("[data-refusal]")
    place_by_drag(page, side + 3, 0.0)
    x, y, _ = last_piece(table, 0)["position_mm"]
    assert side < x < side + 1.0 and abs(y) < 0.5  # against the first, not 3 mm off
    assert not page.errors

"""The dark theme (css/base.css tokens, js/shared/theme.js): every board at desktop and phone in a
browser that prefers dark, and the header's switch (light / dark / auto, kept per browser).

Measured on the page, not assumed: the text of the page against what is behind it (4.5:1),
each seat's colour against the board (3:1, WCAG's figure for graphics), the keyboard
cursor's colour apart from every seat's, and nothing wider than a 360 px phone. The
screenshots land in artifacts/web/theme-*.png: look at them."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import DESKTOP, PHONE, LiveServer, no_sideways_scroll, shot, sit

GAMES: dict[str, dict[str, Any]] = {
    "dots-and-boxes": {"rows": 3, "cols": 3},
    "dots-and-triangles": {},
    "figures": {},
    "vert3x": {},
    "juxtapose": {},
    "verticality": {"tremor_mm": 0.0, "step_seconds": 0},
}
BOARD = {
    "verticality": "[data-view3d], form[data-aim-form]",
    "juxtapose": ".jx svg",
    "vert3x": ".v3x-board",
}

# The page's own colour maths: WCAG relative luminance of every `color` the page computes,
# the background an element's text is drawn on (the first ancestor with one), and the
# colours the page gives the seats and the keyboard cursor.
MEASURE = """() => {
  const rgb = (s) => (s.match(/[\\d.]+/g) || []).slice(0, 4).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05); };
  const behind = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length === 3 || c[3] > 0.5) return c.slice(0, 3);
    }
    return rgb(getComputedStyle(document.body).backgroundColor);
  };
  const probe = (value) => { const d = document.createElement("div");
    d.style.color = value; document.body.append(d);
    const c = rgb(getComputedStyle(d).color); d.remove(); return c; };
  const worst = [];
  for (const el of document.querySelectorAll("main *, header *")) {
    if (!el.offsetParent && el.tagName !== "BODY") continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const skip = "svg, canvas, .towers-view, .jx-board, .swatch, [aria-hidden=true]";
    if (!own || el.closest(skip)) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || Number(style.opacity) < 1) continue;
    if (el.closest("button:disabled, [aria-disabled=true], option")) continue;
    const r = ratio(rgb(style.color).slice(0, 3), behind(el));
    const what = el.tagName + "." + el.className;
    if (r < 4.5) worst.push([what, el.textContent.trim().slice(0, 40), r]);
  }
  const board = probe("var(--board)");
  const cursor = probe("var(--focus)");
  const seats = [0, 1].map((n) => probe(["#0072B2", "#D55E00"][n]));
  const inks = [...document.querySelectorAll(".swatch")]
    .map((s) => rgb(getComputedStyle(s).backgroundColor).slice(0, 3));
  return { dark: document.documentElement.dataset.dark, worst,
    seats: seats.map((s) => ratio(s, board)), cursorOnBoard: ratio(cursor, board),
    cursor, swatches: inks };
}"""


def hue(c: list[float]) -> float:
    r, g, b = (v / 255 for v in c[:3])
    top, low = max(r, g, b), min(r, g, b)
    if top == low:
        return -1.0
    d = top - low
    if top == r:
        h = ((g - b) / d) % 6
    elif top == g:
        h = (b - r) / d + 2
    else:
        h = (r - g) / d + 4
    return h * 60


def apart(a: float, b: float) -> float:
    return min(abs(a - b), 360 - abs(a - b))


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_every_board_in_the_dark_reads_at_aa_and_fits(
    server: LiveServer, context_factory: Any, game: str, device: str
) -> None:
    table = server.post("/api/tables", {"game": game, "options": GAMES[game]})["id"]
    token = sit(server, table, 0, "Ann")
    sit(server, table, 1, "Bob")
    kind = PHONE if device == "phone" else DESKTOP
    page = context_factory(color_scheme="dark", **kind).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.url}/tables/{table}#token={token}")
    page.wait_for_function("() => document.querySelector('[data-table]')?.dataset.version")
    page.wait_for_selector(BOARD.get(game, ".dots-svg"), state="attached")
    found = page.evaluate(MEASURE)
    shot(page, f"theme-{game}-{device}")
    assert found["dark"] == "true"
    assert not found["worst"], f"text under 4.5:1 in the dark: {found['worst']}"
    assert min(found["seats"]) >= 3.0, found["seats"]  # both seats' lines on the board
    assert found["cursorOnBoard"] >= 4.5
    cursor = hue(found["cursor"])
    for swatch in found["swatches"]:
        assert apart(cursor, hue(swatch)) >= 30, (found["cursor"], swatch)
    if device == "phone":
        assert no_sideways_scroll(page)
    assert not errors


def test_the_switch_chooses_light_or_dark_and_this_browser_keeps_it(
    server: LiveServer, context_factory: Any
) -> None:
    page = context_factory(color_scheme="light").new_page()
    page.goto(server.url + "/")
    page.wait_for_selector("[data-theme-switch]")
    assert page.evaluate("document.documentElement.dataset.dark") == "false"
    light = page.evaluate("getComputedStyle(document.body).backgroundColor")
    page.select_option("[data-theme-switch]", "dark")
    assert page.evaluate("document.documentElement.dataset.dark") == "true"
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") != light
    page.goto(server.url + "/rules/vert3x")
    page.wait_for_selector("[data-theme-switch]")
    assert page.evaluate("document.documentElement.dataset.dark") == "true"
    assert page.input_value("[data-theme-switch]") == "dark"
    found = page.evaluate(MEASURE)
    shot(page, "theme-rules-dark")
    assert not found["worst"], found["worst"]
    page.select_option("[data-theme-switch]", "auto")  # back to the system's: light here
    assert page.evaluate("document.documentElement.dataset.dark") == "false"
    # the keyboard cursor is a colour no seat has, in the light theme too
    found = page.evaluate(MEASURE)
    assert found["cursorOnBoard"] >= 4.5
    for seat in ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"]:
        rgb = [int(seat[i : i + 2], 16) for i in (1, 3, 5)]
        assert apart(hue(found["cursor"]), hue(rgb)) >= 30, seat

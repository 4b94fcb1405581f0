"""axe-core (WCAG 2.1 A and AA) on the pages a newcomer meets, at desktop (1280×800) and phone
(360×740) size: the lobby (en, it, ru), the new-table form, a table of every game while it is
played and once it is over (the result banner shown, then its replay), and every game's rules
page. Every violation fails the test, printed with its rule, the elements and axe's help.

axe-core is a pinned devDependency (package.json; `npm ci` installs it): it is read from
node_modules and evaluated in the page (Playwright's evaluate is not subject to the page's
CSP, which blocks inline script tags). Where it is not installed the tests skip, saying so.
The API docs page (`/docs`) is left out: it is Swagger UI's markup, not ours."""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.web.conftest import PHONE, LiveServer, shot, sit, switch_lang

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
DEVICES: dict[str, dict[str, Any]] = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": PHONE,
}
GAMES: dict[str, dict[str, Any]] = {
    "dots-and-boxes": {"rows": 3, "cols": 3},
    "dots-and-triangles": {},
    "figures": {},
    "vert3x": {},
    "juxtapose": {},
    "verticality": {"tremor_mm": 0.0, "step_seconds": 0},
}
#: What shows that a table's board is drawn.
BOARD = {
    "verticality": "canvas[data-view3d], form[data-aim-form]",
    "juxtapose": ".jx svg",
    "vert3x": ".v3x-board",
}
PLAY_NOW = {"it": "Gioca ora", "ru": "Играть сейчас"}
RUN = """async () => {
  const r = await axe.run(document, {
    runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']},
    resultTypes: ['violations'],
  });
  return r.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => ({target: n.target.join(' '), summary: n.failureSummary})),
  }));
}"""

pytestmark = pytest.mark.skipif(
    not AXE.is_file(),
    reason=f"axe-core is not installed ({AXE} missing; `npm ci` installs it): audit skipped",
)


@functools.cache
def axe_source() -> str:
    return AXE.read_text(encoding="utf-8") + "\n;0"


def audit(page: Any, state: str) -> list[str]:
    """axe's WCAG 2.1 A/AA violations on the page as it is now, one line per element."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(axe_source())
    found: list[dict[str, Any]] = page.evaluate(RUN)
    return [
        f"[{state}] {v['id']} ({v['impact']}): {n['target']} — {v['help']}\n    {n['summary']}"
        for v in found
        for n in v["nodes"]
    ]


def verdict(lines: list[str]) -> str:
    return f"{len(lines)} WCAG 2.1 A/AA violation(s):\n" + "\n".join(lines)


def new_page(context_factory: Any, device: str) -> Any:
    page = context_factory(**DEVICES[device]).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def listed_tables(server: LiveServer) -> dict[str, str]:
    """A listed table in each of the lobby's sections: waiting, playing now, just finished;
    the seat link of Ann's seat at the one playing."""
    body = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}, "listed": True}
    made = {kind: str(server.post("/api/tables", body)["id"]) for kind in ("open", "live", "done")}
    for kind in ("live", "done"):
        tid = made[kind]
        ann, bob = sit(server, tid, 0, "Ann"), sit(server, tid, 1, "Bob")
        server.post(f"/api/tables/{tid}/moves", {"token": ann, "move": "a1-b1"})
        if kind == "done":
            server.post(f"/api/tables/{tid}/actions", {"token": bob, "action": "resign"})
        else:
            made["mine"] = f"/tables/{tid}#token={ann}"
    return made


@pytest.mark.parametrize("device", list(DEVICES))
def test_the_lobby_and_the_form(server: LiveServer, context_factory: Any, device: str) -> None:
    tables = listed_tables(server)
    page = new_page(context_factory, device)
    # a seat taken in this browser: the lobby lists it under "Your tables"
    page.goto(server.url + tables["mine"])
    page.wait_for_function("() => document.querySelector('[data-table]')?.dataset.mySeat === '0'")
    page.goto(server.url + "/")
    page.wait_for_selector("[data-game] svg")
    for kind in ("open", "live", "done"):
        page.wait_for_selector(f'[data-lobby-table="{tables[kind]}"]')
    page.wait_for_selector("[data-my-table]")
    found = audit(page, "lobby")
    # names hold the words shown: a phone shows EN, a desktop English
    expect(page.locator('[data-lang="en"]')).to_have_accessible_name("English, EN")
    play_now = page.locator('[data-game="juxtapose"] [data-action="play-now"]')
    expect(play_now).to_have_accessible_name(re.compile(r"^Play now: Juxtapose\b"))
    watch = page.locator(f'[data-lobby-table="{tables["live"]}"] [data-action="watch"]')
    expect(watch).to_have_accessible_name(re.compile(r"^Watch: Dots and Boxes\b.*\bAnn\b"))
    shot(page, f"a11y-lobby-{device}")
    for code in ("it", "ru"):
        switch_lang(page, code)
        page.wait_for_selector(f'[data-action="play-now"]:text-is("{PLAY_NOW[code]}")')
        found += audit(page, f"lobby in {code}")
    shot(page, f"a11y-lobby-{device}-ru")
    switch_lang(page, "en")
    page.click('[data-game="dots-and-boxes"] .game-choose')
    page.wait_for_selector('form[data-new-table][data-for-game="dots-and-boxes"][data-state="ok"]')
    found += audit(page, "new-table form")
    shot(page, f"a11y-form-{device}")
    assert not found, verdict(found)
    assert page.errors == []


def play_two_moves(server: LiveServer, table: str, tokens: list[str]) -> None:
    """A move for each seat (the first the server lists), so the move list shows too."""
    for seat in (0, 1):
        state = server.get(f"/api/tables/{table}")["state"]
        if state["legal_moves"] is None:  # Verticality: aimed, both seats at once
            move = "pyramid x=0.00 y=0.00 rot=0"
        else:
            seat, move = state["to_move"][0], state["legal_moves"][0]
        server.post(f"/api/tables/{table}/moves", {"token": tokens[seat], "move": move})


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("device", list(DEVICES))
def test_a_table_playing_and_finished(
    server: LiveServer, context_factory: Any, device: str, game: str
) -> None:
    table = server.post(
        "/api/tables",
        {"game": game, "options": GAMES[game], "seats": [{"kind": "human"}] * 2},
    )["id"]
    ann = sit(server, table, 0, "Ann")
    bob = sit(server, table, 1, "Bob")
    play_two_moves(server, table, [ann, bob])
    page = new_page(context_factory, device)
    page.goto(f"{server.url}/tables/{table}#token={ann}")
    page.wait_for_function(
        "() => { const t = document.querySelector('[data-table]');"
        " return t && t.dataset.mySeat === '0' && t.dataset.version !== ''; }"
    )
    page.wait_for_selector(BOARD.get(game, ".dots-svg"), state="attached")
    page.wait_for_selector('[data-move-list] [data-move-ply="2"]')
    # a move's name is what it shows ("1." and the move), with the player's name between
    # (Bob moves first at Figures)
    first = page.locator('[data-move-ply="1"]')
    move = first.locator("code, .moves-words").inner_text()
    expect(first).to_have_accessible_name(re.compile(rf"^1\. (Ann|Bob): {re.escape(move)}"))
    found = audit(page, f"{game} playing")
    shot(page, f"a11y-{game}-playing-{device}")
    server.post(f"/api/tables/{table}/actions", {"token": bob, "action": "resign"})
    page.wait_for_selector("[data-result]")
    found += audit(page, f"{game} finished")
    shot(page, f"a11y-{game}-finished-{device}")
    # its replay: the moves named by what they show too
    page.click('[data-action="replay"]')
    page.wait_for_selector('[data-replay]:not([hidden]) .replay-item[data-ply="2"]')
    step = page.locator('.replay-item[data-ply="1"]')
    code = step.locator("code").inner_text()
    expect(step).to_have_accessible_name(re.compile(rf"^1 (Ann|Bob) {re.escape(code)}"))
    found += audit(page, f"{game} replay")
    assert not found, verdict(found)
    assert page.errors == []


@pytest.mark.parametrize("device", list(DEVICES))
def test_every_rules_page(server: LiveServer, context_factory: Any, device: str) -> None:
    page = new_page(context_factory, device)
    found: list[str] = []
    for game in GAMES:
        page.goto(f"{server.url}/rules/{game}")
        page.wait_for_selector("[data-rules][data-pictures]")
        found += audit(page, f"rules of {game}")
    shot(page, f"a11y-rules-{device}")
    assert not found, verdict(found)
    assert page.errors == []


@pytest.mark.parametrize("device", list(DEVICES))
def test_the_players_pages(server: LiveServer, context_factory: Any, device: str) -> None:
    """Issue 34: the claim dialog, the key link, the player's menu, a profile with a finished
    game, the leaderboard and a table whose seats are players'."""
    page = new_page(context_factory, device)
    page.goto(server.url + "/")
    page.wait_for_selector("[data-game] svg")
    page.click('[data-action="claim-name"]')
    page.wait_for_selector("dialog[open] form[data-claim-name]")
    found = audit(page, "claim dialog")
    name = f"Audit {device}"
    page.fill('input[name="player-name"]', name)
    page.keyboard.press("Enter")
    page.wait_for_selector("img[data-key-qr][src^='data:']")
    found += audit(page, "key link")
    shot(page, f"a11y-key-link-{device}")
    page.keyboard.press("Escape")
    page.click('[data-action="player-menu"]')
    page.wait_for_selector('[data-action="forget-me"]')
    found += audit(page, "player menu")
    shot(page, f"a11y-player-menu-{device}")
    key = page.evaluate("localStorage.getItem('vertex.player.key')")
    # the lobby as a player: Play rated with its pools, a slow table with its deadline
    slow = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}}
    slow_id = server.post("/api/tables", {**slow, "clock": {"per_move_days": 2}})["id"]
    server.http.post(
        f"/api/tables/{slow_id}/seats/0", json={}, headers={"authorization": f"Bearer {key}"}
    )
    server.post(f"/api/tables/{slow_id}/seats/1", {"name": "Guest"})
    page.keyboard.press("Escape")
    page.reload()
    page.wait_for_selector('select[name="rated-pool"]')
    page.wait_for_selector(f'[data-my-table="{slow_id}"] [data-my-deadline]')
    found += audit(page, "lobby as a player")
    other = server.post("/api/players", {"name": f"Other {device}"})["key"]
    # a casual game of two players (kept in their history), Other resigns
    table = server.post("/api/tables", {"game": "dots-and-boxes", "options": {}})["id"]
    tokens = []
    for seat, k in enumerate([key, other]):
        r = server.http.post(
            f"/api/tables/{table}/seats/{seat}",
            json={"name": "x"},
            headers={"authorization": f"Bearer {k}"},
        )
        tokens.append(r.json()["token"])
    play_two_moves(server, table, tokens)
    page.goto(f"{server.url}/tables/{table}")
    page.wait_for_function("() => document.querySelector('[data-table]')?.dataset.mySeat === '0'")
    found += audit(page, "a players' table")
    server.post(f"/api/tables/{table}/actions", {"token": tokens[1], "action": "resign"})
    page.goto(f"{server.url}/players/{name}")
    page.wait_for_selector(f'[data-player="{name}"] [data-player-game="{table}"]')
    found += audit(page, "profile")
    shot(page, f"a11y-profile-{device}")
    page.goto(f"{server.url}/leaderboard/dots-and-boxes-3x3")
    page.wait_for_selector('[data-leaderboard="dots-and-boxes-3x3"]')
    found += audit(page, "leaderboard")
    assert not found, verdict(found)
    assert page.errors == []

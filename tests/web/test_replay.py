"""Replay and analysis on the table page (js/table/replay.js, js/table/analysis.js):
stepping through a finished game by buttons, keys and the move list with the board showing
each position, live events while replaying, perfect play on the empty 2×2 board (+2), an
estimate where the solver cannot finish in time, no analysis for a seated player during
their game, and screenshots to look at."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import vertex
from tests.web.conftest import (
    PHONE,
    LiveServer,
    no_sideways_scroll,
    shot,
    sit,
    switch_lang,
    wait_version,
)
from vertex.core import Rng
from vertex.core.record import Record

#: The outer lines of the 2×2 board: each keeps the first player's +2 (3 cells to 1).
BEST_2X2 = ["a1-a2", "a1-b1", "a2-a3", "a3-b3", "b1-c1", "b3-c3", "c1-c2", "c2-c3"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """Analyses limited to 0.5 s (the empty 2×2 board takes milliseconds; an empty 5×5 board
    cannot be settled in that time), and a rate no test here reaches."""
    with LiveServer(
        tmp_path_factory.mktemp("replay"), analysis_time_s=0.5, analysis_burst=100
    ) as live:
        yield live


# ---- helpers ------------------------------------------------------------------------------
def new_table(
    server: LiveServer, options: dict[str, Any], game: str = "dots-and-boxes", analysis: bool = True
) -> str:
    """A table; `analysis`: set up with analysis during play (a practice table)."""
    body = {"game": game, "options": options, "analysis": analysis}
    return str(server.post("/api/tables", body)["id"])


def play(server: LiveServer, table: str, tokens: list[str], seed: int, stop: int = 999) -> int:
    """Random legal moves over the HTTP API until the game ends (or `stop` moves)."""
    rng = Rng.from_seed(seed, "replay-page")
    for n in range(stop):
        state = server.get(f"/api/tables/{table}")["state"]
        if state["is_over"]:
            return n
        i, rng = rng.below(len(state["legal_moves"]))
        server.post(
            f"/api/tables/{table}/moves",
            {"token": tokens[state["to_move"][0]], "move": state["legal_moves"][i]},
        )
    return stop


def symbol(board: dict[str, Any], seat: int | None) -> str:
    """The seat's symbol as js/shared/seats.js shows it (the game's own first)."""
    assert seat is not None
    own = (board.get("symbols") or [None] * (seat + 1))[seat]
    return {"X": "✕", "O": "○"}.get(own, own) if own else "✕○△□◇＋"[seat]


def record(server: LiveServer, table: str) -> Record:
    return Record.model_validate(server.get(f"/api/tables/{table}/record"))


def at_ply(rec: Record, k: int) -> dict[str, Any]:
    out: dict[str, Any] = vertex.replay(rec.model_copy(update={"moves": rec.moves[:k]})).to_dict()
    return out


def watch(context_factory: Any, server: LiveServer, table: str, **kw: Any) -> Any:
    page = context_factory(**kw).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(f"{server.url}/tables/{table}")
    page.wait_for_selector("[data-line]")
    return page


def wait_ply(page: Any, k: int) -> None:
    page.wait_for_selector(f'[data-replay][data-ply="{k}"]')


def drawn_lines(page: Any) -> set[str]:
    return set(
        page.eval_on_selector_all(
            "[data-line][data-drawn]:not([role=menuitem])", "els => els.map(e => e.dataset.line)"
        )
    )


def check_position(page: Any, rec: Record, k: int) -> None:
    """The board and the panel show exactly the record's position after k moves."""
    wait_ply(page, k)
    want = at_ply(rec, k)
    lines = {ln["name"] for ln in want["board"]["lines"] if ln["drawn"]}
    predrawn = {ln["name"] for ln in want["board"]["lines"] if ln.get("predrawn")}
    assert lines == predrawn | {m.move for m in rec.moves[:k]}
    assert drawn_lines(page) == lines, k
    owners = page.eval_on_selector_all(
        "[data-cell][data-owner]", "els => els.map(e => [Number(e.dataset.cell), e.dataset.owner])"
    )
    want_owners = [
        [i, str(c["owner"])] for i, c in enumerate(want["board"]["cells"]) if c["owner"] is not None
    ]
    assert sorted(owners) == want_owners, k
    for seat, score in enumerate(want["scores"]):
        shown = page.get_attribute(f'[data-replay-score="{seat}"]', "data-value")
        assert shown == str(score), (k, seat)
    current = page.get_attribute('.replay-moves [aria-current="step"]', "data-ply")
    assert current == str(k)


# ---- replay -------------------------------------------------------------------------------
def test_stepping_through_a_finished_game(context_factory: Any, server: LiveServer) -> None:
    # 2×3 boxes with the outline drawn: 7 lines to play, 10 pre-drawn ones on every step
    table = new_table(server, {"rows": 2, "cols": 3, "border": True})
    tokens = [sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")]
    moves = play(server, table, tokens, seed=4)
    rec = record(server, table)
    assert moves == len(rec.moves) == 7
    final = server.get(f"/api/tables/{table}")
    page = watch(context_factory, server, table)
    wait_version(page, final["version"])

    page.click('[data-action="replay"]')
    check_position(page, rec, 7)  # it opens on the last position
    assert page.get_attribute('[data-action="replay"]', "aria-expanded") == "true"
    # back to the start by the button, then by the ← key
    page.click('[data-replay="back"]')
    check_position(page, rec, 6)
    for k in range(5, -1, -1):
        page.keyboard.press("ArrowLeft")
        check_position(page, rec, k)
    page.keyboard.press("ArrowLeft")  # nothing before the start
    check_position(page, rec, 0)
    for k in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        check_position(page, rec, k)
    page.keyboard.press("End")
    check_position(page, rec, 7)
    page.keyboard.press("Home")
    check_position(page, rec, 0)
    page.click('[data-replay="forward"]')
    check_position(page, rec, 1)
    page.click('[data-replay="last"]')
    check_position(page, rec, 7)
    page.click('[data-replay="first"]')
    check_position(page, rec, 0)
    page.click('.replay-moves [data-ply="4"]')
    check_position(page, rec, 4)

    # each move in the list: its seat's symbol and name
    item = page.locator('.replay-moves [data-ply="1"]')
    first = rec.moves[0]
    assert ("Ann" if first.seat == 0 else "Bob") in item.inner_text()
    assert first.move in item.inner_text()
    assert item.locator(".swatch").inner_text() == symbol(final["state"]["board"], first.seat)

    # the record, as JSON and as text
    assert page.get_attribute('[data-record="json"]', "href") == f"/api/tables/{table}/record"
    assert page.get_attribute('[data-record="text"]', "href").endswith("record?format=text")

    # Esc (or the close button) returns to the live (final) position
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-replay]", state="hidden")
    assert drawn_lines(page) == {ln["name"] for ln in final["state"]["board"]["lines"]}
    assert page.errors == []


def test_quick_presses_while_positions_load_each_take_a_step(
    context_factory: Any, server: LiveServer
) -> None:
    table = new_table(server, {"rows": 2, "cols": 2})
    tokens = [sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")]
    play(server, table, tokens, seed=3)
    rec = record(server, table)
    n = len(rec.moves)
    page = watch(context_factory, server, table)
    held: list[Any] = []
    page.route("**/positions/*", lambda route: held.append(route))  # answers wait here
    page.click('[data-action="replay"]')
    wait_ply(page, n)
    for _ in range(3):  # faster than the server answers
        page.click('[data-replay="back"]')
    for _ in range(200):  # round trips to the page until its three requests reach the route
        if len(held) >= 3:
            break
        page.evaluate("() => true")
    asked = sorted(int(r.request.url.rsplit("/", 1)[1]) for r in held)
    assert asked == [n - 3, n - 2, n - 1]  # before the fix: n - 1 three times
    for route in held:
        route.continue_()
    check_position(page, rec, n - 3)
    page.keyboard.press("ArrowRight")
    check_position(page, rec, n - 2)


def test_live_moves_reach_the_table_but_not_the_replayed_board(
    context_factory: Any, server: LiveServer
) -> None:
    table = new_table(server, {"rows": 2, "cols": 2})
    tokens = [sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")]
    play(server, table, tokens, seed=8, stop=3)
    page = watch(context_factory, server, table)
    v = wait_version(page, server.get(f"/api/tables/{table}")["version"])
    page.click('[data-action="replay"]')
    wait_ply(page, 3)
    page.keyboard.press("Home")
    wait_ply(page, 0)
    assert drawn_lines(page) == set()

    play(server, table, tokens, seed=9, stop=1)  # a live move meanwhile
    wait_version(page, v + 1)
    assert drawn_lines(page) == set()  # the board still shows the replayed start
    page.wait_for_selector('.replay-moves [data-ply="4"]')  # the list has the new move
    page.keyboard.press("End")
    wait_ply(page, 4)
    rec = record(server, table)
    assert drawn_lines(page) == {m.move for m in rec.moves}

    page.keyboard.press("Home")
    wait_ply(page, 0)
    page.click('[data-action="replay-close"]')
    page.wait_for_selector("[data-replay]", state="hidden")
    assert drawn_lines(page) == {m.move for m in rec.moves}  # the live board again
    assert page.errors == []


# ---- analysis -----------------------------------------------------------------------------
def test_perfect_play_on_the_empty_2x2_board(context_factory: Any, server: LiveServer) -> None:
    table = new_table(server, {"rows": 2, "cols": 2})
    sit(server, table, 0, "Ann")  # Ann waits for an opponent; a spectator looks on
    page = watch(context_factory, server, table)
    page.click('[data-action="analysis"]')
    out = page.wait_for_selector("[data-analysis][data-value]")
    assert out.get_attribute("data-value") == "+2"
    assert out.get_attribute("data-best").split(" ") == BEST_2X2
    assert out.get_attribute("data-estimate") is None
    assert "Ann to move wins by 2 boxes with perfect play" in out.inner_text()
    for move in BEST_2X2:
        assert move in out.inner_text()
    # in Italian and Russian too
    switch_lang(page, "it")
    page.wait_for_function(
        "() => document.querySelector('[data-analysis]').textContent.includes('vince di 2')"
    )
    switch_lang(page, "ru")
    page.wait_for_function(
        "() => document.querySelector('[data-analysis]').textContent.includes('перевесом в 2')"
    )
    switch_lang(page, "en")
    shot(page, "analysis-desktop")
    assert page.errors == []


def test_an_unsettled_position_shows_an_estimate(context_factory: Any, server: LiveServer) -> None:
    table = new_table(server, {"rows": 5, "cols": 5})
    page = watch(context_factory, server, table)
    page.click('[data-action="analysis"]')
    out = page.wait_for_selector("[data-analysis][data-estimate]")
    legal = server.get(f"/api/tables/{table}")["state"]["legal_moves"]
    assert out.get_attribute("data-estimate") in legal
    assert out.get_attribute("data-value") is None
    assert "Estimate, not proven" in out.inner_text()
    assert page.errors == []


def test_a_live_game_without_analysis_shows_why_and_opens_at_the_end(
    context_factory: Any, server: LiveServer
) -> None:
    """The share link in a private window: a spectator of a live 2-human table gets no
    analysis (the button is disabled with the reason, the API refuses), in the replay of
    the live game neither; once the game is over it opens, for the players too."""
    table = new_table(server, {"rows": 2, "cols": 2}, analysis=False)
    ann, bob = sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")
    play(server, table, [ann, bob], seed=2, stop=2)
    refused = httpx.post(f"{server.url}/api/tables/{table}/analysis", json={"ply": 0}, timeout=10)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "analysis-closed"
    spectator = watch(context_factory, server, table)
    player = context_factory().new_page()
    player.goto(f"{server.url}/tables/{table}#token={ann}")
    player.wait_for_function("() => document.querySelector('[data-table]')?.dataset.mySeat === '0'")
    for page in (spectator, player):
        button = page.wait_for_selector('[data-action="analysis"]')
        assert button.is_disabled()
        reason = page.locator("[data-analysis-closed]")
        assert reason.is_visible() and "opens when the game is over" in reason.inner_text()
    spectator.click('[data-action="replay"]')
    wait_ply(spectator, 2)
    spectator.keyboard.press("Home")
    wait_ply(spectator, 0)
    assert spectator.locator('[data-action="analysis"]').is_disabled()  # replaying: the same
    switch_lang(spectator, "ru")
    spectator.wait_for_function(
        "() => document.querySelector('[data-analysis-closed]').textContent.includes('Анализ')"
    )
    switch_lang(spectator, "en")
    # the game ends (Bob resigns): the spectator may look at the replayed start, Ann too
    v = server.get(f"/api/tables/{table}")["version"]
    server.post(f"/api/tables/{table}/actions", {"token": bob, "action": "resign"})
    for page in (spectator, player):
        wait_version(page, v + 1)
        assert page.locator("[data-analysis-closed]").is_hidden()
    spectator.click('[data-action="analysis"]')
    out = spectator.wait_for_selector('[data-analysis][data-ply="0"][data-value]')
    assert out.get_attribute("data-value") == "+2"
    player.click('[data-action="analysis"]')
    assert player.wait_for_selector("[data-analysis][data-value]").get_attribute("data-ply") == "2"
    assert spectator.errors == []


def test_a_practice_table_offers_analysis_during_play(
    context_factory: Any, server: LiveServer
) -> None:
    table = new_table(server, {"rows": 2, "cols": 2}, analysis=True)
    ann, bob = sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")
    play(server, table, [ann, bob], seed=2, stop=2)
    page = watch(context_factory, server, table)
    assert page.locator("[data-analysis-closed]").is_hidden()
    page.click('[data-action="analysis"]')
    out = page.wait_for_selector('[data-analysis][data-ply="2"]')
    assert out.get_attribute("data-state") in ("exact", "estimate")
    # the table's settings say so
    page.click(".panel.info summary")
    page.wait_for_function(
        "() => document.querySelector('.panel.info dl').textContent"
        ".includes('Analysis during play')"
    )
    assert page.errors == []


def test_screenshots(context_factory: Any, server: LiveServer) -> None:
    table = new_table(server, {"rows": 3, "cols": 3})
    tokens = [sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")]
    play(server, table, tokens, seed=12)
    rec = record(server, table)
    for name, kw in (("replay-desktop", {}), ("replay-phone", PHONE)):
        page = watch(context_factory, server, table, **kw)
        page.click('[data-action="replay"]')
        wait_ply(page, len(rec.moves))
        for _ in range(5):
            page.click('[data-replay="back"]')
        k = len(rec.moves) - 5
        check_position(page, rec, k)
        page.click('[data-action="analysis"]')
        page.wait_for_selector(f'[data-analysis][data-ply="{k}"][data-value]')
        shot(page, name)
        assert no_sideways_scroll(page)

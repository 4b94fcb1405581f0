"""A newcomer's first ten minutes at a table (issue 33): the analysis button after the end
(item 5), a clock that runs out said on the board and marked in the move lists (item 6), a
cancelled table (item 10), Shift+arrow on a drawn side (item 12), the analysis in each game's
own word (item 13)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.conftest import (
    PHONE,
    LiveServer,
    no_sideways_scroll,
    open_seat,
    shot,
    sit,
    switch_lang,
    wait_version,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(
        tmp_path_factory.mktemp("newcomer"), analysis_time_s=0.5, analysis_burst=100
    ) as live:
        yield live


def new_table(server: LiveServer, game: str = "dots-and-boxes", **body: Any) -> str:
    body.setdefault("options", {"rows": 2, "cols": 2})
    return str(server.post("/api/tables", {"game": game, **body})["id"])


def version_of(server: LiveServer, table: str) -> int:
    return int(server.get(f"/api/tables/{table}")["version"])


def move(server: LiveServer, table: str, token: str, line: str) -> None:
    server.post(f"/api/tables/{table}/moves", {"token": token, "move": line})


def play_out(server: LiveServer, table: str, tokens: list[str]) -> None:
    """The first legal move each turn, until the game ends."""
    while True:
        state = server.get(f"/api/tables/{table}")["state"]
        if state["is_over"]:
            return
        move(server, table, tokens[state["to_move"][0]], state["legal_moves"][0])


# ---- item 5: "Perfect play?" stays after the end --------------------------------------------
def test_the_analysis_button_stays_when_the_game_ends(
    context_factory: Any, server: LiveServer
) -> None:
    table = new_table(server, analysis=False)
    ann, bob = sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")
    page = open_seat(context_factory, server, table, ann, 0)
    assert page.locator('[data-action="analysis"]').is_disabled()  # closed during play
    play_out(server, table, [ann, bob])
    wait_version(page, version_of(server, table))
    page.wait_for_selector("[data-result]")
    button = page.locator('[data-action="analysis"]')
    button.wait_for(state="visible")
    assert button.is_enabled()
    shot(page, "newcomer-analysis-after-end-desktop")
    # it opens the replay at the start, with perfect play there
    button.click()
    page.wait_for_selector('[data-replay][data-ply="0"]')
    out = page.wait_for_selector('[data-analysis][data-ply="0"][data-value]')
    assert out.get_attribute("data-value") == "+2"
    # a page opened after the end has it too (the board shows the last position)
    late = open_seat(context_factory, server, table, bob, 1, **PHONE)
    late.locator('[data-action="analysis"]').wait_for(state="visible")
    shot(late, "newcomer-analysis-after-end-phone")
    switch_lang(late, "it")
    late.click('[data-action="analysis"]')
    late.wait_for_selector('[data-analysis][data-ply="0"][data-value]')
    late.wait_for_function(
        "() => document.querySelector('[data-analysis]').textContent.includes('di 2 scatole')"
    )
    shot(late, "newcomer-analysis-after-end-phone-it")
    assert no_sideways_scroll(late)
    assert page.errors == [] and late.errors == []


# ---- item 10: a cancelled table -------------------------------------------------------------
def test_a_cancelled_table_shows_no_blank_analysis_nor_empty_cards(
    context_factory: Any, server: LiveServer
) -> None:
    table = new_table(server)
    ann = sit(server, table, 0, "Ann")
    page = open_seat(context_factory, server, table, ann, 0)
    page.wait_for_selector('[data-action="cancel"]')
    v = version_of(server, table)
    server.post(f"/api/tables/{table}/actions", {"token": ann, "action": "cancel"})
    wait_version(page, v + 1)
    page.wait_for_selector('[data-result="cancelled"]')
    assert page.locator('[data-action="analysis"]').is_hidden()
    assert page.locator(".panel.actions").is_hidden()  # no empty "Your table" card
    banner = page.inner_text("[data-result]")
    assert "Seat 2" not in banner and "0" not in banner
    shot(page, "newcomer-cancelled-desktop")
    # a page opened afterwards, on a phone, in Russian too
    phone = open_seat(context_factory, server, table, ann, 0, **PHONE)
    phone.wait_for_selector('[data-result="cancelled"]')
    assert phone.locator('[data-action="analysis"]').is_hidden()
    assert phone.locator(".panel.actions").is_hidden()
    switch_lang(phone, "ru")
    assert "Seat 2" not in phone.inner_text("[data-result]")
    shot(phone, "newcomer-cancelled-phone-ru")
    assert page.errors == [] and phone.errors == []


# ---- item 12: Shift+arrow on a drawn side says why ------------------------------------------
def test_shift_arrow_on_a_drawn_side_says_why(context_factory: Any, server: LiveServer) -> None:
    table = new_table(server)
    ann, bob = sit(server, table, 0, "Ann"), sit(server, table, 1, "Bob")
    move(server, table, ann, "a1-b1")  # the top side of the top-left box
    move(server, table, bob, "b3-c3")
    page = open_seat(context_factory, server, table, ann, 0)
    wait_version(page, version_of(server, table))
    page.focus('[data-cell="0"]')
    page.keyboard.press("Shift+ArrowUp")
    refusal = page.wait_for_selector("[data-refusal]:not([hidden])")
    assert refusal.get_attribute("data-code") == "drawn"
    assert "drawn already" in refusal.inner_text()
    for lang, words in (("it", "già"), ("ru", "уже")):
        switch_lang(page, lang)
        page.focus('[data-cell="0"]')
        page.keyboard.press("Shift+ArrowUp")
        page.wait_for_function(
            "w => document.querySelector('[data-refusal]')?.textContent.includes(w)", arg=words
        )
    shot(page, "newcomer-refusal-drawn-ru")
    assert page.errors == []


# ---- item 13: the analysis in each game's own word ------------------------------------------
@pytest.mark.parametrize(
    ("game", "options", "words"),
    [
        ("dots-and-boxes", {"rows": 2, "cols": 2}, ("by 2 boxes", "di 2 scatole", "в 2 квадрата")),
        (
            "dots-and-triangles",
            {"size": 2},
            ("by 2 triangles", "di 2 triangoli", "в 2 треугольника"),
        ),
        ("figures", {"rows": 2, "cols": 2}, ("by 4 figures", "di 4 figure", "в 4 фигуры")),
    ],
)
def test_the_analysis_counts_in_the_games_own_word(
    context_factory: Any, server: LiveServer, game: str, options: dict[str, Any], words: Any
) -> None:
    table = new_table(server, game, options=options, analysis=True)
    page = context_factory().new_page()
    page.goto(f"{server.url}/tables/{table}")
    page.click('[data-action="analysis"]')
    out = page.wait_for_selector('[data-analysis][data-ply="0"][data-value]')
    text = "() => document.querySelector('[data-analysis]').textContent"
    assert words[0] in out.inner_text() and "cell" not in out.inner_text()
    for lang, said in zip(("it", "ru"), words[1:], strict=True):
        switch_lang(page, lang)
        page.wait_for_function(f"w => ({text})().includes(w)", arg=said)
    if game == "dots-and-triangles":
        shot(page, "newcomer-analysis-triangles-ru")


# ---- item 6: a clock that runs out, said and marked -----------------------------------------
CLOCK_OUT = "[data-clock-out]:not([hidden])"


def test_a_clock_that_runs_out_is_said_on_the_board_and_marked_in_the_move_lists(
    context_factory: Any, server: LiveServer
) -> None:
    table = new_table(server, clock={"per_move": 4}, on_timeout="computer")
    bob = sit(server, table, 1, "Bob")
    page = open_seat(context_factory, server, table, bob, 1)
    wait_version(page, version_of(server, table))
    # the game starts with Bob's page live; Ann never moves: her time runs out and the
    # computer plays her first line
    sit(server, table, 0, "Ann")
    note = page.wait_for_selector('[data-clock-out="0"]:not([hidden])', timeout=20_000)
    said = note.inner_text()
    # Bob plays his own move at once: not marked, and the note goes
    view = server.get(f"/api/tables/{table}")
    assert view["clock_plies"] == [1] and view["state"]["to_move"] == [1]
    move(server, table, bob, view["state"]["legal_moves"][0])
    assert "Ann's time ran out: the computer moved for them" in said
    first = page.wait_for_selector('[data-move-list] [data-move-ply="1"]')
    assert first.get_attribute("data-by") == "clock"
    assert "time ran out" in first.inner_text() + (first.get_attribute("title") or "")
    own = page.wait_for_selector('[data-move-list] [data-move-ply="2"]')
    assert own.get_attribute("data-by") is None
    # (until Ann's clock runs out again, 4 s after Bob's move)
    assert page.locator('[data-clock-out="0"]:not([hidden])').count() == 0
    shot(page, "newcomer-clock-out-desktop")
    assert server.get(f"/api/tables/{table}/record")["moves"][0]["by"] == "clock"
    # a page opened later (a spectator, on a phone) is told too, from the server's view
    watcher = context_factory(**PHONE).new_page()
    watcher.goto(f"{server.url}/tables/{table}")
    watcher.wait_for_selector('[data-move-list] [data-move-ply="1"][data-by="clock"]')
    watcher.wait_for_selector('[data-clock-out="0"]:not([hidden])', timeout=20_000)  # ply 3
    shot(watcher, "newcomer-clock-out-phone")
    # the replay marks it too (from the record)
    watcher.click('[data-action="replay"]')
    watcher.wait_for_selector('.replay-item[data-ply="1"][data-by="clock"]')
    assert watcher.get_attribute('.replay-item[data-ply="2"]', "data-by") is None
    watcher.click('.replay-item[data-ply="1"]')
    watcher.wait_for_function(
        "() => document.querySelector('[data-replay-move]')?.textContent.includes('time ran out')"
    )
    shot(watcher, "newcomer-clock-out-replay-phone")
    # in Italian and Russian
    for lang, words in (("it", "è scaduto"), ("ru", "вышло")):
        switch_lang(page, lang)
        page.wait_for_function(
            "w => document.querySelector('[data-clock-out]:not([hidden])')"
            "?.textContent.includes(w)",
            arg=words,
            timeout=20_000,
        )
    shot(page, "newcomer-clock-out-ru")
    assert page.errors == []


def test_a_clock_that_runs_out_and_loses_is_said_on_the_table(
    context_factory: Any, server: LiveServer
) -> None:
    table = new_table(server, clock={"per_move": 1.5}, on_timeout="lose")
    bob = sit(server, table, 1, "Bob")
    page = open_seat(context_factory, server, table, bob, 1)
    sit(server, table, 0, "Ann")
    out = page.wait_for_selector('[data-result] [data-clock-out="0"]', timeout=20_000)
    assert "Ann ran out of time" in out.inner_text()
    assert page.errors == []

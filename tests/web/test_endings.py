"""The result banner says what really ended the game, from the engine's `ending` and the
table's reason: Juxtapose's winning line (played on the page) and Verticality's last tower
standing after a fall, in English and Russian."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import LiveServer, shot, switch_lang, version, wait_turn, wait_version
from tests.web.test_juxtapose import SLIDE_WIN
from tests.web.test_juxtapose import Table as Juxtapose
from tests.web.test_juxtapose import open_seat as open_juxtapose
from tests.web.test_verticality import SIZES, Towers
from tests.web.test_verticality import open_seat as open_towers

REASON = "[data-result] .result-reason"


def test_a_juxtapose_line_is_named_in_the_banner(server: LiveServer, context_factory: Any) -> None:
    table = Juxtapose(server)
    table.drops(SLIDE_WIN)
    page = open_juxtapose(context_factory, table, 1)
    wait_turn(page, "1")
    v = version(page)
    page.click('[data-square="d2"]')
    page.click('[data-square="d1"]')
    wait_version(page, v + 1)
    page.wait_for_selector("[data-result][data-ending='line']")
    assert page.inner_text("[data-result] h2") == "Bob wins"
    assert page.inner_text(REASON) == (
        "Bob made a line of four pyramids of one size: a1 – b1 – c1 – d1."
    )
    assert "complete" not in page.inner_text("[data-result]")
    shot(page, "ending-juxtapose-en")
    switch_lang(page, "ru")
    page.wait_for_selector(f"{REASON}:has-text('линия')")
    assert (
        page.inner_text(REASON)
        == "Bob: линия из четырёх пирамид одного размера — a1 – b1 – c1 – d1."
    )
    assert page.inner_text("[data-result] h2") == "Победа: Bob"
    assert page.errors == []


def test_a_verticality_fall_is_named_in_the_banner(
    server: LiveServer, context_factory: Any
) -> None:
    table = Towers(server, ["Ann", "Bob"])
    d = SIZES[table.board()["die"]["size"]] + 0.2
    for x, y in [(0.0, 0.0), (d, 0.0), (d / 2, d)]:
        for seat in (0, 1):
            table.server.post(
                f"/api/tables/{table.id}/moves",
                {"token": table.tokens[seat], "move": f"pyramid x={x:.2f} y={y:.2f} rot=0"},
            )
    cx, cy = table.card_aim()
    table.server.post(
        f"/api/tables/{table.id}/moves",
        {"token": table.tokens[0], "move": f"card x={cx:.2f} y={cy:.2f} rot=0"},
    )
    # Bob's card far off-centre: it slides (his mulligan), then again, a fall
    for _ in range(2):
        table.server.post(
            f"/api/tables/{table.id}/moves",
            {"token": table.tokens[1], "move": f"card x={cx + 30:.2f} y={cy:.2f} rot=0"},
        )
    assert table.view()["result"]["winners"] == [0]
    page = open_towers(context_factory, table, 1, locale="ru-RU")
    page.wait_for_selector("[data-result][data-ending='last-standing']")
    assert page.inner_text(REASON) == (
        "Башня игрока Bob упала: карта уровня 1 соскользнула второй раз. "
        "Башня игрока Ann осталась стоять последней."
    )
    shot(page, "ending-verticality-ru")
    switch_lang(page, "en")
    page.wait_for_selector(f"{REASON}:has-text('last one standing')")
    assert page.inner_text(REASON) == (
        "Bob's tower fell: the level 1 card slid off a second time. "
        "Ann's tower is the last one standing."
    )
    assert page.inner_text("[data-result] h2") == "Ann wins"
    assert not page.errors

"""Spectators in the browser (issue 21): how many watch, in words in three languages, and
the spectators' own chat — written by spectators, read by the others at once, and by a
player only when they open it (lichess's rule: players are not disturbed). Screenshots of
the player's and a spectator's view, desktop and phone, light and dark."""

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
)
from vertex.server import Limits

COUNT = "[data-watching]"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # three lines a minute from one address. The test's browsers all come from 127.0.0.1,
    # trusted as the site's proxy: a browser that sends X-Forwarded-For is another address
    # (the count counts addresses: two contexts without it would be one spectator).
    limits = Limits(spectator_chat_per_minute=0.01, spectator_chat_burst=3)
    tmp = tmp_path_factory.mktemp("spectators")
    with LiveServer(tmp, limits=limits, trusted_proxies="127.0.0.1") as live:
        yield live


def _table(server: LiveServer) -> tuple[str, str, str]:
    body = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}}
    tid = str(server.post("/api/tables", body)["id"])
    return tid, sit(server, tid, 0, "Ann"), sit(server, tid, 1, "Bob")


def _watch(context_factory: Any, server: LiveServer, tid: str, **kw: Any) -> Any:
    page = context_factory(**kw).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    page.goto(f"{server.url}/tables/{tid}")
    page.wait_for_selector('[data-connection="online"]')
    page.wait_for_selector('[data-spectator-chat][data-open="true"]', state="attached")
    return page


def _count(page: Any, n: int) -> None:
    page.wait_for_selector(f'{COUNT}[data-count="{n}"]', state="attached")


def _write(page: Any, text: str, name: str | None = None) -> str | None:
    """Write a line as a spectator and wait for the server's answer: None once the line is
    taken, else the refusal's code (shown under the box). The send button stays disabled
    from the click until the answer."""
    if name is not None:
        page.fill('input[name="spectator-name"]', name)
    page.fill('input[name="spectator-chat"]', text)
    page.click('[data-action="spectator-chat"]')
    page.wait_for_function(
        """() => !document.querySelector('[data-action="spectator-chat"]').disabled"""
    )
    code: str | None = page.get_attribute("[data-spectator-chat-error]", "data-code")
    return code or None


def test_spectators_count_and_chat_apart_from_the_players(
    context_factory: Any, server: LiveServer
) -> None:
    tid, ann, _bob = _table(server)
    player = open_seat(context_factory, server, tid, ann, 0)
    one = _watch(context_factory, server, tid)
    elsewhere = {"X-Forwarded-For": "198.51.100.2"}
    two = _watch(context_factory, server, tid, extra_http_headers=elsewhere)
    for page in (player, one, two):
        _count(page, 2)
    assert player.inner_text(COUNT).strip() == "2 spectators"
    assert player.get_attribute(COUNT, "aria-label") == "2 spectators are watching this table"
    # a second tab of the same browser is the same spectator
    tab = one.context.new_page()
    tab.goto(f"{server.url}/tables/{tid}")
    _count(tab, 2)
    tab.close()
    switch_lang(two, "ru")
    assert two.inner_text(COUNT).strip() == "2 зрителя"

    # a spectator's line reaches the other spectator at once
    assert _write(one, "what a move", name="Zoë") is None
    two.wait_for_selector('[data-spectator-line]:has-text("what a move")')
    assert "Zoë" in two.inner_text("[data-spectator-line]")
    # the player is not disturbed: a closed toggle with the number unread, nothing shown
    toggle = '[data-action="spectator-chat-toggle"]'
    player.wait_for_selector(f'{toggle}[data-unread="1"]')
    assert player.get_attribute(toggle, "aria-expanded") == "false"
    assert not player.is_visible('[data-spectator-line]:has-text("what a move")')
    said = player.evaluate("document.querySelector('[data-announce]')?.textContent || ''")
    assert "what a move" not in said
    assert "1 new" in player.inner_text(toggle)
    player.click(toggle)
    player.wait_for_selector('[data-spectator-line]:has-text("what a move")')
    assert player.get_attribute(toggle, "data-unread") == "0"
    assert not player.is_visible('input[name="spectator-chat"]')  # players write elsewhere
    # spectators read the players' chat but have no box for it
    assert one.query_selector('input[name="chat"]') is None

    # a spectator cannot act: its socket's move is refused with a code
    code = one.evaluate(
        """(tid) => new Promise((resolve) => {
            const ws = new WebSocket(`ws://${location.host}/ws/tables/${tid}`);
            ws.onmessage = (e) => {
              const m = JSON.parse(e.data);
              if (m.t === "snapshot") ws.send(JSON.stringify({t: "move", move: "a1-b1", id: 1}));
              if (m.t === "error") { resolve(m.code); ws.close(); }
            };
        })""",
        tid,
    )
    assert code == "spectator"

    # the allowance: three lines a minute from one address, then a refusal in words
    for text in ("вторая", "третья"):
        assert _write(two, text) is None
        one.wait_for_selector(f'[data-spectator-line]:has-text("{text}")')
    assert _write(one, "second") is None  # (another address: its own allowance)
    assert _write(two, "четвёртая") is None
    assert _write(two, "пятая") == "rate-limited"
    refusal = '[data-spectator-chat-error][data-code="rate-limited"]'
    two.wait_for_selector(refusal)
    assert "чате зрителей" in two.inner_text(refusal)
    assert not one.is_visible('[data-spectator-line]:has-text("пятая")')
    player.wait_for_selector('[data-spectator-line]:has-text("третья")')

    # a spectator leaving is counted down (coalesced: within about a second)
    two.context.close()
    _count(player, 1)
    _count(one, 1)
    for page in (player, one):
        assert page.errors == []


SHOTS = [("desktop", "light"), ("desktop", "dark"), ("phone", "light"), ("phone", "dark")]


@pytest.fixture(scope="module")
def roomy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    # Every case writes a line from 127.0.0.1, within seconds of each other: the default
    # allowance of an address (a burst of 3, then one line every 10 s) refused the fourth
    # whenever the cases ran faster than that (CI: phone-dark never saw its line).
    limits = Limits(spectator_chat_burst=4 * len(SHOTS))
    with LiveServer(tmp_path_factory.mktemp("spectators-shots"), limits=limits) as live:
        yield live


def test_the_screenshot_server_takes_a_line_from_every_case_at_once(
    context_factory: Any, roomy: LiveServer
) -> None:
    """As many lines from one address, back to back, as the screenshot cases write: all
    taken (with the default allowance the fourth is refused, and its case times out)."""
    tid, _ann, _bob = _table(roomy)
    spectator = _watch(context_factory, roomy, tid)
    for n, _case in enumerate(SHOTS):
        assert _write(spectator, f"line {n}") is None, n
    spectator.wait_for_selector(f'[data-spectator-line]:has-text("line {len(SHOTS) - 1}")')


@pytest.mark.parametrize("where,scheme", SHOTS)
def test_screenshots_of_the_spectators_chat(
    context_factory: Any, roomy: LiveServer, where: str, scheme: str
) -> None:
    server = roomy
    kw: dict[str, Any] = {"color_scheme": scheme, **(PHONE if where == "phone" else {})}
    tid, ann, _bob = _table(server)
    player = open_seat(context_factory, server, tid, ann, 0, **kw)
    spectator = _watch(context_factory, server, tid, **kw)
    _count(player, 1)
    name = {"desktop": "Zoë", "phone": "Ива"}[where]
    assert _write(spectator, f"Good luck to both of you! ({scheme})", name=name) is None
    player.wait_for_selector('[data-action="spectator-chat-toggle"][data-unread="1"]')
    player.click('[data-action="spectator-chat-toggle"]')
    player.wait_for_selector('[data-spectator-line]:has-text("Good luck")')
    spectator.wait_for_selector('[data-spectator-line]:has-text("Good luck")')
    for who, page in (("player", player), ("spectator", spectator)):
        page.locator("[data-spectator-chat]").scroll_into_view_if_needed()
        shot(page, f"spectators-{who}-{where}-{scheme}")
        assert no_sideways_scroll(page)
        assert page.errors == []

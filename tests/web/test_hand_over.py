"""An absent player's seat goes to the computer only after the server's grace: the page shows
everyone at the table the countdown (words in three languages, said to screen readers when
it starts and ends), and offers the hand-over once it is over."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import PHONE, LiveServer, open_seat, shot, sit, switch_lang

GRACE_S = 8.0


@pytest.fixture(scope="module")
def graced(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("grace"), hand_over_grace_s=GRACE_S) as live:
        yield live


def test_a_player_who_left_is_counted_down_before_the_computer_may_take_over(
    graced: LiveServer, context_factory: Any
) -> None:
    body = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}}
    table = str(graced.post("/api/tables", body)["id"])
    ann = open_seat(context_factory, graced, table, sit(graced, table, 0, "Ann"), 0)
    bob = open_seat(context_factory, graced, table, sit(graced, table, 1, "Bob"), 1)
    watcher = context_factory(**PHONE).new_page()
    watcher.goto(f"{graced.url}/tables/{table}")
    ann.wait_for_selector('[data-seat="1"] .presence.on')
    assert ann.locator("[data-hand-over-wait]").count() == 0  # Bob is here: nothing to count

    bob.close()  # Bob's page goes (a reload would do the same)
    wait = ann.locator('[data-hand-over-wait="1"]')
    ann.wait_for_function("() => document.querySelector('[data-hand-over-wait=\"1\"]')")
    assert "Bob may come back: the computer can take over in" in wait.inner_text()
    button = ann.locator('[data-action="hand-over"][data-seat="1"]')
    assert button.is_disabled()
    assert button.get_attribute("aria-describedby") == "hand-over-wait-1"
    polite = "() => document.querySelector('[data-announce=polite]').textContent"
    ann.wait_for_function(f"() => ({polite})().includes('Bob may come back')")
    shot(ann, "hand-over-countdown-desktop")
    # a spectator sees it too (on a phone)
    watcher.locator('[data-hand-over-wait="1"]').wait_for()
    shot(watcher, "hand-over-countdown-phone")

    switch_lang(ann, "it")
    ann.wait_for_function(
        "() => document.querySelector('[data-hand-over-wait=\"1\"]')"
        ".textContent.includes('Bob potrebbe tornare')"
    )
    switch_lang(ann, "ru")
    ann.wait_for_function(
        "() => document.querySelector('[data-hand-over-wait=\"1\"]')"
        ".textContent.includes('Bob может вернуться')"
    )
    switch_lang(ann, "en")

    # the grace ends: the button opens, and the words (said once) say so
    ann.wait_for_function(
        '() => !document.querySelector(\'[data-action="hand-over"][data-seat="1"]\').disabled',
        timeout=(GRACE_S + 10) * 1000,
    )
    assert "the computer can take over now" in wait.inner_text()
    ann.wait_for_function(f"() => ({polite})().includes('can take over now')")
    button.click()
    dialog = ann.locator("dialog[open]")
    dialog.locator('select[name="level"]').select_option("1")
    dialog.locator("[data-confirm]").click()
    ann.wait_for_function(
        '() => !document.querySelector(\'[data-action="hand-over"][data-seat="1"]\')'
    )
    assert ann.locator("[data-hand-over-wait]").count() == 0
    seat = graced.get(f"/api/tables/{table}")["seats"][1]
    assert (seat["kind"], seat["level"]) == ("ai", 1)
    assert ann.errors == []

"""Slow games in the browser: the new-table form offers days per move (1, 2, 3, 5, 7 or 14
days; the seat whose days run out loses, so no "computer moves" choice), in en/it/ru, and
the slow table shows the time left in days and hours, on a desktop and on a phone."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.web.conftest import PHONE, no_sideways_scroll, open_seat, shot, sit, switch_lang
from tests.web.test_lobby import FORM, choose, open_lobby

DAYS = f"{FORM} #clock-days"


def _days_chosen(page: Any, days: str) -> None:
    page.check(f'{FORM} input[name="clock"][value="days"]')
    page.wait_for_selector(DAYS, state="visible")
    assert page.locator(f"{FORM} #on-timeout").is_hidden()  # the seat loses: no choice
    page.select_option(DAYS, days)


def _clock_text(page: Any, seat: int) -> str:
    sel = f'[data-clock="{seat}"]'
    page.wait_for_function("s => /\\d/.test(document.querySelector(s)?.textContent || '')", arg=sel)
    return str(page.locator(sel).inner_text()).splitlines()[-1]  # (after its label)


@pytest.mark.timeout(180)
def test_the_form_offers_days_per_move_and_the_table_shows_days_left(
    server: Any, context_factory: Any
) -> None:
    page = open_lobby(context_factory, server)
    choose(page, "dots-and-boxes")
    form = page.locator(FORM)
    form.locator('[name="rows"]').fill("2")
    form.locator('[name="cols"]').fill("2")
    form.locator('[name="display-name"]').fill("Ann")
    offered = page.locator(f"{DAYS} option").evaluate_all("os => os.map(o => o.value)")
    assert offered == ["1", "2", "3", "5", "7", "14"]
    _days_chosen(page, "7")
    assert page.locator(f"{DAYS} option:checked").inner_text() == "7 days"
    shot(page, "slow-form-desktop")
    form.locator('button[type="submit"]').click()
    page.wait_for_url(re.compile(r"/tables/[A-Za-z0-9_-]+$"))
    tid = page.url.rsplit("/", 1)[1]
    view = server.get(f"/api/tables/{tid}")
    assert view["slow"] is True and view["settings"]["clock"] == {"per_move_days": 7}
    assert view["settings"]["on_timeout"] == "lose"
    bob = sit(server, tid, 1, "Bob")  # Ann's seven days run from here
    # Ann's page: her days left, and the table's rule in words
    assert re.fullmatch(r"6 d 23 h|7 d 0 h", _clock_text(page, 0)), _clock_text(page, 0)
    assert "7 days a move" in page.locator("main").inner_text()
    # Bob is away: on a slow table nobody is offered to hand him to the computer
    assert page.locator('[data-action="hand-over"][data-seat="1"]').count() == 0
    shot(page, "slow-table-desktop")
    assert page.errors == []
    # under a day: hours and minutes; under an hour (or any other clock): as ever
    src = page.get_attribute('script[src$="/js/table/main.js"]', "src")
    shown = page.evaluate(
        """async (main) => {
          const m = await import(main.replace("/main.js", "/clocks.js"));
          const slow = { view: { slow: true } };
          return [m.leftText(slow, 2 * 86400 + 5 * 3600 + 10), m.leftText(slow, 5 * 3600 + 725),
            m.leftText(slow, 125), m.leftText({ view: {} }, 7200)];
        }""",
        src,
    )
    assert shown == ["2 d 5 h", "5 h 12 min", "2:05", "2:00:00"]

    # Bob on a phone: the same days left, in Russian too
    phone = open_seat(context_factory, server, tid, bob, 1, **PHONE)
    assert re.fullmatch(r"6 d 23 h|7 d 0 h", _clock_text(phone, 0))
    no_sideways_scroll(phone)
    shot(phone, "slow-table-phone")
    switch_lang(phone, "ru")
    phone.wait_for_function(
        "() => /д/.test(document.querySelector('[data-clock=\"0\"]')?.textContent || '')"
    )
    assert "7 дней на ход" in phone.locator("main").inner_text()
    shot(phone, "slow-table-phone-ru")
    assert phone.errors == []

    # the form on a phone, in Italian
    form_phone = open_lobby(context_factory, server, **PHONE)
    choose(form_phone, "dots-and-boxes")
    switch_lang(form_phone, "it")
    form_phone.wait_for_selector(f"{FORM}[data-state='ok']")
    _days_chosen(form_phone, "1")
    assert form_phone.locator(f"{DAYS} option:checked").inner_text() == "1 giorno"
    no_sideways_scroll(form_phone)
    form_phone.locator(DAYS).scroll_into_view_if_needed()
    shot(form_phone, "slow-form-phone-it")
    assert form_phone.errors == []

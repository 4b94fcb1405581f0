"""A Playwright call that never returns fails the test instead of hanging the suite, and the
next test gets a working browser (chromium_guard.py)."""

from __future__ import annotations

import os
from typing import Any

import pytest

from tests.web.chromium_guard import Browser, descendants, watchdog


def _exe(pid: int) -> str:
    # a process that has just exited (or is a zombie not yet reaped) has no exe: not running
    try:
        return os.path.basename(os.readlink(f"/proc/{pid}/exe"))
    except OSError:
        return ""


def _chromium_count() -> int:
    return sum(1 for pid in descendants(os.getpid()) if "chrom" in _exe(pid))


def test_a_call_that_never_returns_is_broken_and_the_browser_comes_back(
    browser: Browser, context_factory: Any
) -> None:
    page = context_factory().new_page()
    page.set_content("<p>waiting</p>")
    assert _chromium_count() > 0
    first = browser.get()
    # page.evaluate has no deadline: a promise the page never settles would block for ever
    with (
        watchdog(2, "a promise that never settles") as fired,
        pytest.raises(Exception, match=r"(?i)closed|crash|disconnect"),
    ):
        page.evaluate("new Promise(() => {})")
    assert fired.reason.startswith("a promise that never settles was still running after 2 s")
    assert _chromium_count() == 0
    assert not first.is_connected()
    # the next person gets a fresh browser, which works
    again = browser.get()
    assert again is not first and again.is_connected()
    ctx = again.new_context()
    try:
        fresh = ctx.new_page()
        fresh.set_content("<p id=x>ok</p>")
        assert fresh.text_content("#x") == "ok"
    finally:
        ctx.close()


def test_a_quiet_block_is_left_alone() -> None:
    bites: list[int] = []
    with watchdog(30, "a quick block", act=lambda: bites.append(1) or 0) as fired:
        pass
    assert not fired and bites == []

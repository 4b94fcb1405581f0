"""Chromium may not hang the suite.

Some Playwright calls have no deadline of their own: `BrowserContext.close()` while its pages
navigate (seen in CI: 19 minutes, until Chromium was killed by hand), `page.evaluate` of a
promise the page never settles. They block the main thread inside Playwright's event loop,
where pytest-timeout's alarm does not get through. So a watchdog thread kills the browser's
processes once a deadline passes: the blocked call then raises (the browser has gone), the
test fails saying why, and the next test is given a freshly launched browser.

Linux only (it finds the browser by walking /proc from this process), as the suite is.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

PROC = Path("/proc")


def _children() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # gone meanwhile
        # "pid (comm) state ppid ...": comm may hold spaces and parentheses
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        kids.setdefault(ppid, []).append(int(entry.name))
    return kids


def descendants(pid: int) -> list[int]:
    """Every process below `pid` (children, their children, ...)."""
    kids = _children()
    found: list[int] = []
    todo = list(kids.get(pid, []))
    while todo:
        p = todo.pop()
        found.append(p)
        todo.extend(kids.get(p, []))
    return found


def _is_chromium(pid: int) -> bool:
    try:
        exe = os.readlink(PROC / str(pid) / "exe")
    except OSError:
        return False
    return "chrom" in Path(exe).name


def kill_chromium() -> int:
    """SIGKILL every Chromium process this process started (through Playwright's driver,
    which is left running); how many were killed."""
    killed = 0
    for pid in descendants(os.getpid()):
        if _is_chromium(pid):
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except ProcessLookupError:
                pass
    return killed


class Fired:
    """Whether a watchdog had to act, and why (for the failure message)."""

    def __init__(self) -> None:
        self.reason = ""

    def __bool__(self) -> bool:
        return bool(self.reason)


@contextmanager
def watchdog(seconds: float, what: str, act: Callable[[], int] = kill_chromium) -> Iterator[Fired]:
    """Run the block; if it is still running after `seconds`, kill the browser (`act`)."""
    fired = Fired()

    def bite() -> None:
        n = act()
        fired.reason = (
            f"{what} was still running after {seconds:g} s: killed {n} Chromium processes"
        )

    timer = threading.Timer(seconds, bite)
    timer.daemon = True
    timer.start()
    try:
        yield fired
    finally:
        timer.cancel()
        timer.join()  # if it bit, its reason is written before anyone reads it


class Browser:
    """The session's Chromium, launched again when a watchdog has killed it."""

    def __init__(self, launch: Callable[[], Any]) -> None:
        self._launch = launch
        self._browser: Any = None

    def get(self) -> Any:
        if self._browser is None or not self._browser.is_connected():
            self._browser = self._launch()
        return self._browser

    def close(self) -> None:
        if self._browser is not None and self._browser.is_connected():
            with watchdog(60, "closing the browser"):
                self._browser.close()

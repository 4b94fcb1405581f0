"""The seat token never rides in a socket's URL (issue 37, DESIGN §5c): the table page and
the lobby's "your tables" open their sockets with `?hello=1` and send the token in the first
frame, where no proxy's access log keeps it."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import open_seat, sit


def test_the_seat_token_is_in_the_first_frame_never_in_the_url(
    server: Any, context_factory: Any
) -> None:
    table = server.post(
        "/api/tables", {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}}
    )["id"]
    ann = sit(server, table, 0, "Ann")
    sit(server, table, 1, "Bob")
    urls: list[str] = []
    frames: list[str] = []
    context = context_factory()

    def watch(ws: Any) -> None:
        urls.append(ws.url)
        ws.on("framesent", lambda payload: frames.append(str(payload)))

    context.on("page", lambda page: page.on("websocket", watch))
    page = open_seat(lambda **_: context, server, table, ann, 0)
    # the seat works: the page plays a move as seat 0
    page.locator("[data-line]:not([data-drawn])").first.click()
    page.wait_for_function("() => document.querySelector('[data-line][data-drawn]') !== null")
    assert urls and all(ann not in u and "token" not in u for u in urls), urls
    assert any('"t":"hello"' in f and ann in f for f in frames), frames
    # the lobby's "your tables" asks through a socket of its own, the same way
    lobby = context.new_page()
    lobby.goto(server.url + "/")
    lobby.wait_for_selector(f'[data-my-table="{table}"]')
    assert all(ann not in u and "token" not in u for u in urls), urls

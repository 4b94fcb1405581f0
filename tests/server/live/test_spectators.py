"""Spectators: how many watch (coalesced, per address), and the spectators' own chat."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import Limits, make_settings, recv_until, two_player_table
from vertex.server import create_app
from vertex.server.errors import ApiError
from vertex.server.live.spectators import KEPT
from vertex.server.site.allowances import Allowances
from vertex.server.site.quotas import LocalQuotas


def _url(tid: str, viewer: str | None = None, token: str | None = None) -> str:
    query = [f"viewer={viewer}"] if viewer else []
    if token:
        query.append(f"token={token}")
    return f"/ws/tables/{tid}" + ("?" + "&".join(query) if query else "")


def _watching(ws: Any, n: int) -> dict[str, Any]:
    return recv_until(ws, lambda m: m["t"] == "watching" and m["n"] == n)


def _line(ws: Any, text: str) -> dict[str, Any]:
    msg = recv_until(ws, lambda m: m["t"] == "spectator-chat" and "replace" not in m)
    assert msg["lines"][0]["text"] == text
    line: dict[str, Any] = msg["lines"][0]
    return line


def _joined(ws: Any) -> list[dict[str, Any]]:
    """What a socket hears first of the spectators' chat: every line kept so far."""
    msg = recv_until(ws, lambda m: m["t"] == "spectator-chat")
    assert msg["replace"] is True
    lines: list[dict[str, Any]] = msg["lines"]
    return lines


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[TestClient]:
    """A client at 127.0.0.1, the site's trusted proxy: `X-Forwarded-For` names the
    address each socket comes from (site/addresses.py)."""
    settings = make_settings(tmp_path, trusted_proxies="127.0.0.1")
    with TestClient(create_app(settings), client=("127.0.0.1", 50000)) as c:
        yield c


def _from(address: str) -> dict[str, str]:
    return {"x-forwarded-for": address}


def _heard(ws: Any) -> list[int]:
    """The counts a socket has been sent and not yet read (a ping's pong ends them)."""
    ws.send_json({"t": "ping"})
    got: list[int] = []
    while (msg := ws.receive_json())["t"] != "pong":
        if msg["t"] == "watching":
            got.append(msg["n"])
    return got


def test_spectators_are_counted_per_address_and_players_not(proxied: TestClient) -> None:
    """Ten sockets from one address count one spectator (the player hears 1 once, not ten
    times); a second address makes 2; the first address's sockets but one leaving change
    nothing, and send nothing."""
    client = proxied
    tid, ann, _bob = two_player_table(client)
    with ExitStack() as stack:
        player = stack.enter_context(client.websocket_connect(_url(tid, token=ann)))
        assert recv_until(player, lambda m: m["t"] == "watching")["n"] == 0
        tabs = []
        for n in range(10):
            ws = client.websocket_connect(_url(tid, f"tab-{n:06d}"), headers=_from("203.0.113.7"))
            tabs.append(stack.enter_context(ws))
            _watching(ws, 1)  # a newcomer hears the number at once, itself counted
        _watching(player, 1)
        time.sleep(1.5)  # a tick more: nothing else to tell anyone
        assert _heard(player) == [] and all(_heard(ws) == [] for ws in tabs)
        with client.websocket_connect(_url(tid), headers=_from("198.51.100.2")) as other:
            _watching(other, 2)
            _watching(player, 2)
            for ws in tabs:
                _watching(ws, 2)
            for ws in tabs[1:]:  # the address still has a socket: it still watches
                ws.close()
            time.sleep(1.5)
            assert _heard(player) == [] and _heard(tabs[0]) == []
        _watching(player, 1)
        tabs[0].close()
        _watching(player, 0)


def test_sockets_of_one_address_count_once_whatever_id_they_send(client: TestClient) -> None:
    tid, _ann, _bob = two_player_table(client)
    with (
        client.websocket_connect(_url(tid, "browser-one")) as one,
        client.websocket_connect(_url(tid, "browser-two")) as two,
        client.websocket_connect(_url(tid)) as three,
    ):
        _watching(three, 1)
        _watching(one, 1)
        assert _heard(two) == [1]


def test_a_spectators_line_reaches_everyone_and_not_the_table(client: TestClient) -> None:
    tid, ann, _bob = two_player_table(client)
    version = client.get(f"/api/tables/{tid}").json()["version"]
    with (
        client.websocket_connect(_url(tid, token=ann)) as player,
        client.websocket_connect(_url(tid, "viewer-aaaa")) as one,
        client.websocket_connect(_url(tid, "viewer-bbbb")) as two,
    ):
        for ws in (player, one, two):  # each greeted: attached, it hears every line now
            recv_until(ws, lambda m: m["t"] == "watching")
        one.send_json({"t": "spectator-chat", "id": 7, "name": "  Zoë ", "text": " hello "})
        ack = recv_until(one, lambda m: m["t"] in ("ack", "error"))
        assert ack["t"] == "ack" and ack["id"] == 7 and ack["v"] == version
        line = _line(two, "hello")
        assert line["name"] == "Zoë" and line["n"] == ack["n"]
        assert _line(player, "hello") == line
        two.send_json({"t": "spectator-chat", "text": "no name given"})
        assert _line(one, "no name given")["name"] is None  # the page says "Spectator"
    view = client.get(f"/api/tables/{tid}").json()
    assert view["version"] == version and view["chat"] == []  # not the table's chat
    record = client.get(f"/api/tables/{tid}/record?format=text").text
    assert "hello" not in record


def test_spectators_lines_are_checked_like_players(client: TestClient) -> None:
    tid, _ann, _bob = two_player_table(client)
    with client.websocket_connect(_url(tid, "viewer-aaaa")) as ws:
        cases = [
            ({"text": "   "}, "bad-chat", "empty"),
            ({"text": "x" * 501}, "chat-too-long", "too-long"),
            ({"text": "hi", "name": "n" * 41}, "bad-name", "too-long"),
            ({"text": "hi", "name": "evil\u202ename"}, "bad-name", "control"),
        ]
        for body, code, why in cases:
            ws.send_json({"t": "spectator-chat", **body})
            err = recv_until(ws, lambda m: m["t"] == "error")
            assert (err["code"], err["params"]["why"]) == (code, why)
        # 500 characters as a reader counts them (620 code points): a family emoji is one
        ws.send_json({"t": "spectator-chat", "text": "👨‍👩‍👧" * 30 + "x" * 470})
        assert recv_until(ws, lambda m: m["t"] in ("ack", "error"))["t"] == "ack"


def test_a_spectator_can_do_nothing_else_and_a_player_not_this(client: TestClient) -> None:
    tid, ann, _bob = two_player_table(client)
    before = client.get(f"/api/tables/{tid}").json()
    with client.websocket_connect(_url(tid, "viewer-aaaa")) as ws:
        for msg in (
            {"t": "move", "move": "a1-b1"},
            {"t": "resign"},
            {"t": "undo-request"},
            {"t": "chat", "text": "hi"},
            {"t": "hand-over", "seat": 0},
            {"t": "cancel"},
        ):
            ws.send_json(msg)
            assert recv_until(ws, lambda m: m["t"] == "error")["code"] == "spectator"
    with client.websocket_connect(_url(tid, token=ann)) as player:
        player.send_json({"t": "spectator-chat", "text": "from a player"})
        assert recv_until(player, lambda m: m["t"] == "error")["code"] == "spectators-only"
    # over HTTP: no token, a wrong one, and the spectators' chat is no table action
    r = client.post(f"/api/tables/{tid}/actions", json={"action": "resign"})
    assert r.status_code == 422
    r = client.post(f"/api/tables/{tid}/actions", json={"action": "resign", "token": "x" * 32})
    assert (r.status_code, r.json()["error"]["code"]) == (403, "bad-token")
    r = client.post(f"/api/tables/{tid}/moves", json={"move": "a1-b1", "token": "x" * 32})
    assert (r.status_code, r.json()["error"]["code"]) == (403, "bad-token")
    body = {"action": "spectator-chat", "text": "hi", "token": ann}
    assert client.post(f"/api/tables/{tid}/actions", json=body).status_code == 422
    after = client.get(f"/api/tables/{tid}").json()
    assert after["version"] == before["version"] and after["state"] == before["state"]


def test_the_allowance_is_per_address_over_sockets_then_per_table(tmp_path: Path) -> None:
    limits = Limits(spectator_chat_per_minute=0.001, spectator_chat_burst=3)
    with TestClient(create_app(make_settings(tmp_path, limits=limits))) as client:
        tid, _ann, _bob = two_player_table(client)
        with (
            client.websocket_connect(_url(tid, "viewer-aaaa")) as one,
            client.websocket_connect(_url(tid, "viewer-bbbb")) as two,
        ):
            for n, ws in enumerate((one, two, one, two)):
                ws.send_json({"t": "spectator-chat", "text": f"line {n}"})
                reply = recv_until(ws, lambda m: m["t"] in ("ack", "error"))
                assert reply["t"] == ("ack" if n < 3 else "error"), reply
            assert reply["code"] == "rate-limited"
            assert reply["params"] == {"why": "spectator-chat", "per_minute": 0.001}
    limits = Limits(table_spectator_chat_per_minute=0.001, table_spectator_chat_burst=2)
    (tmp_path / "t").mkdir()
    with TestClient(create_app(make_settings(tmp_path / "t", limits=limits))) as client:
        tid, _ann, _bob = two_player_table(client)
        with client.websocket_connect(_url(tid, "viewer-aaaa")) as ws:
            for n in range(3):
                ws.send_json({"t": "spectator-chat", "text": f"line {n}"})
                reply = recv_until(ws, lambda m: m["t"] in ("ack", "error"))
            assert reply["params"]["why"] == "spectator-chat-table"


def test_the_kept_lines_are_bounded_and_survive_a_restart(tmp_path: Path) -> None:
    limits = Limits(
        spectator_chat_per_minute=10_000,
        spectator_chat_burst=1_000,
        table_spectator_chat_per_minute=10_000,
        table_spectator_chat_burst=1_000,
        messages_per_second=1_000,
        message_burst=1_000,
    )
    settings = make_settings(tmp_path, limits=limits)
    with TestClient(create_app(settings)) as client:
        tid, _ann, _bob = two_player_table(client)
        with client.websocket_connect(_url(tid, "viewer-aaaa")) as ws:
            for n in range(KEPT + 5):
                ws.send_json({"t": "spectator-chat", "text": f"line {n}"})
                assert recv_until(ws, lambda m: m["t"] in ("ack", "error"))["t"] == "ack"
        with client.websocket_connect(_url(tid, "viewer-bbbb")) as ws:
            lines = _joined(ws)
    assert len(lines) == KEPT == 100
    assert [x["text"] for x in lines[:2]] == ["line 5", "line 6"]
    assert lines[-1]["text"] == f"line {KEPT + 4}"
    # the same database, a new process
    with (
        TestClient(create_app(settings)) as client,
        client.websocket_connect(_url(tid, "viewer-cccc")) as ws,
    ):
        assert _joined(ws) == lines


def test_a_few_addresses_cannot_use_up_a_tables_chat_for_everyone() -> None:
    """Issue 37: four addresses used up a table's spectators' chat allowance for everyone.
    The table's allowance still slows those who write there often, but another address's
    first line a minute passes it (its own allowance holds)."""
    limits = Limits(
        spectator_chat_per_minute=600,
        spectator_chat_burst=100,
        table_spectator_chat_per_minute=0.001,
        table_spectator_chat_burst=4,
    )
    asyncio.run(_a_few_addresses(Allowances(limits, LocalQuotas(), lambda: False)))


async def _a_few_addresses(allow: Allowances) -> None:
    for address in ("10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4"):
        await allow.spectator_line(address, "t1")  # the table's burst, used up
    with pytest.raises(ApiError) as refused:
        await allow.spectator_line("10.0.0.1", "t1")  # writing again: the table says wait
    assert refused.value.params["why"] == "spectator-chat-table"
    await allow.spectator_line("10.0.0.5", "t1")  # a newcomer is heard
    with pytest.raises(ApiError):
        await allow.spectator_line("10.0.0.5", "t1")  # once; then the table's pace
    await allow.spectator_line("10.0.0.1", "t2")  # and another table is another allowance

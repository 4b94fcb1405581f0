"""What hostile or broken clients send gets a clear error with a code and changes nothing:
deep nesting, bad paths, loosely typed bodies, a forged `Host` in a QR code (issue 24)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from tests.server.conftest import make_settings, new_table, recv_until, two_player_table
from tests.server.pages.test_web import read_qr
from vertex.server import create_app
from vertex.server.errors import ApiError
from vertex.server.table.nesting import MAX_DEPTH, check_depth, depth


def deep(n: int) -> str:
    return '{"t": "move", "move": ' + "[" * n + "]" * n + "}"


def test_depth_is_counted_outside_strings() -> None:
    assert depth('"x"') == 0
    assert depth('{"a": [1, {"b": []}]}') == 4
    assert depth('{"a": "[[[[[[{{{{"}') == 1  # brackets in a string are text
    assert depth(r'{"a": "\"[[[["}') == 1  # also after an escaped quote
    assert depth(deep(1000)) == 1001


def test_many_brackets_side_by_side_are_not_deep() -> None:
    # few brackets in all are passed without counting; many, only when they nest
    check_depth("[" * MAX_DEPTH + "]" * MAX_DEPTH)
    check_depth("[" + "[], " * 100 + "[]]")
    with pytest.raises(ApiError) as got:
        check_depth("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert got.value.code == "too-deep"


def test_a_deeply_nested_socket_message_is_refused_and_the_socket_stays(
    client: TestClient,
) -> None:
    tid, _ann, bob = two_player_table(client)
    with client.websocket_connect(f"/ws/tables/{tid}?token={bob}") as ws:
        recv_until(ws, lambda m: m["t"] == "snapshot")
        ws.send_text(deep(1000))
        got = recv_until(ws, lambda m: m["t"] == "error")
        assert got["code"] == "too-deep" and got["params"] == {"limit": MAX_DEPTH}
        ws.send_text(json.dumps({"t": "ping", "id": 7}))  # still open, still answering
        assert recv_until(ws, lambda m: m["t"] == "pong")["id"] == 7
    assert client.get(f"/api/tables/{tid}").json()["version"] == 2


def test_a_deeply_nested_lobby_message_is_refused_and_the_socket_stays(
    client: TestClient,
) -> None:
    with client.websocket_connect("/ws/lobby") as ws:
        recv_until(ws, lambda m: m["t"] == "lobby")
        ws.send_text('{"t": "follow", "tables": ' + "[" * 1000 + "]" * 1000 + "}")
        assert recv_until(ws, lambda m: m["t"] == "error")["code"] == "too-deep"
        ws.send_text('{"t": "ping"}')
        assert recv_until(ws, lambda m: m["t"] == "pong")


def test_a_deeply_nested_body_is_refused_with_a_code(client: TestClient) -> None:
    body = '{"game": "dots-and-boxes", "options": ' + '{"a": ' * 1000 + "1" + "}" * 1001
    r = client.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "too-deep"
    assert client.get("/api/lobby").json()["counts"]["open"] == 0


@pytest.mark.parametrize(
    "path",
    [
        "/static/x/%00",
        "/static/x/js%00.js",
        "/static/x/../../etc/passwd",
        "/static/x/js/%2e%2e/%2e%2e/server/app.py",
        "/tables/%00",
        "/api/tables/%00",
        "/api/tables/a%0ab",
        "/rules/%00",
        "/%00",
    ],
)
def test_bad_paths_are_a_plain_404(client: TestClient, path: str) -> None:
    r = client.get(path)
    assert r.status_code == 404, (path, r.text)
    assert r.json()["error"]["code"] in ("not-found", "no-such-table")
    assert "Traceback" not in r.text


def test_a_socket_to_a_bad_path_is_closed(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    with pytest.raises(WebSocketDisconnect) as closed, client.websocket_connect("/ws/x%00") as ws:
        ws.receive_text()
    assert closed.value.code == 4404


# ---- one strictness for HTTP and the socket -------------------------------------------------
def test_every_request_body_is_strict() -> None:
    """Each route's body model refuses unknown fields and coerces nothing, like the socket's."""
    app = create_app(make_settings(Path("/nonexistent")))
    bodies = []
    for route in app.routes:
        if isinstance(route, APIRoute) and route.body_field is not None:
            model: Any = route.body_field.field_info.annotation
            bodies.append(route.path)
            assert model.model_config.get("strict") is True, route.path
            assert model.model_config.get("extra") == "forbid", route.path
    assert len(bodies) >= 8  # the walk found the routes with bodies


@pytest.mark.parametrize(
    ("route", "body"),
    [
        ("/api/tables", {"game": "dots-and-boxes", "seats": [{"kind": "ai", "level": True}]}),
        ("/api/tables", {"game": "dots-and-boxes", "seats": [{"kind": "ai", "level": "2"}]}),
        ("/api/tables", {"game": "dots-and-boxes", "clock": {"per_move": 1e-300}}),
        ("/api/tables", {"game": "dots-and-boxes", "clock": {"per_move": "5"}}),
        ("/api/tables", {"game": "dots-and-boxes", "undo": "yes"}),
        ("/api/tables", {"game": "dots-and-boxes", "listed": 1}),
        ("/api/options/check", {"game": "dots-and-boxes", "surprise": 1}),
        ("/api/lobby/play-now", {"game": "dots-and-boxes", "name": 5}),
    ],
)
def test_loosely_typed_bodies_are_refused(client: TestClient, route: str, body: Any) -> None:
    r = client.post(route, json=body)
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "bad-request"
    assert client.get("/api/lobby").json()["counts"]["open"] == 0


def test_loosely_typed_table_commands_are_refused_on_http(client: TestClient) -> None:
    tid, ann, _bob = two_player_table(client)
    for route, body in [
        ("moves", {"token": ann, "move": "a1-b1", "version": "2"}),
        ("moves", {"token": ann, "move": "a1-b1", "version": True}),
        ("actions", {"token": ann, "action": "hand-over", "seat": 1, "level": True}),
        ("actions", {"token": ann, "action": "hand-over", "seat": "1", "level": 2}),
        ("analysis", {"ply": "0"}),
        ("analysis", {"ply": True}),
    ]:
        r = client.post(f"/api/tables/{tid}/{route}", json=body)
        assert r.status_code == 422, (route, body, r.text)
        assert r.json()["error"]["code"] == "bad-request"
    assert client.get(f"/api/tables/{tid}").json()["version"] == 2


# ---- QR codes ---------------------------------------------------------------------------------
def test_qr_links_use_the_public_url_whatever_the_host(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, public_url="https://vertex.example")
    with TestClient(create_app(settings)) as client:
        tid = new_table(client)["id"]
        r = client.get(f"/tables/{tid}/qr.svg", headers={"Host": "evil.example"})
        assert read_qr(r.text) == [f"https://vertex.example/tables/{tid}"]


def test_without_a_public_url_only_a_local_site_uses_the_request(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(tmp_path))) as client:  # one process: local
        tid = new_table(client)["id"]
        r = client.get(f"/tables/{tid}/qr.svg", headers={"Host": "192.168.1.20:8000"})
        assert read_qr(r.text) == [f"http://192.168.1.20:8000/tables/{tid}"]


def test_the_public_url_setting_is_checked(monkeypatch: pytest.MonkeyPatch) -> None:
    from vertex.server.settings import Settings

    monkeypatch.setenv("VERTEX_PUBLIC_URL", "https://vertex.example/")
    assert Settings.from_env("sqlite://").public_url == "https://vertex.example"
    for bad in ("javascript:alert(1)", "https://a.example/?x=<b>", "ftp://a.example"):
        monkeypatch.setenv("VERTEX_PUBLIC_URL", bad)
        with pytest.raises(ValueError, match="VERTEX_PUBLIC_URL"):
            Settings.from_env("sqlite://")


def test_a_site_of_several_processes_without_a_public_url_gives_no_code() -> None:
    from fastapi import FastAPI

    from vertex.server.api.guards import add_error_handlers
    from vertex.server.pages.web import Site, add_page_routes

    async def exists(_tid: str) -> bool:
        return True

    app = FastAPI()
    add_error_handlers(app)
    add_page_routes(app, Site(), exists, public_url=None, local=False)
    r = TestClient(app).get("/tables/AAAAAAAAAAAAAAAA/qr.svg", headers={"Host": "evil.example"})
    assert r.status_code == 404 and r.json()["error"]["code"] == "no-public-url"


def test_non_finite_numbers_in_any_option_are_refused_with_a_code(client: TestClient) -> None:
    """Issue 37: `NaN`, `±Infinity` and `1e999` (read as infinity) in any option of any game
    were a 500 with two tracebacks (the refusal quoted the value, which JSON cannot carry)."""
    cases = 0
    for game in client.get("/api/games").json():
        for option in game["options"]["properties"]:
            for raw in ("NaN", "Infinity", "-Infinity", "1e999"):
                body = f'{{"game": "{game["id"]}", "options": {{"{option}": {raw}}}}}'
                for path in ("/api/tables", "/api/options/check"):
                    r = client.post(
                        path, content=body, headers={"content-type": "application/json"}
                    )
                    assert r.status_code == 422, (game["id"], option, raw, path, r.text)
                    error = r.json()["error"]
                    assert error["code"] == "bad-options" and error["option"] == option
                    assert error["params"]["problem"] == "finite", error
                    cases += 1
    assert cases >= 300  # every option of every game, four numbers, two routes


def test_a_dot_name_with_thousands_of_digits_is_not_a_dot(client: TestClient) -> None:
    """Issue 37: a Vert3x start dot of 4,300+ digits was a 500 (Python's int() limit)."""
    for start in (["a" + "9" * 4400, "b1"], ["a1", "9" * 5000]):
        r = client.post("/api/tables", json={"game": "vert3x", "options": {"start": start}})
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] == "bad-options"


def test_a_trailing_slash_redirect_never_names_the_clients_host(client: TestClient) -> None:
    """Issue 37: the trailing-slash redirect wrote the request's `Host` into `Location`."""
    for path, target in (
        ("/api/games/", "/api/games"),
        ("/rules/vert3x/", "/rules/vert3x"),
        ("/api/lobby/?game=vert3x", "/api/lobby?game=vert3x"),
    ):
        r = client.get(path, headers={"host": "evil.example"}, follow_redirects=False)
        assert r.status_code == 308 and r.headers["location"] == target, (path, r.headers)
        assert r.headers["referrer-policy"] == "no-referrer"  # the site's headers too
    assert client.get("/nothing/", follow_redirects=False).status_code == 404
    assert client.get("/api/games/").status_code == 200  # followed, it lands


def test_a_trailing_slash_redirect_of_any_bytes_is_ascii(client: TestClient) -> None:
    """A path that decodes to non-ASCII (`%C2%80`) was written into `Location` as raw bytes:
    a 500 (the OpenAPI fuzz found it). It is percent-encoded again, the query's too."""
    for path, target in (
        ("/api/puzzles/%C2%80%2F", "/api/puzzles/%C2%80"),
        ("/rules/%C2%80%2F", "/rules/%C2%80"),
        ("/api/games/?a=%C2%80&b=%20", "/api/games?a=%C2%80&b=%20"),
    ):
        r = client.get(path, follow_redirects=False)
        assert r.status_code == 308 and r.headers["location"] == target, (path, r.headers)

"""The page side of issue 34 on the server: the profile and leaderboard pages are shells
under the site's CSP, and the key link's QR code is drawn from a POST body only (never a
GET: the key would be in a URL), for key links alone, and never cached."""

from __future__ import annotations

from fastapi.testclient import TestClient

from tests.server.pages.test_web import read_qr, release_of

LINK = "http://127.0.0.1:8000/#key=" + "Ab3_-" * 9


def test_profile_and_leaderboard_pages_are_shells(client: TestClient) -> None:
    for path, script in (
        ("/players/Ann", "js/player/main.js"),
        ("/players/%D0%94%D0%BC%D0%B8%D1%82%D1%80%D0%B8%D0%B9", "js/player/main.js"),
        ("/leaderboard/dots-and-boxes-5x5", "js/leaderboard/main.js"),
    ):
        page = client.get(path)
        assert page.status_code == 200, path
        assert page.headers["cache-control"] == "no-cache"
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert script in page.text and release_of(page.text)
    assert client.get("/players/" + "x" * 300).status_code == 404


def test_key_qr_is_made_from_a_post_body(client: TestClient) -> None:
    r = client.post("/key-qr.svg", json={"text": LINK})
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.headers["cache-control"] == "no-store"
    assert read_qr(r.text) == [LINK]
    # no GET (the key would be in the address), and nothing but a key link is drawn
    assert client.get("/key-qr.svg").status_code in (404, 405)
    for bad in (
        {"text": "http://127.0.0.1:8000/tables/abc"},
        {"text": "hello"},
        {"text": LINK + "x" * 400},
        {"text": 5},
        {},
    ):
        assert client.post("/key-qr.svg", json=bad).status_code == 422, bad
    assert client.post("/key-qr.svg", content=b"not json").status_code == 422

"""The page's server side: HTML routes, versioned static files, security headers, the QR code,
the option check and the game previews."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import new_table
from vertex.server.pages.web import CSP, Site, qr_svg


def release_of(html: str) -> str:
    m = re.search(r"/static/([0-9a-f]{12})/css/base\.css", html)
    assert m, "the page names its release"
    return m.group(1)


def test_pages_are_served_uncached_with_the_release(client: TestClient) -> None:
    lobby = client.get("/")
    assert lobby.status_code == 200 and "data-lobby" in lobby.text
    assert lobby.headers["cache-control"] == "no-cache"
    assert "{{static}}" not in lobby.text
    release = release_of(lobby.text)
    assert release == Site().release
    tid = new_table(client)["id"]
    page = client.get(f"/tables/{tid}")
    assert page.status_code == 200 and "data-table" in page.text
    assert release_of(page.text) == release
    rules = client.get("/rules/figures")
    assert rules.status_code == 200 and "data-rules" in rules.text


def test_missing_tables_and_games_get_the_page_with_404(client: TestClient) -> None:
    missing = client.get("/tables/AAAAAAAAAAAAAAAA")
    assert missing.status_code == 404 and "data-table" in missing.text
    assert client.get("/tables/" + "x" * 500).status_code == 404
    assert client.get("/rules/chess").status_code == 404


def test_static_files_are_immutable_under_the_release(client: TestClient) -> None:
    release = release_of(client.get("/").text)
    js = client.get(f"/static/{release}/js/shared/i18n.js")
    assert js.status_code == 200
    assert js.headers["content-type"].startswith("text/javascript")
    assert "immutable" in js.headers["cache-control"]
    css = client.get(f"/static/{release}/css/base.css")
    assert css.headers["content-type"].startswith("text/css")
    # an old page asking for an old release gets today's file, not to be kept
    old = client.get("/static/000000000000/css/base.css")
    assert old.status_code == 200 and old.headers["cache-control"] == "no-cache"


@pytest.mark.parametrize(
    "path",
    [
        "../server/app.py",
        "%2e%2e/server/app.py",
        "js/../../server/app.py",
        "..%2f..%2fpyproject.toml",
        "/etc/passwd",
        "js/nope.js",
        "js",
    ],
)
def test_static_never_serves_outside_the_web_folder(client: TestClient, path: str) -> None:
    r = client.get(f"/static/{Site().release}/{path}")
    assert r.status_code == 404
    assert r.json()["error"]["code"] in ("not-found", "http-error")


def test_site_file_refuses_escapes(tmp_path: Path) -> None:
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "a.js").write_text("x")
    (tmp_path / "secret").write_text("s")
    site = Site(tmp_path / "web")
    assert site.file("a.js") is not None
    for bad in ("../secret", "/etc/passwd", "", "a\\..\\..\\secret", "."):
        assert site.file(bad) is None


def test_release_changes_with_any_file(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text("one")
    first = Site(tmp_path).release
    (tmp_path / "a.js").write_text("two")
    assert Site(tmp_path).release != first


def test_security_headers_on_pages_and_api(client: TestClient) -> None:
    for path in ("/", "/api/games", "/healthz"):
        r = client.get(path)
        assert r.headers["content-security-policy"] == CSP
        assert r.headers["x-content-type-options"] == "nosniff"
        assert r.headers["referrer-policy"] == "no-referrer"
    assert "'unsafe-inline'" not in CSP and "http" not in CSP
    # the API's docs are our own page, under the same policy, loading only our files
    docs = client.get("/docs")
    assert docs.status_code == 200 and docs.headers["content-security-policy"] == CSP
    assert "http" not in docs.text.replace("http-equiv", "")
    for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', docs.text):
        assert client.get(asset).status_code == 200, asset
    assert client.get("/redoc").status_code == 404  # one viewer, not two


def read_qr(svg: str) -> list[str]:
    """The texts of the QR codes in an SVG, as a phone's camera would read them: the SVG drawn
    to pixels by resvg, the pixels read by zxing-cpp (real decoders, not ours)."""
    import io

    import resvg_py
    import zxingcpp
    from PIL import Image

    png = bytes(resvg_py.svg_to_bytes(svg_string=svg))
    found = zxingcpp.read_barcodes(Image.open(io.BytesIO(png)))
    return [r.text for r in found if r.format == zxingcpp.BarcodeFormat.QRCode]


def test_qr_code_of_the_share_link(client: TestClient) -> None:
    tid = new_table(client)["id"]
    r = client.get(f"/tables/{tid}/qr.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in r.text
    # a camera reads the table's share link, and nothing of a seat's token
    assert read_qr(r.text) == [f"http://testserver/tables/{tid}"]
    assert client.get("/tables/AAAAAAAAAAAAAAAA/qr.svg").status_code == 404


def test_qr_codes_read_back_as_the_links_they_were_made_of() -> None:
    links = [
        "http://127.0.0.1:8000/tables/abcdefghijklmnop",
        "https://vertex.example.org:8443/tables/ABCDEFGHIJKLMNOP",
    ]
    for link in links:
        assert read_qr(qr_svg(link)) == [link]
    assert qr_svg(links[0]) != qr_svg(links[1])


def test_option_check_names_the_option(client: TestClient) -> None:
    ok = client.post("/api/options/check", json={"game": "dots-and-boxes", "options": {}})
    assert ok.status_code == 200
    assert ok.json() == {
        "game": "dots-and-boxes",
        "options": {
            "misere": False,
            "border": False,
            "extra_turn": True,
            "players": 2,
            "rows": 3,
            "cols": 3,
        },
        "seats": 2,
    }
    six = client.post("/api/options/check", json={"game": "figures", "options": {"players": 6}})
    assert six.json()["seats"] == 6
    cases = [
        ("dots-and-boxes", {"rows": 0}, "rows"),
        ("dots-and-boxes", {"rows": "3"}, "rows"),
        ("dots-and-triangles", {"shape": "strip", "size": 3}, "size"),
        ("vert3x", {"rules": "gyo", "radius": 3}, "radius"),
        ("figures", {"colour": "red"}, "colour"),
    ]
    for game, options, option in cases:
        r = client.post("/api/options/check", json={"game": game, "options": options})
        assert r.status_code == 422, (game, options)
        err = r.json()["error"]
        assert err["code"] == "bad-options" and err["option"] == option
        assert option in err["message"]
    unknown = client.post("/api/options/check", json={"game": "chess", "options": {}})
    assert unknown.status_code == 422 and unknown.json()["error"]["code"] == "unknown-game"


def test_creating_a_table_with_bad_options_names_the_option(client: TestClient) -> None:
    r = client.post("/api/tables", json={"game": "dots-and-boxes", "options": {"cols": 99}})
    assert r.status_code == 422
    assert r.json()["error"]["option"] == "cols"


def test_games_carry_a_preview_of_their_real_board(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()}
    boxes = games["dots-and-boxes"]["preview"]
    # the example: a 3×3 board, 12 seeded moves in
    assert len(boxes["board"]["dots"]) == 16 and len(boxes["board"]["lines"]) == 24
    assert boxes["ply"] == 12
    assert sum(line["drawn"] for line in boxes["board"]["lines"]) == 12
    figures = games["figures"]["preview"]
    assert len(figures["board"]["cells"]) == 13  # the 5×5 rhombus
    for g in games.values():
        assert g["preview"]["game"] == g["id"]
    # seeded: the same picture every time
    assert client.get("/api/games").json()[0]["preview"] == next(iter(games.values()))["preview"]


def test_vendor_libraries_only_from_their_listed_folders(tmp_path: Path) -> None:
    web, modules = tmp_path / "web", tmp_path / "node_modules"
    (web).mkdir()
    for rel in ("three/build/three.module.js", "three/examples/jsm/x.js", "three/package.json"):
        (modules / rel).parent.mkdir(parents=True, exist_ok=True)
        (modules / rel).write_text("//")
    site = Site(web, modules)
    assert site.file("vendor/three/build/three.module.js") is not None
    assert site.file("vendor/three/examples/jsm/x.js") is not None
    for bad in (
        "vendor/three/package.json",
        "vendor/three/build/../package.json",
        "vendor/left-pad/index.js",
        "vendor/three",
        "vendor",
    ):
        assert site.file(bad) is None, bad
    before = site.release
    (modules / "three" / "package.json").write_text('{"version": "2"}')
    assert Site(web, modules).release != before  # a new library is a new release


def test_inline_import_maps_are_allowed_by_hash_only() -> None:
    import base64
    import hashlib

    body = '{"imports": {"three": "/static/r/vendor/three/build/three.module.js"}}'
    page = f'<script type="importmap">{body}</script><script src="/x.js"></script>'
    want = base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()
    csp = Site().csp(page)
    assert f"script-src 'self' 'sha256-{want}'" in csp
    assert Site().csp("<p>no map</p>") == CSP


def test_view_names_the_game_and_keeps_recent_chat(client: TestClient) -> None:
    from tests.server.conftest import two_player_table

    tid, ann, _bob = two_player_table(client)
    view = client.get(f"/api/tables/{tid}").json()
    assert view["name"] == "Dots and Boxes" and view["can_end_by_agreement"] is False
    assert view["chat"] == []
    for i in range(55):
        body = {"token": ann, "action": "chat", "text": f"line {i}"}
        r = client.post(f"/api/tables/{tid}/actions", json=body)
        if r.status_code == 429:  # the per-seat rate: the lines so far are enough
            break
    chat = client.get(f"/api/tables/{tid}").json()["chat"]
    assert chat and chat[-1]["name"] == "Ann" and chat[-1]["seat"] == 0
    assert len(chat) <= 50 and chat[-1]["text"].startswith("line ")
    vert3x = client.post("/api/tables", json={"game": "vert3x"}).json()["id"]
    assert client.get(f"/api/tables/{vert3x}").json()["can_end_by_agreement"] is True


JS = Path(__file__).resolve().parents[3] / "src" / "vertex" / "web" / "js"


def test_every_module_waits_for_its_own_sheet() -> None:
    """A module that brings its own CSS loads it through dom.js's `addSheet` and waits for it
    (module level `await`, or handed back to a caller who does) before drawing anything: a
    board measured unstyled is drawn at the wrong size, then jumps. Found twice in CI."""
    adders = []
    for path in sorted(JS.rglob("*.js")):
        src = path.read_text()
        rel = path.relative_to(JS).as_posix()
        if rel != "shared/dom.js":
            assert 'rel: "stylesheet"' not in src, f"{rel} makes its own <link>: use addSheet"
        calls = [m.start() for m in re.finditer(r"\baddSheet\(", src)]
        calls = [c for c in calls if not src[:c].rstrip().endswith("function")]
        for at in calls:
            line_start = src.rfind("\n", 0, at) + 1
            before = src[line_start:at]
            awaited_all = src.rfind("await Promise.all([", 0, at)
            in_all = awaited_all != -1 and "]);" not in src[awaited_all:at]
            assert "await " in before or "return " in before or in_all, (
                f"{rel}: addSheet(...) is not awaited: {src[line_start : src.find(chr(10), at)]}"
            )
            adders.append(rel)
    assert {"boards/towers/towers.js", "table/replay.js", "boards/view.js"} <= set(adders)

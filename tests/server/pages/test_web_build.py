"""The page's minified copy (issue 20, page weight): the server serves an up-to-date built file
instead of its source, precompressed when the client accepts it, and the source otherwise; the
build (tools/build-web.mjs) makes a copy of every module, sheet and catalog, file for file."""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from vertex.server.api.guards import add_error_handlers
from vertex.server.pages.built import Build
from vertex.server.pages.web import CSP, IMMUTABLE, WEB_ROOT, SecurityHeaders, Site, add_page_routes

ROOT = Path(__file__).resolve().parents[3]
SOURCE_JS = "// the page's words\nexport const greeting = 'hello';\n"
BUILT_JS = 'export const greeting="hello";\n//# sourceMappingURL=a.js.map\n'
SOURCE_CSS = "body {\n  color: red;\n}\n"
BUILT_CSS = "body{color:red}\n"


def make_site(tmp_path: Path, built: bool = True) -> tuple[Site, Path, Path]:
    web, out = tmp_path / "web", tmp_path / "build"
    for rel, text in (("js/a.js", SOURCE_JS), ("css/a.css", SOURCE_CSS)):
        (web / rel).parent.mkdir(parents=True, exist_ok=True)
        (web / rel).write_text(text)
    if built:
        for rel, text in (("js/a.js", BUILT_JS), ("css/a.css", BUILT_CSS)):
            (out / rel).parent.mkdir(parents=True, exist_ok=True)
            (out / rel).write_text(text)
            (out / f"{rel}.gz").write_bytes(gzip.compress(text.encode()))
            (out / f"{rel}.br").write_bytes(
                b"brotli of " + text.encode()
            )  # read raw, never decoded
        (out / "js/a.js.map").write_text('{"version": 3}')
    return Site(web, tmp_path / "node_modules", out), web, out


def client_of(site: Site) -> TestClient:
    async def no_table(_tid: str) -> bool:
        return False

    app = FastAPI()
    add_error_handlers(app)
    app.add_middleware(SecurityHeaders)
    add_page_routes(app, site, no_table, None, True)
    return TestClient(app)


def raw(client: TestClient, url: str, accept: str) -> tuple[dict[str, str], bytes]:
    """The response's headers and its body as sent (not decoded)."""
    with client.stream("GET", url, headers={"Accept-Encoding": accept}) as r:
        assert r.status_code == 200, url
        return dict(r.headers), b"".join(r.iter_raw())


def test_an_up_to_date_build_is_served_instead_of_the_source(tmp_path: Path) -> None:
    site, _web, _out = make_site(tmp_path)
    client = client_of(site)
    js = f"{site.static}/js/a.js"
    headers, body = raw(client, js, "identity")
    assert body == BUILT_JS.encode()
    assert headers["content-type"].startswith("text/javascript")
    assert headers["cache-control"] == IMMUTABLE
    assert headers["content-security-policy"] == CSP
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["vary"] == "Accept-Encoding" and "content-encoding" not in headers
    headers, body = raw(client, f"{site.static}/css/a.css", "")
    assert body == BUILT_CSS.encode() and headers["content-type"].startswith("text/css")


def test_precompressed_copies_go_to_clients_that_accept_them(tmp_path: Path) -> None:
    site, _web, out = make_site(tmp_path)
    client = client_of(site)
    js = f"{site.static}/js/a.js"
    headers, body = raw(client, js, "gzip, deflate, br")
    assert headers["content-encoding"] == "br" and body == (out / "js/a.js.br").read_bytes()
    assert headers["content-type"].startswith("text/javascript")
    assert headers["content-length"] == str(len(body))
    headers, body = raw(client, js, "gzip, br;q=0")
    assert headers["content-encoding"] == "gzip" and gzip.decompress(body) == BUILT_JS.encode()
    assert client.get(js, headers={"Accept-Encoding": "gzip"}).text == BUILT_JS  # decoded
    # no copy for an encoding, or one older than the built file: the next choice
    os.utime(out / "js/a.js.br", ns=(1, 1))
    headers, _body = raw(client, js, "br, gzip")
    assert headers["content-encoding"] == "gzip"


def test_a_stale_build_falls_back_to_the_source(tmp_path: Path) -> None:
    site, web, out = make_site(tmp_path)
    client = client_of(site)
    js = f"{site.static}/js/a.js"
    # a developer edits the module after the build: its source is newer than its copy
    (web / "js/a.js").write_text(SOURCE_JS + "// edited\n")
    stamp = (out / "js/a.js").stat().st_mtime_ns
    os.utime(web / "js/a.js", ns=(stamp + 10**9, stamp + 10**9))
    headers, body = raw(client, js, "gzip, br")
    assert body == (SOURCE_JS + "// edited\n").encode()
    assert "content-encoding" not in headers and "vary" not in headers
    assert headers["content-type"].startswith("text/javascript")
    assert headers["content-security-policy"] == CSP
    assert client.get(f"{site.static}/js/a.js.map").status_code == 404  # the map is stale too
    # the other file's copy is still up to date
    assert raw(client, f"{site.static}/css/a.css", "")[1] == BUILT_CSS.encode()
    assert "1 are older than their source" in site.build.describe()  # type: ignore[union-attr]


def test_without_a_build_the_source_is_served(tmp_path: Path) -> None:
    site, _web, _out = make_site(tmp_path, built=False)
    client = client_of(site)
    headers, body = raw(client, f"{site.static}/js/a.js", "gzip, br")
    assert body == SOURCE_JS.encode() and "content-encoding" not in headers
    assert headers["content-type"].startswith("text/javascript")
    assert client.get(f"{site.static}/js/a.js.map").status_code == 404
    assert "serving the source" in site.build.describe()  # type: ignore[union-attr]


def test_source_maps_only_beside_built_files(tmp_path: Path) -> None:
    site, _web, out = make_site(tmp_path)
    client = client_of(site)
    r = client.get(f"{site.static}/js/a.js.map")
    assert r.status_code == 200 and r.json() == {"version": 3}
    assert r.headers["content-type"].startswith("application/json")
    (out / "js/b.js.map").write_text("{}")  # a map without a source file
    (out / "secret.map").write_text("{}")
    for bad in ("js/b.js.map", "secret.map", "css/a.css.map", "a.map"):
        r = client.get(f"{site.static}/{bad}")
        assert r.status_code == 404, bad
        assert r.json()["error"]["code"] == "not-found", bad
    # built files are found only for source files: nothing of the build is served alone
    (out / "js/only-built.js").write_text("export{}")
    assert client.get(f"{site.static}/js/only-built.js").status_code == 404
    assert site.build is not None
    for bad in ("js/../js/a.js.map", "../build/js/a.js.map", "js\\a.js.map", "js/a.js\x00.map"):
        assert site.build.source_map(bad) is None, bad


def test_three_js_is_served_minified_when_built(tmp_path: Path) -> None:
    site, _web, out = make_site(tmp_path)
    rel = "three/build/three.core.js"
    (tmp_path / "node_modules" / rel).parent.mkdir(parents=True)
    (tmp_path / "node_modules" / rel).write_text("export const REVISION = '187';\n")
    client = client_of(site)
    url = f"{site.static}/vendor/{rel}"
    headers, body = raw(client, url, "br")
    assert body == b"export const REVISION = '187';\n" and "content-encoding" not in headers
    (out / "vendor" / rel).parent.mkdir(parents=True)
    (out / "vendor" / rel).write_text('export const REVISION="187";\n')
    (out / "vendor" / f"{rel}.br").write_bytes(b"brotli of it")
    headers, body = raw(client, url, "br")
    assert body == b"brotli of it" and headers["content-encoding"] == "br"
    assert headers["content-type"].startswith("text/javascript")
    assert raw(client, url, "")[1] == b'export const REVISION="187";\n'
    # a new three.js (npm ci) is newer than its copy: the package's file again
    later = (out / "vendor" / rel).stat().st_mtime_ns + 10**9
    os.utime(tmp_path / "node_modules" / rel, ns=(later, later))
    assert raw(client, url, "br")[1] == b"export const REVISION = '187';\n"


def test_the_accept_encoding_header_is_read_as_written() -> None:
    build = Build(Path("/nowhere"), Path("/nowhere"))
    assert build.find("a.js", Path("/nowhere/a.js")) is None
    from vertex.server.pages.built import Built

    b = Built(Path("a.js"), {"br": Path("a.js.br"), "gzip": Path("a.js.gz")})
    assert b.pick("") == (Path("a.js"), None)
    assert b.pick("gzip, deflate, br, zstd") == (Path("a.js.br"), "br")
    assert b.pick("GZIP") == (Path("a.js.gz"), "gzip")
    assert b.pick("br;q=0, gzip;q=0.5") == (Path("a.js.gz"), "gzip")
    assert b.pick("br;q=0, gzip;q=0") == (Path("a.js"), None)
    assert b.pick("br;q=x") == (Path("a.js"), None)  # a q we cannot read allows nothing


IMPORTS = re.compile(r"""(?:from|import)\s*\(?\s*["'`](\.{1,2}/[^"'`]+)["'`]""")


@pytest.mark.skipif(
    shutil.which("node") is None or not (ROOT / "node_modules/esbuild").is_dir(),
    reason="the build needs node and `npm ci` (make setup)",
)
def test_the_build_minifies_every_module_sheet_and_catalog(tmp_path: Path) -> None:
    out = tmp_path / "web"
    subprocess.run(
        ["node", str(ROOT / "tools/build-web.mjs"), str(WEB_ROOT), str(out)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    sources = [p for p in WEB_ROOT.rglob("*") if p.is_file()]
    counted = 0
    for source in sources:
        rel = source.relative_to(WEB_ROOT).as_posix()
        built = out / rel
        if source.suffix not in (".js", ".css", ".json"):
            assert not built.exists(), rel  # the pages, the icon: served from the source
            continue
        counted += 1
        text, small = source.read_text(), built.read_bytes()
        assert len(small) < len(text.encode()), rel
        assert gzip.decompress((out / f"{rel}.gz").read_bytes()) == small, rel
        assert (out / f"{rel}.br").stat().st_size < len(small), rel
        if source.suffix == ".json":
            assert json.loads(small) == json.loads(text), rel
            continue
        code = small.decode()
        # still modules importing each other by the same relative paths (no bundle)
        for specifier in IMPORTS.findall(text):
            if "${" in specifier:  # ./boards/${name}/…: the local name may be shortened
                specifier = specifier.split("${")[0]
            assert specifier in code, (rel, specifier)
        assert code.endswith(
            f"sourceMappingURL={source.name}.map" + (" */\n" if rel.endswith(".css") else "\n")
        )
        source_map = json.loads((out / f"{rel}.map").read_text())
        assert source_map["sourcesContent"] == [text], rel
    assert counted > 100
    for rel in ("three/build/three.module.js", "three/build/three.core.js"):
        package, built = ROOT / "node_modules" / rel, out / "vendor" / rel
        assert built.stat().st_size < 0.6 * package.stat().st_size, rel
        assert gzip.decompress((out / "vendor" / f"{rel}.gz").read_bytes()) == built.read_bytes()
    assert "./three.core.js" in (out / "vendor/three/build/three.module.js").read_text()
    # the figures the issue is about: the whole page folder, smaller by more than a fifth
    before = sum(p.stat().st_size for p in sources if p.suffix in (".js", ".css"))
    after = sum(
        (out / p.relative_to(WEB_ROOT)).stat().st_size
        for p in sources
        if p.suffix in (".js", ".css")
    )
    assert after < 0.8 * before

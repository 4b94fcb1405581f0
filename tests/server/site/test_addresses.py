"""The client's address (site/addresses.py): the TCP peer's, unless the peer is one of the
site's trusted proxies; then the nearest untrusted hop of X-Forwarded-For. A real `vertex
serve` (uvicorn's own forwarded-header trust off) shows that a local client cannot pick its
address, and that behind a trusted proxy each client is counted apart (issue 37)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.server.serve import ServeProcess
from vertex.server.site.addresses import MOST, address_of, client_address, parse_proxies

LOCAL = parse_proxies("127.0.0.1, 10.0.0.0/8")


def test_an_untrusted_peer_is_the_client_whatever_it_forwards() -> None:
    assert client_address("203.0.113.9", ["1.2.3.4"], LOCAL) == "203.0.113.9"
    assert client_address("127.0.0.1", ["1.2.3.4"], ()) == "127.0.0.1"  # none trusted


def test_behind_trusted_proxies_the_nearest_untrusted_hop_is_the_client() -> None:
    assert client_address("127.0.0.1", ["198.51.100.7"], LOCAL) == "198.51.100.7"
    # what the client wrote itself (left of the first untrusted hop) proves nothing
    hops = ["6.6.6.6, 198.51.100.7, 10.1.2.3"]
    assert client_address("127.0.0.1", hops, LOCAL) == "198.51.100.7"
    assert client_address("127.0.0.1", ["6.6.6.6", "198.51.100.7"], LOCAL) == "198.51.100.7"
    # a hop that is not an address: the nearest proxy is as far as we know
    assert client_address("127.0.0.1", ["198.51.100.7, junk"], LOCAL) == "127.0.0.1"
    assert client_address("127.0.0.1", [], LOCAL) == "127.0.0.1"
    assert client_address("127.0.0.1", ["[2001:db8::1]"], LOCAL) == "2001:db8::1"


def test_an_address_is_bounded() -> None:
    long = "x" * 500
    got = client_address(long, [], LOCAL)
    assert len(got) <= MOST and got == client_address(long, [], ())
    assert client_address(None, [], LOCAL) == "unknown"
    scope = {"client": ("127.0.0.1", 5), "headers": [(b"x-forwarded-for", b"198.51.100.7")]}
    assert address_of(scope, "127.0.0.1") == "198.51.100.7"
    assert address_of(scope, None) == "127.0.0.1"


def test_a_bad_proxy_setting_is_refused() -> None:
    with pytest.raises(ValueError, match="VERTEX_TRUSTED_PROXIES"):
        parse_proxies("127.0.0.1, localhost")


def _opened(p: ServeProcess, hops: list[str]) -> list[int]:
    body = {"game": "dots-and-boxes", "options": {"rows": 2, "cols": 2}}
    with httpx.Client(base_url=p.url, timeout=10) as http:
        return [
            http.post("/api/tables", json=body, headers={"x-forwarded-for": hop}).status_code
            for hop in hops
        ]


@pytest.mark.parametrize("trusted", [None, "127.0.0.1"])
def test_a_local_client_cannot_choose_its_address(tmp_path: Path, trusted: str | None) -> None:
    env = {"VERTEX_DATABASE_URL": f"sqlite:///{tmp_path / 'v.db'}", "VERTEX_TABLES_PER_HOUR": "2"}
    if trusted:
        env["VERTEX_TRUSTED_PROXIES"] = trusted
    p = ServeProcess(tmp_path / "serve.log", env=env)
    p.start()
    try:
        got = _opened(p, [f"198.51.100.{n}" for n in range(1, 5)])
    finally:
        p.stop()
    if trusted:  # behind the site's own proxy: four clients, each within its allowance
        assert got == [201, 201, 201, 201]
    else:  # a forged header changes nothing: one address, two tables an hour
        assert got == [201, 201, 429, 429]

"""The client's address, as the site's per-address limits see it.

A request's address is its TCP peer's, unless that peer is one of the site's own proxies
(`VERTEX_TRUSTED_PROXIES`: addresses or networks, e.g. `127.0.0.1,10.0.0.0/8`; none by
default). Then the client is read from `X-Forwarded-For`, from the right: the first address
that is not a trusted proxy is the client (anything left of it was written by the client
and proves nothing). uvicorn's own forwarded-header trust is off (cli.py): with it, any
local client could name any address it liked and escape every per-address limit.

An address is a key of many limits and a column of the store, so it is bounded: an IP
address as Python writes it, or (for a peer that is not one, e.g. a test client or a Unix
socket) its text up to `MOST` characters, else a digest of it.
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

#: The longest address kept as it is (an IPv6 address with a zone is at most ~45).
MOST = 64


@functools.lru_cache(maxsize=8)
def parse_proxies(text: str | None) -> tuple[Network, ...]:
    """`VERTEX_TRUSTED_PROXIES`: comma-separated addresses or networks (ValueError names a bad
    one)."""
    out = []
    for part in (text or "").split(","):
        part = part.strip()
        if not part:
            continue
        try:
            out.append(ipaddress.ip_network(part, strict=False))
        except ValueError:
            raise ValueError(
                f"VERTEX_TRUSTED_PROXIES: {part!r} is not an address or network"
            ) from None
    return tuple(out)


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def _bounded(text: str) -> str:
    if len(text) <= MOST:
        return text
    return "h:" + hashlib.blake2b(text.encode(errors="replace"), digest_size=16).hexdigest()


def _trusted(ip: ipaddress.IPv4Address | ipaddress.IPv6Address, proxies: Sequence[Network]) -> bool:
    return any(ip in net for net in proxies)


def client_address(peer: str | None, forwarded: Iterable[str], proxies: Sequence[Network]) -> str:
    """The client's address from the TCP peer and the `X-Forwarded-For` values (in order)."""
    if peer is None:
        return "unknown"
    here = _ip(peer)
    if here is None:
        return _bounded(peer)
    if not proxies or not _trusted(here, proxies):
        return str(here)
    hops = [h for value in forwarded for h in value.split(",")]
    for hop in reversed(hops):
        ip = _ip(hop)
        if ip is None:
            break  # a hop we cannot read: the nearest trusted proxy is as far as we know
        here = ip
        if not _trusted(ip, proxies):
            break
    return str(here)


def address_of(scope: Mapping[str, Any], trusted: str | None) -> str:
    """The address of an ASGI request or socket (its `scope`); `trusted`: the setting."""
    proxies = parse_proxies(trusted)
    client = scope.get("client")
    peer = str(client[0]) if client else None
    forwarded = [
        value.decode("latin-1")
        for name, value in scope.get("headers", ())
        if name == b"x-forwarded-for"
    ]
    return client_address(peer, forwarded, proxies)

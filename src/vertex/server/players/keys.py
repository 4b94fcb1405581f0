"""Player keys: 256 random bits, kept only as their sha256; compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets

#: The longest key read from a request (ours are 43 characters).
LONGEST = 128


def new_key() -> str:
    return secrets.token_urlsafe(32)


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def same(a: str | None, b: str | None) -> bool:
    """Two hashes equal, in time that does not depend on where they differ."""
    return a is not None and b is not None and hmac.compare_digest(a.encode(), b.encode())


def bearer(header: str | None) -> str | None:
    """The key of an `Authorization: Bearer KEY` header; "" for a header that is not one
    (a wrong key, as far as the limits go); None without the header."""
    if header is None:
        return None
    scheme, _, key = header.strip().partition(" ")
    key = key.strip()
    if scheme.lower() != "bearer" or not key or len(key) > LONGEST:
        return ""
    return key

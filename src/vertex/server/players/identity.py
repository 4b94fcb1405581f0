"""Who a request is: claiming a name, proving a key, replacing and forgetting it.

A wrong key is a 401 `bad-key` that changes nothing and counts against the address; past
`Limits.key_failures_per_hour` failures no key is even looked up from that address for the
hour (429 `too-many-key-attempts`), so guessing stops. Claims count against
`Limits.names_per_hour`. Both across processes (site/allowances.py).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass

from vertex.server.errors import ApiError
from vertex.server.players.keys import bearer, key_hash, new_key
from vertex.server.players.names import check_name
from vertex.server.site.allowances import Allowances
from vertex.server.storage.store import Store


@dataclass(frozen=True)
class Me:
    """The player a request proved to be (the key's hash, never the key)."""

    id: str
    name: str
    since: float
    key_hash: str


def no_key() -> ApiError:
    return ApiError("no-key", "this needs a player key (Authorization: Bearer KEY)", 401)


def bad_key() -> ApiError:
    return ApiError("bad-key", "that player key is not (or no longer) valid", 401)


class Identity:
    def __init__(self, store: Store, allowances: Allowances) -> None:
        self.store = store
        self.allowances = allowances

    async def claim(self, raw: str, address: str) -> tuple[str, str]:
        """A new player named `raw`: (its name, its key). 422 `bad-name`, 409
        `name-taken` (that name, or one that looks like it), 429 `too-many-names`."""
        name = check_name(raw)  # a bad name costs no claim
        await self.allowances.claim(address)
        key = new_key()
        pid = secrets.token_hex(12)
        made = await self.store.players.create(
            pid, name.shown, name.key, name.skeleton, key_hash(key), time.time()
        )
        if not made:
            raise ApiError("name-taken", f"the name {name.shown!r} (or one like it) is taken", 409)
        return name.shown, key

    async def me(self, authorization: str | None, address: str) -> Me | None:
        """The player whose key the header carries; None without a header; 401 `bad-key`
        for a wrong one; 429 after too many wrong ones."""
        key = bearer(authorization)
        if key is None:
            return None
        await self.allowances.key_attempts_left(address)
        h = key_hash(key)
        # looked up by its hash's unique index: what a lookup's time could tell is about
        # a sha256, not the key
        row = await self.store.players.by_key_hash(h) if key else None
        if row is None:
            await self.allowances.key_failed(address)
            raise bad_key()
        return Me(row.id, row.name, row.since, h)

    async def required(self, authorization: str | None, address: str) -> Me:
        me = await self.me(authorization, address)
        if me is None:
            raise no_key()
        return me

    async def by_key(self, key: str, address: str) -> Me:
        """A key from a socket's first frame (the same checks and limits)."""
        return await self.required("Bearer " + key, address)

    async def replace_key(self, me: Me) -> str:
        key = new_key()
        if not await self.store.players.replace_key(me.id, me.key_hash, key_hash(key)):
            raise bad_key()  # replaced or forgotten meanwhile
        return key

    async def forget(self, me: Me) -> None:
        if not await self.store.players.forget(me.id, me.key_hash, time.time()):
            raise bad_key()

"""The hub's parts, made by one of two factories: one process, or PostgreSQL + Redis.

The hub is given a `Parts` and wires it; it never asks which kind it got. Each part says
what differs where that matters to others (`Parts.shared`: other processes write the same
tables; `Parts.bus_name` for /healthz).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from vertex.server.settings import Settings
from vertex.server.site.bus import LocalBus, RedisBus
from vertex.server.site.leases import LocalLeases, RedisLeases
from vertex.server.site.presence import LocalPresence, RedisPresence
from vertex.server.site.quotas import LocalQuotas, RedisQuotas
from vertex.server.storage.store import Store


@dataclass(frozen=True)
class Parts:
    store: Store
    bus: LocalBus | RedisBus
    leases: LocalLeases | RedisLeases
    presence: LocalPresence | RedisPresence
    quotas: LocalQuotas | RedisQuotas
    worker: str  # this process's name among the site's
    #: Other processes share the tables: a refusal may only mean our copy lags the log,
    #: presence needs a heartbeat, aims are told over the bus.
    shared: bool
    bus_name: str


def one_process(settings: Settings) -> Parts:
    """Everything in this process: the store (SQLite or any database), in-process bus,
    leases, presence and limits."""
    return Parts(
        Store(settings.database_url, settings.durable),
        LocalBus(),
        LocalLeases(),
        LocalPresence(),
        LocalQuotas(),
        secrets.token_hex(6),
        shared=False,
        bus_name="local",
    )


def shared_site(settings: Settings, redis_url: str) -> Parts:
    """One of several processes of one site: the store in PostgreSQL, the rest in Redis."""
    worker = secrets.token_hex(6)
    site = settings.site  # every Redis name of the site starts with it
    return Parts(
        Store(settings.database_url, settings.durable),
        RedisBus(redis_url, worker, site),
        RedisLeases(redis_url, worker, settings.lease_s, site),
        RedisPresence(redis_url, worker, settings.presence_s, site),
        RedisQuotas(redis_url, site),
        worker,
        shared=True,
        bus_name="redis",
    )


def parts_for(settings: Settings) -> Parts:
    """The parts the settings ask for (VERTEX_REDIS_URL set: a shared site)."""
    if settings.redis_url is not None:
        return shared_site(settings, settings.redis_url)
    return one_process(settings)

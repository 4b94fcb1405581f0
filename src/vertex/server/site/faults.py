"""Outages of what the server depends on (Redis, the database), as clients hear them."""

from __future__ import annotations

from vertex.server.errors import ApiError


def unavailable(exc: BaseException) -> ApiError | None:
    """The error to answer with when `exc` means Redis or the database is unreachable now
    (a 503 the client may retry), or None for any other failure."""
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError
    from sqlalchemy.exc import DBAPIError, OperationalError

    outage: tuple[type[BaseException], ...] = (
        RedisConnectionError,
        RedisTimeoutError,
        OperationalError,
        TimeoutError,
        ConnectionError,
    )
    if isinstance(exc, outage) or (isinstance(exc, DBAPIError) and exc.connection_invalidated):
        return ApiError(
            "unavailable", "the server cannot reach its storage just now; try again shortly", 503
        )
    return None

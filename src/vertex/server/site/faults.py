"""Outages of what the server depends on (Redis, the database), as clients hear them."""

from __future__ import annotations

import json
import logging

from vertex.server.errors import ApiError
from vertex.server.metrics import OUTAGES


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


def log_failure(logger: logging.Logger, exc: BaseException, msg: str, *args: object) -> None:
    """Log a failure of a background round or a request: one JSON line, no traceback, when it
    is an outage of Redis or the database (expected, said by `/healthz`, and hundreds of
    tracebacks would bury everything else); the traceback for anything else."""
    if unavailable(exc) is None:
        logger.error(msg, *args, exc_info=exc)
        return
    OUTAGES.inc()
    why = f"{type(exc).__name__}: {str(exc)[:200]}"
    logger.warning(json.dumps({"event": "outage", "what": msg % args, "why": why}))

"""`vertex serve`: the server on one address, with SQLite unless told otherwise."""

from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import sys

from vertex.server.settings import DEFAULT_DATABASE
from vertex.server.storage.schema import shown_url

HELP = "serve the Vertex site and API (http://127.0.0.1:8000 by default)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument(
        "--database",
        default=os.environ.get("VERTEX_DATABASE_URL") or DEFAULT_DATABASE,
        help="SQLAlchemy URL of the store (default: $VERTEX_DATABASE_URL or %(default)s)",
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="worker processes (needs PostgreSQL and Redis)"
    )
    parser.add_argument(
        "--durable",
        action="store_true",
        help="SQLite: sync every commit to disk, so a power cut loses none (slower writes)",
    )
    parser.add_argument(
        "--metrics-port",
        type=int,
        default=None,
        metavar="P",
        help="serve Prometheus metrics on http://127.0.0.1:P/metrics (never on --port; "
        "one process: not with --workers > 1)",
    )


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from vertex.server import logs, metrics
    from vertex.server.api.timeouts import TimedH11Protocol
    from vertex.server.settings import Settings

    logs.setup()
    settings = Settings.from_env(args.database)
    problem = _metrics_problem(args)
    if problem is not None:
        print(f"vertex serve: {problem}", file=sys.stderr)
        return 2
    if args.workers > 1 and (settings.database_url.startswith("sqlite") or not settings.redis_url):
        print(
            "vertex serve: several workers need a PostgreSQL --database and VERTEX_REDIS_URL",
            file=sys.stderr,
        )
        return 2
    refused = schema_refusal(settings.database_url)
    if refused:
        print(f"vertex serve: {refused}", file=sys.stderr)
        return 1
    # The factory reads the database from the environment in each worker process.
    os.environ["VERTEX_DATABASE_URL"] = settings.database_url
    if args.durable:
        os.environ["VERTEX_DURABLE"] = "1"
    if args.metrics_port is not None:
        try:
            metrics.serve(args.metrics_port)
        except OSError as exc:
            print(f"vertex serve: --metrics-port {args.metrics_port}: {exc}", file=sys.stderr)
            return 2
    where = {"url": f"http://{args.host}:{args.port}", "store": shown_url(settings.database_url)}
    if args.metrics_port is not None:
        where["metrics"] = f"http://127.0.0.1:{args.metrics_port}/metrics"
    if sys.stdout.isatty():  # someone at a terminal; the log (stderr) is JSON lines only
        print(f"Vertex on {where['url']} (store: {where['store']})")
    logging.getLogger("vertex.server").info(json.dumps({"event": "listening", **where}))
    uvicorn.run(
        "vertex.server.cli:app_factory",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        # h11 with a deadline for each request's head (uvicorn has none: a half-sent head
        # would hold its connection for good).
        http=TimedH11Protocol,
        ws_max_size=1 << 20,
        # Table messages are small; compressing each one costs more CPU than it saves.
        ws_per_message_deflate=False,
        # The client's address is ours to read (site/addresses.py, VERTEX_TRUSTED_PROXIES):
        # uvicorn would take X-Forwarded-For from any local peer as the truth.
        proxy_headers=False,
        log_level="warning",
        # uvicorn's own lines go through the root logger: JSON lines like ours (logs.py)
        log_config=None,
    )
    return 0


def schema_refusal(url: str) -> str | None:
    """Why the server cannot start on this database (its schema needs `vertex db upgrade`,
    or it cannot be opened), or None: it is current, or was empty and now is."""
    from sqlalchemy.exc import SQLAlchemyError

    from vertex.server.storage.schema import make_engine
    from vertex.server.storage.upgrades import SchemaError, failure, prepare

    try:
        engine = make_engine(url)
    except Exception as exc:  # not a database URL SQLAlchemy can use
        return f"--database {url!r} is not a database URL: {exc}"
    try:
        prepare(engine, url)
    except SchemaError as exc:
        return str(exc)
    except SQLAlchemyError as exc:
        return failure(url, exc)
    finally:
        engine.dispose()
    return None


def app_factory() -> object:
    from vertex.server import logs
    from vertex.server.app import create_app

    logs.setup()
    # The store's thread hands the GIL back and forth with the event loop for every commit;
    # the default 5 ms switch interval turns each hand-over into a wait under load.
    sys.setswitchinterval(0.0005)
    # A server process keeps thousands of long-lived objects (sockets, tables): full passes of
    # the cyclic collector over them stalled every table for 130-190 ms under load
    # (bench/bench_load.py). Collect the young often and the old rarely; what is loaded by
    # now lives as long as the process.
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    return create_app()


def _metrics_problem(args: argparse.Namespace) -> str | None:
    """Why --metrics-port cannot be served as asked, or None. Several uvicorn workers would
    each count alone behind one port (a scrape would see one at random): run one process a
    port instead (deploy/: vertex@PORT), each with its own metrics port."""
    port = args.metrics_port
    if port is None:
        return None
    if not 0 < port < 65536:
        return f"--metrics-port {port}: not a port (1-65535)"
    if port == args.port:
        return "--metrics-port must differ from --port (metrics are never public)"
    if args.workers > 1:
        return (
            "--metrics-port serves one process's metrics: run one `vertex serve` per port "
            "(each with its own --metrics-port) instead of --workers"
        )
    return None

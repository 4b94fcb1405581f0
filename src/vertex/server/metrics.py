"""What a process counts for Prometheus (`vertex serve --metrics-port P`, cli.py).

Counters and histograms bumped where the events are already logged (the repository's
event path, sockets, leases, the computer and analysis pools, upkeep), and gauges read at
scrape time from the parts of the running process (`watch`). Labels come only from small
fixed sets (an event kind, a game id, a pool's name, a status class): never a table, an
address or anything else without bound. Each bump costs about a microsecond.

Served from a thread on 127.0.0.1 only (`serve`), never on the public port.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from prometheus_client import (
    REGISTRY,
    Counter,
    Gauge,
    Histogram,
    disable_created_metrics,
    start_http_server,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

# (a `_created` series a counter doubles the scrape for nothing a dashboard reads)
disable_created_metrics()  # type: ignore[no-untyped-call]

#: Latencies of a move's commit, a computer's think and an analysis: milliseconds to seconds.
_FAST = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
_SLOW = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0)

EVENTS = Counter("vertex_events", "Events this process stored at its tables, by kind", ["kind"])
MOVES = Counter("vertex_moves", "Moves this process stored, by game", ["game"])
COMMIT_SECONDS = Histogram(
    "vertex_event_commit_seconds", "From a command's check to its event stored", buckets=_FAST
)
SOCKETS_OPENED = Counter("vertex_sockets_opened", "Table sockets attached on this process")
SOCKETS_CLOSED = Counter("vertex_sockets_closed", "Table sockets detached on this process")
TAKEOVERS = Counter(
    "vertex_lease_takeovers", "Tables this process took over from an owner that let them lapse"
)
QUEUE_WAITING = Gauge(
    "vertex_queue_waiting", "Turns waiting for a worker, by pool (computer, analysis)", ["pool"]
)
QUEUE_WAIT_SECONDS = Histogram(
    "vertex_queue_wait_seconds", "Wait for a worker's turn, by pool", ["pool"], buckets=_SLOW
)
THINKS = Counter(
    "vertex_computer_thinks",
    "Computer seats' moves this process started thinking about (the table's owner only)",
    ["game"],
)
THINK_SECONDS = Histogram(
    "vertex_computer_think_seconds",
    "A computer seat's move, asked to answered",
    ["game"],
    buckets=_SLOW,
)
THINK_BUDGET_SECONDS = Histogram(
    "vertex_computer_think_budget_seconds",
    "A computer seat's budget when its think started (less than the set one: a queue, or a "
    "clock nearly out)",
    ["game"],
    buckets=_FAST,
)
WORKERS_REPLACED = Counter(
    "vertex_workers_replaced",
    "Worker processes found dead (killed for their memory, say) or stuck, and replaced, by "
    "pool (computer, analysis)",
    ["pool"],
)
ANALYSIS_SECONDS = Histogram(
    "vertex_analysis_seconds", "An analysis, asked to answered", ["game"], buckets=_SLOW
)
ANALYSES = Counter(
    "vertex_analyses", "Analyses by outcome (done, cached, busy, timeout, cancelled)", ["outcome"]
)
REVIEWS = Counter(
    "vertex_reviews",
    "Reviews asked for, by outcome: computed (this process claimed it and computes it), "
    "joined (another one does), stored (done already), failed",
    ["outcome"],
)
OUTAGES = Counter("vertex_outages", "Rounds or requests failed for want of Redis or the database")
HTTP = Counter("vertex_http_requests", "HTTP requests answered, by status class", ["status"])

#: What `watch` reads at scrape time: name -> (help, value).
Source = Callable[[], dict[str, tuple[str, float]]]


class _Live(Collector):
    """Gauges of the running process (tables held, sockets, Redis and database up), read
    from its parts when scraped, so nothing has to keep them in step."""

    def __init__(self) -> None:
        self.source: Source | None = None

    def collect(self) -> Iterator[GaugeMetricFamily]:
        source = self.source
        if source is None:
            return
        for name, (text, value) in source().items():
            yield GaugeMetricFamily(name, text, value=value)


_LIVE = _Live()
REGISTRY.register(_LIVE)


def watch(source: Source | None) -> None:
    """The running process's gauges come from `source` (None: none, at its stop)."""
    _LIVE.source = source


def serve(port: int) -> None:
    """Serve the metrics on 127.0.0.1:`port` from a thread (OSError: the port is taken)."""
    start_http_server(port, addr="127.0.0.1")

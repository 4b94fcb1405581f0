"""Server settings: storage, limits and timings, from arguments and the environment."""

from __future__ import annotations

import ipaddress
import os
import re
from dataclasses import dataclass, field

DEFAULT_DATABASE = "sqlite:///vertex.db"
_SITE = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")


def check_site(site: str) -> str:
    """A site prefix for Redis names: short, and nothing that could be read as a separator."""
    if not _SITE.match(site):
        raise ValueError("VERTEX_SITE: 1-40 letters, digits, '.', '_' or '-'")
    return site


_PUBLIC_URL = re.compile(r"^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?(/[A-Za-z0-9._~/-]*)?$")


def check_public_url(url: str) -> str:
    """The site's public address, without a trailing slash: http(s), a host, maybe a port
    and a path — nothing a link could be bent with."""
    if len(url) > 200 or not _PUBLIC_URL.match(url):
        raise ValueError("VERTEX_PUBLIC_URL: an address like https://vertex.example")
    return url.rstrip("/")


def machine_workers() -> int:
    """Workers for a pool sized to the machine: one per core the process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # not Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True)
class Limits:
    """What the server refuses. Every refusal is a clear error and changes nothing."""

    body_bytes: int = 16_384  # HTTP request bodies
    message_bytes: int = 4_096  # one socket message
    messages_per_second: float = 20.0  # per socket, sustained
    message_burst: int = 40  # per socket, short bursts
    # ... and the same again per seat: its commands over all its sockets, HTTP and processes
    #: Chat lines of one seat (each is a permanent log row shown to everyone).
    chat_per_minute: float = 20.0
    chat_burst: int = 5
    #: Spectators' chat lines (spectators.py): per client address, over all its sockets and
    #: processes, and per table from everyone watching it.
    spectator_chat_per_minute: float = 6.0
    spectator_chat_burst: int = 3
    table_spectator_chat_per_minute: float = 40.0
    table_spectator_chat_burst: int = 10
    #: Sockets (table and lobby) one client address may hold open on one process
    #: (live/slots.py). `VERTEX_SOCKETS_PER_ADDRESS`.
    sockets_per_address: int = 64
    #: What may wait to be sent to one table socket (conn.py): past it, resync and let go.
    send_buffer_bytes: int = 4 << 20
    tables_per_hour: int = 100  # created per client address
    #: Puzzle moves judged by the solver (attempts and solution steps) per client address, a
    #: minute, over all processes: a person moves a few times a minute.
    puzzle_moves_per_minute: float = 120.0
    puzzle_moves_burst: int = 30
    chat_chars: int = 500
    name_chars: int = 40
    #: Listed tables still waiting for players, per client address (across processes).
    listed_per_address: int = 5
    #: Player names claimed an hour, and failed player-key attempts an hour, per client
    #: address across processes (players/identity.py).
    names_per_hour: int = 5
    key_failures_per_hour: int = 20
    #: Unfinished tables with no event for this long expire (their log is kept).
    idle_expiry_s: float = 24 * 3600.0


@dataclass(frozen=True)
class Settings:
    database_url: str = DEFAULT_DATABASE
    #: SQLite: sync every commit to disk (synchronous=FULL), so a power cut loses none;
    #: NORMAL otherwise (README, "Backups and upgrades"). `vertex serve --durable`,
    #: `VERTEX_DURABLE=1`.
    durable: bool = False
    #: Redis for the cross-worker event bus; None runs everything in one process.
    redis_url: str | None = None
    limits: Limits = field(default_factory=Limits)
    #: Thinking time given to a computer seat per move (levels 1-4) ...
    ai_budget_s: float = 0.5
    #: ... and to level 5 (None: twice `ai_budget_s`). The strongest level was measured at
    #: 1 s a move (bench/bench_middle_game.py: 29 of 31 5×5 middle-game positions kept the
    #: value, 25 at 0.5 s). Both shrink with the queue and the clock (ai_runner.think_budget).
    ai_level5_budget_s: float | None = None
    #: "process" runs computer players in a worker process (keeps the server responsive while
    #: they think); "thread" is lighter and is what in-process tests use.
    ai_executor: str = "process"
    #: Workers thinking for computer seats in each process (0: one per core), and at most
    #: how many of them the tables of one address hold at once (0: half, at least one) —
    #: the rest serve other addresses, in turn (fair.py).
    ai_workers: int = 0
    ai_per_address: int = 0
    #: Level 5 of the Dots family thinks on the other side's time in its worker process, at
    #: the kernel's idle priority, until the worker's next think (`vertex.ai.ponder`);
    #: `VERTEX_AI_PONDER=0` switches it off. Worker processes only ("thread": never).
    ai_ponder: bool = True
    #: How often idle tables are looked for.
    sweep_interval_s: float = 60.0
    #: Tables with no event for this long and no socket here leave memory (they reload on
    #: demand); the ones with computer seats or a clock running give up their lease too and
    #: are taken up again when touched, or shortly before their next clock deadline.
    #: `VERTEX_UNLOAD_AFTER_S`, `VERTEX_SWEEP_INTERVAL_S` (short ones for tests).
    unload_after_s: float = 300.0
    #: The same for slow tables (days a move), which leave memory soon after their last
    #: socket: their next deadline is in the store, where each process's sweep finds it
    #: when it comes (upkeep.py). `VERTEX_SLOW_UNLOAD_AFTER_S`.
    slow_unload_after_s: float = 60.0
    #: Analysis (perfect play, server/pages/analysis.py): seconds one analysis may take in all (the
    #: exact solver most of it, the level-5 estimate the rest), and how many one client
    #: address may ask for: `analysis_per_minute` on average, bursts of `analysis_burst`.
    analysis_time_s: float = 3.0
    #: ... and on boards of up to `analysis_exact_lines` lines (4×4 Dots and Boxes has 40),
    #: which the solver settles exactly from the eighth line on within this time, the
    #: larger of this and `analysis_time_s` (tests set 0: the same limit everywhere).
    analysis_exact_time_s: float = 10.0
    analysis_exact_lines: int = 40
    analysis_per_minute: float = 20.0
    analysis_burst: int = 6
    #: Analysis workers in each process (0: one per core); one address has one analysis
    #: running at a time and `analysis_waiting` more waiting, in turn with the others.
    analysis_workers: int = 0
    analysis_waiting: int = 1
    #: Review of a whole game (server/pages/review.py): the Dots family's solver may spend
    #: `review_position_s` on one position, `review_total_s` on the review's exact part in
    #: all; past them the positions left get the level-5 player's move in
    #: `review_estimate_s` (an estimate). Juxtapose's exact search gets `review_depth_s` a
    #: position. A claim whose process stopped beating for `review_stale_s` is taken over.
    review_position_s: float = 20.0
    review_total_s: float = 120.0
    review_estimate_s: float = 0.4
    review_depth_s: float = 1.0
    review_stale_s: float = 30.0
    #: A seat whose player left (no socket open anywhere) may be handed to the computer by
    #: another player only after this long (a page reload is not leaving).
    #: `VERTEX_HAND_OVER_GRACE_S`.
    hand_over_grace_s: float = 60.0
    #: Several processes (redis_url set): a table's owner renews its lease (leases.py) every
    #: third of `lease_s`; a dead owner's tables are taken over within about `lease_s` + a
    #: third. Presence (presence.py) of a dead process expires after `presence_s`.
    lease_s: float = 3.0
    presence_s: float = 3.0
    #: Several processes: the prefix of every Redis key and channel of this site, so two
    #: sites can share one Redis (pub/sub ignores the db number). `VERTEX_SITE`.
    site: str = "vertex"
    #: Several processes: how often each one checks the tables it holds against the log (an
    #: event lost on the bus is caught up within this), besides after every (re)subscribe.
    reconcile_s: float = 2.0
    #: Seconds a client has to send a request's head (line and headers), and then its body;
    #: a connection slower than that is closed (server/api/timeouts.py, api/guards.py).
    #: `VERTEX_HEAD_TIMEOUT_S`, `VERTEX_BODY_TIMEOUT_S`.
    head_timeout_s: float = 10.0
    body_timeout_s: float = 10.0
    #: The site's address as players reach it (`https://vertex.example`), for the links a
    #: QR code carries. None (the local default) uses the address each request came to —
    #: fine on one's own machine, but behind a proxy or on a public site set it, or a forged
    #: `Host` header puts another site's address in the code. `VERTEX_PUBLIC_URL`.
    public_url: str | None = None
    #: The site's own proxies (addresses or networks): only a request whose peer is one of
    #: them has its client address read from `X-Forwarded-For` (site/addresses.py). None by
    #: default. `VERTEX_TRUSTED_PROXIES`, e.g. `127.0.0.1` behind a local nginx.
    trusted_proxies: str | None = None

    def think_budget(self, level: int) -> float:
        """A computer seat's budget a move at `level`, before the queue and its clock."""
        if level >= 5:
            return self.ai_level5_budget_s or 2 * self.ai_budget_s
        return self.ai_budget_s

    def thinkers(self) -> tuple[int, int]:
        """(workers, per address) for the computer seats' pool, sized to the machine."""
        workers = self.ai_workers or machine_workers()
        return workers, self.ai_per_address or max(1, workers // 2)

    def analysts(self) -> int:
        return self.analysis_workers or machine_workers()

    @classmethod
    def from_env(cls, database_url: str | None = None, **overrides: object) -> Settings:
        url = database_url or os.environ.get("VERTEX_DATABASE_URL") or DEFAULT_DATABASE
        redis_url = os.environ.get("VERTEX_REDIS_URL") or None
        # A few limits can be set from the environment (a load test needs many tables).
        tuning: dict[str, float] = {}
        for name, var in (
            ("idle_expiry_s", "VERTEX_IDLE_EXPIRY_S"),
            ("tables_per_hour", "VERTEX_TABLES_PER_HOUR"),
            ("messages_per_second", "VERTEX_MESSAGES_PER_SECOND"),
            ("listed_per_address", "VERTEX_LISTED_PER_ADDRESS"),
            ("send_buffer_bytes", "VERTEX_SEND_BUFFER_BYTES"),
            ("sockets_per_address", "VERTEX_SOCKETS_PER_ADDRESS"),
        ):
            if os.environ.get(var):
                tuning[name] = float(os.environ[var])
        wholes = (
            "tables_per_hour",
            "listed_per_address",
            "send_buffer_bytes",
            "sockets_per_address",
        )
        for whole in wholes:
            if whole in tuning:
                tuning[whole] = int(tuning[whole])
        limits = Limits(**tuning)  # type: ignore[arg-type]
        values: dict[str, object] = {
            "database_url": url,
            "redis_url": redis_url,
            "limits": limits,
        }
        for name, var in (
            ("head_timeout_s", "VERTEX_HEAD_TIMEOUT_S"),
            ("body_timeout_s", "VERTEX_BODY_TIMEOUT_S"),
            ("hand_over_grace_s", "VERTEX_HAND_OVER_GRACE_S"),
            ("unload_after_s", "VERTEX_UNLOAD_AFTER_S"),
            ("slow_unload_after_s", "VERTEX_SLOW_UNLOAD_AFTER_S"),
            ("sweep_interval_s", "VERTEX_SWEEP_INTERVAL_S"),
            ("analysis_time_s", "VERTEX_ANALYSIS_TIME_S"),
            ("analysis_exact_time_s", "VERTEX_ANALYSIS_EXACT_TIME_S"),
            ("ai_budget_s", "VERTEX_AI_BUDGET_S"),
            ("ai_level5_budget_s", "VERTEX_AI_LEVEL5_BUDGET_S"),
        ):
            if os.environ.get(var):
                seconds = float(os.environ[var])
                if name.startswith("ai_") and not 0 < seconds <= 60:
                    raise ValueError(f"{var}: seconds a move, more than 0 and at most 60")
                values[name] = seconds
        for name, var in (
            ("ai_workers", "VERTEX_AI_WORKERS"),
            ("analysis_workers", "VERTEX_ANALYSIS_WORKERS"),
            ("analysis_exact_lines", "VERTEX_ANALYSIS_EXACT_LINES"),
        ):
            if os.environ.get(var):
                values[name] = int(os.environ[var])
        public_url = os.environ.get("VERTEX_PUBLIC_URL")
        if public_url:
            values["public_url"] = check_public_url(public_url)
        proxies = os.environ.get("VERTEX_TRUSTED_PROXIES")
        if proxies:
            for part in filter(None, (p.strip() for p in proxies.split(","))):
                ipaddress.ip_network(part, strict=False)  # ValueError: say so at the start
            values["trusted_proxies"] = proxies
        if os.environ.get("VERTEX_DURABLE", "") not in ("", "0"):
            values["durable"] = True
        if os.environ.get("VERTEX_AI_PONDER", "").strip() == "0":
            values["ai_ponder"] = False
        site = os.environ.get("VERTEX_SITE")
        if site:
            values["site"] = check_site(site)
        values.update(overrides)
        return cls(**values)  # type: ignore[arg-type]

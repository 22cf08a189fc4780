"""Several ``bgtd serve`` processes on one PostgreSQL store, next to one process on SQLite.

Each configuration gets a fresh store: SQLite in a temporary data directory, PostgreSQL in a
scratch database ``bgtd_bench_<random>`` created for the run and dropped after it. Every
process is a real ``bgtd serve`` (its own port, its own data directory for its views, the
shared secret and director token from the environment, as in production). ``CLIENTS`` tables
play entered-dice matches (the client throws its own dice and enters them, as at a club's
boards; then a random legal play), dealt over the processes in turn, each on one keep-alive
connection. After a short warm-up (each process fills its caches), the figures are accepted
plays per second and the latency of the play requests (p50, p99), and the CPU time each
command cost the servers, PostgreSQL's backends and the load generator (Linux: from
``/proc``). Plays per second follow how fast the shared machine is at the moment; the CPU
per command of the servers measured against the load generator's (the same work in every
run) compares two runs taken at different moments.

Environment: ``BENCH_PG_URL`` (the server to create scratch databases on; default
``postgresql://postgres@127.0.0.1:5432/postgres``), ``BENCH_PG_CLIENTS`` (12),
``BENCH_PG_SECONDS`` (10 per configuration), ``BENCH_PG_WORKERS`` (``1,2``: the PostgreSQL
configurations, by number of processes).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import time
import uuid
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from bench.matches import _load
from bench.server import cpu_seconds, running_service
from service.settings import DEV_DIRECTOR_TOKEN

SERVER_URL = os.environ.get("BENCH_PG_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
CLIENTS = int(os.environ.get("BENCH_PG_CLIENTS", "12"))
SECONDS = float(os.environ.get("BENCH_PG_SECONDS", "10"))
WORKERS = [int(n) for n in os.environ.get("BENCH_PG_WORKERS", "1,2").split(",") if n.strip()]
WARM_UP_SECONDS = 2.0
TARGET_TWO_WORKERS_PLAYS_PER_SECOND = 600
TARGET_P99_MS = 50.0
SECRET = "bench-secret-key-shared-by-every-process"


@dataclass(frozen=True)
class Figures:
    """One configuration's result (``plays_per_second`` None: it could not run)."""

    label: str
    plays_per_second: float | None = None
    p50_ms: float = 0.0
    p99_ms: float = 0.0
    rejected: int = 0
    note: str = ""
    load: float = 0.0
    """The machine's load average (1 minute) when the measurement began."""
    cpu: CommandCpu | None = None

    def row(self) -> str:
        if self.plays_per_second is None:
            return f"{self.label:<28} {self.note}"
        return (
            f"{self.label:<28} {self.plays_per_second:>8,.0f} plays/s   "
            f"p50 {self.p50_ms:5.1f} ms   p99 {self.p99_ms:5.1f} ms   (load {self.load:.1f})"
            + (f"\n{'':<30}{self.cpu}" if self.cpu else "")
        )


@dataclass(frozen=True)
class CommandCpu:
    """CPU milliseconds per command (a roll or a play), by whom."""

    servers: float
    postgres: float
    client: float

    def __str__(self) -> str:
        return (
            f"CPU per command: servers {self.servers:.2f} ms, PostgreSQL {self.postgres:.2f} ms, "
            f"load generator {self.client:.2f} ms (servers / load generator "
            f"{self.servers / self.client:.1f})"
        )


def pids_of(*pgrep_arguments: str) -> list[str]:
    """The processes ``pgrep`` finds (none where there is no ``pgrep``)."""
    try:
        found = subprocess.run(["pgrep", *pgrep_arguments], capture_output=True, text=True)
    except OSError:
        return []
    return found.stdout.split()


def postgres_answers(url: str = SERVER_URL) -> bool:
    try:
        import psycopg

        with psycopg.connect(url, connect_timeout=2):
            return True
    except Exception:
        return False


@contextmanager
def scratch_database(server_url: str = SERVER_URL) -> Iterator[str]:
    """A new database ``bgtd_bench_<random>`` on the server; dropped afterwards."""
    import psycopg

    name = "bgtd_bench_" + uuid.uuid4().hex[:12]
    with psycopg.connect(server_url, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}")
    parts = urlsplit(server_url)
    try:
        yield urlunsplit((parts.scheme, parts.netloc, "/" + name, "", ""))
    finally:
        with psycopg.connect(server_url, autocommit=True) as connection:
            connection.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@contextmanager
def serve(database_url: str | None = None) -> Iterator[str]:
    """One ``bgtd serve`` process (its own port and data directory); yields its base URL.

    Every process of a store shares its secret and director token."""
    arguments = ["--database-url", database_url] if database_url else []
    shared = {"BGTD_SECRET_KEY": SECRET, "BGTD_DIRECTOR_TOKEN": DEV_DIRECTOR_TOKEN}
    with running_service(*arguments, dev=False, environment=shared) as base_url:
        yield base_url


def measure(label: str, database_url: str | None, workers: int) -> Figures:
    """``workers`` processes on one store, ``CLIENTS`` tables dealt over them."""
    load = os.getloadavg()[0]
    with ExitStack() as stack:
        # one after the other: the first creates the tables
        servers = [stack.enter_context(serve(database_url)) for _ in range(workers)]
        _load(servers, clients=CLIENTS, seconds=WARM_UP_SECONDS, dice="entered")
        ports = [urlsplit(server).port for server in servers]
        server_pids = [pid for port in ports for pid in pids_of("-f", f"serve --port {port} ")]
        local = urlsplit(database_url or "").hostname in {"127.0.0.1", "localhost", "::1"}
        postgres_pids = pids_of("-u", "postgres") if local else []
        before = cpu_seconds(server_pids), cpu_seconds(postgres_pids), time.process_time()
        tally, elapsed = _load(servers, clients=CLIENTS, seconds=SECONDS, dice="entered")
        after = cpu_seconds(server_pids), cpu_seconds(postgres_pids), time.process_time()
    commands = len(tally.request_latencies)
    spent = [1000 * (end - start) / commands for start, end in zip(before, after, strict=True)]
    quantiles = statistics.quantiles(tally.play_latencies, n=100)
    return Figures(
        label=label,
        plays_per_second=len(tally.play_latencies) / elapsed,
        p50_ms=quantiles[49] * 1000,
        p99_ms=quantiles[98] * 1000,
        rejected=tally.rejected,
        load=load,
        cpu=CommandCpu(*spent) if spent[0] > 0 and spent[2] > 0 else None,
    )


def run() -> list[Figures]:
    """SQLite with one process, then PostgreSQL with each count of ``WORKERS``."""
    figures = [measure("SQLite, 1 process", None, 1)]
    for workers in WORKERS:
        label = f"PostgreSQL, {workers} process{'es' if workers > 1 else ''}"
        if not postgres_answers():
            figures.append(Figures(label, note="skipped (no PostgreSQL)"))
            continue
        with scratch_database() as database_url:
            figures.append(measure(label, database_url, workers))
    print(
        f"processes on one store: {CLIENTS} clients playing entered-dice matches, "
        f"{SECONDS:.0f} s each (load: the 1-minute load average as each began):"
    )
    for each in figures:
        print("  " + each.row() + (f"   ({each.rejected} rejected)" if each.rejected else ""))
    two = next((f for f in figures if f.label.startswith("PostgreSQL, 2")), None)
    if two is not None and two.plays_per_second is not None:
        verdict = (
            "meets"
            if two.plays_per_second >= TARGET_TWO_WORKERS_PLAYS_PER_SECOND
            and two.p99_ms < TARGET_P99_MS
            else "MISSES"
        )
        print(
            f"  two processes on PostgreSQL {verdict} the target of "
            f">= {TARGET_TWO_WORKERS_PLAYS_PER_SECOND} plays/s with p99 < {TARGET_P99_MS:.0f} ms"
        )
    return figures


if __name__ == "__main__":
    run()

"""Match play under load: concurrent matches playing random legal plays over HTTP.

The service runs in a child process (``bgtd serve`` on SQLite); the load generator runs
``CLIENTS`` threads, each with its own keep-alive connection playing its own match with server
dice: roll, then a random play from the ``legal_plays`` of the response, until the time or the
play budget is used up. The client is the standard library's ``http.client`` with msgspec: it
shares the machine's two cores with the server, so the less it spends per request, the more
the figure measures the server. After a short warm-up it prints accepted plays per second,
the latency of the play requests and the server process's CPU time per command (a roll or a
play), next to the bare eventsourcing save rate measured in the same run just before and just
after the load (``bench/bare_save.py``) and the ratio of the two; then the time to load a
300-event match from the event store (cold, from its snapshot, and replayed).
"""

from __future__ import annotations

import http.client
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import msgspec

from bench import bare_save
from bench.server import _wait_until_healthy, cpu_seconds, free_port
from service.settings import DEV_DIRECTOR_TOKEN

CLIENTS = int(os.environ.get("BENCH_MATCH_CLIENTS", "16"))
DURATION_SECONDS = float(os.environ.get("BENCH_MATCH_SECONDS", "10"))
MAX_PLAYS = int(os.environ.get("BENCH_MATCH_MAX_PLAYS", "100000"))
MATCH_LENGTH = 25
TARGET_PLAYS_PER_SECOND = 1_000
TARGET_P99_MS = 50.0
TARGET_LOAD_MS = 5.0
TARGET_RATIO_TO_BARE_SAVE = 0.3
"""Accepted plays per second over bare eventsourcing saves per second (issue 20, item 8)."""
WARM_UP_SECONDS = float(os.environ.get("BENCH_MATCH_WARM_UP_SECONDS", "1"))
DIRECTOR = {"Authorization": f"Bearer {DEV_DIRECTOR_TOKEN}"}
WORKERS = int(os.environ.get("BENCH_MATCH_WORKERS", "1"))
DATABASE_URL = os.environ.get("BENCH_MATCH_DATABASE_URL")
"""``postgresql://user@host:port/db`` plays on PostgreSQL (in a fresh schema); default SQLite."""
SERVER = """
import gc, sys, uvicorn
gc.set_threshold(100_000, 50, 50)  # as ``bgtd serve`` does
uvicorn.run("bench.matches:create_bench_app", factory=True, host="127.0.0.1",
            port=int(sys.argv[1]), workers=int(sys.argv[2]), access_log=False,
            log_level="warning")
"""


def create_bench_app() -> Any:
    """The app of one uvicorn worker: dev settings on the data directory the bench made."""
    from api.app import create_app
    from service.settings import Settings

    settings = Settings(
        data_dir=Path(os.environ["BGTD_BENCH_DATA_DIR"]),
        database_url=os.environ.get("BGTD_BENCH_DATABASE_URL") or None,
        dev=True,
        # bench/live.py's hundreds of listeners all come from 127.0.0.1
        live_streams_per_client=10_000,
        live_streams_total=10_000,
    )
    return create_app(settings)


@contextmanager
def fresh_schema(database_url: str | None) -> Iterator[str]:
    """A new PostgreSQL schema for one run, dropped afterwards ("" for SQLite)."""
    if not database_url:
        yield ""
        return
    import psycopg

    schema = "bgtd_bench_" + uuid.uuid4().hex[:12]
    with psycopg.connect(database_url, autocommit=True) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{database_url}?schema={schema}"
    finally:
        with psycopg.connect(database_url, autocommit=True) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")


@contextmanager
def serving_app() -> Iterator[str]:
    """uvicorn serving ``create_app`` (dev settings, no access log) in a child process, on
    SQLite or on ``BENCH_MATCH_DATABASE_URL``; yields its base URL."""
    with serving_process() as (base_url, _):
        yield base_url


@contextmanager
def serving_process() -> Iterator[tuple[str, int]]:
    """As ``serving_app``; yields the base URL and the server's process id."""
    port = free_port()
    with (
        tempfile.TemporaryDirectory(prefix="bgtd-bench-matches-") as data_dir,
        fresh_schema(DATABASE_URL) as database_url,
    ):
        process = subprocess.Popen(
            [sys.executable, "-c", SERVER, str(port), str(WORKERS)],
            env={
                **os.environ,
                "BGTD_BENCH_DATA_DIR": data_dir,
                "BGTD_BENCH_DATABASE_URL": database_url,
            },
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        base_url = f"http://127.0.0.1:{port}"
        try:
            _wait_until_healthy(base_url)
            yield base_url, process.pid
        finally:
            process.terminate()
            process.wait(timeout=10)


class Tally:
    def __init__(self) -> None:
        self.play_latencies: list[float] = []
        self.request_latencies: list[float] = []
        self.rejected = 0
        self.matches = 0
        self.lock = threading.Lock()


class _Connection:
    """One keep-alive HTTP connection that speaks JSON."""

    def __init__(self, base_url: str) -> None:
        parts = urlsplit(base_url)
        self._http = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)

    def request(
        self, method: str, path: str, body: object = None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        payload = None if body is None else msgspec.json.encode(body)
        headers = {"Content-Type": "application/json", **(headers or {})}
        self._http.request(method, path, body=payload, headers=headers)
        response = self._http.getresponse()
        return response.status, msgspec.json.decode(response.read())

    def close(self) -> None:
        self._http.close()


def _new_match(
    http: _Connection, dice: str = "server"
) -> tuple[str, dict[str, dict[str, str]], Any]:
    status, body = http.request(
        "POST",
        "/api/v1/matches",
        {"player_a": "a", "player_b": "b", "match_length": MATCH_LENGTH, "dice": dice},
        DIRECTOR,
    )
    if status != 201:
        raise RuntimeError(f"creating a match failed: {status} {body}")
    headers = {
        side: {"Authorization": f"Bearer {token}"} for side, token in body["player_tokens"].items()
    }
    return body["id"], headers, body["match"]


def _player(
    base_url: str, seed: int, stop_at: float, budget: int, tally: Tally, dice: str = "server"
) -> None:
    """One table: its own match and connection; rolls (server dice, or the client's own
    random dice entered as at a real board), then a random legal play."""
    rng = random.Random(seed)
    plays: list[float] = []
    requests: list[float] = []
    rejected = matches = 0
    http = _Connection(base_url)
    try:
        match_id, headers, state = _new_match(http, dice)
        matches += 1
        while time.monotonic() < stop_at and len(plays) < budget:
            phase = state["phase"]
            if phase == "match_over":
                match_id, headers, state = _new_match(http, dice)
                matches += 1
                continue
            side = state["turn"] or "a"
            if phase == "move":
                path, body = "plays", {"play": rng.choice(state["legal_plays"])["play"]}
            elif dice == "entered":
                path, body = "rolls", {"dice": [rng.randint(1, 6), rng.randint(1, 6)]}
            else:
                path, body = "rolls", {}
            started = time.perf_counter()
            status, answer = http.request(
                "POST", f"/api/v1/matches/{match_id}/{path}", body, headers[side]
            )
            elapsed = time.perf_counter() - started
            requests.append(elapsed)
            if status != 200:
                rejected += 1
                state = http.request("GET", f"/api/v1/matches/{match_id}")[1]
                continue
            if path == "plays":
                plays.append(elapsed)
            state = answer
    finally:
        http.close()
    with tally.lock:
        tally.play_latencies += plays
        tally.request_latencies += requests
        tally.rejected += rejected
        tally.matches += matches


def _load(
    base_url: str | Sequence[str],
    *,
    clients: int = CLIENTS,
    seconds: float = DURATION_SECONDS,
    dice: str = "server",
) -> tuple[Tally, float]:
    """``clients`` tables playing for ``seconds``; with several base URLs (server processes)
    the tables are dealt over them in turn."""
    servers = [base_url] if isinstance(base_url, str) else list(base_url)
    tally = Tally()
    stop_at = time.monotonic() + seconds
    budget = MAX_PLAYS // clients
    threads = [
        threading.Thread(
            target=_player,
            args=(servers[seed % len(servers)], seed, stop_at, budget, tally, dice),
        )
        for seed in range(clients)
    ]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return tally, time.monotonic() - started


def load_300_event_match() -> dict[str, float]:
    """Milliseconds to load a match of 300+ events: cold from its snapshot, and replayed."""
    from domain import match as rules
    from domain.backgammon.cache import cached_format_play
    from domain.events import fold
    from service.persistence import persistence_environment
    from service.store import EventStore

    with tempfile.TemporaryDirectory(prefix="bgtd-bench-load-") as directory:
        url = f"sqlite:///{Path(directory) / 'events.sqlite3'}"
        store = EventStore(env=persistence_environment(url))
        rng = random.Random(3)

        def at() -> datetime:
            return datetime.now(UTC)

        match_id = uuid.uuid4()
        events = rules.start_match(
            match_id,
            at(),
            player_a="a",
            player_b="b",
            match_length=64,
            dice_mode="entered",
            clock="club",
            token_hash_a="x",
            token_hash_b="y",
        )
        store.append(*events)
        state = fold(rules.evolve, None, events)
        assert state is not None
        while state.version < 300:
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            if state.phase == "move":
                plays = state.plays()
                choice = cached_format_play(rng.choice(plays))
                new = rules.play(state, None, at(), notation=choice)
            else:
                new = rules.roll(state, None, dice, at())
            for event in new:
                state = rules.evolve(state, event)
                store.append(event)
                store.snapshot_if_due(state, at())
        store.close()
        version = state.version

        def cold(load_version: int | None) -> float:
            timings = []
            for _ in range(20):
                fresh = EventStore(env=persistence_environment(url))
                started = time.perf_counter()
                loaded = fresh.load(match_id, rules.evolve, load_version)
                timings.append(time.perf_counter() - started)
                assert loaded.version == (load_version or version)
                fresh.close()
            return statistics.median(timings) * 1000

        return {
            "events": float(version),
            "latest_ms": cold(None),
            "replay_99_events_ms": cold(299),
        }


def run() -> dict[str, float]:
    bare_before = bare_save.measure()
    with serving_process() as (base_url, pid):
        if WARM_UP_SECONDS > 0:
            _load(base_url, seconds=WARM_UP_SECONDS)  # the server fills its caches
        server_cpu, client_cpu = cpu_seconds([str(pid)]), time.process_time()
        tally, elapsed = _load(base_url)
        server_cpu = cpu_seconds([str(pid)]) - server_cpu
        client_cpu = time.process_time() - client_cpu
    bare_after = bare_save.measure()
    saves = (bare_before.saves_per_second + bare_after.saves_per_second) / 2
    plays = len(tally.play_latencies)
    rate = plays / elapsed
    play_q = statistics.quantiles(tally.play_latencies, n=100)
    all_q = statistics.quantiles(tally.request_latencies, n=100)
    commands = len(tally.request_latencies)
    requests = commands / elapsed
    print(
        f"match play: {rate:,.0f} accepted plays/s ({requests:,.0f} commands/s) with {CLIENTS} "
        f"clients over {elapsed:.1f} s on {'PostgreSQL' if DATABASE_URL else 'SQLite'}, "
        f"{tally.matches} matches, {tally.rejected} rejected; "
        f"plays p50 {play_q[49] * 1000:.1f} ms, p99 {play_q[98] * 1000:.1f} ms; "
        f"all commands p99 {all_q[98] * 1000:.1f} ms "
        f"(targets: >= {TARGET_PLAYS_PER_SECOND} plays/s, p99 < {TARGET_P99_MS:.0f} ms)"
    )
    print(
        f"  CPU per command: server {1000 * server_cpu / commands:.3f} ms, load generator "
        f"{1000 * client_cpu / commands:.3f} ms; bare eventsourcing save on SQLite "
        f"{bare_before.saves_per_second:,.0f} before, {bare_after.saves_per_second:,.0f} after "
        f"({bare_before.cpu_ms_per_save:.3f} ms CPU per save): plays/s {rate / saves:.2f}x "
        f"the bare save rate (target >= {TARGET_RATIO_TO_BARE_SAVE}x)"
    )
    load = load_300_event_match()
    print(
        f"match load: {load['events']:.0f} events in {load['latest_ms']:.2f} ms from the "
        f"snapshot (cold store), {load['replay_99_events_ms']:.2f} ms for version 299 "
        f"(snapshot at 200 + 99 events) (target < {TARGET_LOAD_MS:.0f} ms)"
    )
    return {
        "plays_per_second": rate,
        "play_p50_ms": play_q[49] * 1000,
        "play_p99_ms": play_q[98] * 1000,
        "server_cpu_ms_per_command": 1000 * server_cpu / commands,
        "client_cpu_ms_per_command": 1000 * client_cpu / commands,
        "bare_saves_per_second": saves,
        "ratio_to_bare_save": rate / saves,
        "load_300_ms": load["latest_ms"],
    }


if __name__ == "__main__":
    run()

"""The server's CPU time per match command, in this process: the app driven over ASGI.

``bench/matches.py`` measures match play over HTTP with the server in another process; on a
loaded machine its rates follow the other work. Here the same app (dev settings, SQLite in a
temporary directory, no scheduler) is called directly as an ASGI app, one request at a time,
with no network and no HTTP client: ``TABLES`` matches of server dice, rolled and played with
random legal plays (each request as uvicorn would hand it over, with the headers the bench's
client sends), and the process's CPU time per command (a roll or a play) is what the server
spends on it, plus a few microseconds of this driver. Each of ``RUNS`` runs starts a fresh
app; the figures are each run's mean, then the best and the median over the runs.

``BENCH_CPU_COMMANDS`` (2,500), ``BENCH_CPU_RUNS`` (5), ``BENCH_CPU_PROFILE=path`` writes a
cProfile of the last run's commands to ``path``.
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import logging
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import msgspec

from service.settings import DEV_DIRECTOR_TOKEN

TABLES = 16
COMMANDS = int(os.environ.get("BENCH_CPU_COMMANDS", "2500"))
RUNS = int(os.environ.get("BENCH_CPU_RUNS", "5"))
WARM_UP = 300
PROFILE = os.environ.get("BENCH_CPU_PROFILE")


class Driver:
    """Sends requests to an ASGI app as uvicorn would, one at a time."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def request(self, method: str, path: str, body: object, token: str) -> tuple[int, Any]:
        payload = msgspec.json.encode(body)
        headers = [
            (b"host", b"127.0.0.1:8000"),
            (b"accept-encoding", b"identity"),
            (b"content-length", str(len(payload)).encode()),
            (b"content-type", b"application/json"),
            (b"authorization", f"Bearer {token}".encode()),
        ]
        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.4"},
            "http_version": "1.1",
            "server": ("127.0.0.1", 8000),
            "client": ("127.0.0.1", 50000),
            "scheme": "http",
            "method": method,
            "root_path": "",
            "path": path,
            "raw_path": path.encode(),
            "query_string": b"",
            "headers": headers,
            "state": {},
        }
        sent = False

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:
                await asyncio.sleep(3600)
            sent = True
            return {"type": "http.request", "body": payload, "more_body": False}

        status = 0
        chunks: list[bytes] = []

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, send)
        return status, msgspec.json.decode(b"".join(chunks))


class Table:
    def __init__(self, driver: Driver, seed: int) -> None:
        self.driver = driver
        self.rng = random.Random(seed)
        self.match_id = ""
        self.tokens: dict[str, str] = {}
        self.state: Any = None

    async def new_match(self) -> None:
        status, body = await self.driver.request(
            "POST",
            "/api/v1/matches",
            {"player_a": "a", "player_b": "b", "match_length": 25, "dice": "server"},
            DEV_DIRECTOR_TOKEN,
        )
        assert status == 201, body
        self.match_id, self.tokens, self.state = body["id"], body["player_tokens"], body["match"]

    async def command(self) -> bool:
        """One roll or play (a new match first when the last is over); True if accepted."""
        while self.state["phase"] == "match_over":
            await self.new_match()
        side = self.state["turn"] or "a"
        if self.state["phase"] == "move":
            path, body = "plays", {"play": self.rng.choice(self.state["legal_plays"])["play"]}
        else:
            path, body = "rolls", {}
        status, answer = await self.driver.request(
            "POST", f"/api/v1/matches/{self.match_id}/{path}", body, self.tokens[side]
        )
        if status != 200:
            raise RuntimeError(f"{path}: {status} {answer}")
        self.state = answer
        return True


async def one_run(seed: int, profile: cProfile.Profile | None) -> tuple[float, int]:
    """CPU seconds per command over ``COMMANDS`` commands of a fresh app, after a warm-up."""
    from api.app import create_app
    from service.settings import Settings

    with tempfile.TemporaryDirectory(prefix="bgtd-bench-cpu-") as folder:
        settings = Settings(data_dir=Path(folder), dev=True, run_scheduler=False)
        app = create_app(settings)
        async with app.lifespan():
            driver = Driver(app)
            tables = [Table(driver, seed * 100 + n) for n in range(TABLES)]
            for table in tables:
                await table.new_match()
            for n in range(WARM_UP):
                await tables[n % TABLES].command()
            gc.collect()
            if profile is not None:
                profile.enable()
            started = time.process_time()
            for n in range(COMMANDS):
                await tables[n % TABLES].command()
            spent = time.process_time() - started
            if profile is not None:
                profile.disable()
    return spent / COMMANDS, COMMANDS


def run() -> dict[str, float]:
    logging.getLogger("httpx").setLevel(logging.WARNING)
    gc.set_threshold(100_000, 50, 50)  # as ``bgtd serve`` does
    per_run = []
    for n in range(RUNS):
        profile = cProfile.Profile() if PROFILE and n == RUNS - 1 else None
        seconds, _ = asyncio.run(one_run(n, profile))
        per_run.append(seconds * 1e6)
        if profile is not None:
            assert PROFILE is not None
            profile.dump_stats(PROFILE)
    best, median = min(per_run), statistics.median(per_run)
    print(
        f"match commands in process: {', '.join(f'{v:,.0f}' for v in per_run)} µs CPU per "
        f"command ({COMMANDS:,} commands of {TABLES} tables per run): best {best:,.0f}, median "
        f"{median:,.0f} (load average {os.getloadavg()[0]:.1f})"
    )
    return {"best_us": best, "median_us": median}


if __name__ == "__main__":
    run()

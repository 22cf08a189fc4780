"""Live listeners next to match play: accepted plays per second without and with 500 idle
Server-Sent-Events listeners attached to the same server process.

The listeners follow matches nobody plays (the wallboards of empty tables): they only cost the
process's one shared poller of the notification log, never a query each, so the figure with
them should stay close to the figure without.
"""

from __future__ import annotations

import asyncio
import os
import threading
from typing import Any

import httpx

from bench.matches import DIRECTOR, _load, serving_app

LISTENERS = int(os.environ.get("BENCH_LIVE_LISTENERS", "500"))
IDLE_MATCHES = 10


class Listeners:
    """``LISTENERS`` open SSE streams on idle matches, held by an event loop in a thread."""

    def __init__(self, base_url: str) -> None:
        self._base_url = base_url
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread = threading.Thread(target=asyncio.run, args=(self._main(),), daemon=True)
        self.connected = 0

    def __enter__(self) -> Listeners:
        self._thread.start()
        if not self._ready.wait(60):
            raise RuntimeError(f"only {self.connected} of {LISTENERS} listeners connected")
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._loop is not None
        assert self._stop is not None
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(30)

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        limits = httpx.Limits(max_connections=LISTENERS + 10)
        async with httpx.AsyncClient(base_url=self._base_url, limits=limits, timeout=None) as http:
            matches = [await _idle_match(http) for _ in range(IDLE_MATCHES)]
            tasks = [
                asyncio.create_task(self._listen(http, matches[i % len(matches)]))
                for i in range(LISTENERS)
            ]
            await self._stop.wait()
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def _listen(self, http: httpx.AsyncClient, match_id: str) -> None:
        async with http.stream("GET", f"/api/v1/matches/{match_id}/live") as response:
            async for _line in response.aiter_lines():
                # the first line is the stream's opening comment: this listener is attached
                if self.connected < LISTENERS:
                    self.connected += 1
                    if self.connected == LISTENERS:
                        self._ready.set()


async def _idle_match(http: httpx.AsyncClient) -> str:
    body: dict[str, Any] = {"player_a": "a", "player_b": "b", "match_length": 5}
    response = await http.post("/api/v1/matches", json=body, headers=DIRECTOR)
    response.raise_for_status()
    match_id: str = response.json()["id"]
    return match_id


def run() -> dict[str, float]:
    with serving_app() as base_url:
        without, elapsed = _load(base_url)
        rate_without = len(without.play_latencies) / elapsed
        with Listeners(base_url):
            attached, elapsed = _load(base_url)
        rate_with = len(attached.play_latencies) / elapsed
    print(
        f"live listeners: {rate_without:,.0f} plays/s without, {rate_with:,.0f} plays/s with "
        f"{LISTENERS} idle SSE listeners attached ({rate_with / rate_without:.0%})"
    )
    return {
        "plays_per_second_without": rate_without,
        "plays_per_second_with": rate_with,
        "listeners": float(LISTENERS),
    }


if __name__ == "__main__":
    run()

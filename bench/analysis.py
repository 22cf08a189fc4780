"""Requests per second of POST /api/v1/analysis/legal-plays over HTTP (server in a child)."""

from __future__ import annotations

import statistics
import threading
import time

import httpx

from bench.positions import mixed_positions
from bench.server import running_service

CLIENTS = 8
DURATION_SECONDS = 5.0


def run() -> dict[str, float]:
    bodies = [
        {"position_id": position.position_id, "dice": list(roll)}
        for position, roll in mixed_positions(2_000, seed=7)
    ]
    latencies: list[float] = []
    errors = 0
    lock = threading.Lock()
    with running_service() as base_url:
        stop_at = time.monotonic() + DURATION_SECONDS

        def client(offset: int) -> None:
            nonlocal errors
            mine: list[float] = []
            failed = 0
            with httpx.Client(base_url=base_url, timeout=10) as http:
                index = offset
                while time.monotonic() < stop_at:
                    started = time.perf_counter()
                    response = http.post("/api/v1/analysis/legal-plays", json=bodies[index])
                    mine.append(time.perf_counter() - started)
                    failed += response.status_code != 200
                    index = (index + CLIENTS) % len(bodies)
            with lock:
                latencies.extend(mine)
                errors += failed

        started = time.monotonic()
        threads = [threading.Thread(target=client, args=(i,)) for i in range(CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
    rate = len(latencies) / elapsed
    quantiles = statistics.quantiles(latencies, n=100)
    print(
        f"analysis endpoint: {rate:,.0f} requests/s with {CLIENTS} clients on this machine "
        f"(p50 {quantiles[49] * 1000:.1f} ms, p99 {quantiles[98] * 1000:.1f} ms, {errors} errors)"
    )
    return {"requests_per_second": rate}


if __name__ == "__main__":
    run()

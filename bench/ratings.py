"""Rating import rate: 10,000 past results (repeats, 1-point matches, newcomers) imported in
one request's use case, the list recomputed with it; target under 5 s (issue 23). Then a
correction-sized recomputation: the whole list rebuilt from the log."""

from __future__ import annotations

import os
import random
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from domain.ratings.club import ImportRow
from service.bootstrap import bootstrap
from service.clock import MovableClock
from service.settings import Settings

ROWS = int(os.environ.get("BENCH_RATING_ROWS", "10000"))
PLAYERS = 400
TARGET_SECONDS = 5.0


def generated(count: int, seed: int = 23) -> list[ImportRow]:
    draw = random.Random(seed)
    rows = []
    for index in range(count):
        pool = min(PLAYERS, 2 + index // 20)  # newcomers join as the history goes on
        winner, loser = draw.sample(range(pool), 2)
        rows.append(
            ImportRow(
                date=f"20{10 + index * 15 // count:02d}-0{1 + index % 9}-1{index % 10}",
                winner=f"Spieler {winner}",
                loser=f"Spieler {loser}",
                length=draw.choice((1, 1, 3, 5, 7, 9, 11)),
            )
        )
    return rows


def run() -> dict[str, float]:
    rows = generated(ROWS)
    with tempfile.TemporaryDirectory() as folder:
        clock = MovableClock(datetime(2026, 3, 1, 9, 0, tzinfo=UTC), ticking=False)
        settings = Settings(data_dir=Path(folder), dev=True, run_scheduler=False)
        services = bootstrap(settings, clock)
        try:
            started, cpu = time.perf_counter(), time.process_time()
            receipt = services.ratings.import_results(rows)
            listed = services.ratings.list_ratings()
            imported = time.perf_counter() - started
            import_cpu = time.process_time() - cpu
            started, cpu = time.perf_counter(), time.process_time()
            services.views.rebuild("ratings")
            rebuilt = time.perf_counter() - started
            rebuild_cpu = time.process_time() - cpu
        finally:
            services.close()
    verdict = "within" if imported < TARGET_SECONDS else "OVER"
    print(
        f"ratings: {receipt.matches:,} rows imported and the list of {len(listed)} players "
        f"recomputed in {imported:.2f} s ({import_cpu:.2f} s CPU; "
        f"{receipt.matches / imported:,.0f} rows/s; {verdict} the {TARGET_SECONDS:.0f} s "
        f"target); the ratings view rebuilt from the log in {rebuilt:.2f} s "
        f"({rebuild_cpu:.2f} s CPU; load average {os.getloadavg()[0]:.1f})"
    )
    return {"rows": receipt.matches, "import_seconds": imported, "rebuild_seconds": rebuilt}


if __name__ == "__main__":
    run()

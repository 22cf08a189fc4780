"""Legal-play generation speed over a mixed set of positions, resulting Position IDs included."""

from __future__ import annotations

import time

from bench.positions import mixed_positions
from domain.backgammon import legal_plays

TARGET_POSITIONS_PER_SECOND = 10_000


def run(count: int = 5_000, repeats: int = 3) -> dict[str, float]:
    cases = mixed_positions(count)
    best = float("inf")
    plays = 0
    for _ in range(repeats):
        started = time.perf_counter()
        plays = sum(len([play.position_id for play in legal_plays(p, roll)]) for p, roll in cases)
        best = min(best, time.perf_counter() - started)
    rate = len(cases) / best
    verdict = "met" if rate >= TARGET_POSITIONS_PER_SECOND else "MISSED"
    print(
        f"legal plays: {rate:,.0f} positions/s on one core "
        f"({len(cases):,} positions, {plays / len(cases):.1f} plays each, Position IDs included; "
        f"target {TARGET_POSITIONS_PER_SECOND:,}/s: {verdict})"
    )
    return {"positions_per_second": rate}


if __name__ == "__main__":
    run()

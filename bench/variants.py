"""Legal-play generation per variant (rules V-*), beside backgammon's, over random games."""

from __future__ import annotations

import random
import time

from bench.positions import mixed_positions
from domain.backgammon import legal_plays
from domain.variants import Variant, VariantBoard, variant_legal_plays


def variant_positions(
    variant: Variant, count: int, seed: int = 2026
) -> list[tuple[VariantBoard, tuple[int, int]]]:
    """``count`` (board, roll) pairs from random games of ``variant`` played to the end."""
    rng = random.Random(seed)
    cases: list[tuple[VariantBoard, tuple[int, int]]] = []
    board = VariantBoard.starting(variant)
    while len(cases) < count:
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        cases.append((board, roll))
        plays = variant_legal_plays(board, roll)
        if not plays:
            board = board.swap_sides()
            continue
        play = rng.choice(plays)
        board = VariantBoard.starting(variant) if play.game_result else play.board
    return cases


def _rate(cases: list[tuple[object, tuple[int, int]]], generate: object, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        started = time.process_time()
        for board, roll in cases:
            generate(board, roll)  # type: ignore[operator]
        best = min(best, time.process_time() - started)
    return len(cases) / best


def run(count: int = 2_000, repeats: int = 3) -> dict[str, float]:
    backgammon = mixed_positions(count)
    results = {
        "backgammon": _rate(
            backgammon,  # type: ignore[arg-type]
            lambda p, r: [play.position_id for play in legal_plays(p, r)],
            repeats,
        )
    }
    for variant in Variant:
        cases = variant_positions(variant, count)
        results[variant.value] = _rate(cases, variant_legal_plays, repeats)  # type: ignore[arg-type]
    print("legal plays per variant (uncached, resulting boards included; CPU time of one core):")
    for name, rate in results.items():
        print(f"  {name:<11} {rate:>9,.0f} positions/s")
    return {f"{name}_positions_per_second": rate for name, rate in results.items()}


if __name__ == "__main__":
    run()

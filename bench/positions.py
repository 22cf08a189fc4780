"""A reproducible mixed set of positions and rolls, from random games played to the end."""

from __future__ import annotations

import random

from domain.backgammon import Position, legal_plays


def mixed_positions(count: int, seed: int = 2026) -> list[tuple[Position, tuple[int, int]]]:
    """``count`` (position, roll) pairs: openings, contact, bar entries, races and bear-offs."""
    rng = random.Random(seed)
    cases: list[tuple[Position, tuple[int, int]]] = []
    position = Position.starting()
    while len(cases) < count:
        roll = (rng.randint(1, 6), rng.randint(1, 6))
        cases.append((position, roll))
        plays = legal_plays(position, roll)
        if not plays:
            position = position.swap_sides()
            continue
        play = rng.choice(plays)
        position = Position.starting() if play.game_result else play.position
    return cases

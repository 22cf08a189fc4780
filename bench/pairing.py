"""Swiss pairing speed: round 6 of a 20-player and of a 1,000-player field after five rounds.

Two histories: five rounds paired by the domain itself (whose classic pairing for round 6 then
rarely holds a rematch), and five rounds paired at random within score groups (as a field
imported from elsewhere: round 6's classic pairing then holds rematches that the matching has
to repair).
"""

from __future__ import annotations

import itertools
import random
import time
import uuid

from domain.pairing import Entrant, pair_swiss_round

TARGET_SECONDS = {20: 0.050, 1_000: 5.0}
PREVIOUS_ROUNDS = 5


def field_after(players: int, rounds: int, *, by_domain: bool, seed: int = 2026) -> list[Entrant]:
    """A field in standing order after ``rounds`` rounds, paired by the domain or at random."""
    chance = random.Random(seed)
    ids = [uuid.UUID(int=chance.getrandbits(128), version=4) for _ in range(players)]
    wins = dict.fromkeys(ids, 0)
    points = dict.fromkeys(ids, 0)
    opponents: dict[uuid.UUID, set[uuid.UUID]] = {player: set() for player in ids}
    byes: set[uuid.UUID] = set()
    for number in range(rounds):
        field = standing(ids, wins, points, opponents, byes)
        if by_domain:
            pairs = [(t.player_a, t.player_b) for t in pair_swiss_round(field, seed=number)]
        else:
            shuffled = sorted(field, key=lambda entrant: (-entrant.wins, chance.random()))
            pairs = [
                (a.player_id, b.player_id)
                for a, b in zip(shuffled[::2], shuffled[1::2], strict=False)
            ]
            if players % 2:
                pairs.append((shuffled[-1].player_id, None))
        for player_a, player_b in pairs:
            if player_b is None:
                wins[player_a] += 1
                byes.add(player_a)
                continue
            winner, loser = chance.sample([player_a, player_b], 2)
            wins[winner] += 1
            points[winner] += chance.randint(7, 14)
            points[loser] += chance.randint(0, 6)
            opponents[player_a].add(player_b)
            opponents[player_b].add(player_a)
    return standing(ids, wins, points, opponents, byes)


def standing(
    ids: list[uuid.UUID],
    wins: dict[uuid.UUID, int],
    points: dict[uuid.UUID, int],
    opponents: dict[uuid.UUID, set[uuid.UUID]],
    byes: set[uuid.UUID],
) -> list[Entrant]:
    ranked = sorted(ids, key=lambda player: (-wins[player], -points[player], player))
    return [
        Entrant(
            player_id=player,
            wins=wins[player],
            opponents=frozenset(opponents[player]),
            had_bye=player in byes,
        )
        for player in ranked
    ]


def run() -> dict[str, float]:
    figures: dict[str, float] = {}
    for (players, target), by_domain in itertools.product(TARGET_SECONDS.items(), (True, False)):
        field = field_after(players, PREVIOUS_ROUNDS, by_domain=by_domain)
        repeats = 20 if players <= 100 else 3
        best = float("inf")
        tables = []
        for _ in range(repeats):
            started = time.perf_counter()
            tables = pair_swiss_round(field, seed=PREVIOUS_ROUNDS)
            best = min(best, time.perf_counter() - started)
        rematches = sum(table.reason == "rematch_unavoidable" for table in tables)
        history = "the domain's" if by_domain else "random"
        verdict = "met" if best <= target else "MISSED"
        print(
            f"Swiss pairing: {best * 1000:,.1f} ms for round {PREVIOUS_ROUNDS + 1} of "
            f"{players:,} players after {history} pairings ({len(tables)} tables, "
            f"{rematches} rematches; "
            f"target {target * 1000:,.0f} ms: {verdict})"
        )
        figures[f"pairing_seconds_{players}_{'domain' if by_domain else 'random'}"] = best
    return figures


if __name__ == "__main__":
    run()

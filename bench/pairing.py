"""Swiss pairing speed: round 6 of a 20-player and of a 1,000-player field after five rounds.

Two histories: five rounds paired by the domain itself (whose classic pairing for round 6 then
rarely holds a rematch), and five rounds paired at random within score groups (as a field
imported from elsewhere: round 6's classic pairing then holds rematches that the matching has
to repair).

Each round is timed before the lookahead (``pair_swiss_round``, the classic pairing alone) and
with it (rule T-FMT-9, ``pair_swiss_round_ahead``) as round 6 of the most Swiss rounds the field
may play: 19 for 20 players (the search decides), 20 for 1,000 (Dirac's condition decides).
Then whole small Swiss phases with random results, classic against lookahead: in how many
tournaments a rematch was forced (``BENCH_LOOKAHEAD_TOURNAMENTS`` each, default 200).
"""

from __future__ import annotations

import itertools
import os
import random
import time
import uuid

from domain.pairing import Entrant, pair_swiss_round, pair_swiss_round_ahead

TARGET_SECONDS = {20: 0.050, 1_000: 5.0}
PREVIOUS_ROUNDS = 5
MOST_ROUNDS = {20: 19, 1_000: 20}
"""The Swiss rounds of the lookahead's timing: T-FMT-1's cap for 20, the API's most for 1,000."""
SMALL_FIELDS = ((6, 5), (7, 6), (8, 6), (8, 7), (10, 9), (12, 11))


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
        history = "the domain's" if by_domain else "random"
        rounds_left = MOST_ROUNDS[players] - PREVIOUS_ROUNDS
        for ahead in (False, True):
            best = float("inf")
            tables: list[object] = []
            rematches = 0
            completable: bool | None = None
            for _ in range(repeats):
                started = time.perf_counter()
                if ahead:
                    paired = pair_swiss_round_ahead(
                        field, seed=PREVIOUS_ROUNDS, rounds_left=rounds_left
                    )
                    completable = paired.completable
                    found = list(paired.tables)
                else:
                    found = pair_swiss_round(field, seed=PREVIOUS_ROUNDS)
                best = min(best, time.perf_counter() - started)
                tables = list(found)
                rematches = sum(table.reason == "rematch_unavoidable" for table in found)
            verdict = "met" if best <= target else "MISSED"
            how = (
                f"with the lookahead ({MOST_ROUNDS[players]} rounds, completable: {completable})"
                if ahead
                else "classic, before the lookahead"
            )
            print(
                f"Swiss pairing: {best * 1000:,.1f} ms for round {PREVIOUS_ROUNDS + 1} of "
                f"{players:,} players after {history} pairings, {how} ({len(tables)} tables, "
                f"{rematches} rematches; target {target * 1000:,.0f} ms: {verdict})"
            )
            key = f"pairing_seconds_{players}_{'domain' if by_domain else 'random'}"
            figures[key + ("_lookahead" if ahead else "")] = best
    tournaments = int(os.environ.get("BENCH_LOOKAHEAD_TOURNAMENTS", "200"))
    for players, rounds in SMALL_FIELDS:
        forced = dict.fromkeys((False, True), 0)
        slowest = 0.0
        for number in range(tournaments):
            for ahead in (False, True):
                rematches, slowest_round = swiss_phase(players, rounds, number, ahead=ahead)
                forced[ahead] += rematches > 0
                if ahead:
                    slowest = max(slowest, slowest_round)
        print(
            f"Swiss phases of {players} players x {rounds} rounds, {tournaments} with random "
            f"results: a rematch in {forced[False]} classic, {forced[True]} with the lookahead "
            f"(slowest round with it: {slowest * 1000:,.1f} ms)"
        )
        figures[f"lookahead_rematch_tournaments_{players}x{rounds}"] = forced[True]
        figures[f"classic_rematch_tournaments_{players}x{rounds}"] = forced[False]
    return figures


def swiss_phase(players: int, rounds: int, seed: int, *, ahead: bool) -> tuple[int, float]:
    """One Swiss phase with random results: its rematches and its slowest round's pairing."""
    chance = random.Random(seed)
    ids = [uuid.UUID(int=chance.getrandbits(128), version=4) for _ in range(players)]
    wins = dict.fromkeys(ids, 0)
    points = dict.fromkeys(ids, 0)
    opponents: dict[uuid.UUID, set[uuid.UUID]] = {player: set() for player in ids}
    byes: set[uuid.UUID] = set()
    rematches, slowest = 0, 0.0
    for number in range(rounds):
        field = standing(ids, wins, points, opponents, byes)
        started = time.perf_counter()
        if ahead:
            tables = list(
                pair_swiss_round_ahead(field, seed=number, rounds_left=rounds - number).tables
            )
        else:
            tables = pair_swiss_round(field, seed=number)
        slowest = max(slowest, time.perf_counter() - started)
        for table in tables:
            a, b = table.player_a, table.player_b
            if b is None:
                wins[a] += 1
                byes.add(a)
                continue
            rematches += b in opponents[a]
            winner = chance.choice((a, b))
            wins[winner] += 1
            points[winner] += chance.randint(7, 14)
            opponents[a].add(b)
            opponents[b].add(a)
    return rematches, slowest


if __name__ == "__main__":
    run()

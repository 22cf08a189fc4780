"""The round robin's schedule: FIDE Berger tables (FIDE Handbook C.05 Annex 1), pure numbers.

Rule T-FMT-11. The players hold Berger numbers 1..n. For an odd n, number n + 1 is the bye.
Let m be n rounded up to even: a cycle has m - 1 rounds. In round r (1..m-1), two numbers
i, j < m play each other when i + j = r + 1 (mod m - 1), and number m plays the i with
2i = r + 1 (mod m - 1). In an odd field whoever meets number m rests, so everyone rests exactly
once per cycle. The second cycle repeats the first.

Sides follow the FIDE tables' colours (side a is White there): number m has side a in even
rounds, side b in odd rounds; of two numbers i, j < m, the smaller has side a when i + j is odd
and the larger when it is even. Boards follow the FIDE order too: number m's game first, then
i0 + k against i0 - k for k = 1, 2, ... where i0 is m's opponent.
"""

from __future__ import annotations

import msgspec

from domain.errors import InvalidInputError

MAX_ROUND_ROBIN_PLAYERS = 12
"""rule T-FMT-11: a round robin holds at most 12 players."""
MIN_ROUND_ROBIN_PLAYERS = 2
ROUND_ROBIN_CYCLES = (1, 2)


class BergerTable(msgspec.Struct, frozen=True, kw_only=True):
    """One table of a Berger round by Berger numbers; ``number_b`` None: ``number_a`` rests."""

    number_a: int
    number_b: int | None


def rounds_per_cycle(players: int) -> int:
    """m - 1: every player meets every other once, an odd field resting once each."""
    _check_players(players)
    return _even(players) - 1


def berger_round(players: int, round_number: int) -> tuple[BergerTable, ...]:
    """Round ``round_number`` (1..m-1) of one cycle for ``players`` numbers; a rest, if any,
    is the last table."""
    per_cycle = rounds_per_cycle(players)
    if not 1 <= round_number <= per_cycle:
        raise InvalidInputError("round", f"a cycle of {players} players has rounds 1..{per_cycle}")
    m = per_cycle + 1
    target = (round_number + 1) % per_cycle
    # number m's opponent: 2i = r + 1 (mod m - 1); m - 1 is odd, so exactly one i in 1..m-1
    i0 = next(i for i in range(1, m) if (2 * i) % per_cycle == target)
    tables = [_against_last(i0, m, round_number, rests=players % 2 == 1)]
    for k in range(1, m // 2):
        i = (i0 + k - 1) % per_cycle + 1
        j = (i0 - k - 1) % per_cycle + 1
        tables.append(_between(i, j))
    if players % 2:
        tables.append(tables.pop(0))
    return tuple(tables)


def berger_schedule(players: int, cycles: int = 1) -> tuple[tuple[BergerTable, ...], ...]:
    """Every round of the round robin, cycle after cycle (the second repeats the first)."""
    if cycles not in ROUND_ROBIN_CYCLES:
        raise InvalidInputError("round_robin_cycles", "is 1 or 2")
    one = tuple(berger_round(players, r) for r in range(1, rounds_per_cycle(players) + 1))
    return one * cycles


def schedule_round(players: int, tournament_round: int) -> tuple[BergerTable, ...]:
    """The tables of the round robin's ``tournament_round``-th round (1-based, across cycles)."""
    per_cycle = rounds_per_cycle(players)
    return berger_round(players, (tournament_round - 1) % per_cycle + 1)


def _against_last(i: int, m: int, round_number: int, *, rests: bool) -> BergerTable:
    """Number m's game: side a in even rounds; in an odd field number m is the rest."""
    if rests:
        return BergerTable(number_a=i, number_b=None)
    if round_number % 2 == 0:
        return BergerTable(number_a=m, number_b=i)
    return BergerTable(number_a=i, number_b=m)


def _between(i: int, j: int) -> BergerTable:
    low, high = min(i, j), max(i, j)
    if (i + j) % 2:
        return BergerTable(number_a=low, number_b=high)
    return BergerTable(number_a=high, number_b=low)


def _even(players: int) -> int:
    return players + players % 2


def _check_players(players: int) -> None:
    if not MIN_ROUND_ROBIN_PLAYERS <= players <= MAX_ROUND_ROBIN_PLAYERS:
        raise InvalidInputError(
            "players",
            f"a round robin holds {MIN_ROUND_ROBIN_PLAYERS} to {MAX_ROUND_ROBIN_PLAYERS} players",
        )

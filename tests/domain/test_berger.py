"""The round robin's schedule: FIDE Berger tables (rule T-FMT-11)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from domain.berger import (
    BergerTable,
    berger_round,
    berger_schedule,
    rounds_per_cycle,
    schedule_round,
)
from domain.errors import InvalidInputError

SIZES = range(3, 13)


def pairs(tables: tuple[BergerTable, ...]) -> list[frozenset[int]]:
    return [frozenset((t.number_a, t.number_b)) for t in tables if t.number_b is not None]


def rests(tables: tuple[BergerTable, ...]) -> list[int]:
    return [t.number_a for t in tables if t.number_b is None]


def as_text(tables: tuple[BergerTable, ...]) -> list[str]:
    return [f"{t.number_a}-{t.number_b}" for t in tables]


# rule T-FMT-11: the FIDE Berger table for 5-6 players (FIDE Handbook C.05 Annex 1), White first
FIDE_SIX = [
    ["1-6", "2-5", "3-4"],
    ["6-4", "5-3", "1-2"],
    ["2-6", "3-1", "4-5"],
    ["6-5", "1-4", "2-3"],
    ["3-6", "4-2", "5-1"],
]


def test_six_players_play_the_fide_berger_table_board_by_board_and_colour_by_colour() -> None:
    # rule T-FMT-11
    assert [as_text(berger_round(6, r)) for r in range(1, 6)] == FIDE_SIX


def test_eight_players_round_two_is_the_fide_round() -> None:
    # rule T-FMT-11: FIDE's 7-8 player table, round 2: 8-5, 6-4, 7-3, 1-2
    assert as_text(berger_round(8, 2)) == ["8-5", "6-4", "7-3", "1-2"]


def test_five_players_rest_where_the_six_player_table_meets_number_six() -> None:
    # rule T-FMT-11: in an odd field whoever meets number m has the bye (listed last)
    assert [rests(berger_round(5, r)) for r in range(1, 6)] == [[1], [4], [2], [5], [3]]
    assert berger_round(5, 1)[-1] == BergerTable(number_a=1, number_b=None)


@pytest.mark.parametrize("players", SIZES)
def test_every_pair_meets_exactly_once_per_cycle(players: int) -> None:
    # rule T-FMT-11: everyone plays everyone once per cycle, in m - 1 rounds
    cycle = berger_schedule(players)
    assert len(cycle) == rounds_per_cycle(players) == players - 1 + players % 2
    met = Counter(pair for tables in cycle for pair in pairs(tables))
    assert set(met) == {frozenset(p) for p in combinations(range(1, players + 1), 2)}
    assert set(met.values()) == {1}


@pytest.mark.parametrize("players", SIZES)
def test_every_number_is_seated_once_a_round_and_an_odd_field_rests_once_each(
    players: int,
) -> None:
    # rule T-FMT-11: byes as rests, exactly one per player and cycle in an odd field
    cycle = berger_schedule(players)
    for tables in cycle:
        seated = [n for t in tables for n in (t.number_a, t.number_b) if n is not None]
        assert sorted(seated) == list(range(1, players + 1))
        assert len(rests(tables)) == players % 2
    resting = Counter(n for tables in cycle for n in rests(tables))
    expected = dict.fromkeys(range(1, players + 1), 1) if players % 2 else {}
    assert dict(resting) == expected


@pytest.mark.parametrize("players", SIZES)
def test_the_second_cycle_repeats_the_first(players: int) -> None:
    # rule T-FMT-11: "The second cycle repeats the first."
    one, two = berger_schedule(players), berger_schedule(players, 2)
    assert two == one + one
    assert schedule_round(players, len(one) + 1) == one[0]


@pytest.mark.parametrize("players", [1, 13, 0])
def test_a_round_robin_holds_two_to_twelve_players(players: int) -> None:
    # rule T-FMT-11: at most 12 players
    with pytest.raises(InvalidInputError):
        berger_schedule(players)


def test_a_cycle_count_other_than_one_or_two_is_refused() -> None:
    with pytest.raises(InvalidInputError):
        berger_schedule(4, 3)


def test_a_round_outside_the_cycle_is_refused() -> None:
    with pytest.raises(InvalidInputError):
        berger_round(4, 4)

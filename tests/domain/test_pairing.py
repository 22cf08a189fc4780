"""Swiss pairing and knockout seeding: examples and properties (rules T-FMT-1, -2, -4)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from uuid import UUID

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.pairing import (
    COMPLETE_GRAPH_LIMIT,
    Entrant,
    PairingInputError,
    Table,
    pair_swiss_round,
    seed_knockout,
)

SEED = 2026


def player(rank: int) -> UUID:
    return UUID(int=rank)


def field(
    wins: Sequence[int], met: Sequence[tuple[int, int]] = (), byes: Sequence[int] = ()
) -> list[Entrant]:
    """Entrants in standing order, named by their rank from 1; ``met`` pairs ranks that played."""
    opponents: dict[int, set[UUID]] = {rank: set() for rank in range(1, len(wins) + 1)}
    for a, b in met:
        opponents[a].add(player(b))
        opponents[b].add(player(a))
    return [
        Entrant(
            player_id=player(rank),
            wins=count,
            opponents=frozenset(opponents[rank]),
            had_bye=rank in byes,
        )
        for rank, count in enumerate(wins, start=1)
    ]


def boards(tables: list[Table]) -> list[tuple[int, int | None]]:
    """The tables as ranks, top board first; None is the bye."""
    return [
        (t.player_a.int, None if t.player_b is None else t.player_b.int)
        for t in sorted(tables, key=lambda t: t.table)
    ]


def round_one(players: int) -> list[Entrant]:
    return [Entrant(player_id=player(rank), wins=0) for rank in range(1, players + 1)]


# --- examples -------------------------------------------------------------------------------


def test_round_one_is_drawn_by_lot_and_the_same_seed_draws_the_same_round() -> None:
    # rule T-FMT-2: before round 1 everyone is tied; the lot comes from the seed.
    first = pair_swiss_round(round_one(20), seed=SEED)
    again = pair_swiss_round(round_one(20), seed=SEED)
    assert first == again
    assert boards(first) != [(rank, rank + 10) for rank in range(1, 11)]


def test_another_seed_draws_another_round_one() -> None:
    assert boards(pair_swiss_round(round_one(20), seed=1)) != boards(
        pair_swiss_round(round_one(20), seed=2)
    )


def test_round_one_does_not_depend_on_the_order_the_entrants_are_given_in() -> None:
    entrants = round_one(20)
    assert pair_swiss_round(entrants, seed=SEED) == pair_swiss_round(entrants[::-1], seed=SEED)


def test_score_groups_pair_within_themselves_upper_half_against_lower_half() -> None:
    # rule T-FMT-2: pair within score groups, top down.
    tables = pair_swiss_round(field([2, 2, 2, 2, 1, 1, 1, 1], met=[(1, 5)]), seed=SEED)
    assert boards(tables) == [(1, 3), (2, 4), (5, 7), (6, 8)]
    assert [t.table for t in tables] == [1, 2, 3, 4]
    assert {t.reason for t in tables} == {"score_group"}
    assert tables[0].explanation == "both 2 wins"
    assert tables[2].explanation == "both 1 win"


def test_an_odd_score_group_floats_its_lowest_player_down_to_the_top_of_the_next() -> None:
    # rule T-FMT-2: an odd score group floats down.
    tables = pair_swiss_round(field([2, 2, 2, 1, 1, 1], met=[(1, 4)]), seed=SEED)
    assert boards(tables) == [(1, 2), (3, 4), (5, 6)]
    assert [t.reason for t in tables] == ["score_group", "float", "score_group"]
    assert tables[1].explanation == "rank 3 (2 wins) floats down to rank 4 (1 win)"


def test_a_rematch_is_avoided_where_a_greedy_pass_from_the_top_would_fail_late() -> None:
    # rule T-FMT-2: avoid rematches, backtracking if needed. The classic pairing 1 v 3 is a
    # rematch; a greedy pass gives 1 the next one free, 2, and is left with 3 v 4, met before.
    tables = pair_swiss_round(field([1, 1, 1, 1], met=[(1, 3), (3, 4)]), seed=SEED)
    assert boards(tables) == [(1, 4), (2, 3)]
    assert {t.reason for t in tables} == {"score_group"}


def test_a_rematch_avoided_across_score_groups_floats_another_player() -> None:
    # rule T-FMT-1 before the score groups: 3 v 4 met, so 2 floats down to 4 instead.
    tables = pair_swiss_round(field([2, 2, 2, 1, 1, 1], met=[(3, 4)]), seed=SEED)
    assert boards(tables) == [(1, 3), (2, 4), (5, 6)]
    assert [t.reason for t in tables] == ["score_group", "float", "score_group"]


def test_a_rematch_that_no_pairing_avoids_is_made_and_says_so() -> None:
    tables = pair_swiss_round(field([1, 0], met=[(1, 2)]), seed=SEED)
    assert boards(tables) == [(1, 2)]
    assert tables[0].reason == "rematch_unavoidable"
    assert (
        tables[0].explanation == "rematch, no pairing avoids it: rank 1 (1 win) v rank 2 (0 wins)"
    )


def test_an_odd_field_gives_the_bye_to_the_lowest_ranked_player() -> None:
    # rule T-FMT-2: one bye, to the lowest-ranked player who has not had one.
    tables = pair_swiss_round(field([1, 1, 1, 0, 0]), seed=SEED)
    assert boards(tables) == [(1, 2), (3, 4), (5, None)]
    assert tables[-1].reason == "bye"
    assert tables[-1].table == 3
    assert tables[-1].explanation == "bye: the lowest-ranked player without a bye (rank 5)"


def test_a_player_who_had_a_bye_gets_no_second_while_another_can_take_it() -> None:
    tables = pair_swiss_round(field([2, 1, 1, 1, 1], byes=[5]), seed=SEED)
    assert boards(tables)[-1] == (4, None)
    assert sorted(boards(tables)[:-1]) == [(1, 2), (3, 5)]


def test_when_everyone_has_had_a_bye_the_lowest_ranked_player_takes_another() -> None:
    tables = pair_swiss_round(field([2, 2, 1], byes=[1, 2, 3]), seed=SEED)
    assert boards(tables) == [(1, 2), (3, None)]
    assert tables[-1].explanation == "bye: everyone has had one: the lowest-ranked player (rank 3)"


def test_the_bye_moves_up_where_the_lowest_ranked_players_bye_would_force_a_rematch() -> None:
    tables = pair_swiss_round(field([1, 1, 0], met=[(1, 2)]), seed=SEED)
    assert boards(tables) == [(1, 3), (2, None)]
    assert tables[-1].explanation == (
        "bye: the lowest-ranked player without a bye who leaves the fewest rematches (rank 2)"
    )


def test_a_lone_player_has_the_bye_and_an_empty_field_no_tables() -> None:
    assert boards(pair_swiss_round(field([0]), seed=SEED)) == [(1, None)]
    assert pair_swiss_round([], seed=SEED) == []


def test_a_player_given_twice_is_refused() -> None:
    with pytest.raises(PairingInputError, match="more than once"):
        pair_swiss_round([*field([1, 0]), *field([1])], seed=SEED)


def test_a_large_field_repairs_the_rematches_of_its_classic_pairing() -> None:
    # Above the complete-graph limit, windows around each rematch are paired again: no rematch,
    # and still one float only (51 of 3 wins would float to 52 of 2 wins, but they met).
    wins = [3] * 51 + [2] * 69 + [1] * 48
    classic = [(1, 26), (10, 35), (51, 52), (60, 94), (66, 100), (130, 154)]
    assert len(wins) > COMPLETE_GRAPH_LIMIT
    tables = pair_swiss_round(field(wins, met=classic), seed=SEED)
    assert sorted(rank for pair in boards(tables) for rank in pair if rank) == list(
        range(1, len(wins) + 1)
    )
    assert not set(boards(tables)) & set(classic)
    assert [t.reason for t in tables].count("float") == 1
    assert {(1, 27), (2, 26), (20, 45)} <= set(boards(tables))  # the nearest swap; the rest kept


def test_the_semi_finals_are_one_against_four_and_two_against_three() -> None:
    # rule T-FMT-4
    assert seed_knockout([player(1), player(2), player(3), player(4)]) == [
        ("semi_final_1", player(1), player(4)),
        ("semi_final_2", player(2), player(3)),
    ]


@pytest.mark.parametrize("top", [[1, 2, 3], [1, 2, 3, 3], [1, 2, 3, 4, 5]])
def test_the_knockout_needs_four_different_players(top: list[int]) -> None:
    with pytest.raises(PairingInputError, match="four different players"):
        seed_knockout([player(rank) for rank in top])


# --- properties over random histories -------------------------------------------------------


@st.composite
def histories(draw: st.DrawFn) -> list[Entrant]:
    """A field of 2..10 after some rounds: falling wins, random earlier pairings and byes."""
    size = draw(st.integers(2, 10))
    wins = sorted(draw(st.lists(st.integers(0, 5), min_size=size, max_size=size)), reverse=True)
    wins[0] = max(wins[0], 1)  # not round 1, whose order is drawn by lot
    pairs = [(a, b) for a in range(1, size + 1) for b in range(a + 1, size + 1)]
    met = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=len(pairs)))
    byes = draw(st.lists(st.integers(1, size), unique=True, max_size=size))
    return field(wins, met=met, byes=byes)


def perfect_matchings(places: tuple[int, ...]) -> Iterator[list[tuple[int, int]]]:
    if not places:
        yield []
        return
    first, rest = places[0], places[1:]
    for k, partner in enumerate(rest):
        for more in perfect_matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, partner), *more]


def cost(
    entrants: list[Entrant], pairs: list[tuple[int, int]], bye: int | None
) -> tuple[int, int, int, int]:
    """(bye to one who had one, rematches, bye's height above the bottom, squared win gaps)."""
    rematches = sum(entrants[b].player_id in entrants[a].opponents for a, b in pairs)
    gaps = sum((entrants[a].wins - entrants[b].wins) ** 2 for a, b in pairs)
    if bye is None:
        return (0, rematches, 0, gaps)
    return (int(entrants[bye].had_bye), rematches, len(entrants) - 1 - bye, gaps)


def best_cost(entrants: list[Entrant]) -> tuple[int, int, int, int]:
    """The least cost over every bye and every pairing of the rest: the brute force."""
    places = tuple(range(len(entrants)))
    byes: list[int | None] = list(places) if len(places) % 2 else [None]
    return min(
        cost(entrants, pairs, bye)
        for bye in byes
        for pairs in perfect_matchings(tuple(p for p in places if p != bye))
    )


def as_places(tables: list[Table]) -> tuple[list[tuple[int, int]], int | None]:
    pairs = [(t.player_a.int - 1, t.player_b.int - 1) for t in tables if t.player_b is not None]
    byes = [t.player_a.int - 1 for t in tables if t.player_b is None]
    assert len(byes) <= 1
    return pairs, byes[0] if byes else None


@settings(max_examples=150, deadline=None)
@given(histories(), st.integers())
def test_every_entrant_sits_at_exactly_one_table_and_only_an_odd_field_has_a_bye(
    entrants: list[Entrant], seed: int
) -> None:
    tables = pair_swiss_round(entrants, seed=seed)
    seated = [t.player_a for t in tables] + [t.player_b for t in tables if t.player_b]
    assert sorted(seated) == sorted(e.player_id for e in entrants)
    assert [t.table for t in tables] == list(range(1, len(tables) + 1))
    byes = [t for t in tables if t.player_b is None]
    assert len(byes) == len(entrants) % 2
    assert all(t.reason == "bye" and t is tables[-1] for t in byes)


@settings(max_examples=150, deadline=None)
@given(histories(), st.integers())
def test_no_bye_goes_to_a_player_who_had_one_while_another_can_take_it(
    entrants: list[Entrant], seed: int
) -> None:
    # rule T-FMT-2
    _, bye = as_places(pair_swiss_round(entrants, seed=seed))
    if bye is not None and any(not e.had_bye for e in entrants):
        assert not entrants[bye].had_bye


@settings(max_examples=150, deadline=None)
@given(histories(), st.integers())
def test_no_rematch_is_made_that_any_pairing_could_avoid(
    entrants: list[Entrant], seed: int
) -> None:
    # rule T-FMT-1, T-FMT-2: checked against every bye and pairing there is.
    tables = pair_swiss_round(entrants, seed=seed)
    pairs, bye = as_places(tables)
    rematches = cost(entrants, pairs, bye)[1]
    assert rematches == best_cost(entrants)[1]
    assert [t.reason for t in tables].count("rematch_unavoidable") == rematches


@settings(max_examples=150, deadline=None)
@given(histories(), st.integers())
def test_the_round_is_the_best_in_byes_rematches_and_score_gaps(
    entrants: list[Entrant], seed: int
) -> None:
    # The bye's eligibility, then rematches, then the lowest bye, then the smallest score gaps.
    pairs, bye = as_places(pair_swiss_round(entrants, seed=seed))
    assert cost(entrants, pairs, bye) == best_cost(entrants)


@settings(max_examples=100, deadline=None)
@given(histories(), st.integers())
def test_the_same_field_and_seed_give_the_same_round(entrants: list[Entrant], seed: int) -> None:
    assert pair_swiss_round(entrants, seed=seed) == pair_swiss_round(tuple(entrants), seed=seed)

"""Swiss standings, final places and the prize split (rules T-FMT-3..7, T-BUYIN-1)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from itertools import pairwise
from uuid import UUID

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.errors import InvalidInputError
from domain.standings import (
    KnockoutResult,
    Outcome,
    Payout,
    Standing,
    compute_standings,
    final_places,
    lot_draw,
    round_robin_standings,
    split_pot,
)

A, B, C, D, E, F = (UUID(int=number) for number in range(1, 7))
FIELD = [A, B, C, D]


def won(
    round: int, winner: UUID, loser: UUID, score: tuple[int, int] = (7, 3), *, played: bool = True
) -> Outcome:
    """``winner`` beat ``loser`` ``score[0]`` to ``score[1]`` in ``round``."""
    return Outcome(
        round=round,
        player_a=winner,
        player_b=loser,
        winner=winner,
        points_a=score[0],
        points_b=score[1],
        played=played,
    )


def bye(round: int, player: UUID) -> Outcome:
    return Outcome(round=round, player_a=player, player_b=None, winner=player, played=False)


def seed_favouring(player: UUID, field: Sequence[UUID]) -> int:
    """A lot seed that draws ``player`` first, to show that an earlier tiebreak overrules it."""
    return next(seed for seed in range(1000) if lot_draw(field, seed)[player] == 1)


def order(standings: list[Standing]) -> list[UUID]:
    return [standing.player_id for standing in standings]


def line(standings: list[Standing], player: UUID) -> Standing:
    return next(standing for standing in standings if standing.player_id == player)


# Standings (rule T-FMT-3) -------------------------------------------------------------------


def test_more_wins_rank_first_however_many_points_the_others_won() -> None:
    outcomes = [won(1, A, B, (1, 0)), won(2, A, C, (1, 0)), won(1, C, D, (11, 10))]
    standings = compute_standings(FIELD, outcomes, lot_seed=seed_favouring(C, FIELD))
    assert order(standings)[0] == A
    assert (line(standings, A).wins, line(standings, A).points) == (2, 2)
    assert (line(standings, C).wins, line(standings, C).points) == (1, 11)


def test_equal_wins_are_ordered_by_the_points_won() -> None:
    # rule T-FMT-3: "Siege und Spielsteinpunkte", the points scored in the games
    outcomes = [won(1, A, B, (7, 6)), won(1, C, D, (5, 0))]
    standings = compute_standings(FIELD, outcomes, lot_seed=seed_favouring(D, FIELD))
    assert order(standings) == [A, C, B, D]
    assert [standing.points for standing in standings] == [7, 5, 6, 0]
    assert [standing.rank for standing in standings] == [1, 2, 3, 4]


def test_equal_wins_and_points_are_ordered_by_buchholz_the_opponents_wins() -> None:
    # A and B each won once with 7 points, but A's opponent C won a match since
    outcomes = [won(1, A, C), won(1, B, D), won(2, C, D, (7, 0))]
    standings = compute_standings(FIELD, outcomes, lot_seed=seed_favouring(B, FIELD))
    assert order(standings) == [C, A, B, D]
    assert (line(standings, A).buchholz, line(standings, B).buchholz) == (1, 0)


def test_players_tied_on_wins_points_and_buchholz_are_ordered_by_head_to_head() -> None:
    # A and B: 1 win, 12 points, Buchholz 2 each; A beat B. C and D: other points, no tie.
    outcomes = [
        won(1, A, B, (7, 5)),
        won(1, D, C, (7, 3)),
        won(2, C, A, (7, 5)),
        won(2, B, D, (7, 2)),
    ]
    standings = compute_standings(FIELD, outcomes, lot_seed=seed_favouring(B, FIELD))
    assert order(standings) == [A, B, C, D]
    assert [(s.wins, s.points, s.buchholz) for s in standings[:2]] == [(1, 12, 2), (1, 12, 2)]
    assert (line(standings, A).head_to_head, line(standings, B).head_to_head) == (1, 0)
    # C beat A, but C is not tied with A: head-to-head counts only inside the tie
    assert line(standings, C).head_to_head == 0


def test_a_head_to_head_circle_is_broken_by_the_seeded_lot() -> None:
    field = [A, B, C]
    circle = [won(1, A, B), won(2, B, C), won(3, C, A)]
    for seed in range(5):
        standings = compute_standings(field, circle, lot_seed=seed)
        assert {(s.wins, s.points, s.buchholz, s.head_to_head) for s in standings} == {
            (1, 10, 2, 1)
        }
        assert [standing.lot for standing in standings] == [1, 2, 3]
        assert [standing.rank for standing in standings] == [1, 2, 3]


def test_the_same_seed_draws_the_same_lot_and_the_draw_can_be_checked_by_hand() -> None:
    # rule T-FMT-3: the lot is seeded; anyone can redo it with SHA-256 of "seed:player id"
    players = [UUID(int=number) for number in range(1, 21)]
    by_hand = sorted(players, key=lambda p: hashlib.sha256(f"42:{p}".encode()).digest())
    first = compute_standings(players, [], lot_seed=42)
    assert order(first) == by_hand
    assert compute_standings(list(reversed(players)), [], lot_seed=42) == first
    assert order(compute_standings(players, [], lot_seed=43)) != by_hand


def test_a_bye_is_a_win_with_no_points_and_adds_nothing_to_buchholz() -> None:
    # rule T-FMT-2 default: a bye counts as a win with 0 points
    field = [A, B, C]
    standings = compute_standings(field, [won(1, A, B), bye(1, C)], lot_seed=1)
    c = line(standings, C)
    assert (c.wins, c.points, c.buchholz, c.matches, c.byes) == (1, 0, 0, 1, 1)
    assert order(standings) == [A, C, B]


def test_an_unplayed_forfeit_is_a_win_with_no_points_for_either_player() -> None:
    # rules T-FMT-5, T-FMT-7: B withdrew before the match; A wins it with 0 points
    standings = compute_standings([A, B], [won(3, A, B, (7, 0), played=False)], lot_seed=1)
    assert [(s.player_id, s.wins, s.points, s.matches) for s in standings] == [
        (A, 1, 0, 1),
        (B, 0, 0, 1),
    ]


def test_a_match_decided_early_counts_the_match_length_and_the_losers_points() -> None:
    # rule T-FMT-7: B lost on time at 4-5 in a 7-point match; the score becomes 7-4
    standings = compute_standings([A, B], [won(1, A, B, (7, 4))], lot_seed=1)
    assert [(s.wins, s.points) for s in standings] == [(1, 7), (0, 4)]


def test_players_without_results_are_still_listed_with_nothing() -> None:
    standings = compute_standings(FIELD, [won(1, A, B)], lot_seed=7)
    assert set(order(standings)) == set(FIELD)
    assert (line(standings, D).wins, line(standings, D).matches) == (0, 0)


@pytest.mark.parametrize(
    ("outcome", "reason"),
    [
        (won(1, A, E), "not in the field"),
        (won(1, A, A), "against itself"),
        (Outcome(round=1, player_a=A, player_b=B, winner=C), "did not play"),
        (won(1, A, B, (-1, 0)), "negative points"),
    ],
)
def test_outcomes_that_cannot_be_are_rejected(outcome: Outcome, reason: str) -> None:
    with pytest.raises(InvalidInputError, match=reason):
        compute_standings(FIELD, [outcome], lot_seed=1)


# Final places (rule T-FMT-4) ----------------------------------------------------------------


def test_the_knockout_gives_places_one_to_four_and_the_swiss_standings_the_rest() -> None:
    swiss = [A, B, C, D, E, F]
    places = final_places(
        swiss,
        final=KnockoutResult(winner=C, loser=A),
        third_place=KnockoutResult(winner=D, loser=B),
    )
    assert places == [C, A, D, B, E, F]


def test_three_players_play_no_knockout_and_keep_their_swiss_order() -> None:
    assert final_places([B, C, A]) == [B, C, A]


def test_two_players_keep_their_swiss_order_or_play_a_final() -> None:
    assert final_places([B, A]) == [B, A]
    assert final_places([B, A], final=KnockoutResult(winner=A, loser=B)) == [A, B]


def test_the_knockout_must_be_played_by_the_swiss_top_four() -> None:
    with pytest.raises(InvalidInputError, match="top 4"):
        final_places(
            [A, B, C, D, E],
            final=KnockoutResult(winner=A, loser=B),
            third_place=KnockoutResult(winner=C, loser=E),
        )


def test_a_match_for_third_place_needs_a_final() -> None:
    with pytest.raises(InvalidInputError, match="third_place"):
        final_places([A, B, C, D], third_place=KnockoutResult(winner=C, loser=D))


# Prize money (rule T-BUYIN-1) ---------------------------------------------------------------


def test_the_default_split_of_seventeen_players_pays_50_30_20_percent_of_the_pot() -> None:
    players = [UUID(int=number) for number in range(1, 18)]
    split = split_pot(17 * 80_00, (50, 30, 20), players)
    assert split.payouts == (
        Payout(place=1, player_id=players[0], amount_cents=680_00),
        Payout(place=2, player_id=players[1], amount_cents=408_00),
        Payout(place=3, player_id=players[2], amount_cents=272_00),
    )
    assert split.unpaid_cents == 0


def test_the_rounding_remainder_goes_all_to_the_highest_place() -> None:
    # 1001 cents: 33 % and 33 % are 330.33 cents, 34 % is 340.34; the 1 cent left goes to place 1
    split = split_pot(1001, (33, 33, 34), [A, B, C])
    assert [payout.amount_cents for payout in split.payouts] == [331, 330, 340]
    split = split_pot(199, (40, 30, 30), [A, B, C])
    assert [payout.amount_cents for payout in split.payouts] == [81, 59, 59]


@st.composite
def shares_of_100(draw: st.DrawFn) -> list[int]:
    cuts = sorted(draw(st.lists(st.integers(0, 100), max_size=6)))
    bounds = [0, *cuts, 100]
    return [high - low for low, high in pairwise(bounds)]


@settings(deadline=None)
@given(pot=st.integers(0, 10**9), shares=shares_of_100())
def test_payouts_always_add_up_to_the_pot_exactly(pot: int, shares: list[int]) -> None:
    players = [UUID(int=number) for number in range(1, len(shares) + 1)]
    split = split_pot(pot, shares, players)
    assert sum(payout.amount_cents for payout in split.payouts) == pot
    assert split.unpaid_cents == 0
    first = next(index for index, share in enumerate(shares) if share > 0)
    for index, (payout, share) in enumerate(zip(split.payouts, shares, strict=True)):
        extra = payout.amount_cents - pot * share // 100
        assert extra == 0 or (index == first and 0 < extra < len(shares))


def test_with_fewer_players_than_paid_places_the_missing_shares_are_not_paid() -> None:
    split = split_pot(2 * 80_00, (50, 30, 20), [A, B])
    assert [payout.amount_cents for payout in split.payouts] == [80_00, 48_00]
    assert split.unpaid_cents == 32_00


def test_shares_below_100_percent_leave_the_rest_unpaid() -> None:
    split = split_pot(1000, (50, 25), [A, B, C])
    assert [payout.amount_cents for payout in split.payouts] == [500, 250]
    assert split.unpaid_cents == 250


@pytest.mark.parametrize(
    ("pot", "shares", "field"),
    [
        (1000, (60, 30, 20), "shares_percent"),
        (1000, (50, -10, 60), "shares_percent"),
        (-1, (100,), "pot_cents"),
    ],
)
def test_impossible_shares_or_pots_are_rejected(
    pot: int, shares: tuple[int, ...], field: str
) -> None:
    with pytest.raises(InvalidInputError) as raised:
        split_pot(pot, shares, [A, B, C])
    assert raised.value.field == field


# Round robin standings (rule T-FMT-11) -------------------------------------------------------


def rest(round: int, player: UUID) -> Outcome:
    return Outcome(round=round, player_a=player, player_b=None, winner=player, played=False)


def test_a_round_robin_rest_is_worth_no_win_and_no_points() -> None:
    # rule T-FMT-11: "in a round robin the bye is a rest, worth no win and no points"
    [first, second, third] = round_robin_standings(
        [A, B, C], [won(1, A, B), rest(1, C)], lot_seed=1
    )
    assert (first.player_id, first.wins) == (A, 1)
    rested = next(s for s in (second, third) if s.player_id == C)
    assert (rested.wins, rested.points, rested.byes, rested.buchholz) == (0, 0, 1, 0)


def test_two_players_equal_on_wins_and_points_are_ranked_by_their_match() -> None:
    # rule T-FMT-11: two players: the one who won their match first
    outcomes = [won(1, B, A, (7, 3)), won(2, A, C, (7, 3)), won(3, C, B, (7, 3))]
    # A, B, C all 1 win and 10 points: a circle, so head-to-head is 1 each and the lot decides
    circle = round_robin_standings([A, B, C], outcomes, lot_seed=5)
    assert {s.head_to_head for s in circle} == {1}
    assert [s.player_id for s in circle] == sorted(
        [A, B, C], key=lot_draw([A, B, C], 5).__getitem__
    )
    tied = round_robin_standings(
        [C, D, E], [won(1, D, C, (7, 3)), won(2, C, E, (7, 0)), won(3, E, D, (7, 3))], lot_seed=0
    )
    # E won 1 (7 pts), C won 1 (10 pts), D won 1 (10 pts): C and D tied, D beat C
    assert [s.player_id for s in tied][:2] == [D, C]
    assert (tied[0].head_to_head, tied[1].head_to_head) == (1, 0)


def test_three_tied_players_are_ranked_by_their_wins_among_themselves() -> None:
    # rule T-FMT-11: three or more: wins in the matches among them (here all unplayed, 0 points)
    beats = [(A, B), (A, C), (B, C), (D, A), (E, A), (B, D), (E, B), (C, D), (C, E), (E, D)]
    outcomes = [
        won(n, w, loser, (0, 0), played=False) for n, (w, loser) in enumerate(beats, start=1)
    ]
    standings = round_robin_standings([A, B, C, D, E], outcomes, lot_seed=0)
    # E 3 wins; A, B and C 2 each (A beat both, B beat C); D 1
    assert [s.player_id for s in standings] == [E, A, B, C, D]
    assert [s.head_to_head for s in standings[1:4]] == [2, 1, 0]
    for seed in range(1, 6):
        ranked = round_robin_standings([A, B, C, D, E], outcomes, lot_seed=seed)
        assert [s.player_id for s in ranked] == [E, A, B, C, D]


def test_the_mini_table_outranks_the_lot() -> None:
    # rule T-FMT-11: four players tied on wins and points; among them, wins decide before the lot
    outcomes = [
        won(1, A, B, (1, 0)),
        won(1, C, D, (1, 0)),
        won(2, A, C, (1, 0)),
        won(2, D, B, (1, 0)),
        won(3, B, C, (1, 0)),
        won(3, D, A, (1, 0)),
    ]
    # wins: A 2, B 1, C 1, D 2: A and D tied (2 wins, 2 points) and D beat A
    standings = round_robin_standings([A, B, C, D], outcomes, lot_seed=0)
    assert [s.player_id for s in standings][:2] == [D, A]
    for seed in range(5):
        assert [s.player_id for s in round_robin_standings([A, B, C, D], outcomes, lot_seed=seed)][
            :2
        ] == [D, A]

"""Golden cases of Fevga, reasoned out by hand from DOMAIN.md section 8 (rules V-FEVGA-*).

Both sides travel the same way: the opponent's point p is the mover's p + 12 (p <= 12) or
p - 12 (p >= 13); the opponent's starting point (its 24) is the mover's 12.
"""

from __future__ import annotations

from domain.variants import Variant, VariantBoard, variant_legal_plays
from tests.domain.variants.boards import board, outcome, outcomes

SEAM_PRIME_BUT_ONE = {24: 2, 23: 2, 22: 2, 3: 2, 2: 2, 5: 5}
"""The mover's 22, 23, 24, 2, 3 (the opponent's 10, 11, 12, 14, 15): 5/1 makes it six."""


def test_the_opening_six_six_moves_one_checker_once() -> None:
    # rules V-START-1, V-FEVGA-3: a second checker may not leave 24 before the first passed
    # the opponent's start; 18/12 lands on the opponent's 24-point (V-FEVGA-2).
    start = VariantBoard.starting(Variant.FEVGA)
    assert start == board("fevga", {24: 15}, {24: 15})
    assert outcomes(start, (6, 6)) == {outcome({24: 14, 18: 1})}


def test_the_opening_five_five_may_start_a_second_checker_after_the_first_passed() -> None:
    # rule V-FEVGA-3, checked step by step: 24/19/14/9, then the fourth 5 plays 24/19.
    start = VariantBoard.starting(Variant.FEVGA)
    assert outcomes(start, (5, 5)) == {outcome({24: 14, 4: 1}), outcome({24: 13, 19: 1, 9: 1})}


def test_a_single_opposing_checker_blocks_the_point() -> None:
    # rule V-FEVGA-2: the opponent's lone checker on its 4 is on the mover's 16; the 24s wait
    # for the checker on 20 (V-FEVGA-3), which plays 20/19/15.
    position = board("fevga", {24: 14, 20: 1}, {24: 14, 4: 1})
    assert outcomes(position, (4, 1)) == {outcome({24: 14, 15: 1})}


def test_the_first_checker_rule_is_checked_step_by_step() -> None:
    # rule V-FEVGA-3: the mover's 12 is not yet past the opponent's start; once 12/6 has
    # passed it, a 24 may move with the other die.
    position = board("fevga", {24: 14, 12: 1}, {20: 15})
    assert outcomes(position, (6, 5)) == {
        outcome({24: 14, 1: 1}),
        outcome({24: 13, 19: 1, 6: 1}),
        outcome({24: 13, 18: 1, 7: 1}),
    }


def test_a_checker_past_the_start_or_borne_off_frees_the_24_point() -> None:
    # rule V-FEVGA-3: on the mover's 11 or lower, or borne off
    past = board("fevga", {24: 14, 11: 1}, {20: 15})
    assert outcome({24: 12, 19: 1, 18: 1, 11: 1}) in outcomes(past, (6, 5))
    borne_off = board("fevga", {24: 14}, {20: 15})
    assert outcome({24: 12, 19: 1, 18: 1}) in outcomes(borne_off, (6, 5))


def test_no_play_ends_holding_the_whole_starting_quadrant() -> None:
    # rule V-FEVGA-4: 24/19 9/8 would hold 19..24 (the opponent's checker on its 1 is ahead
    # of every prime, so V-FEVGA-5 allows it); 24/19 20/19 leaves 20 open.
    position = board("fevga", {24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 9: 1}, {24: 14, 1: 1})
    found = outcomes(position, (5, 1))
    assert outcome({24: 9, 23: 1, 22: 1, 21: 1, 19: 2, 9: 1}) in found
    assert not [points for points, _, _ in found if all(p in dict(points) for p in range(19, 25))]


def test_a_prime_across_the_mover_s_24_1_seam_needs_an_opposing_checker_ahead() -> None:
    # rule V-FEVGA-5: 5/1 would hold the opponent's 10..15 (the mover's 22..24 and 1..3)
    # with every opposing checker behind it on its 24: never at the end of the play.
    behind = board("fevga", SEAM_PRIME_BUT_ONE, {24: 15})
    found = outcomes(behind, (4, 1))
    assert found
    assert all(1 not in dict(points) for points, _, _ in found)
    # An opposing checker on its 5, lower than 10, is ahead of the prime: allowed.
    ahead = board("fevga", SEAM_PRIME_BUT_ONE, {24: 14, 5: 1})
    assert outcome({24: 2, 23: 2, 22: 2, 5: 3, 4: 1, 3: 2, 2: 2, 1: 1}) in outcomes(ahead, (4, 1))


def test_an_opposing_checker_borne_off_is_ahead_of_every_prime() -> None:
    # rule V-FEVGA-5: "or already borne off"
    borne_off = board("fevga", SEAM_PRIME_BUT_ONE, {24: 14})
    assert any(1 in dict(points) for points, _, _ in outcomes(borne_off, (4, 1)))


def test_a_prime_made_during_the_play_and_gone_at_its_end_is_allowed() -> None:
    # rule V-FEVGA-5: 5/1 makes the prime, 24/20 24/20 breaks it again.
    position = board("fevga", SEAM_PRIME_BUT_ONE, {24: 15})
    assert any(
        dict(points).get(1) and 24 not in dict(points)
        for points, _, _ in outcomes(position, (4, 4))
    )


def test_only_the_larger_die_when_either_but_not_both_can_be_played() -> None:
    # rule V-MAX-1: the mover's 14 and 15 (the opponent's 2 and 3) hold the checker on 20;
    # 8/2 or 8/3 and then nothing (no bear-off with 20 outside): the 6.
    position = board("fevga", {8: 1, 20: 1}, {2: 1, 3: 1, 24: 13})
    assert outcomes(position, (6, 5)) == {outcome({20: 1, 2: 1})}


def test_bear_off_from_the_highest_point_with_a_larger_die() -> None:
    # rule V-OFF-1: the 6 bears off from 5 (or 4 after 5/4), never from 3 while 5 or 4 is held.
    position = board("fevga", {5: 1, 3: 1}, {24: 15})
    assert outcomes(position, (6, 1)) == {outcome({3: 1}), outcome({2: 1})}


def test_a_blocked_start_has_no_play() -> None:
    # rule V-MAX-1: the opponent's 6 and 7 are the mover's 18 and 19.
    position = board("fevga", {24: 15}, {6: 3, 7: 3, 8: 3, 9: 3, 10: 3})
    assert variant_legal_plays(position, (6, 5)) == ()


def test_the_last_checker_off_wins_single_or_gammon() -> None:
    # rules V-FEVGA-6, V-WIN-1
    assert outcomes(board("fevga", {2: 1}, {20: 15}), (2, 1)) == {outcome({}, (), "gammon")}
    assert outcomes(board("fevga", {2: 1}, {20: 14}), (2, 1)) == {outcome({}, (), "single")}


def test_a_prime_already_on_the_board_that_no_play_can_open_leaves_no_legal_play() -> None:
    # rule V-MAX-1: the mover holds its 13..18 (the opponent's 1..6: no point lower, none
    # borne off, so no opposing checker can ever be ahead of it, V-FEVGA-5). With 6-6 only
    # 19/13 can move (twice); every point of the prime with few checkers is blocked 6 ahead:
    # 14/8, 17/11, 16/10 and 15/9 land on opposing checkers. No sequence is admissible.
    mine = {13: 2, 14: 1, 15: 3, 16: 2, 17: 1, 18: 4, 19: 2}
    theirs = {14: 1, 15: 3, 16: 1, 17: 2, 19: 2, 20: 1, 21: 1, 22: 1, 23: 1, 24: 2}
    assert variant_legal_plays(board("fevga", mine, theirs), (6, 6)) == ()

"""Golden cases of Long Nardi, reasoned out by hand from DOMAIN.md section 8 (rules V-NARDI-*).

Both sides travel the same way: the opponent's point p is the mover's p + 12 (p <= 12) or
p - 12 (p >= 13); the opponent's head (its 24) is the mover's 12.
"""

from __future__ import annotations

import pytest

from domain.variants import Variant, VariantBoard, variant_legal_plays
from tests.domain.variants.boards import Outcome, board, outcome, outcomes

SEAM_PRIME_BUT_ONE = {24: 2, 23: 2, 22: 2, 3: 2, 2: 2, 5: 5}
"""The mover's 22, 23, 24, 2, 3 (the opponent's 10, 11, 12, 14, 15): 5/1 makes it six."""


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        # rule V-NARDI-3: two head checkers with 6-6, 4-4 and 3-3 in the first turn; the
        # opponent's head on the mover's 12 stops 18/12, 16/12 and 15/12 (V-NARDI-2).
        ((6, 6), {outcome({24: 13, 18: 2})}),
        ((4, 4), {outcome({24: 13, 16: 2})}),
        ((3, 3), {outcome({24: 13, 18: 2}), outcome({24: 13, 21: 1, 15: 1})}),
        # any other roll: one head checker
        ((5, 5), {outcome({24: 14, 4: 1})}),
        ((2, 2), {outcome({24: 14, 16: 1})}),
        ((6, 5), {outcome({24: 14, 13: 1})}),
    ],
)
def test_the_first_turn_takes_one_head_checker_or_two_with_six_four_or_three_doubles(
    dice: tuple[int, int], expected: set[Outcome]
) -> None:
    start = VariantBoard.starting(Variant.NARDI)
    assert start == board("nardi", {24: 15}, {24: 15})
    assert outcomes(start, dice) == expected


def test_a_later_six_six_takes_only_one_head_checker() -> None:
    # rule V-NARDI-3: the side no longer has all 15 on its head; 18/12 is blocked.
    position = board("nardi", {24: 14, 18: 1}, {24: 15})
    assert outcomes(position, (6, 6)) == {outcome({24: 13, 18: 2})}


def test_the_second_player_s_first_six_six_takes_two_head_checkers_too() -> None:
    # rule V-NARDI-3 applies to both players: the opponent's 18 is the mover's 6.
    position = board("nardi", {24: 15}, {24: 13, 18: 2})
    assert outcomes(position, (6, 6)) == {outcome({24: 13, 18: 2})}


def test_a_single_opposing_checker_blocks_the_point() -> None:
    # rule V-NARDI-2: the opponent's 4 is the mover's 16; one head checker (V-NARDI-3).
    position = board("nardi", {24: 14, 20: 1}, {24: 14, 4: 1})
    assert outcomes(position, (4, 1)) == {
        outcome({24: 14, 15: 1}),
        outcome({24: 13, 20: 1, 19: 1}),
    }


def test_a_block_of_six_needs_an_opposing_checker_ahead_of_it() -> None:
    # rule V-NARDI-4 (as V-FEVGA-5), across the mover's 24/1 seam.
    behind = board("nardi", SEAM_PRIME_BUT_ONE, {24: 15})
    found = outcomes(behind, (4, 1))
    assert found
    assert all(1 not in dict(points) for points, _, _ in found)
    ahead = board("nardi", SEAM_PRIME_BUT_ONE, {24: 14, 5: 1})
    assert any(1 in dict(points) for points, _, _ in outcomes(ahead, (4, 1)))


def test_only_the_board_at_the_end_of_the_play_is_checked_for_a_block() -> None:
    # rule V-NARDI-4: 5/1 makes the block, 23/19 23/19 breaks it again (only one checker may
    # leave the head, so 24 stays held).
    position = board("nardi", SEAM_PRIME_BUT_ONE, {24: 15})
    assert any(
        dict(points).get(1) and 23 not in dict(points)
        for points, _, _ in outcomes(position, (4, 4))
    )


def test_nardi_has_no_starting_quadrant_rule() -> None:
    # rule V-NARDI-6: 24/19 9/8 holds the mover's 19..24, which Fevga forbids (V-FEVGA-4).
    mine = {24: 10, 23: 1, 22: 1, 21: 1, 20: 1, 9: 1}
    theirs = {24: 14, 1: 1}
    quadrant = outcome({24: 9, 23: 1, 22: 1, 21: 1, 20: 1, 19: 1, 8: 1})
    assert quadrant in outcomes(board("nardi", mine, theirs), (5, 1))
    assert quadrant not in outcomes(board("fevga", mine, theirs), (5, 1))


def test_nardi_has_no_first_checker_rule() -> None:
    # rule V-NARDI-6: a head checker may leave while the first is on 18 (Fevga: V-FEVGA-3).
    mine, theirs = {24: 14, 18: 1}, {24: 15}
    second = outcome({24: 13, 18: 1, 13: 1})
    assert second in outcomes(board("nardi", mine, theirs), (6, 5))
    assert second not in outcomes(board("fevga", mine, theirs), (6, 5))


def test_bear_off_waits_until_every_checker_is_home() -> None:
    # rule V-OFF-1: with a checker on 7, 3/off is no step; 7/1 then 3/off, or 7/4 then the 6
    # bears off from 4, the highest point (never from 3 while 4 is held).
    position = board("nardi", {7: 1, 3: 1}, {20: 15})
    assert outcomes(position, (6, 3)) == {outcome({1: 1}), outcome({3: 1})}


def test_mars_when_the_loser_bore_off_none_and_oyn_otherwise() -> None:
    # rules V-NARDI-5, V-WIN-1: 2 points ("mars") or 1 ("oyn"); no 3-point "koks".
    assert outcomes(board("nardi", {2: 1}, {20: 15}), (2, 1)) == {outcome({}, (), "gammon")}
    assert outcomes(board("nardi", {2: 1}, {20: 14}), (2, 1)) == {outcome({}, (), "single")}


def test_no_legal_play_passes_the_turn() -> None:
    # rule V-MAX-1: the opponent's 6 and 7 are the mover's 18 and 19.
    position = board("nardi", {24: 15}, {6: 3, 7: 3, 8: 3, 9: 3, 10: 3})
    assert variant_legal_plays(position, (6, 5)) == ()

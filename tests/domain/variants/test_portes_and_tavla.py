"""Golden cases of Portes and Tavla, and their plays against GNU Backgammon's reference: both
play exactly like backgammon (rules V-PORTES-1, V-TAVLA-1) and score 1 or 2 (V-WIN-1)."""

from __future__ import annotations

import pytest

from domain.backgammon import Position
from domain.variants import Variant, VariantBoard, VariantResult, opening, variant_legal_plays
from tests.domain.backgammon.test_against_gnubg import committed_cases
from tests.domain.variants.boards import board, outcome, outcomes

STANDARD = {6: 5, 8: 3, 13: 5, 24: 2}


@pytest.mark.parametrize("variant", ["portes", "tavla"])
def test_the_setup_is_backgammon_s(variant: str) -> None:
    # rules V-START-1, G-SETUP-1: pip count 167 each
    start = VariantBoard.starting(Variant(variant))
    assert start == board(variant, STANDARD, STANDARD)
    assert start.pip_counts == (167, 167)


def test_a_portes_game_may_open_with_a_double_six_eleven_ways() -> None:
    # rule V-OPEN-1: in Portes the starter rolls both dice again, so 6-6 can be the first
    # play: 24/18(2) or 13/7(2) (each pair of checkers) and the two 24s on to 12: 11 boards.
    assert len(variant_legal_plays(VariantBoard.starting(Variant.PORTES), (6, 6))) == 11


def test_a_checker_on_the_bar_enters_first_and_hits_a_blot() -> None:
    # rules G-BAR-1, G-MOVE-2 via V-PORTES-1: the opponent's blot on its 3 is the mover's 22;
    # 6/off is no bear-off while a checker is outside home.
    position = board("portes", {0: 1, 6: 14}, {3: 1, 24: 14})
    found = variant_legal_plays(position, (3, 6))
    assert {play.notation for play in found} == {"bar/22* 22/16", "bar/19 19/16", "bar/19 6/3"}
    hit = next(play for play in found if play.steps[0].destination == 22)
    assert hit.board.on_roll[0] == 1  # the hit checker waits on the opponent's bar


def test_a_closed_board_passes_the_turn() -> None:
    # rule G-BAR-1: the opponent holds its points 1..6, where the mover enters: no play.
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 24: 3}
    assert variant_legal_plays(board("tavla", {0: 1, 12: 14}, closed), (6, 5)) == ()


def test_only_the_larger_die_when_either_but_not_both_can_be_played() -> None:
    # rule V-MAX-1 (G-MAX-1): the opponent's 6 and 7 (the mover's 19 and 18) hold the 24s;
    # the mover's 9 plays 9/3 or 9/4, after which nothing moves: the 6 it is.
    position = board("portes", {9: 1, 24: 14}, {6: 2, 7: 2, 13: 11})
    assert outcomes(position, (6, 5)) == {outcome({24: 14, 3: 1})}


@pytest.mark.parametrize("variant", ["portes", "tavla"])
def test_a_win_gnubg_scores_as_a_backgammon_scores_two(variant: str) -> None:
    # rules V-WIN-1, V-PORTES-2, V-TAVLA-2: the loser has a checker in the winner's home
    # board (its 20 is the winner's 5) and bore off none: 2 points, not 3.
    position = board(variant, {1: 1}, {20: 1, 10: 14})
    assert outcomes(position, (2, 1)) == {outcome({}, (), "gammon")}
    assert variant_legal_plays(position, (2, 1))[0].game_result is VariantResult.GAMMON
    assert VariantResult.GAMMON.points == 2


@pytest.mark.parametrize(
    ("variant", "borne_off", "result"), [("portes", 1, "single"), ("tavla", 0, "gammon")]
)
def test_single_and_gammon(variant: str, borne_off: int, result: str) -> None:
    # rule V-WIN-1: 1 point if the loser bore off a checker, 2 ("mars") if none
    position = board(variant, {2: 1}, {10: 15 - borne_off})
    assert outcomes(position, (6, 5)) == {outcome({}, (), result)}


def test_tavla_opens_with_the_opening_dice_and_portes_rolls_again() -> None:
    # rule V-OPEN-1: Tavla keeps G-OPEN-1; the other variants start with a fresh roll
    assert opening(Variant.TAVLA, 3, 5) == ("b", (5, 3))
    assert opening(Variant.PORTES, 3, 5) == ("b", None)
    assert opening(Variant.PLAKOTO, 6, 1) == ("a", None)
    assert opening(Variant.NARDI, 4, 4) == (None, None)  # a tie rolls again


def as_variant_board(variant: Variant, position: Position) -> VariantBoard:
    mine, theirs = position.on_roll, position.opponent
    return VariantBoard(variant, (mine[24], *mine[:24]), (theirs[24], *theirs[:24]))


def as_position_id(after: VariantBoard) -> str:
    mine, theirs = after.on_roll, after.opponent
    return Position((*mine[1:], mine[0]), (*theirs[1:], theirs[0])).position_id


@pytest.mark.parametrize(("variant", "sample"), [(Variant.PORTES, 4), (Variant.TAVLA, 12)])
def test_the_plays_are_gnu_backgammon_s_on_its_reference_cases(
    variant: Variant, sample: int
) -> None:
    # rules V-PORTES-1, V-TAVLA-1: a sample of the cases of tests/reference (every fourth,
    # every twelfth), through the variant board
    cases = committed_cases()[1::sample]
    differing = []
    for case in cases:
        position = as_variant_board(variant, Position.from_position_id(case.position_id))
        found = variant_legal_plays(position, case.dice)
        ours = {as_position_id(play.board) for play in found}
        if ours != {position_id for position_id, _ in case.plays}:
            differing.append(case.position_id)
        for play in found:
            gnubg = case.plays.get((as_position_id(play.board), "backgammon"))
            if gnubg is not None:
                assert play.game_result is VariantResult.GAMMON  # rule V-WIN-1
    assert len(cases) > 400
    assert not differing


@pytest.mark.parametrize("variant", ["portes", "tavla"])
def test_a_larger_die_bears_off_from_the_highest_point_only(variant: str) -> None:
    # rules G-OFF-1 via V-PORTES-1 and V-TAVLA-1: the 6 bears off the checker on the 5 (no
    # checker above it); the 1 moves 5/4 or 3/2 (nothing stands on the 1 to bear off). 5/4
    # first lets the 6 bear off from the 4 instead: the 3 stays.
    position = board(variant, {5: 1, 3: 1}, {1: 15})
    assert outcomes(position, (6, 1)) == {outcome({3: 1}), outcome({2: 1})}


@pytest.mark.parametrize("variant", ["portes", "tavla"])
def test_a_checker_brought_home_by_one_die_lets_the_other_bear_off(variant: str) -> None:
    # rules G-OFF-1, G-MAX-1: 7/6 brings the last checker home, and the 2 then bears off from
    # the 2; 7/5 leaves the 1 to play inside (5/4 or 2/1); 2/off first is no bear-off while
    # the 7 is outside.
    position = board(variant, {7: 1, 2: 1}, {1: 15})
    assert outcomes(position, (2, 1)) == {
        outcome({6: 1}),
        outcome({4: 1, 2: 1}),
        outcome({5: 1, 1: 1}),
    }


@pytest.mark.parametrize("variant", ["portes", "tavla"])
def test_a_double_plays_as_many_of_its_four_moves_as_it_can(variant: str) -> None:
    # rules G-MOVE-1, G-MAX-1 via V-PORTES-1 and V-TAVLA-1: 6-6 moves 20/14, and then the
    # opponent's point on its 17 (the mover's 8) blocks 14/8; the checkers on the 2 may not
    # bear off while the 14 is outside: one six is all there is.
    position = board(variant, {20: 1, 2: 14}, {17: 2, 1: 13})
    assert outcomes(position, (6, 6)) == {outcome({14: 1, 2: 14})}

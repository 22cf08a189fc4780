"""Golden cases of Plakoto, reasoned out by hand from DOMAIN.md section 8 (rules V-PLAKOTO-*).

The sides travel in opposite directions: the opponent's point p is the mover's 25 - p.
"""

from __future__ import annotations

from domain.variants import Variant, VariantBoard, VariantResult, variant_legal_plays
from tests.domain.variants.boards import board, outcome, outcomes


def test_the_game_starts_with_all_fifteen_on_each_side_s_24_point() -> None:
    # rules V-START-1, V-PLAKOTO-1: 6-5 plays 24/18 24/19 or one checker 24/13.
    start = VariantBoard.starting(Variant.PLAKOTO)
    assert start == board("plakoto", {24: 15}, {24: 15})
    assert outcomes(start, (6, 5)) == {
        outcome({24: 13, 19: 1, 18: 1}),
        outcome({24: 14, 13: 1}),
    }


def test_landing_on_a_lone_opposing_checker_pins_it() -> None:
    # rule V-PLAKOTO-2: the opponent's 16 is the mover's 9; 12/9 pins it, 9/8 moves on.
    position = board("plakoto", {24: 14, 12: 1}, {24: 14, 16: 1})
    assert outcomes(position, (3, 1)) == {
        outcome({24: 13, 23: 1, 9: 1}, (16,)),
        outcome({24: 14, 8: 1}),
        outcome({24: 13, 21: 1, 11: 1}),
        outcome({24: 13, 20: 1, 12: 1}),
        outcome({24: 12, 23: 1, 21: 1, 12: 1}),
    }


def test_two_opposing_checkers_block_the_point() -> None:
    # rule V-PLAKOTO-3: the mover's 9 holds two of the opponent's: 12/9 is not a step.
    position = board("plakoto", {24: 14, 12: 1}, {24: 13, 16: 2})
    found = outcomes(position, (3, 1))
    assert len(found) == 4
    assert all(9 not in dict(points) for points, _, _ in found)


def test_no_step_lands_where_the_mover_s_own_checker_is_pinned() -> None:
    # rule V-PLAKOTO-3: one opposing checker sits on the mover's pinned checker on its 9;
    # 12/9 may not land there, and the pinned checker cannot move (V-PLAKOTO-2).
    position = board("plakoto", {24: 13, 12: 1, 9: 1}, {24: 14, 16: 1}, pinned_mine=(9,))
    plays = variant_legal_plays(position, (3, 1))
    assert len(plays) == 4
    assert all(play.board.opponent[9] == 1 for play in plays)
    assert all(play.board.pinned_opponent == (9,) for play in plays)


def test_hit_and_run_releases_the_pinned_checker_at_once() -> None:
    # rules V-PLAKOTO-2, V-PLAKOTO-4: 10/8 pins the opponent's 17, 8/7 frees it again.
    position = board("plakoto", {24: 14, 10: 1}, {24: 14, 17: 1})
    assert outcomes(position, (2, 1)) == {
        outcome({24: 14, 7: 1}),
        outcome({24: 13, 23: 1, 8: 1}, (17,)),
        outcome({24: 13, 22: 1, 9: 1}),
        outcome({24: 13, 21: 1, 10: 1}),
        outcome({24: 12, 23: 1, 22: 1, 10: 1}),
    }


def test_a_released_checker_moves_in_its_owner_s_next_turn() -> None:
    # rule V-PLAKOTO-4: the pinner leaves the mover's 8, the opponent's 17 is free.
    position = board("plakoto", {24: 14, 8: 1}, {24: 14, 17: 1}, pinned_theirs=(17,))
    plays = variant_legal_plays(position, (2, 1))
    assert outcome({24: 14, 5: 1}) in outcomes(position, (2, 1))
    assert outcome({24: 12, 23: 1, 22: 1, 8: 1}, (17,)) in outcomes(position, (2, 1))
    released = next(play for play in plays if play.board.opponent[5] == 1)
    assert released.board.pinned_on_roll == ()
    assert any(play.steps[0].source == 17 for play in variant_legal_plays(released.board, (6, 5)))


def test_no_bear_off_while_a_checker_of_the_side_is_pinned_even_at_home() -> None:
    # rules V-PLAKOTO-6, V-OFF-1: the mover's 5 is pinned (the opponent's 20 sits on it), the
    # mover's 1 is the opponent's 24 with 13 checkers: 2/off and 2/1 are both out.
    pinned = board("plakoto", {2: 1, 5: 1}, {20: 1, 24: 13}, pinned_mine=(5,))
    assert variant_legal_plays(pinned, (2, 1)) == ()
    free = board("plakoto", {2: 1, 5: 1}, {10: 1, 24: 13})
    assert outcomes(free, (2, 1)) == {outcome({4: 1}), outcome({2: 2})}


def test_pinning_the_opposing_mother_with_an_empty_24_point_wins_two_points() -> None:
    # rule V-PLAKOTO-7: the opponent's last checker on its 24 (the mover's 1) is pinned by
    # 3/1, and the mover has nothing on its own 24-point: "mother", 2 points.
    position = board("plakoto", {3: 1, 10: 14}, {24: 1, 5: 14})
    found = outcomes(position, (6, 2))
    assert outcome({10: 13, 4: 1, 1: 1}, (24,), "mother") in found
    assert all(result == "mother" for _, pins, result in found if 24 in pins)
    assert outcome({10: 12, 8: 1, 4: 1, 3: 1}) in found
    assert VariantResult.MOTHER.points == 2


def test_the_mother_win_waits_until_the_mover_s_own_24_point_is_empty() -> None:
    # rule V-PLAKOTO-7: with checkers still on its 24 the game goes on ...
    position = board("plakoto", {3: 1, 24: 2, 10: 12}, {24: 1, 5: 14})
    pinning = [play for play in variant_legal_plays(position, (6, 2)) if play.board.pinned_on_roll]
    assert pinning
    assert all(play.game_result is None for play in pinning)
    # ... and is won by the first play after which the 24-point is empty.
    later = board("plakoto", {24: 1, 1: 1, 10: 13}, {24: 1, 5: 14}, pinned_theirs=(24,))
    plays = variant_legal_plays(later, (6, 5))
    assert {play.game_result for play in plays} == {VariantResult.MOTHER, None}
    for play in plays:
        emptied = play.board.opponent[24] == 0
        assert (play.game_result is VariantResult.MOTHER) == emptied


def test_pinning_the_opposing_mother_while_one_s_own_is_pinned_is_a_draw() -> None:
    # rule V-PLAKOTO-8: the opponent's 1 sits on the mover's 24-point checker; 3/1 pins the
    # opponent's mother: a draw, 0 points.
    position = board("plakoto", {24: 1, 3: 1, 10: 13}, {1: 1, 24: 1, 5: 13}, pinned_mine=(24,))
    found = outcomes(position, (6, 2))
    assert outcome({24: 1, 10: 12, 4: 1, 1: 1}, (24,), "draw") in found
    assert VariantResult.DRAW.points == 0


def test_a_board_whose_game_is_over_has_no_plays() -> None:
    # API.md: the on-roll side's mother pinned while the opponent's 24-point is empty (a lost
    # game), or both mothers pinned (a draw).
    lost = board("plakoto", {24: 1, 10: 14}, {1: 1, 10: 14}, pinned_mine=(24,))
    assert variant_legal_plays(lost, (6, 5)) == ()
    both = board(
        "plakoto",
        {24: 1, 1: 1, 10: 13},
        {1: 1, 24: 1, 10: 13},
        pinned_mine=(24,),
        pinned_theirs=(24,),
    )
    assert variant_legal_plays(both, (6, 5)) == ()


def test_blocks_of_any_length_are_allowed() -> None:
    # rule V-PLAKOTO-5: seven points in a row (8..14), the opponent all behind them.
    position = board("plakoto", {14: 5, 12: 2, 11: 2, 10: 2, 9: 2, 8: 2}, {24: 15})
    assert outcome({14: 1, 13: 4, 12: 2, 11: 2, 10: 2, 9: 2, 8: 2}) in outcomes(position, (1, 1))


def test_bearing_off_the_last_checker_is_checked_first_single_or_gammon() -> None:
    # rules V-PLAKOTO-9, V-WIN-1: 2 if the loser bore off none, 1 otherwise.
    assert outcomes(board("plakoto", {1: 1}, {10: 15}), (3, 1)) == {outcome({}, (), "gammon")}
    assert outcomes(board("plakoto", {1: 1}, {10: 14}), (3, 1)) == {outcome({}, (), "single")}

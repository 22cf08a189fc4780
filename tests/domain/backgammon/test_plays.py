"""Legal plays: golden counts, the rules one by one, and properties over random positions."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.backgammon import (
    APP_RULES,
    BAR_POINT,
    OFF,
    GameResult,
    IllegalPlayError,
    InvalidDiceError,
    Move,
    Position,
    apply_play,
    legal_plays,
)


def side(points: dict[int, int], bar: int = 0) -> tuple[int, ...]:
    """A side from {point: checkers}; the rest of 15 are borne off."""
    counts = [0] * 25
    for point, count in points.items():
        counts[point - 1] = count
    counts[24] = bar
    return tuple(counts)


def plays_as_sets(position: Position, dice: tuple[int, int]) -> set[frozenset[tuple[int, int]]]:
    return {
        frozenset((m.source, m.destination) for m in play.moves)
        for play in legal_plays(position, dice)
    }


@pytest.mark.parametrize(
    ("dice", "count"),
    [((6, 6), 11), ((5, 5), 4), ((6, 5), 7)],
)
def test_opening_position_has_the_hand_counted_number_of_plays(
    dice: tuple[int, int], count: int
) -> None:
    # rule G-MOVE-1: the start position's plays, one per distinct resulting position.
    assert len(legal_plays(Position.starting(), dice)) == count


def test_start_position_id_is_gnubgs() -> None:
    # rule G-SETUP-1
    assert Position.starting().position_id == "4HPwATDgc/ABMA"
    assert Position.starting().pip_counts == (167, 167)


def test_every_play_of_the_start_is_listed_once_per_resulting_position() -> None:
    plays = legal_plays(Position.starting(), (3, 1))
    assert len({play.position_id for play in plays}) == len(plays)
    assert frozenset({(8, 5), (6, 5)}) in plays_as_sets(Position.starting(), (3, 1))


def test_a_checker_on_the_bar_must_enter_before_any_other_move() -> None:
    # rule G-BAR-1
    position = Position(side({6: 5, 8: 3, 13: 4, 24: 2}, bar=1), side({6: 5, 8: 3, 13: 5, 24: 2}))
    for play in legal_plays(position, (4, 2)):
        assert play.moves[0].source == BAR_POINT


def test_a_closed_board_means_no_play_at_all() -> None:
    # rules G-BAR-1, G-MAX-1: nothing can enter, so the turn passes.
    closed = side({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 3})
    position = Position(side({13: 14}, bar=1), closed)
    assert legal_plays(position, (6, 5)) == ()


def test_when_only_one_die_can_be_played_the_larger_must_be() -> None:
    # rule G-MAX-1: 13/7 and 13/10 are each possible, but point 4 (their 21) is blocked.
    position = Position(side({13: 1}), side({21: 2, 1: 2}))
    assert plays_as_sets(position, (6, 3)) == {frozenset({(13, 7)})}


def test_when_only_the_smaller_die_can_be_played_it_is_played() -> None:
    # rule G-MAX-1: the 6 is blocked (their 18 = my 7), the 3 is not, and 10/4 is blocked.
    position = Position(side({13: 1}), side({18: 2, 21: 2}))
    assert plays_as_sets(position, (6, 3)) == {frozenset({(13, 10)})}


def test_a_blocked_point_cannot_be_landed_on_but_a_blot_is_hit() -> None:
    # rule G-MOVE-2
    position = Position(side({13: 2}), side({19: 2, 15: 1}))  # their 19 = my 6, their 15 = my 10
    plays = legal_plays(position, (3, 1))
    destinations = {m.destination for p in plays for m in p.moves}
    assert 6 not in destinations
    hitting = [p for p in plays if any(m.hit for m in p.moves)]
    assert hitting
    assert all(p.position.on_roll[24] == 1 for p in hitting)


def test_bear_off_uses_a_higher_die_only_from_the_highest_point() -> None:
    # rule G-OFF-1: a 6 with nothing on the 6-point bears off from the highest point.
    position = Position(side({4: 1, 2: 1}), side({12: 2}))
    assert plays_as_sets(position, (6, 5)) == {frozenset({(4, OFF), (2, OFF)})}


def test_bearing_off_waits_until_every_checker_is_home() -> None:
    # rule G-OFF-1
    position = Position(side({7: 1, 1: 2}), side({12: 2}))
    for play in legal_plays(position, (6, 1)):
        assert play.moves[0].source == 7


def test_bearing_off_the_last_checker_ends_the_game_with_the_right_result() -> None:
    # rule G-WIN-1
    single = Position(side({1: 1}), side({20: 14}))
    gammon = Position(side({1: 1}), side({12: 15}))
    backgammon = Position(side({1: 1}), side({20: 14, 23: 1}))
    assert [p.game_result for p in legal_plays(single, (2, 1))] == [GameResult.SINGLE]
    assert [p.game_result for p in legal_plays(gammon, (2, 1))] == [GameResult.GAMMON]
    assert [p.game_result for p in legal_plays(backgammon, (2, 1))] == [GameResult.BACKGAMMON]
    assert GameResult.BACKGAMMON.multiplier == 3


def test_app_rules_forbid_wasting_pips_when_another_order_wastes_less() -> None:
    # rule G-OFF-2 (preset "app", off by default): 6/off 1/off wastes 4 pips, 6/1 1/off 5.
    position = Position(side({6: 1, 1: 1}), side({12: 2}))
    both_orders = {frozenset({(6, OFF), (1, OFF)}), frozenset({(6, 1), (1, OFF)})}
    assert plays_as_sets(position, (6, 5)) == both_orders
    app = legal_plays(position, (6, 5), APP_RULES)
    assert [{(m.source, m.destination) for m in play.moves} for play in app] == [
        {(6, OFF), (1, OFF)}
    ]


@pytest.mark.parametrize("dice", [(0, 3), (7, 1), (1,), (1, 2, 3)])
def test_dice_outside_one_to_six_are_rejected(dice: tuple[int, ...]) -> None:
    with pytest.raises(InvalidDiceError):
        legal_plays(Position.starting(), dice)


def test_apply_play_refuses_a_move_onto_a_blocked_point() -> None:
    with pytest.raises(IllegalPlayError, match="blocked"):
        apply_play(Position.starting(), [Move(24, 19)])


@st.composite
def reachable_positions(draw: st.DrawFn) -> tuple[Position, tuple[int, int]]:
    """A position reached by random legal play from the start, and a roll."""
    position = Position.starting()
    for _ in range(draw(st.integers(0, 60))):
        roll = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
        plays = legal_plays(position, roll)
        if not plays:
            position = position.swap_sides()
            continue
        play = plays[draw(st.integers(0, len(plays) - 1))]
        if play.game_result:
            break
        position = play.position
    return position, (draw(st.integers(1, 6)), draw(st.integers(1, 6)))


@settings(max_examples=150, deadline=None)
@given(reachable_positions())
def test_every_legal_play_keeps_fifteen_checkers_a_side(
    case: tuple[Position, tuple[int, int]],
) -> None:
    position, roll = case
    for play in legal_plays(position, roll):
        after = play.position
        assert sum(after.opponent) + after.borne_off[1] == 15
        assert sum(after.on_roll) + after.borne_off[0] == 15
        assert after.borne_off[0] == position.borne_off[1]
        assert Position.from_position_id(play.position_id) == after


def naive_single_moves(position: Position, die: int) -> list[tuple[int, int]]:
    """Every one-die move, straight from the rules' words (slow and simple on purpose)."""
    mine, theirs = position.on_roll, position.opponent

    def is_open(point: int) -> bool:
        return theirs[24 - point] < 2

    if mine[24]:  # rule G-BAR-1
        return [(BAR_POINT, 25 - die)] if is_open(25 - die) else []
    moves = []
    all_home = not any(mine[6:25])
    for point in range(1, 25):
        if not mine[point - 1]:
            continue
        if point - die >= 1:
            if is_open(point - die):
                moves.append((point, point - die))
        elif all_home and (point == die or not any(mine[point:6])):  # rule G-OFF-1
            moves.append((point, OFF))
    return moves


@settings(max_examples=150, deadline=None)
@given(reachable_positions())
def test_no_play_exists_exactly_when_no_die_can_move(
    case: tuple[Position, tuple[int, int]],
) -> None:
    # rule G-MAX-1: the turn passes only when not a single die can be played.
    position, roll = case
    some_die_moves = any(naive_single_moves(position, die) for die in set(roll))
    assert bool(legal_plays(position, roll)) == some_die_moves


@settings(max_examples=150, deadline=None)
@given(reachable_positions())
def test_all_plays_use_the_same_number_of_dice(case: tuple[Position, tuple[int, int]]) -> None:
    # rule G-MAX-1: as many dice as possible, the same number for every legal play.
    position, roll = case
    assert len({len(play.moves) for play in legal_plays(position, roll)}) <= 1

"""Positions and GNU Backgammon's Position ID: golden values, validation, round trips."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domain.backgammon import InvalidPositionError, Position


def test_start_position_decodes_from_gnubgs_id() -> None:
    # rule G-SETUP-1: 2 on 24, 5 on 13, 3 on 8, 5 on 6 for each side.
    position = Position.from_position_id("4HPwATDgc/ABMA")
    assert position == Position.starting()
    assert position.on_roll[23] == 2
    assert position.on_roll[12] == 5
    assert position.on_roll[7] == 3
    assert position.on_roll[5] == 5


def test_gnubg_encodes_the_side_not_on_roll_first() -> None:
    # After 8/4 6/4 gnubg shows mGfwATDgc/ABMA with the opponent (unchanged) on roll.
    position = Position.from_position_id("mGfwATDgc/ABMA")
    assert position.on_roll == Position.starting().on_roll
    assert position.opponent[3] == 2
    assert position.opponent[5] == 4
    assert position.opponent[7] == 2


def test_swapping_sides_twice_gives_the_same_position() -> None:
    position = Position.from_position_id("mGfwATDgc/ABMA")
    assert position.swap_sides().swap_sides() == position
    assert position.swap_sides().position_id != position.position_id


@pytest.mark.parametrize(
    ("position_id", "reason"),
    [
        ("4HPwATDgc/ABM", "14 characters"),
        ("4HPwATDgc/AB!A", "base64"),
        ("//////////////", "more than 15"),
        ("AAAAAAAAAAAAAA", "no checkers"),
    ],
)
def test_malformed_position_ids_are_rejected_with_the_reason(position_id: str, reason: str) -> None:
    with pytest.raises(InvalidPositionError, match=reason):
        Position.from_position_id(position_id)


def test_a_point_held_by_both_sides_is_rejected() -> None:
    on_roll = (1,) + (0,) * 24
    opponent = (0,) * 23 + (1, 0)  # the opponent's 24-point is the mover's 1-point
    with pytest.raises(InvalidPositionError, match="both sides"):
        Position(on_roll, opponent)


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Any legal board: up to 15 checkers a side, never two sides on one point."""
    on_roll = [0] * 25
    opponent = [0] * 25
    for counts, other in ((on_roll, opponent), (opponent, on_roll)):
        for _ in range(draw(st.integers(1, 15))):
            index = draw(st.integers(0, 24))
            if index == 24 or not other[23 - index]:
                counts[index] += 1
    return Position(tuple(on_roll), tuple(opponent))


@settings(deadline=None)
@given(positions())
def test_position_id_round_trips(position: Position) -> None:
    assert Position.from_position_id(position.position_id) == position
    assert len(position.position_id) == 14


@settings(deadline=None)
@given(positions())
def test_pip_counts_weigh_each_checker_by_its_distance(position: Position) -> None:
    mover, _ = position.pip_counts
    assert mover == sum((i + 1) * n for i, n in enumerate(position.on_roll))

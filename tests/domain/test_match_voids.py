"""Rolls that do not count (rule G-DICE-2) and the USBGF overtime of the club clock (rule
G-CLOCK-1): given events, when a command, then events or an error."""

from __future__ import annotations

from datetime import timedelta

import pytest

from domain.errors import InvalidInputError
from domain.events import fold
from domain.match import (
    ClockFlagged,
    ClockNotExpiredError,
    CubeNotAvailableError,
    DiceRolled,
    MatchOverError,
    MatchWon,
    RollNotVoidableError,
    RollVoided,
    RollVoidRequested,
    TimeoutClaimed,
    claim_timeout,
    clock_expires_at,
    double,
    evolve,
    flag_clock,
    offer_resignation,
    play,
    reject_resignation,
    roll,
    void_roll,
)
from tests.domain.test_match import T0, Table, board, started_game, types

CLOSED_BOARD = board(p1=2, p2=2, p3=2, p4=2, p5=2, p6=5)
"""Side b's six home points made: a checker of side a on the bar cannot enter."""


# --- G-DICE-2: who voids ----------------------------------------------------------------


def test_a_director_voids_the_latest_roll_at_once_and_its_roller_rolls_again() -> None:
    # rule G-DICE-2: a roll that does not count is voided and rolled again
    table = Table()
    started_game(table)
    table.do(roll, side="b", dice=(6, 5))

    events = table.do(void_roll, side=None, reason="a die cocked", director=True)

    [voided] = events
    assert isinstance(voided, RollVoided)
    assert (voided.side, voided.dice, voided.reason, voided.by) == (
        "b",
        (6, 5),
        "a die cocked",
        "director",
    )
    assert voided.roll_version == table.state.version - 1
    state = table.state
    assert (state.phase, state.on_roll, state.dice, state.plays()) == ("roll", "b", None, ())


def test_a_players_request_alone_voids_nothing_the_opponents_request_too_voids_it() -> None:
    # rule G-DICE-2: "a director or both players can void it"
    table = Table()
    started_game(table)
    table.do(roll, side="b", dice=(6, 5))

    asked = table.do(void_roll, side="b", reason="die on a checker")

    assert types(asked) == ["RollVoidRequested"]
    assert isinstance(asked[0], RollVoidRequested)
    assert (table.state.phase, table.state.dice) == ("move", (6, 5))  # the roll still counts
    assert table.state.latest_roll is not None
    assert table.state.latest_roll.void_asked_by == "b"

    agreed = table.do(void_roll, side="a", reason="yes, it was on a checker")

    assert types(agreed) == ["RollVoided"]
    assert isinstance(agreed[0], RollVoided)
    assert (agreed[0].by, agreed[0].side) == ("players", "b")
    assert (table.state.phase, table.state.on_roll) == ("roll", "b")


def test_the_same_player_asking_twice_does_not_void_the_roll() -> None:
    # rule G-DICE-2: both players, not one player twice
    table = Table()
    started_game(table)
    table.do(roll, side="b", dice=(6, 5))
    table.do(void_roll, side="a", reason="cocked")

    with pytest.raises(RollNotVoidableError, match="side b asks too"):
        table.do(void_roll, side="a", reason="really cocked")
    assert table.state.phase == "move"


def test_a_request_lapses_when_the_roll_is_played() -> None:
    # rule G-DICE-2: the roll counts once a play is made from it
    table = Table()
    started_game(table)
    table.do(roll, side="b", dice=(6, 5))
    table.do(void_roll, side="a", reason="cocked")

    table.do(play, side="b", notation="24/13")

    assert table.state.latest_roll is None
    with pytest.raises(RollNotVoidableError, match="no roll to void"):
        table.do(void_roll, side="b", reason="cocked after all")


def test_a_voided_opening_roll_makes_the_opening_roll_due_again() -> None:
    # rules G-DICE-2 and G-OPEN-1: one die each, again
    table = Table()
    table.opening(3, 1)

    [voided] = table.do(void_roll, side=None, reason="die off the board", director=True)

    assert isinstance(voided, RollVoided)
    assert (voided.side, voided.dice) == (None, (3, 1))
    state = table.state
    assert (state.phase, state.on_roll, state.dice, state.opening_roll) == (
        "opening",
        None,
        None,
        None,
    )
    table.opening(2, 6)
    assert (table.state.on_roll, table.state.dice) == ("b", (6, 2))


def test_a_voided_roll_that_passed_the_turn_gives_the_turn_back_to_its_roller() -> None:
    # rules G-DICE-2 and G-MAX-1: the pass was the roll's only effect
    table = Table()
    table.opening(3, 1)
    table.reach("a", board(bar=1, p12=14), CLOSED_BOARD)
    passed = table.do(roll, side="a", dice=(6, 6))
    assert types(passed) == ["DiceRolled", "TurnPassed"]
    assert table.state.on_roll == "b"

    [voided] = table.do(void_roll, side=None, reason="die off the board", director=True)

    assert isinstance(voided, RollVoided)
    assert (table.state.phase, table.state.on_roll) == ("roll", "a")


def test_a_passed_roll_counts_once_the_opponent_has_rolled() -> None:
    # rule G-DICE-2: only the latest roll is voided
    table = Table()
    table.opening(3, 1)
    table.reach("a", board(bar=1, p12=14), CLOSED_BOARD)
    table.do(roll, side="a", dice=(6, 6))
    table.do(roll, side="b", dice=(2, 1))

    [voided] = table.do(void_roll, side=None, reason="cocked", director=True)

    assert isinstance(voided, RollVoided)
    assert (voided.side, voided.dice) == ("b", (2, 1))
    assert (table.state.phase, table.state.on_roll) == ("roll", "b")


def test_the_roll_is_rolled_again_without_a_new_cube_decision() -> None:
    # rule G-DICE-2: the roller had chosen to roll, not to double
    table = Table()
    started_game(table)
    table.do(roll, side="b", dice=(6, 5))
    table.do(void_roll, side=None, reason="cocked", director=True)

    with pytest.raises(CubeNotAvailableError, match="rolls again"):
        table.do(double, side="b")
    rolled = table.do(roll, side="b", dice=(4, 2))
    assert isinstance(rolled[0], DiceRolled)
    assert table.state.reroll_due is False


# --- G-DICE-2: when not -------------------------------------------------------------------


def test_there_is_nothing_to_void_before_any_roll_or_after_a_play() -> None:
    table = Table()
    with pytest.raises(RollNotVoidableError):
        table.do(void_roll, side=None, reason="cocked", director=True)
    started_game(table)
    with pytest.raises(RollNotVoidableError, match="no roll to void"):
        table.do(void_roll, side="a", reason="cocked")


def test_a_roll_is_not_voided_while_a_resignation_awaits_its_answer() -> None:
    table = Table()
    started_game(table)
    table.do(roll, side="b", dice=(6, 5))
    table.do(offer_resignation, side="b", level="single")

    with pytest.raises(RollNotVoidableError, match="resignation"):
        table.do(void_roll, side=None, reason="cocked", director=True)
    table.do(reject_resignation, side="a")
    assert types(table.do(void_roll, side=None, reason="cocked", director=True)) == ["RollVoided"]


def test_a_void_needs_a_reason() -> None:
    table = Table()
    table.opening(3, 1)
    with pytest.raises(InvalidInputError) as error:
        table.do(void_roll, side=None, reason="   ", director=True)
    assert error.value.field == "reason"


def test_nothing_is_voided_after_the_match() -> None:
    table = Table(clock="club", match_length=1)
    table.opening(3, 1)
    table.wait(120)
    table.do(claim_timeout, side="b")
    with pytest.raises(MatchOverError):
        table.do(void_roll, side=None, reason="cocked", director=True)


def test_a_voided_server_roll_is_rolled_again_from_the_next_index_of_the_seed() -> None:
    # rules G-DICE-1 and G-DICE-2: every roll of the seed stays verifiable, the voided one too
    table = Table(dice_mode="server", seed_commitment="c" * 64, sealed_seed="d" * 64)
    table.do(roll, side=None, dice=(3, 1), roll_index=0)
    table.do(void_roll, side=None, reason="app froze", director=True)

    assert table.state.server_rolls == 1
    table.do(roll, side=None, dice=(5, 2), roll_index=1)
    assert table.state.dice == (5, 2)


def test_replay_at_every_version_shows_the_roll_then_its_void() -> None:
    table = Table()
    started_game(table)
    table.do(roll, side="b", dice=(6, 5))
    table.do(void_roll, side="a", reason="cocked")
    table.do(void_roll, side="b", reason="cocked")

    phases = [
        (state.phase, state.dice)
        for state in (fold(evolve, None, table.events[:n]) for n in (5, 6, 7))
        if state is not None
    ]

    assert phases == [("move", (6, 5)), ("move", (6, 5)), ("roll", None)]


# --- G-CLOCK-1: the USBGF overtime --------------------------------------------------------


def test_the_overtime_is_an_option_of_the_club_clock_of_one_or_two_minutes() -> None:
    # rule G-CLOCK-1: "one overtime of 1 or 2 minutes"
    assert Table(clock="club", clock_overtime_seconds=60).state.preset.overtime_ms == 60_000
    with pytest.raises(InvalidInputError) as error:
        Table(clock="club", clock_overtime_seconds=90)
    assert error.value.field == "clock_overtime_seconds"
    with pytest.raises(InvalidInputError, match="club clock"):
        Table(clock="app", clock_overtime_seconds=60)


def test_the_first_expiry_starts_the_overtime_and_cannot_be_claimed() -> None:
    # rule G-CLOCK-1 (USBGF): one overtime after the first expiry
    table = Table(clock="club", match_length=1, clock_overtime_seconds=60)
    table.opening(3, 1)
    table.wait(150)  # 2 minutes of reserve, then 30 s of the overtime

    reading = table.state.clock.read(table.state.preset, "a", table.now)
    assert (reading.overtime, reading.expired, reading.reserve_ms) == (True, False, 30_000)
    with pytest.raises(ClockNotExpiredError, match=r"30\.0 s .*overtime"):
        table.do(claim_timeout, side="b")
    assert flag_clock(table.state, table.now, actor="scheduler") == []


def test_the_second_expiry_loses_the_match() -> None:
    # rule G-CLOCK-1 (USBGF): the second expiry loses
    table = Table(clock="club", match_length=1, clock_overtime_seconds=60)
    table.opening(3, 1)
    table.wait(180)

    events = table.do(claim_timeout, side="b")

    assert types(events) == ["TimeoutClaimed", "MatchWon"]
    assert isinstance(events[0], TimeoutClaimed)
    assert (events[0].reserve_ms, events[0].overtime_ms, events[0].used_ms) == (
        120_000,
        60_000,
        180_000,
    )
    assert isinstance(events[1], MatchWon)
    assert (events[1].winner, events[1].reason) == ("b", "timeout")


def test_the_overtime_is_drawn_once_the_next_expiry_loses_in_a_later_move() -> None:
    # rule G-CLOCK-1 (USBGF): one overtime, not one per move
    table = Table(clock="club", match_length=1, clock_overtime_seconds=120)
    table.opening(3, 1)
    table.wait(150)  # 30 s into the overtime
    table.do(play, side="a", notation="8/5 6/5")
    clock = table.state.clock
    # 120 s + 120 s - 150 s, and the Bronstein delay's 12 s back
    assert (clock.reserve_a_ms, clock.overtime_a, clock.overtime_b) == (102_000, True, False)
    table.do(roll, side="b", dice=(2, 1))
    table.do(play, side="b", notation="13/11 6/5")
    table.do(roll, side="a", dice=(2, 1))
    table.wait(102)

    events = table.do(claim_timeout, side="b")

    assert isinstance(events[-1], MatchWon)
    assert events[-1].winner == "b"


def test_the_scheduler_flags_only_the_expiry_that_loses() -> None:
    table = Table(clock="club", match_length=1, clock_overtime_seconds=60)
    table.opening(3, 1)

    assert clock_expires_at(table.state) == T0 + timedelta(seconds=180)  # 2 min + 1 min
    assert flag_clock(table.state, T0 + timedelta(seconds=179), actor="scheduler") == []
    [flag] = flag_clock(table.state, T0 + timedelta(seconds=180), actor="scheduler")

    assert isinstance(flag, ClockFlagged)
    assert (flag.used_ms, flag.overtime_ms) == (180_000, 60_000)

"""Clock presets and clock arithmetic on event timestamps (rules G-CLOCK-1, G-CLOCK-2)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from domain.clock import (
    APP,
    CLUB,
    NO_CLOCK,
    ONLINE30,
    PRESETS,
    MatchClock,
    elapsed_ms,
    with_overtime,
)

T0 = datetime(2026, 4, 18, 14, 0, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


@pytest.mark.parametrize(("length", "minutes"), [(7, 14), (11, 22), (1, 2)])
def test_the_club_gives_two_minutes_per_match_point(length: int, minutes: int) -> None:
    assert CLUB.initial_reserve(length) == minutes * 60_000


def test_the_presets_are_named_as_the_api_names_them() -> None:
    assert set(PRESETS) == {"club", "app", "online30", "none"}
    assert (APP.delay_ms, APP.reserve_ms, APP.timeout_outcome) == (11_000, 90_000, "gammon")
    assert (ONLINE30.delay_ms, ONLINE30.reserve_ms) == (30_000, 0)
    assert (CLUB.delay_ms, CLUB.bronstein, CLUB.timeout_outcome) == (12_000, True, "match")
    assert not NO_CLOCK.is_timed


def test_bronstein_gives_back_the_time_used_up_to_the_delay() -> None:
    assert CLUB.charge(60_000, 8_000) == 60_000  # within the delay: nothing lost
    assert CLUB.charge(60_000, 20_000) == 52_000  # 20 s used, 12 s given back


def test_bronstein_flag_falls_when_one_move_takes_the_whole_reserve() -> None:
    assert not CLUB.is_expired(10_000, 9_999)
    assert CLUB.is_expired(10_000, 10_000)  # the delay is given back only after the move
    assert CLUB.charge(10_000, 10_000) == 0


def test_simple_delay_spends_the_move_time_first_then_the_reserve() -> None:
    assert APP.charge(90_000, 11_000) == 90_000
    assert APP.charge(90_000, 41_000) == 60_000
    assert not APP.is_expired(90_000, 100_999)
    assert APP.is_expired(90_000, 101_000)  # 11 s + 1:30


def test_thirty_seconds_per_move_and_no_reserve_online() -> None:
    assert not ONLINE30.is_expired(0, 29_999)
    assert ONLINE30.is_expired(0, 30_000)
    assert ONLINE30.charge(0, 29_000) == 0


def test_no_clock_never_expires() -> None:
    assert not NO_CLOCK.is_expired(0, 10**9)


def test_switching_sides_charges_the_running_side_for_its_period() -> None:
    clock = MatchClock.start(CLUB, 7).switch(CLUB, "a", at(0))

    clock = clock.switch(CLUB, "b", at(42))

    assert (clock.reserve_a_ms, clock.reserve_b_ms) == (840_000 - 30_000, 840_000)
    assert (clock.running, clock.since) == ("b", at(42))


def test_a_reading_counts_down_the_running_side_only() -> None:
    clock = MatchClock.start(APP, 0).switch(APP, "a", at(0))

    reading = clock.read(APP, "a", at(20))
    idle = clock.read(APP, "b", at(20))

    assert (reading.reserve_ms, reading.delay_ms, reading.running) == (81_000, 0, True)
    assert (idle.reserve_ms, idle.delay_ms, idle.running) == (90_000, 11_000, False)
    assert not clock.read(APP, "a", at(100)).expired
    assert clock.read(APP, "a", at(101)).expired
    assert not clock.read(APP, "b", at(101)).expired


def test_elapsed_time_is_whole_milliseconds_and_never_negative() -> None:
    assert elapsed_ms(at(0), at(1.0015)) == 1001
    assert elapsed_ms(at(5), at(1)) == 0


def test_the_usbgf_overtime_is_added_once_at_the_first_expiry() -> None:
    # rule G-CLOCK-1 (USBGF option): one overtime of 1 or 2 minutes; the second expiry loses
    preset = with_overtime(CLUB, 60)
    clock = MatchClock.start(preset, 1).switch(preset, "a", at(0))

    assert not clock.read(preset, "a", at(120)).expired  # the first expiry: overtime begins
    assert clock.read(preset, "a", at(120)).overtime
    assert clock.read(preset, "a", at(180)).expired
    after = clock.switch(preset, "b", at(130))
    assert (after.reserve_a_ms, after.overtime_a) == (60_000 - 10_000 + 12_000, True)
    assert after.limit(preset, "a") == 62_000  # no second overtime
    assert MatchClock.start(CLUB, 1).limit(CLUB, "a") == 120_000  # without the option

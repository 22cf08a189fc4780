"""Dates, wall-clock times and deadlines in Europe/Berlin (rules CAL-2, CAL-3, T-CANCEL-1)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time
from zoneinfo import ZoneInfo

import pytest

from domain.calendar import (
    DeadlinePolicy,
    age_on,
    compute_deadlines,
    deadline_policy,
    local_instant,
    local_isoformat,
    parse_birth_date,
    parse_date,
    parse_time,
    readable_isoformat,
    weekday_before,
)
from domain.errors import InvalidInputError

BERLIN = ZoneInfo("Europe/Berlin")


def test_the_spring_tournament_deadlines_match_the_club_page() -> None:
    # rule T-CANCEL-1, T-CHECKIN-1: Saturday 18.04.2026 -> Thursday 16.04.2026 18:00 (CEST)
    deadlines = compute_deadlines(date(2026, 4, 18), BERLIN, DeadlinePolicy())
    assert deadlines.cancellation_until == datetime(2026, 4, 16, 16, 0, tzinfo=UTC)
    assert deadlines.check_in_opens == datetime(2026, 4, 18, 10, 30, tzinfo=UTC)
    assert deadlines.starts_at == datetime(2026, 4, 18, 11, 0, tzinfo=UTC)
    assert local_isoformat(deadlines.cancellation_until, BERLIN) == "2026-04-16T18:00:00+02:00"


def test_deadlines_in_winter_use_central_european_time() -> None:
    # rule CAL-3: DST-aware; 05.12.2026 is in CET (+01:00)
    deadlines = compute_deadlines(date(2026, 12, 5), BERLIN, DeadlinePolicy())
    assert local_isoformat(deadlines.cancellation_until, BERLIN) == "2026-12-03T18:00:00+01:00"
    assert deadlines.starts_at == datetime(2026, 12, 5, 12, 0, tzinfo=UTC)


def test_deadlines_on_either_side_of_the_clock_change_have_their_own_offset() -> None:
    # rule CAL-3: summer time starts on 29.03.2026; the Thursdays before 28.03. and 04.04.
    # lie on either side of it
    before = compute_deadlines(date(2026, 3, 28), BERLIN, DeadlinePolicy())
    after = compute_deadlines(date(2026, 4, 4), BERLIN, DeadlinePolicy())
    assert local_isoformat(before.cancellation_until, BERLIN) == "2026-03-26T18:00:00+01:00"
    assert local_isoformat(after.cancellation_until, BERLIN) == "2026-04-02T18:00:00+02:00"


def test_a_wall_time_in_the_spring_forward_gap_falls_an_hour_later() -> None:
    # 29.03.2026 02:30 does not exist in Berlin: read with the offset before the change
    instant = local_instant(date(2026, 3, 29), time(2, 30), BERLIN)
    assert instant == datetime(2026, 3, 29, 1, 30, tzinfo=UTC)
    assert local_isoformat(instant, BERLIN) == "2026-03-29T03:30:00+02:00"


def test_an_instant_is_shown_to_people_to_the_second() -> None:
    # an event's timestamp carries microseconds; messages and CSV cells never show them
    recorded = datetime(2026, 4, 18, 10, 30, 0, 999999, tzinfo=UTC)
    assert local_isoformat(recorded, BERLIN) == "2026-04-18T12:30:00+02:00"
    assert readable_isoformat(recorded) == "2026-04-18T10:30:00+00:00"


@pytest.mark.parametrize(
    ("play_date", "weekday", "expected"),
    [
        (date(2026, 4, 18), 3, date(2026, 4, 16)),  # Saturday -> Thursday two days before
        (date(2026, 4, 16), 3, date(2026, 4, 9)),  # a Thursday -> the Thursday a week before
        (date(2026, 4, 17), 3, date(2026, 4, 16)),  # Friday -> the day before
        (date(2027, 1, 2), 3, date(2026, 12, 31)),  # across the year end (Winterturnier)
    ],
)
def test_the_weekday_before_a_play_date_is_strictly_before_it(
    play_date: date, weekday: int, expected: date
) -> None:
    assert weekday_before(play_date, weekday) == expected


def test_deadlines_follow_a_configured_policy() -> None:
    policy = deadline_policy(
        cancellation_weekday="friday",
        cancellation_time="12:00",
        check_in_time="10:00",
        start_time="10:30",
    )
    deadlines = compute_deadlines(date(2026, 4, 18), BERLIN, policy)
    assert local_isoformat(deadlines.cancellation_until, BERLIN) == "2026-04-17T12:00:00+02:00"
    assert local_isoformat(deadlines.starts_at, BERLIN) == "2026-04-18T10:30:00+02:00"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2026-04-18", date(2026, 4, 18)),
        ("18.04.2026", date(2026, 4, 18)),  # the club's notation (seed 000)
        ("01.03.26", date(2026, 3, 1)),
        ("28.02.27", date(2027, 2, 28)),
        ("2028-02-29", date(2028, 2, 29)),
    ],
)
def test_dates_are_read_in_iso_and_in_the_clubs_notation(text: str, expected: date) -> None:
    assert parse_date("date", text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("31.11.26", "31.11.26 does not exist: November 2026 has 30 days"),  # rule CAL-2
        ("2026-11-31", "2026-11-31 does not exist: November 2026 has 30 days"),
        ("2027-02-29", "2027-02-29 does not exist: February 2027 has 28 days"),
        ("2026-13-01", "2026-13-01 does not exist: there is no month 13"),
        ("next saturday", "'next saturday' is not a date; use YYYY-MM-DD"),
        ("", "'' is not a date; use YYYY-MM-DD"),
    ],
)
def test_an_impossible_date_is_rejected_naming_the_field(text: str, message: str) -> None:
    # rule CAL-2
    with pytest.raises(InvalidInputError) as raised:
        parse_date("ends_on", text)
    assert raised.value.field == "ends_on"
    assert raised.value.message == message


@pytest.mark.parametrize("text", ["24:00", "12:60", "noon", "1230"])
def test_a_time_of_day_must_be_hh_mm(text: str) -> None:
    with pytest.raises(InvalidInputError) as raised:
        parse_time("cancellation_time", text)
    assert raised.value.field == "cancellation_time"


def test_check_in_must_open_before_the_start() -> None:
    with pytest.raises(InvalidInputError) as raised:
        deadline_policy(
            cancellation_weekday="thursday",
            cancellation_time="18:00",
            check_in_time="13:00",
            start_time="13:00",
        )
    assert raised.value.field == "check_in_time"


def test_an_unknown_weekday_is_rejected_naming_the_field() -> None:
    with pytest.raises(InvalidInputError) as raised:
        deadline_policy(
            cancellation_weekday="donnerstag",
            cancellation_time="18:00",
            check_in_time="12:30",
            start_time="13:00",
        )
    assert raised.value.field == "cancellation_weekday"


@pytest.mark.parametrize(
    ("birth_date", "day", "age"),
    [
        (date(2008, 4, 18), date(2026, 4, 18), 18),  # the 18th birthday on the play date
        (date(2008, 4, 19), date(2026, 4, 18), 17),
        (date(2008, 2, 29), date(2026, 2, 28), 17),
        (date(2008, 2, 29), date(2026, 3, 1), 18),
    ],
)
def test_age_counts_completed_years(birth_date: date, day: date, age: int) -> None:
    assert age_on(birth_date, day) == age


@pytest.mark.parametrize(
    "text", ["0001-01-01", "0000-01-01", "1899-12-31", "3000-01-01", "9999-12-31"]
)
def test_a_year_outside_1900_to_2999_is_rejected_naming_the_field(text: str) -> None:
    # rule CAL-2: "0001-01-01" as a play date used to overflow when the deadlines were computed
    with pytest.raises(InvalidInputError) as raised:
        parse_date("date", text)
    assert raised.value.field == "date"
    assert "between 1900 and 2999" in raised.value.message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("05.07.85", date(1985, 7, 5)),  # 2085 would lie after the play date
        ("05.07.08", date(2008, 7, 5)),
        ("18.04.26", date(2026, 4, 18)),  # the play date itself is still 20YY
        ("19.04.26", date(1926, 4, 19)),  # the day after it is not
        ("05.07.1985", date(1985, 7, 5)),
        ("1900-01-01", date(1900, 1, 1)),
    ],
)
def test_a_two_digit_birth_year_is_of_the_last_century_when_20yy_is_after_the_play_date(
    text: str, expected: date
) -> None:
    # rule T-REG-1: birth dates in the club's DD.MM.YY notation
    assert parse_birth_date("birth_date", text, date(2026, 4, 18)) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1899-12-31", "1899-12-31: the year must lie between 1900 and 2999, not 1899"),
        ("0001-01-01", "0001-01-01: the year must lie between 1900 and 2999, not 1"),
        ("2000-01-01", "2000-01-01 lies after the play date 1999-12-31"),
        ("29.02.00", "29.02.00 does not exist: February 1900 has 28 days"),  # 2000 is too late
    ],
)
def test_a_birth_date_lies_between_1900_and_the_play_date(text: str, message: str) -> None:
    with pytest.raises(InvalidInputError) as raised:
        parse_birth_date("birth_date", text, date(1999, 12, 31))
    assert raised.value.field == "birth_date"
    assert raised.value.message == message

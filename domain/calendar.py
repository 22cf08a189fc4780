"""Dates, wall-clock times and tournament deadlines in the club's time zone (rules CAL-2, CAL-3)."""

from __future__ import annotations

import calendar
import re
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

import msgspec

from domain.errors import InvalidInputError

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS = (
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
)
_ISO_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")
# The club's own notation on its calendar page: 18.04.2026 or 01.03.26 (seed 000).
_GERMAN_DATE = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})")
_TIME = re.compile(r"(\d{1,2}):(\d{2})")
MIN_YEAR = 1900
MAX_YEAR = 2999
"""Every date the service reads (play dates, seasons, birth dates) lies in these years."""


class DeadlinePolicy(msgspec.Struct, frozen=True, kw_only=True):
    """When cancellation closes, check-in opens and play starts, as local wall-clock times."""

    # rule T-CANCEL-1: until the Thursday before the tournament, 18:00 local time.
    cancellation_weekday: int = 3
    cancellation_time: time = time(18, 0)
    # rule T-CHECKIN-1: check-in on the play date from 12:30, start at 13:00 at the latest.
    check_in_time: time = time(12, 30)
    start_time: time = time(13, 0)


class Deadlines(msgspec.Struct, frozen=True, kw_only=True):
    """A tournament's deadlines as UTC instants (rule CAL-3)."""

    cancellation_until: datetime
    check_in_opens: datetime
    starts_at: datetime


def parse_date(field: str, text: str) -> date:
    """A calendar date from ``YYYY-MM-DD`` (or the club's ``DD.MM.YYYY`` / ``DD.MM.YY``).

    rule CAL-2: a date that does not exist, such as 31.11.2026, is rejected naming the field;
    so is a year outside ``MIN_YEAR..MAX_YEAR``. A two-digit year is read as 20YY.
    """
    day, month, year, two_digit = _date_parts(field, text)
    if two_digit:
        year += 2000
    return _checked_date(field, text.strip(), year, month, day)


def parse_birth_date(field: str, text: str, play_date: date) -> date:
    """A birth date, between ``MIN_YEAR`` and the play date, in the formats of ``parse_date``.

    A two-digit year is 20YY unless that lies after the play date, then 19YY: "05.07.85" is
    05.07.1985, "05.07.08" is 05.07.2008 for a tournament in 2026.
    """
    day, month, year, two_digit = _date_parts(field, text)
    if two_digit:
        after_play = (2000 + year, month, day) > (play_date.year, play_date.month, play_date.day)
        year += 1900 if after_play else 2000
    born = _checked_date(field, text.strip(), year, month, day)
    if born > play_date:
        raise InvalidInputError(field, f"{born} lies after the play date {play_date}")
    return born


def _date_parts(field: str, text: str) -> tuple[int, int, int, bool]:
    """Day, month, year and whether the year had two digits, as written."""
    text = text.strip()
    if match := _ISO_DATE.fullmatch(text):
        year, month, day = (int(part) for part in match.groups())
        return day, month, year, False
    if match := _GERMAN_DATE.fullmatch(text):
        day, month, year = (int(part) for part in match.groups())
        return day, month, year, len(match.group(3)) == 2
    raise InvalidInputError(field, f"{text!r} is not a date; use YYYY-MM-DD")


def _checked_date(field: str, text: str, year: int, month: int, day: int) -> date:
    # Python's dates end at year 1 and 9999: deadlines computed near them would overflow.
    if not MIN_YEAR <= year <= MAX_YEAR:
        raise InvalidInputError(
            field, f"{text}: the year must lie between {MIN_YEAR} and {MAX_YEAR}, not {year}"
        )
    if not 1 <= month <= 12:
        raise InvalidInputError(field, f"{text} does not exist: there is no month {month}")
    days_in_month = calendar.monthrange(year, month)[1]
    if not 1 <= day <= days_in_month:
        raise InvalidInputError(
            field,
            f"{text} does not exist: {_MONTHS[month - 1]} {year} has {days_in_month} days",
        )
    return date(year, month, day)


def parse_time(field: str, text: str) -> time:
    """A wall-clock time from ``HH:MM`` (24-hour clock)."""
    match = _TIME.fullmatch(text.strip())
    if not match or int(match.group(1)) > 23 or int(match.group(2)) > 59:
        raise InvalidInputError(field, f"{text!r} is not a time of day; use HH:MM, e.g. 18:00")
    return time(int(match.group(1)), int(match.group(2)))


def parse_weekday(field: str, text: str) -> int:
    """Monday = 0 ... Sunday = 6, from the English name of the day."""
    name = text.strip().lower()
    if name not in WEEKDAYS:
        raise InvalidInputError(field, f"{text!r} is not a weekday; use one of {list(WEEKDAYS)}")
    return WEEKDAYS.index(name)


def weekday_before(day: date, weekday: int) -> date:
    """The last ``weekday`` strictly before ``day`` (the Thursday before a Saturday is 2 days)."""
    return day - timedelta(days=(day.weekday() - weekday - 1) % 7 + 1)


def local_instant(day: date, at: time, zone: ZoneInfo) -> datetime:
    """The UTC instant of a wall-clock time in ``zone`` (rule CAL-3: DST-aware).

    A wall time skipped when the clocks go forward is read with the offset before the change
    (it happens an hour later on the new clock); a repeated one is its first occurrence.
    """
    return datetime.combine(day, at, tzinfo=zone).astimezone(UTC)


def compute_deadlines(play_date: date, zone: ZoneInfo, policy: DeadlinePolicy) -> Deadlines:
    """Cancellation, check-in and start instants of a tournament played on ``play_date``."""
    return Deadlines(
        cancellation_until=local_instant(
            weekday_before(play_date, policy.cancellation_weekday),
            policy.cancellation_time,
            zone,
        ),
        check_in_opens=local_instant(play_date, policy.check_in_time, zone),
        starts_at=local_instant(play_date, policy.start_time, zone),
    )


def deadline_policy(
    *, cancellation_weekday: str, cancellation_time: str, check_in_time: str, start_time: str
) -> DeadlinePolicy:
    """A policy from the director's input, validated field by field."""
    policy = DeadlinePolicy(
        cancellation_weekday=parse_weekday("cancellation_weekday", cancellation_weekday),
        cancellation_time=parse_time("cancellation_time", cancellation_time),
        check_in_time=parse_time("check_in_time", check_in_time),
        start_time=parse_time("start_time", start_time),
    )
    if policy.check_in_time >= policy.start_time:
        raise InvalidInputError(
            "check_in_time",
            f"check-in must open before the start ({start_time}), not at {check_in_time}",
        )
    return policy


def age_on(birth_date: date, day: date) -> int:
    """Completed years of life on ``day`` (a 29 February birthday counts from 1 March)."""
    return day.year - birth_date.year - ((day.month, day.day) < (birth_date.month, birth_date.day))


def local_isoformat(instant: datetime, zone: ZoneInfo) -> str:
    """An instant as the club reads it, e.g. ``2026-04-16T18:00:00+02:00``."""
    return readable_isoformat(instant.astimezone(zone))


def readable_isoformat(instant: datetime) -> str:
    """An instant as people read it, to the second in its own offset
    (``2026-04-16T18:00:00+02:00``): messages, CSV cells and terminal output never show the
    microseconds that event timestamps carry (the JSON API keeps them)."""
    return instant.isoformat(timespec="seconds")

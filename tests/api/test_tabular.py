"""CSV cells as a spreadsheet reads them: text never evaluated as a formula, numbers kept,
instants to the second (issue 19, items 2 and 15)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, timezone
from uuid import UUID

import pytest

from api.http.tabular import csv_cell, csv_response

BERLIN_SUMMER = timezone(timedelta(hours=2))


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        # OWASP "CSV Injection": a text cell starting with = + - @ TAB or CR gets a leading '
        (
            '=HYPERLINK("https://evil.example","Anna")',
            '\'=HYPERLINK("https://evil.example","Anna")',
        ),
        ("+x@example.org", "'+x@example.org"),
        ("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"),
        ("@SUM(1+1)", "'@SUM(1+1)"),
        ("\t=1+1", "'\t=1+1"),
        ("\r=1+1", "'\r=1+1"),
        # text that starts harmlessly stays as it is, whatever follows
        ("Anna M.", "Anna M."),
        ("anna+bgtd@example.org", "anna+bgtd@example.org"),
        ("Jean-Luc", "Jean-Luc"),
        ("", ""),
        # numbers stay numbers: a negative number is a value, not a formula
        (-3, -3),
        (0, 0),
        (-1.5, -1.5),
        # as the JSON shows them
        (True, "true"),
        (False, "false"),
        (None, ""),
        (date(1990, 2, 28), date(1990, 2, 28)),
        (
            UUID("00000000-0000-4000-8000-000000000000"),
            UUID("00000000-0000-4000-8000-000000000000"),
        ),
        # instants to the second, in their own offset
        (
            datetime(2026, 4, 16, 18, 0, 0, 123456, tzinfo=BERLIN_SUMMER),
            "2026-04-16T18:00:00+02:00",
        ),
        (datetime(2026, 4, 16, 16, 0, 59, 999999, tzinfo=UTC), "2026-04-16T16:00:59+00:00"),
    ],
)
def test_a_cell_is_text_a_spreadsheet_shows_and_never_evaluates(
    value: object, cell: object
) -> None:
    assert csv_cell(value) == cell


@dataclass
class Row:
    display_name: str
    points: int
    checked_in_at: datetime | None


def test_the_written_csv_neutralises_text_and_keeps_negative_numbers() -> None:
    rows = [
        Row(
            "=cmd|' /C calc'!A0", -3, datetime(2026, 4, 18, 12, 30, 0, 500000, tzinfo=BERLIN_SUMMER)
        ),
        Row("Anna M.", 7, None),
    ]

    response = csv_response(rows, ("display_name", "points", "checked_in_at"))

    assert isinstance(response.content, str)
    assert response.content == (
        "display_name,points,checked_in_at\r\n"
        "'=cmd|' /C calc'!A0,-3,2026-04-18T12:30:00+02:00\r\n"
        "Anna M.,7,\r\n"
    )
    read = list(csv.reader(io.StringIO(response.content)))
    assert [row[1] for row in read[1:]] == ["-3", "7"]

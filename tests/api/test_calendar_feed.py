"""The season's iCalendar feed carries each tournament's deadlines at the right instants, also
across the change to summer time (rules P-PUB-1, CAL-3)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from icalendar import Calendar
from litestar.testing import TestClient

from tests.api.test_tournaments import CALENDAR, schedule
from tests.conftest import DIRECTOR

Client = TestClient[Any]


def season(client: Client) -> str:
    response = client.post("/api/v1/seasons", json=CALENDAR, headers=DIRECTOR)
    assert response.status_code == 201, response.text
    season_id: str = response.json()["id"]
    return season_id


def feed(client: Client, season_id: str, query: str = "") -> Calendar:
    response = client.get(f"/seasons/{season_id}/calendar.ics{query}")
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "text/calendar; charset=utf-8"
    return Calendar.from_ical(response.content)


def instants(calendar: Calendar) -> dict[str, tuple[datetime, datetime | None]]:
    """Each event's start and end in UTC, by its UID."""
    found = {}
    for event in calendar.walk("VEVENT"):
        start = event.decoded("dtstart")
        end = event.decoded("dtend") if "dtend" in event else None
        found[str(event["uid"])] = (
            start.astimezone(UTC),
            end.astimezone(UTC) if end is not None else None,
        )
    return found


def test_the_feed_carries_every_deadline_in_berlin_time_across_the_summer_time_change(
    client: Client,
) -> None:
    # rule CAL-3: summer time starts on 29 March 2026; the wall times stay, the instants move
    season_id = season(client)
    march = schedule(client, name="Märzturnier", date="2026-03-28", season_id=season_id)
    april = schedule(client, name="Aprilturnier", date="2026-04-18", season_id=season_id)
    calendar = feed(client, season_id)
    found = instants(calendar)
    assert found[f"{march['id']}-cancellation@bgtd"] == (
        datetime(2026, 3, 26, 17, 0, tzinfo=UTC),
        None,
    )
    assert found[f"{march['id']}-check-in@bgtd"] == (
        datetime(2026, 3, 28, 11, 30, tzinfo=UTC),
        datetime(2026, 3, 28, 12, 0, tzinfo=UTC),
    )
    assert found[f"{march['id']}-start@bgtd"] == (datetime(2026, 3, 28, 12, 0, tzinfo=UTC), None)
    assert found[f"{april['id']}-cancellation@bgtd"] == (
        datetime(2026, 4, 16, 16, 0, tzinfo=UTC),
        None,
    )
    assert found[f"{april['id']}-check-in@bgtd"] == (
        datetime(2026, 4, 18, 10, 30, tzinfo=UTC),
        datetime(2026, 4, 18, 11, 0, tzinfo=UTC),
    )
    assert found[f"{april['id']}-start@bgtd"] == (datetime(2026, 4, 18, 11, 0, tzinfo=UTC), None)


def test_the_feed_names_the_clubs_zone_and_the_wall_times(client: Client) -> None:
    season_id = season(client)
    schedule(client, name="Aprilturnier", date="2026-04-18", season_id=season_id)
    calendar = feed(client, season_id)
    assert [str(zone["tzid"]) for zone in calendar.walk("VTIMEZONE")] == ["Europe/Berlin"]
    start = next(e for e in calendar.walk("VEVENT") if str(e["uid"]).endswith("-start@bgtd"))
    assert start["dtstart"].params["TZID"] == "Europe/Berlin"
    assert start.decoded("dtstart").strftime("%H:%M") == "13:00"
    assert str(start["summary"]) == "Aprilturnier"
    assert "20 von 20 Plätzen frei" in str(start["description"])


def test_the_feed_speaks_english_on_request(client: Client) -> None:
    season_id = season(client)
    schedule(client, name="Aprilturnier", date="2026-04-18", season_id=season_id)
    summaries = {str(e["summary"]) for e in feed(client, season_id, "?lang=en").walk("VEVENT")}
    assert "Aprilturnier: Cancellation deadline" in summaries


def test_an_unknown_season_has_no_feed(client: Client) -> None:
    response = client.get("/seasons/00000000-0000-4000-8000-000000000000/calendar.ics")
    assert response.status_code == 404

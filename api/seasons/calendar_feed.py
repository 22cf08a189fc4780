"""The season's iCalendar feed: each tournament with its deadlines, in the club's time zone
(rules P-PUB-1, CAL-3). A calendar app subscribes to it once and follows every change."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from icalendar import Calendar, Event
from litestar import Controller, Request, Response
from litestar.params import FromPath

from api.http.routes import get_route
from api.http.schemas import ServicesDep
from api.pages.pages import Lang, language, text
from service.bootstrap import Services
from service.registration.tournaments import TournamentView

CALENDAR_MEDIA_TYPE = "text/calendar"
"""Litestar adds ``; charset=utf-8`` to a text type."""


def season_calendar(services: Services, season_id: UUID, lang: Lang, base_url: str) -> Calendar:
    season = services.seasons.get_season(season_id)
    words = text(lang)
    feed = Calendar()
    feed.add("prodid", "-//bgtd//backgammon tournament director//DE")
    feed.add("version", "2.0")
    feed.add("calscale", "GREGORIAN")
    feed.add("x-wr-calname", season.name)
    feed.add("x-wr-timezone", services.settings.timezone)
    now = services.clock.now()
    for tournament in services.tournaments.list_tournaments(season_id):
        for event in _tournament_events(tournament, words, now, base_url):
            feed.add_component(event)
    # one VTIMEZONE for Europe/Berlin: the deadlines keep their wall time across the
    # summer-time change
    feed.add_missing_timezones()
    return feed


def _tournament_events(
    tournament: TournamentView, words: dict[str, str], now: datetime, base_url: str
) -> list[Event]:
    row, deadlines = tournament.row, tournament.deadlines
    page = f"{base_url}/pages/tournaments/{row.id}"
    seats = tournament.seats
    begun = tournament.status in ("running", "completed", "final")  # free seats no longer matter
    free = "" if begun else words["seats_free"].format(free=seats.free, capacity=seats.capacity)

    def event(kind: str, summary: str, start: datetime, end: datetime | None) -> Event:
        each = Event()
        each.add("uid", f"{row.id}-{kind}@bgtd")
        each.add("dtstamp", now)
        each.add("summary", summary)
        each.add("dtstart", start)
        if end is not None:
            each.add("dtend", end)
        each.add("location", row.venue)
        each.add("url", page)
        each.add("description", "\n".join(line for line in (row.name, free, page) if line))
        return each

    return [
        event(
            "cancellation",
            f"{row.name}: {words['cancellation_until']}",
            deadlines.cancellation_until,
            None,
        ),
        event(
            "check-in",
            f"{row.name}: {words['check_in']}",
            deadlines.check_in_opens,
            deadlines.starts_at,
        ),
        event("start", row.name, deadlines.starts_at, None),
    ]


class CalendarFeedController(Controller):
    tags = ["live"]  # noqa: RUF012

    @get_route(
        "/seasons/{season_id:uuid}/calendar.ics",
        summary="iCalendar feed: the season's tournaments with their deadlines",
        description="Per tournament: the cancellation deadline, the check-in (until the start) "
        "and the start, in the club's time zone. German; `?lang=en` for English.",
        media_type=CALENDAR_MEDIA_TYPE,
    )
    def calendar(
        self, season_id: FromPath[UUID], request: Request[Any, Any, Any], services: ServicesDep
    ) -> Response[bytes]:
        base_url = str(request.base_url).rstrip("/")
        feed = season_calendar(services, season_id, language(request), base_url)
        return Response(
            feed.to_ical(),
            media_type=CALENDAR_MEDIA_TYPE,
            headers={"Content-Disposition": 'inline; filename="calendar.ics"'},
        )

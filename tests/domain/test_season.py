"""The season aggregate: the club's calendar periods (rules CAL-1, CAL-2)."""

from __future__ import annotations

from datetime import UTC, date, datetime
from uuid import UUID

import pytest

from domain.errors import InvalidInputError
from domain.events import fold
from domain.seasons.season import (
    CalendarPeriodAdded,
    PeriodInput,
    Season,
    SeasonCreated,
    SeasonNotFoundError,
    add_period,
    check_play_date,
    create_season,
    evolve,
)
from domain.text import MAX_NAME_LENGTH
from domain.tournament import TournamentCompleted

SEASON = UUID("00000000-0000-4000-8000-00000000005e")
NOW = datetime(2026, 2, 1, 12, 0, tzinfo=UTC)
# The club's calendar (seed 000), with the autumn's impossible "31.11.26" corrected.
SPRING = PeriodInput("Frühlingsturnier 2026", "tournament", "01.03.26", "31.05.26")
SUMMER = PeriodInput("Sommerpause 2026", "break", "01.06.26", "31.08.26")
AUTUMN = PeriodInput("Herbstturnier 2026", "tournament", "01.09.26", "30.11.26")
WINTER = PeriodInput("Winterturnier 2026", "tournament", "01.12.26", "28.02.27")


def season(*periods: PeriodInput) -> Season:
    state = fold(
        evolve,
        None,
        create_season(
            SEASON,
            name="Saison 2026",
            starts_on="2026-03-01",
            ends_on="2027-02-28",
            periods=periods,
            now=NOW,
            actor="director",
        ),
    )
    assert state is not None
    return state


def test_the_clubs_calendar_is_recorded_period_by_period() -> None:
    # rule CAL-1: spring, summer break, autumn, winter crossing the year end
    events = create_season(
        SEASON,
        name="Saison 2026",
        starts_on="2026-03-01",
        ends_on="2027-02-28",
        periods=[SPRING, SUMMER, AUTUMN, WINTER],
        now=NOW,
        actor="director",
    )
    assert isinstance(events[0], SeasonCreated)
    assert [type(e) for e in events[1:]] == [CalendarPeriodAdded] * 4
    assert [e.originator_version for e in events] == [1, 2, 3, 4, 5]
    winter = events[-1]
    assert isinstance(winter, CalendarPeriodAdded)
    assert (winter.starts_on, winter.ends_on) == (date(2026, 12, 1), date(2027, 2, 28))


def test_the_seeds_november_31st_is_rejected_naming_the_period_field() -> None:
    # rule CAL-2: the seed's own calendar says "31.11.26"
    with pytest.raises(InvalidInputError) as raised:
        season(
            SPRING, SUMMER, PeriodInput("Herbstturnier 2026", "tournament", "01.09.26", "31.11.26")
        )
    assert raised.value.field == "periods[2].ends_on"
    assert raised.value.message == "31.11.26 does not exist: November 2026 has 30 days"


@pytest.mark.parametrize(
    ("period", "field"),
    [
        (PeriodInput("Mai", "tournament", "01.05.26", "15.06.26"), "starts_on"),  # overlaps
        (PeriodInput("Vorher", "tournament", "01.01.26", "28.02.26"), "starts_on"),  # outside
        (PeriodInput("Später", "tournament", "01.02.27", "31.03.27"), "ends_on"),  # outside
        (PeriodInput("Sommerpause 2026", "break", "01.09.26", "02.09.26"), "name"),  # twice
        (PeriodInput("Rückwärts", "tournament", "30.11.26", "01.09.26"), "ends_on"),
        (PeriodInput("Sommer", "holiday", "01.09.26", "02.09.26"), "kind"),
    ],
)
def test_a_period_must_fit_into_the_season_without_overlap(period: PeriodInput, field: str) -> None:
    with pytest.raises(InvalidInputError) as raised:
        add_period(season(SPRING, SUMMER), period, now=NOW, actor="director")
    assert raised.value.field == field


def test_a_play_date_must_lie_in_a_tournament_period() -> None:
    # rule CAL-1
    calendar = season(SPRING, SUMMER, AUTUMN, WINTER)
    assert check_play_date(calendar, date(2026, 4, 18), "date") == calendar.periods[0]
    assert check_play_date(calendar, date(2027, 1, 9), "date") == calendar.periods[3]
    with pytest.raises(InvalidInputError, match="Sommerpause 2026"):
        check_play_date(calendar, date(2026, 7, 4), "date")
    with pytest.raises(InvalidInputError, match="outside the season"):
        check_play_date(calendar, date(2027, 3, 6), "date")


def test_a_season_without_periods_accepts_any_date_inside_it() -> None:
    assert check_play_date(season(), date(2026, 7, 4), "date") is None


def test_a_season_must_not_end_before_it_starts() -> None:
    with pytest.raises(InvalidInputError) as raised:
        create_season(
            SEASON, name="X", starts_on="2026-03-01", ends_on="2026-02-01", now=NOW, actor="d"
        )
    assert raised.value.field == "ends_on"


def test_a_stream_that_does_not_start_with_the_season_is_not_found() -> None:
    period = CalendarPeriodAdded(
        originator_id=SEASON,
        originator_version=1,
        timestamp=NOW,
        name="Frühlingsturnier 2026",
        kind="tournament",
        starts_on=date(2026, 3, 1),
        ends_on=date(2026, 5, 31),
    )
    with pytest.raises(SeasonNotFoundError):
        evolve(None, period)


def test_a_foreign_event_on_an_existing_season_is_a_type_error_not_a_missing_season() -> None:
    # the season exists: an event it does not know is a programming error, not a 404
    foreign = TournamentCompleted(originator_id=SEASON, originator_version=2, timestamp=NOW)
    with pytest.raises(TypeError, match="not a season event: TournamentCompleted"):
        evolve(season(), foreign)  # type: ignore[arg-type]


@pytest.mark.parametrize("field", ["name", "periods[0].name"])
def test_season_and_period_names_are_tidied_and_bounded(field: str) -> None:
    # one helper (domain.text.one_line) for every name the director types
    long = "x" * (MAX_NAME_LENGTH + 1)
    periods = (
        [PeriodInput(long, "tournament", "01.03.26", "31.05.26")] if "periods" in field else []
    )
    with pytest.raises(InvalidInputError) as raised:
        create_season(
            SEASON,
            name="Saison" if periods else long,
            starts_on="2026-03-01",
            ends_on="2027-02-28",
            periods=periods,
            now=NOW,
            actor="director",
        )
    assert raised.value.field == field
    assert raised.value.message == f"at most {MAX_NAME_LENGTH} characters"
    [created] = create_season(
        SEASON,
        name="  Saison   2026 ",  # rule T-REG-5: plain spaces are tidied (a tab is refused)
        starts_on="2026-03-01",
        ends_on="2026-12-31",
        now=NOW,
        actor="d",
    )
    assert isinstance(created, SeasonCreated)
    assert created.name == "Saison 2026"
